import Foundation
import MapComposeTestSupport

/// Runs the built `mapcompose` binary and captures what it prints.
struct CLIRunner {
    struct Outcome {
        let status: Int32
        let reason: Process.TerminationReason
        let stdoutData: Data
        let stderr: String

        var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    static var binary: URL { TestPaths.productsFolder.appendingPathComponent("mapcompose") }

    static func run(_ arguments: [String], in folder: URL, environment: [String: String]? = nil) throws -> Outcome {
        try start(arguments, in: folder, environment: environment).finish()
    }

    /// This process's environment with the world basemap `MAPCOMPOSE_BASEMAP` (`none`: off).
    static func environment(basemap: String = "none") -> [String: String] {
        var result = ProcessInfo.processInfo.environment
        result["MAPCOMPOSE_BASEMAP"] = basemap
        return result
    }

    /// Runs `mapcompose` through `/bin/sh` with the file size limit set to `blocks` (of 512
    /// or 1024 bytes) and SIGXFSZ ignored, so writes past the limit fail with EFBIG.
    static func run(_ arguments: [String], in folder: URL, fileSizeLimitBlocks blocks: Int) throws -> Outcome {
        try run(arguments, in: folder, shellLimits: "ulimit -f \(blocks); trap '' XFSZ")
    }

    /// Runs `mapcompose` through `/bin/sh` with its address space limited to `kilobytes`:
    /// an allocation past it fails.
    static func run(_ arguments: [String], in folder: URL, addressSpaceLimitKB kilobytes: Int) throws -> Outcome {
        try run(arguments, in: folder, shellLimits: "ulimit -v \(kilobytes)")
    }

    private static func run(_ arguments: [String], in folder: URL, shellLimits: String) throws -> Outcome {
        try Running(executable: URL(fileURLWithPath: "/bin/sh"),
                    arguments: ["-c", "\(shellLimits); exec \"$0\" \"$@\"", binary.path] + arguments,
                    in: folder).finish()
    }

    /// The files `arguments` write in `folder` as `all.png`, run as it is, and as `one.png`, run
    /// held to one core by `taskset -c 0`; both runs must succeed. For maps that must be the same
    /// file whatever the cores.
    static func filesOnAllCoresAndOne(_ arguments: [String], in folder: URL) throws -> (all: Data, one: Data) {
        let all = try run(arguments + ["all.png"], in: folder)
        let one = try Running(executable: URL(fileURLWithPath: "/usr/bin/taskset"),
                              arguments: ["-c", "0", binary.path] + arguments + ["one.png"], in: folder).finish()
        guard all.status == 0, one.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(all.stderr)\(one.stderr)"])
        }
        return (try Data(contentsOf: folder.appendingPathComponent("all.png")),
                try Data(contentsOf: folder.appendingPathComponent("one.png")))
    }

    /// Starts `mapcompose` without waiting for it.
    static func start(_ arguments: [String], in folder: URL, environment: [String: String]? = nil) throws -> Running {
        try Running(executable: binary, arguments: arguments, in: folder, environment: environment)
    }

    /// A started process whose output is collected while it runs (each buffer is written by
    /// one reader and read only after `collected` says both readers are done).
    final class Running: @unchecked Sendable {
        let process = Process()
        private let out = Pipe(), err = Pipe()
        private let collected = DispatchGroup()
        private var outData = Data(), errData = Data()

        /// With `environment`, the process gets those variables instead of this one's; without,
        /// this one's with the world basemap off (`MAPCOMPOSE_BASEMAP=none`), so an installed
        /// basemap changes no test.
        init(executable: URL, arguments: [String], in folder: URL, environment: [String: String]? = nil) throws {
            process.executableURL = executable
            process.environment = environment ?? CLIRunner.environment()
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.standardOutput = out
            process.standardError = err
            try process.run()
            for (pipe, isOut) in [(out, true), (err, false)] {
                DispatchQueue.global().async(group: collected) { [self] in
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    if isOut { outData = data } else { errData = data }
                }
            }
        }

        /// Waits for the process to end and returns what it printed.
        func finish() -> Outcome {
            collected.wait()
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, reason: process.terminationReason,
                           stdoutData: outData, stderr: String(decoding: errData, as: UTF8.self))
        }
    }

    /// Names in `folder`, hidden ones included (to catch stray temporary files).
    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
