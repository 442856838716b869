/// What became of one job: a line of `--results` (JSON Lines).
public struct BatchJobResult: Codable, Sendable {
    public enum Status: String, Codable, Sendable {
        /// The image was written.
        case ok
        /// Not rendered: the output already existed (`--resume`).
        case skipped
        case failed
    }

    /// The job's `id` (default: its output), or its manifest position for an unreadable row.
    public var id: String
    /// Where the row is in the manifest (`file:line` or `file: row N`).
    public var row: String
    public var output: String?
    public var status: Status
    /// Wall time of the job.
    public var ms: Double
    /// Tiles drawn, over all layers.
    public var tiles: Int
    /// Tiles this job decoded (the rest came from the shared tile store).
    public var tilesDecoded: Int
    /// Missing tiles drawn from an ancestor or from descendants.
    public var fallbacks: Int
    /// The render's warnings (tile problems, absent tiles, skipped layers).
    public var warnings: [String]
    public var error: String?
}
