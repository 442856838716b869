import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `mapcompose batch` on 2,000 small maps: bad jobs fail alone, Ctrl-C leaves no partial
/// image and `--resume` redoes nothing, and three shards run at once cover every job once.
@Suite(.serialized) struct BatchCommandTests {
    @Test func twoThousandJobsWithABrokenRowAndAMissingStyle() throws {
        let fixture = try BatchFixture()
        let run = try CLIRunner.run([fixture.manifest.path, "--out", fixture.out.path, "--results", "results.jsonl"]
                                        .withSubcommand, in: fixture.folder.url)
        #expect(run.status == 1, "\(run.stderr)")
        let images = fixture.writtenImages()
        #expect(images.count == fixture.jobs - 2)
        #expect(Set(images) == Set(fixture.goodIDs.map { id in
            let index = Int(id.dropFirst(4))!
            return "maps/\(index / 100)/\(index).png"
        }))
        let results = try fixture.results("results.jsonl")
        #expect(results.count == fixture.jobs)
        let failed = results.filter { $0["status"] as? String == "failed" }
        #expect(failed.count == 2)
        #expect(Set(results.filter { $0["status"] as? String == "ok" }.compactMap { $0["id"] as? String }) == fixture.goodIDs)
        #expect(run.stderr.contains("\(fixture.jobs - 2) written, 0 already done, 2 failed of \(fixture.jobs) jobs"), "\(run.stderr)")
        #expect(run.stderr.contains("jobs.jsonl:\(fixture.brokenRow + 1) ("), "the broken row is named by its line")
        #expect(run.stderr.contains("not a JSON object"))
        #expect(run.stderr.contains("style 'missing.yaml': no such style file"))
        #expect(run.stderr.contains("1 style loaded, 1 failed to load"), "each distinct style is loaded once, and the missing one counted apart")
        // Tiles are shared across jobs: far fewer decodes than maps.
        let decoded = results.compactMap { $0["tilesDecoded"] as? Int }.reduce(0, +)
        #expect(decoded < fixture.jobs / 4, "\(decoded) tiles decoded for \(fixture.jobs) maps")
    }

    @Test func jobsDefaultToTheCoresTheCPUAffinityAllows() throws {
        // Under `taskset -c 0` the process may use one core, however many the machine has.
        let run = try CLIRunner.Running(executable: URL(fileURLWithPath: "/usr/bin/taskset"),
                                        arguments: ["-c", "0", CLIRunner.binary.path, "batch", "--help"],
                                        in: FileManager.default.temporaryDirectory).finish()
        #expect(run.status == 0, "\(run.stderr)")
        let help = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("default: the cores this process may use. (default: 1)"), "\(run.stdout)")
    }

    @Test func interruptedBatchResumesWithoutRedoingAnything() throws {
        let fixture = try BatchFixture()
        let arguments = [fixture.manifest.path, "--out", fixture.out.path, "--jobs", "2"].withSubcommand
        let running = try CLIRunner.start(arguments + ["--results", "first.jsonl"], in: fixture.folder.url)
        let deadline = Date().addingTimeInterval(120)
        // Finished images only: a temporary file being written when the signal comes is removed.
        while Date() < deadline, running.process.isRunning, fixture.writtenImages().count(where: { $0.hasSuffix(".png") }) < 300 {
            usleep(2_000)
        }
        kill(running.process.processIdentifier, SIGINT)
        let first = running.finish()
        #expect(first.reason == .exit && first.status == 130, "stopped by SIGINT: \(first.status) \(first.stderr)")
        let before = fixture.writtenImages()
        #expect(before.allSatisfy { $0.hasSuffix(".png") }, "no temporary file is left")
        #expect(before.count >= 300 && before.count < fixture.jobs - 2, "stopped part way: \(before.count)")
        var stamps: [String: Date] = [:]
        for name in before {
            let path = fixture.out.appendingPathComponent(name).path
            stamps[name] = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            #expect((try? StraightPNGDecoder.decode(file: path)) != nil, "\(name) is a whole image")
        }
        let resumed = try CLIRunner.run(arguments + ["--resume", "--results", "second.jsonl"], in: fixture.folder.url)
        #expect(resumed.status == 1, "only the two bad jobs fail: \(resumed.stderr)")
        let results = try fixture.results("second.jsonl")
        let skipped = results.filter { $0["status"] as? String == "skipped" }.count
        let written = results.filter { $0["status"] as? String == "ok" }.count
        #expect(skipped == before.count, "every image written before the interrupt is skipped")
        #expect(written == fixture.jobs - 2 - before.count)
        #expect(fixture.writtenImages().count == fixture.jobs - 2)
        for name in before {
            let path = fixture.out.appendingPathComponent(name).path
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == stamps[name],
                    "\(name) was not written again")
        }
    }

    @Test func threeShardsAtOnceCoverEveryJobExactlyOnce() throws {
        let fixture = try BatchFixture()
        let runs = try (1...3).map { k in
            try CLIRunner.start([fixture.manifest.path, "--out", fixture.out.path, "--shard", "\(k)/3", "--jobs", "1",
                                 "--results", "shard-\(k).jsonl"].withSubcommand, in: fixture.folder.url)
        }
        let outcomes = runs.map { $0.finish() }
        var seen: [String: Int] = [:]
        var failed = 0
        for (index, outcome) in outcomes.enumerated() {
            let results = try fixture.results("shard-\(index + 1).jsonl")
            let shardFailures = results.filter { $0["status"] as? String == "failed" }.count
            failed += shardFailures
            #expect(outcome.status == (shardFailures > 0 ? 1 : 0), "\(outcome.stderr)")
            for result in results where result["status"] as? String == "ok" {
                seen[result["id"] as? String ?? "", default: 0] += 1
            }
            #expect(abs(results.count - fixture.jobs / 3) <= 1, "shard \(index + 1) has its third: \(results.count)")
        }
        #expect(failed == 2)
        #expect(Set(seen.keys) == fixture.goodIDs, "together the shards wrote every good job")
        #expect(seen.values.allSatisfy { $0 == 1 }, "no job ran twice")
        #expect(fixture.writtenImages().count == fixture.jobs - 2)
    }

    @Test func csvManifestWithQuotedCellsAndABadRow() throws {
        let folder = try TemporaryFolder()
        try folder.write("""
            id,output,center,zoom,size,bbox
            a,a.png,"51.5,-0.12",4,64x48,
            b,b.png,,,64x48,"-11,49,2,61"
            c,c.png,"10,10"
            d,d.png,"95,0",3,64x48,

            """, to: "m.csv")
        let run = try CLIRunner.run(["batch", "m.csv", "--out", "o", "--results", "r.jsonl"], in: folder.url)
        #expect(run.status == 1)
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("o")) == ["a.png", "b.png"])
        #expect(run.stderr.contains("m.csv: row 4 (3): 3 cells where the header has 6"), "\(run.stderr)")
        #expect(run.stderr.contains("m.csv: row 5 (d): center '95,0': latitude 95 is outside -90…90"), "\(run.stderr)")
    }

    @Test("bad manifests and options exit 2 with a message", arguments: [
        (["batch", "nothing.jsonl"], "nothing.jsonl: no such readable manifest file"),
        (["batch", "empty.csv"], "empty.csv: no header row"),
        (["batch", "m.jsonl", "--shard", "4/3"], "--shard '4/3': expected K/N with 1 ≤ K ≤ N"),
        (["batch", "m.jsonl", "--shard", "0/0"], "--shard '0/0'"),
        (["batch", "m.jsonl", "--jobs", "0"], "--jobs 0: expected 1…32"),
        (["batch", "m.jsonl", "--jobs", "99999999999"], "--jobs 99999999999"),
        (["batch", "m.jsonl", "--tile-memory", "-1"], "--tile-memory -1"),
    ])
    func badInputExits2(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("", to: "empty.csv")
        try folder.write("{\"output\": \"a.png\", \"center\": \"0,0\", \"zoom\": 1, \"size\": \"8x8\"}\n", to: "m.jsonl")
        let run = try CLIRunner.run(arguments, in: folder.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output/a.png").path))
    }

    @Test func garbageAndAbsurdRowsFailAloneWithTheirReasons() throws {
        let folder = try TemporaryFolder()
        let rows = [
            "{\"output\": \"ok.png\", \"center\": \"0,0\", \"zoom\": 1, \"size\": \"16x16\"}",
            "\u{FF}\u{FE} not text",
            "[1, 2, 3]",
            "{\"output\": \"z.png\", \"center\": \"0,0\", \"zoom\": 1e300, \"size\": \"16x16\"}",
            "{\"output\": \"s.png\", \"center\": \"0,0\", \"zoom\": 1, \"size\": \"99999999x99999999\"}",
            "{\"output\": \"../escape.png\", \"center\": \"0,0\", \"zoom\": 1}",
            "{\"output\": \"q.png\", \"center\": \"0,0\", \"zoom\": 1, \"quality\": 1000}",
            "{\"output\": \"t.png\", \"centre\": \"0,0\", \"zoom\": 1}",
            "{\"output\": \"n.txt\", \"center\": \"0,0\", \"zoom\": 1}",
            "{\"output\": \"ok2.png\", \"bbox\": [-11, 49, 2, 61], \"size\": [16, 16]}",
        ]
        try folder.write(rows.joined(separator: "\n"), to: "m.jsonl")
        let run = try CLIRunner.run(["batch", "m.jsonl", "--out", "o", "--results", "r.jsonl"], in: folder.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("1 written, 0 already done, 9 failed of 10 jobs"), "\(run.stderr)")
        for expected in ["m.jsonl:2 (2): not a JSON object", "m.jsonl:3 (3): not a JSON object", "m.jsonl:4 (z.png): ",
                         "m.jsonl:5 (s.png): ", "m.jsonl:6 (6): output '../escape.png' must be a relative path",
                         "m.jsonl:7 (7): quality 1000 is outside 1…100", "m.jsonl:8 (8): unknown key 'centre'",
                         "m.jsonl:9 (9): cannot tell the image format of 'n.txt'", "m.jsonl:10 (10): size '16,16'"] {
            #expect(run.stderr.contains(expected), "\(expected) in \(run.stderr)")
        }
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("o")) == ["ok.png"])
    }
}

extension [String] {
    /// The arguments after `mapcompose batch`.
    var withSubcommand: [String] { ["batch"] + self }
}

/// Three shards at once over one `--cache-dir`, from a tile server on 127.0.0.1.
@Suite(.serialized) struct BatchSharedCacheTests {
    @Test func threeShardsAtOnceShareOneCacheFolder() throws {
        let png = try TileFixtures.solidPNG(RGBA(r: 60, g: 140, b: 90))
        let server = try TestHTTPServer { _ in .delayed(0.002, .image(png, headers: [("Cache-Control", "max-age=86400")])) }
        defer { server.shutdown() }
        let folder = try TemporaryFolder("mapcompose-batch-cache")
        try folder.write("""
            layers:
              - id: remote
                source: {type: xyz, url: "\(server.baseURL)/tiles/{z}/{x}/{y}.png"}
            """, to: "remote.yaml")
        var generator = SplitMix(state: 9)
        let jobs = 300
        let lines = (0..<jobs).map { index in
            "{\"id\": \"r\(index)\", \"output\": \"\(index).png\", \"center\": [\(40 + generator.unit() * 15), "
                + "\(-5 + generator.unit() * 25)], \"zoom\": \(4 + generator.unit() * 2), \"size\": \"64x64\", \"style\": \"remote.yaml\"}"
        }
        try folder.write(lines.joined(separator: "\n"), to: "jobs.jsonl")
        let cache = folder.url.appendingPathComponent("cache").path
        let runs = try (1...3).map { k in
            try CLIRunner.start(["batch", "jobs.jsonl", "--out", "out", "--shard", "\(k)/3", "--cache-dir", cache,
                                 "--results", "shard-\(k).jsonl"], in: folder.url)
        }
        var ids: [String] = []
        for (index, run) in runs.map({ $0.finish() }).enumerated() {
            #expect(run.status == 0, "shard \(index + 1): \(run.stderr)")
            let text = try String(contentsOf: folder.url.appendingPathComponent("shard-\(index + 1).jsonl"), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let result = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                #expect(result["status"] as? String == "ok", "\(result)")
                ids.append(result["id"] as? String ?? "")
            }
        }
        #expect(ids.count == jobs && Set(ids).count == jobs, "every job exactly once")
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("out")).count == jobs)
        let requests = server.requests.count
        #expect(requests > 0)
        // The shared folder now holds every tile: an offline run of the whole manifest asks nothing.
        server.resetLog()
        let offline = try CLIRunner.run(["batch", "jobs.jsonl", "--out", "again", "--cache-dir", cache, "--offline"],
                                        in: folder.url)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(server.requests.isEmpty)
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("again")).count == jobs)
    }
}
