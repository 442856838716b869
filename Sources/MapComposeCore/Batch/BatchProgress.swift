/// Counters of a running batch, handed to the progress display after every job.
public struct BatchProgress: Sendable {
    /// Jobs of this shard in the manifest; nil when the manifest is read from a pipe, which is
    /// read once and cannot be counted first.
    public var total: Int?
    /// Images written.
    public var written = 0
    /// Outputs that already existed (`--resume`).
    public var skipped = 0
    public var failed = 0
    /// Tiles decoded by the written jobs.
    public var tilesDecoded = 0
    /// Seconds since the batch started.
    public var elapsed = 0.0

    public init(total: Int?) {
        self.total = total
    }

    /// Jobs finished one way or another.
    public var done: Int { written + skipped + failed }

    /// Images written per second so far.
    public var mapsPerSecond: Double { elapsed > 0 ? Double(written) / elapsed : 0 }

    /// Seconds left at the rate so far, or nil before there is a rate or without a total.
    public var secondsLeft: Double? {
        let rate = Double(written + failed) / max(elapsed, 1e-9)
        guard let total, done > 0, rate > 0 else { return nil }
        return Double(max(0, total - done)) / rate
    }
}
