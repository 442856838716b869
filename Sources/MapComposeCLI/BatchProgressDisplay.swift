import Foundation
import MapComposeCore
import Synchronization

/// Shows a batch's progress on standard error: a bar redrawn in place on a terminal
/// (done/total, maps/s, ETA, failures), else a plain line every few seconds. A manifest read
/// from a pipe has no total: the count reads `done/?` and the bar stays empty.
final class BatchProgressDisplay: Sendable {
    private let isTerminal: Bool
    private let interval: Double
    private let last = Mutex<Double>(-1)

    init(isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.isTerminal = isTerminal
        interval = isTerminal ? 0.1 : 5
    }

    /// Called after each job; draws when the interval has passed, and always for the last job.
    func update(_ progress: BatchProgress) {
        let due = last.withLock { last in
            guard progress.done == progress.total || progress.elapsed - last >= interval else { return false }
            last = progress.elapsed
            return true
        }
        guard due else { return }
        let text = isTerminal ? bar(progress) : "batch: " + counts(progress)
        FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + text : text + "\n").utf8))
    }

    /// Ends the bar's line before the summary.
    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func bar(_ progress: BatchProgress) -> String {
        let width = 30
        let filled = progress.total.map { $0 > 0 ? width * min(progress.done, $0) / $0 : width } ?? 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] " + counts(progress)
    }

    private func counts(_ progress: BatchProgress) -> String {
        let total = progress.total.map(String.init) ?? "? (total unknown: the manifest is read as it comes)"
        var parts = ["\(progress.done)/\(total)", String(format: "%.1f maps/s", progress.mapsPerSecond)]
        if let left = progress.secondsLeft, let all = progress.total, progress.done < all {
            let seconds = Int(left.rounded())
            parts.append(String(format: "ETA %d:%02d", seconds / 60, seconds % 60))
        }
        if progress.failed > 0 { parts.append("\(progress.failed) failed") }
        return parts.joined(separator: "  ")
    }
}
