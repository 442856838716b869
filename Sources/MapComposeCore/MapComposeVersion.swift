/// The version of mapcompose (the library and the command).
public enum MapComposeVersion {
    public static let current = "0.2.0"
}
