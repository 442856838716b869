/// A deterministic share of a manifest: shard K of N takes the jobs whose position in the
/// manifest (counting bad rows too) is K−1 modulo N, so N processes given 1/N…N/N together
/// run every job exactly once, whatever order they run in.
public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
    /// 1…count
    public let index: Int
    public let count: Int

    /// The whole manifest.
    public static let all = BatchShard(uncheckedIndex: 1, count: 1)

    private init(uncheckedIndex: Int, count: Int) {
        index = uncheckedIndex
        self.count = count
    }

    /// Reads `K/N` with 1 ≤ K ≤ N ≤ 1 000 000.
    public init(_ text: String) throws(ManifestError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let k = parts[0], let n = parts[1], n >= 1, n <= 1_000_000, (1...n).contains(k) else {
            throw ManifestError("shard '\(text)': expected K/N with 1 ≤ K ≤ N, e.g. 2/3 (the Kubernetes "
                                + "JOB_COMPLETION_INDEX + 1, or SLURM_ARRAY_TASK_ID)")
        }
        self.init(uncheckedIndex: k, count: n)
    }

    /// Whether the job at `ordinal` (0 for the manifest's first) is this shard's.
    public func contains(_ ordinal: Int) -> Bool { ordinal % count == index - 1 }

    public var description: String { "\(index)/\(count)" }
}
