import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The temporary files this process has not yet renamed into place, kept where a signal
/// handler can remove them: paths are copied into fixed buffers allocated once, and each
/// slot's state is an atomic, so the handler only loads atomics and calls `unlink` and
/// `_exit`, which are async-signal-safe.
///
/// `removeOnTermination()` installs handlers for SIGINT, SIGTERM and SIGHUP that remove the
/// pending files and exit with 128 + the signal number (130, 143, 129), and an `atexit`
/// hook that removes them when the process exits while files are still pending. Other threads
/// go on while a handler runs: a temporary file is made between `beginCreating` and
/// `endCreating`, which the handler waits for, and none is begun once the handler has started.
/// It also waits for a commit held open by a `CommitHold` (a batch job between its image's
/// rename and its results line), and none is begun after it.
public enum PendingFileRegistry {
    /// How many temporary files can be pending at once and still be removed on a signal.
    public static let capacity = 64

    private static let pathCapacity = Int(PATH_MAX) + 1
    private static let free = 0, claimed = 1, active = 2

    /// Never freed: a signal handler may read them at any moment. From calloc, which hands
    /// out a buffer this size as fresh zero pages: filling 256 KiB with zeros would fault in
    /// every page at start-up, for slots most runs never use.
    private nonisolated(unsafe) static let paths: UnsafeMutablePointer<CChar> = {
        guard let buffer = calloc(capacity * pathCapacity, 1) else { fatalError("out of memory at start-up") }
        return buffer.bindMemory(to: CChar.self, capacity: capacity * pathCapacity)
    }()

    private nonisolated(unsafe) static let states: UnsafeMutablePointer<Atomic<Int>> = {
        let states = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for index in 0..<capacity { (states + index).initialize(to: Atomic(free)) }
        return states
    }()

    /// Where the search for a free slot starts, so a slot just released is reused last.
    private static let cursor = Atomic<Int>(0)

    private static let installed = Atomic<Bool>(false)

    /// Set by a terminating signal's handler: no temporary file is begun after it.
    private static let terminating = Atomic<Bool>(false)

    /// Temporary files being made (between `beginCreating` and `endCreating`).
    private static let creating = Atomic<Int>(0)

    /// How long a handler waits for files being made on other threads, in nanoseconds (one
    /// that the handler's own thread was making when the signal came would never be done).
    static let creationWait: Int64 = 100_000_000

    /// Commits being finished: an output renamed into place whose bookkeeping (a batch's
    /// results line) is not written yet. A handler waits for them, at most `holdWait`.
    private static let holding = Atomic<Int>(0)

    /// How long a handler waits for held commits, in nanoseconds.
    static let holdWait: Int64 = 2_000_000_000

    /// Set for a task whose output files' commits must not be cut off from what follows them:
    /// the first commit begins the hold, and `CommitHold.end` ends it (see `holding`).
    @TaskLocal public static var commitHold: CommitHold?

    /// Keeps a terminating signal's handler from ending the process between an output's rename
    /// and the lines that record it. Begun by the first commit of the task it is set for.
    public final class CommitHold: Sendable {
        private let held = Atomic<Bool>(false)

        public init() {}

        /// Called before a rename: once a handler has started, never returns (as `beginCreating`).
        func begin() {
            guard !held.exchange(true, ordering: .sequentiallyConsistent) else { return }
            PendingFileRegistry.holding.add(1, ordering: .sequentiallyConsistent)
            guard PendingFileRegistry.terminating.load(ordering: .sequentiallyConsistent) else { return }
            PendingFileRegistry.holding.subtract(1, ordering: .sequentiallyConsistent)
            while true { pause() }
        }

        /// The commit and its bookkeeping are done (nothing when no commit began the hold).
        public func end() {
            guard held.exchange(false, ordering: .sequentiallyConsistent) else { return }
            PendingFileRegistry.holding.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// A registered path; pass it back to `unregister`.
    public struct Token: Sendable {
        fileprivate let slot: Int?
    }

    /// Records `path` for removal on a signal or exit. A path too long for the buffers, or
    /// one more than `capacity`, is not recorded (the file is still removed by `discard`).
    public static func register(_ path: String) -> Token {
        let bytes = Array(path.utf8)
        guard bytes.count < pathCapacity, !bytes.contains(0) else { return Token(slot: nil) }
        let start = cursor.add(1, ordering: .relaxed).newValue
        for step in 0..<capacity {
            let slot = (start + step) % capacity
            guard states[slot].compareExchange(expected: free, desired: claimed, ordering: .acquiring).exchanged else {
                continue
            }
            let buffer = paths + slot * pathCapacity
            bytes.withUnsafeBufferPointer { source in
                buffer.withMemoryRebound(to: UInt8.self, capacity: pathCapacity) { target in
                    target.update(from: source.baseAddress!, count: source.count)
                    target[source.count] = 0
                }
            }
            states[slot].store(active, ordering: .releasing)
            return Token(slot: slot)
        }
        return Token(slot: nil)
    }

    /// Called before a temporary file is registered and made: once a terminating signal's
    /// handler has started, it never returns (the process is ending), so no file is made that
    /// the handler would miss. Pair with `endCreating` once the file exists and is registered
    /// (or could not be made).
    public static func beginCreating() {
        creating.add(1, ordering: .sequentiallyConsistent)
        guard terminating.load(ordering: .sequentiallyConsistent) else { return }
        creating.subtract(1, ordering: .sequentiallyConsistent)
        while true { pause() }
    }

    /// The temporary file begun with `beginCreating` is made (or failed) and registered.
    public static func endCreating() {
        creating.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Forgets a path once its file has been renamed into place or removed.
    public static func unregister(_ token: Token) {
        guard let slot = token.slot else { return }
        states[slot].store(free, ordering: .releasing)
    }

    /// The paths currently recorded.
    public static var pendingPaths: [String] {
        (0..<capacity).compactMap { slot in
            states[slot].load(ordering: .acquiring) == active ? String(cString: paths + slot * pathCapacity) : nil
        }
    }

    /// Removes every recorded file, as the `atexit` hook does: for a process that ends
    /// without running exit handlers (see `CommandProcess.finish`).
    public static func removePending() {
        removeAll()
    }

    /// Removes every recorded file (whose path starts with `prefix`, if given: tests remove
    /// only their own). Async-signal-safe.
    static func removeAll(under prefix: UnsafePointer<CChar>? = nil) {
        for slot in 0..<capacity where states[slot].load(ordering: .acquiring) == active {
            let path = paths + slot * pathCapacity
            if let prefix, !startsWith(path, prefix) { continue }
            unlink(path)
        }
    }

    /// Waits (at most `creationWait`) until no temporary file is being made on another thread,
    /// then removes the recorded files as `removeAll` does. Async-signal-safe.
    static func removeAllOnceMade(under prefix: UnsafePointer<CChar>? = nil) {
        let deadline = monotonicNanoseconds() + creationWait
        while creating.load(ordering: .sequentiallyConsistent) > 0, monotonicNanoseconds() < deadline {}
        removeAll(under: prefix)
    }

    /// Waits (at most `holdWait`) for held commits to finish. Async-signal-safe.
    static func waitForHeldCommits() {
        let deadline = monotonicNanoseconds() + holdWait
        while holding.load(ordering: .sequentiallyConsistent) > 0, monotonicNanoseconds() < deadline {}
    }

    /// Byte by byte, so that nothing but loads runs in a handler.
    private static func startsWith(_ string: UnsafePointer<CChar>, _ prefix: UnsafePointer<CChar>) -> Bool {
        var index = 0
        while prefix[index] != 0 {
            if string[index] != prefix[index] { return false }
            index += 1
        }
        return true
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Installs the SIGINT/SIGTERM/SIGHUP handlers and the exit hook (once per process).
    public static func removeOnTermination() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Touch the lazily made buffers now, never for the first time inside a handler.
        _ = paths
        _ = states
        atexit { PendingFileRegistry.removeAll() }
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                PendingFileRegistry.terminating.store(true, ordering: .sequentiallyConsistent)
                PendingFileRegistry.waitForHeldCommits()
                PendingFileRegistry.removeAllOnceMade()
                _exit(128 + signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }
}
