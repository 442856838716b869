import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock time of whole processes, started with posix_spawn (standard output and error
/// to /dev/null) and waited for.
enum ProcessTimer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Milliseconds of each of `runs` runs of `executable arguments`, sorted, after one
    /// untimed warm-up run. Fails when a run exits non-zero.
    static func times(_ executable: String, _ arguments: [String], runs: Int) throws -> [Double] {
        try once(executable, arguments)
        return try (0..<runs).map { _ in try once(executable, arguments) }.sorted()
    }

    @discardableResult
    private static func once(_ executable: String, _ arguments: [String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid: \(String(cString: strerror(errno)))") }
        }
        let elapsed = started.duration(to: .now).milliseconds
        guard status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        return elapsed
    }
}
