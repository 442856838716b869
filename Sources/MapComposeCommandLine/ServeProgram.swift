/// The server program, `mapcompose-serve`, which `mapcompose serve` runs in its place.
public enum ServeProgram {
    /// Its file name, beside `mapcompose`.
    public static let fileName = "mapcompose-serve"
    /// What it does, in `mapcompose --help` and its own help.
    public static let abstract = "Serve static maps, XYZ tiles and TileJSON of styles over HTTP (see docs/serve.md)."
}
