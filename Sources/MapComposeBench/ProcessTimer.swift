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
        try inOrder(executable, arguments, runs: runs).map(\.wall).sorted()
    }

    /// Wall and CPU milliseconds of each of `runs` runs, in the order they ran, after one
    /// untimed warm-up run.
    static func inOrder(_ executable: String, _ arguments: [String], runs: Int) throws -> [(wall: Double, cpu: Double)] {
        try once(executable, arguments)
        return try (0..<runs).map { _ in try once(executable, arguments) }
    }

    /// Wall and CPU milliseconds of `runs` runs of each of two commands, in turn (first,
    /// second, first, …), after one untimed warm-up run of each, first then second.
    static func inTurn(_ first: (executable: String, arguments: [String]), _ second: (executable: String, arguments: [String]),
                       runs: Int) throws -> ([(wall: Double, cpu: Double)], [(wall: Double, cpu: Double)]) {
        try once(first.executable, first.arguments)
        try once(second.executable, second.arguments)
        var firsts: [(wall: Double, cpu: Double)] = [], seconds: [(wall: Double, cpu: Double)] = []
        for _ in 0..<runs {
            firsts.append(try once(first.executable, first.arguments))
            seconds.append(try once(second.executable, second.arguments))
        }
        return (firsts, seconds)
    }

    @discardableResult
    private static func once(_ executable: String, _ arguments: [String]) throws -> (wall: Double, cpu: Double) {
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
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "wait4: \(String(cString: strerror(errno)))") }
        }
        let elapsed = started.duration(to: .now).milliseconds
        guard status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        return (elapsed, milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime))
    }

    static func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }

    /// CPU milliseconds (user + system, all threads) this process spends in `body`.
    static func cpu(_ body: () throws -> Void) rethrows -> Double {
        var before = rusage(), after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        try body()
        getrusage(RUSAGE_SELF.rawValue, &after)
        return milliseconds(after.ru_utime) - milliseconds(before.ru_utime) + milliseconds(after.ru_stime) - milliseconds(before.ru_stime)
    }
}
