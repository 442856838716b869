import Foundation
import MapComposeTestSupport
import Testing

/// Manifests and rows from others: read once from pipes, refused when endless or not UTF-8,
/// outputs that would overwrite inputs or each other, styles outside the manifest's folder,
/// and the results file after an interruption.
@Suite struct BatchInputTests {
    /// A job of the built-in style, writing `output`.
    static func row(_ output: String, extra: String = "") -> String {
        "{\"output\": \"\(output)\", \"center\": \"0,0\", \"zoom\": 1, \"size\": \"16x16\"\(extra)}"
    }

    /// Runs `mapcompose` through `/bin/sh -c script`, the binary as `$0`.
    static func shell(_ script: String, in folder: URL) throws -> CLIRunner.Outcome {
        try CLIRunner.Running(executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, CLIRunner.binary.path], in: folder).finish()
    }

    /// Waits at most `seconds` for the process; one still running then is killed (and reported).
    static func finish(_ running: CLIRunner.Running, within seconds: Double) -> CLIRunner.Outcome? {
        let deadline = Date().addingTimeInterval(seconds)
        while running.process.isRunning, Date() < deadline { usleep(20_000) }
        guard !running.process.isRunning else {
            running.process.terminate()
            _ = running.finish()
            return nil
        }
        return running.finish()
    }

    @Test("a manifest from a pipe is read once", arguments: ["/dev/stdin", "-"])
    func manifestFromAPipe(_ name: String) throws {
        let folder = try TemporaryFolder()
        try folder.write([Self.row("a.png"), Self.row("b.png")].joined(separator: "\n") + "\n", to: "m.jsonl")
        let run = try Self.shell("cat m.jsonl | \"$0\" batch \(name) --out o", in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("2 written, 0 already done, 0 failed of 2 jobs"), "\(run.stderr)")
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("o")) == ["a.png", "b.png"])
    }

    @Test func aNamedPipeIsReadOnce() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("m.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let running = try CLIRunner.start(["batch", "m.jsonl", "--out", "o"], in: folder.url)
        let manifest = Data(([Self.row("a.png"), Self.row("b.png")].joined(separator: "\n") + "\n").utf8)
        DispatchQueue.global().async {
            guard let writer = FileHandle(forWritingAtPath: fifo) else { return }
            writer.write(manifest)
            try? writer.close()
        }
        let run = try #require(Self.finish(running, within: 60), "batch of a named pipe must end")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("2 written, 0 already done, 0 failed of 2 jobs"), "\(run.stderr)")
    }

    @Test func endlessInputIsRefusedByTheLineBound() throws {
        let folder = try TemporaryFolder()
        let running = try CLIRunner.start(["batch", "/dev/zero", "--out", "o"], in: folder.url)
        let run = try #require(Self.finish(running, within: 60), "batch /dev/zero must end")
        #expect(run.status == 2)
        #expect(run.stderrLines.first?.hasPrefix("error: /dev/zero:1: NUL bytes") == true, "\(run.stderr)")
        try folder.write(String(repeating: "x", count: 3 << 20), to: "long.jsonl")
        let long = try CLIRunner.run(["batch", "long.jsonl", "--out", "o"], in: folder.url)
        #expect(long.status == 2)
        #expect(long.stderr.contains("error: long.jsonl:1: line longer than 1 MiB"), "\(long.stderr)")
    }

    @Test func aUTF16ManifestExits2() throws {
        let folder = try TemporaryFolder()
        var data = Data([0xFF, 0xFE])
        data.append(try #require((Self.row("a.png") + "\n").data(using: .utf16LittleEndian)))
        try folder.write(data, to: "m.jsonl")
        let run = try CLIRunner.run(["batch", "m.jsonl", "--out", "o"], in: folder.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("the manifest must be UTF-8 text"), "\(run.stderr)")
    }

    @Test func rowMessagesNameTheirOwnValues() throws {
        let folder = try TemporaryFolder()
        try folder.write("layers: 5\n", to: "bad.yaml")
        try folder.write([Self.row("a.png", extra: ", \"zoom\": 1e400").replacingOccurrences(of: "\"zoom\": 1, ", with: ""),
                          Self.row("b.png", extra: ", \"style\": \"bad.yaml\""),
                          Self.row("c.png", extra: ", \"style\": \"./bad.yaml\"")].joined(separator: "\n"), to: "m.jsonl")
        let run = try CLIRunner.run(["batch", "m.jsonl", "--out", "o"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("m.jsonl:1 (1): 'zoom': a number out of range"), "\(run.stderr)")
        #expect(run.stderr.contains("m.jsonl:2 (b.png): style 'bad.yaml': "), "\(run.stderr)")
        #expect(run.stderr.contains("m.jsonl:3 (c.png): style './bad.yaml': "), "\(run.stderr)")
    }

    @Test func resumeCountsOnlyNonEmptyRegularFilesAsDone() throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        let out = folder.url.appendingPathComponent("o")
        try manager.createDirectory(at: out.appendingPathComponent("folder.png"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: out.appendingPathComponent("dangling.png").path, withDestinationPath: "gone.png")
        try folder.write("", to: "o/empty.png")
        try folder.write([Self.row("folder.png"), Self.row("dangling.png"), Self.row("empty.png")].joined(separator: "\n"),
                         to: "m.jsonl")
        let run = try CLIRunner.run(["batch", "m.jsonl", "--out", "o", "--resume"], in: folder.url)
        #expect(run.stderr.contains("2 written, 0 already done, 1 failed of 3 jobs"), "\(run.stderr)")
        #expect(run.stderr.contains("(folder.png): cannot write 'o/folder.png': it is a folder"), "\(run.stderr)")
        #expect(manager.fileExists(atPath: out.appendingPathComponent("gone.png").path))
    }

    @Test func duplicateOutputsAndNULsFailTheirRows() throws {
        let folder = try TemporaryFolder()
        try folder.write([Self.row("same.png"), Self.row("./same.png"), Self.row(".//same.png"),
                          Self.row("ctl\\u0000nul.png")].joined(separator: "\n"), to: "m.jsonl")
        let run = try CLIRunner.run(["batch", "m.jsonl", "--out", "o", "--jobs", "2"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("1 written, 0 already done, 3 failed of 4 jobs"), "\(run.stderr)")
        #expect(run.stderr.contains("m.jsonl:2 (./same.png): output './same.png': it is also the output of m.jsonl:1"),
                "\(run.stderr)")
        #expect(run.stderr.contains("m.jsonl:3 (.//same.png): output './/same.png': it is also the output of m.jsonl:1"),
                "\(run.stderr)")
        #expect(run.stderr.contains("the path holds a NUL character"), "\(run.stderr)")
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("o")) == ["same.png"])
    }

    @Test func neitherTheResultsNorARowMayOverwriteTheManifest() throws {
        let folder = try TemporaryFolder()
        let manifest = Self.row("a.png") + "\n" + Self.row("m.jsonl", extra: ", \"format\": \"png\"") + "\n"
        try folder.write(manifest, to: "m.jsonl")
        let results = try CLIRunner.run(["batch", "m.jsonl", "--results", "./m.jsonl"], in: folder.url)
        #expect(results.status == 2)
        #expect(results.stderr.contains("error: --results: cannot write './m.jsonl': it is the same file as the manifest m.jsonl"),
                "\(results.stderr)")
        let row = try CLIRunner.run(["batch", "m.jsonl", "--out", "."], in: folder.url)
        #expect(row.status == 1)
        #expect(row.stderr.contains("m.jsonl:2 (m.jsonl): output 'm.jsonl': it is the same file as the manifest m.jsonl"),
                "\(row.stderr)")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("m.jsonl"), encoding: .utf8) == manifest)
    }

    @Test func stylesOutsideTheManifestsFolderNeedAnOption() throws {
        let folder = try TemporaryFolder()
        try folder.write("root:*:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n", to: "shadow")
        try folder.write("layers:\n  - {id: s, source: {type: solid, color: \"#336699\"}}\n", to: "s.yaml")
        try folder.write([Self.row("a.png", extra: ", \"style\": \"../s.yaml\""),
                          Self.row("b.png", extra: ", \"style\": \"../shadow\"")].joined(separator: "\n"), to: "jobs/m.jsonl")
        let confined = try CLIRunner.run(["batch", "jobs/m.jsonl", "--out", "o", "--results", "r.jsonl"], in: folder.url)
        #expect(confined.status == 1)
        #expect(confined.stderr.contains("(a.png): style '../s.yaml': \(folder.url.path)/s.yaml is outside"), "\(confined.stderr)")
        #expect(confined.stderr.contains("pass --allow-outside-paths"), "\(confined.stderr)")
        let allowed = try CLIRunner.run(["batch", "jobs/m.jsonl", "--out", "o", "--results", "r.jsonl", "--allow-outside-paths"],
                                        in: folder.url)
        #expect(allowed.stderr.contains("1 written, 0 already done, 1 failed of 2 jobs"), "\(allowed.stderr)")
        // A file that is not a style is named, never quoted.
        let results = try String(contentsOf: folder.url.appendingPathComponent("r.jsonl"), encoding: .utf8)
        #expect(results.contains("not a style"), "\(results)")
        #expect(!results.contains("root:") && !allowed.stderr.contains("root:"), "\(results) \(allowed.stderr)")
    }

    @Test func controlCharactersInRowsAreEscaped() throws {
        let folder = try TemporaryFolder()
        try folder.write("{\"id\": \"\\u001b[2J\\nerror: forged\", \"output\": \"a.png\"}\n", to: "m.jsonl")
        let run = try CLIRunner.run(["batch", "m.jsonl", "--out", "o"], in: folder.url)
        #expect(run.status == 1)
        #expect(!run.stderr.contains("\u{1B}"), "\(run.stderr)")
        #expect(!run.stderrLines.contains { $0.hasPrefix("error: forged") }, "\(run.stderr)")
        #expect(run.stderr.contains(#"\u{1B}[2J\nerror: forged"#), "\(run.stderr)")
    }
}

/// A batch interrupted by SIGINT: every image in place has its line in the results file. The
/// signal is sent the moment an image appears (when its line is most likely still to come),
/// several times over.
@Suite(.serialized) struct BatchInterruptionTests {
    @Test func everyImageWrittenBeforeSIGINTHasItsResult() throws {
        for attempt in 0..<5 {
            let folder = try TemporaryFolder()
            let rows = (0..<2000).map { BatchInputTests.row("m\($0).png") }
            try folder.write(rows.joined(separator: "\n") + "\n", to: "m.jsonl")
            let out = folder.url.appendingPathComponent("o")
            let running = try CLIRunner.start(["batch", "m.jsonl", "--out", "o", "--jobs", "4", "--results", "r.jsonl"],
                                              in: folder.url)
            let deadline = Date().addingTimeInterval(60)
            let wanted = 20 + attempt * 15
            while Date() < deadline, running.process.isRunning,
                  (try? FileManager.default.contentsOfDirectory(atPath: out.path))?.count ?? 0 < wanted {}
            kill(running.process.processIdentifier, SIGINT)
            let run = running.finish()
            #expect(run.status == 130, "\(run.stderr)")
            let images = Set(try CLIRunner.contents(of: out).filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") })
            let text = try String(contentsOf: folder.url.appendingPathComponent("r.jsonl"), encoding: .utf8)
            var recorded: Set<String> = []
            for line in text.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if object?["status"] as? String == "ok", let output = object?["output"] as? String {
                    recorded.insert((output as NSString).lastPathComponent)
                }
            }
            #expect(!images.isEmpty)
            #expect(images.subtracting(recorded).isEmpty,
                    "attempt \(attempt): written but not in the results: \(images.subtracting(recorded).sorted())")
        }
    }
}
