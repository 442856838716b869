/// The version of mapcompose (the library and the command).
public enum MapComposeVersion {
    public static let current = "0.3.0"
    /// Where the project lives; named in the default HTTP `User-Agent`.
    public static let projectURL = "https://github.com/mapcompose/mapcompose"
}
