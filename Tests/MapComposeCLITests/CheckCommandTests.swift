import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `mapcompose check`: a suite with a passing and a failing case, the HTML report, `--update`.
@Suite struct CheckCommandTests {
    /// Two cases of the built-in style; `expected.png` recorded by `--update`, then the second
    /// case's replaced by an image of another place.
    func makeSuite() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("mapcompose-check")
        try folder.write("style: default\ncenter: \"51.5,-0.12\"\nzoom: 4\nsize: 96x64\nallowed: 0.001\n", to: "suite/london/case.yaml")
        try folder.write("style: default\ncenter: [35.7, 139.7]\nzoom: 4\nsize: 96x64\nthreshold: 0.1\n", to: "suite/tokyo/case.yaml")
        return folder
    }

    @Test func updateRecordsThenAChangedExpectationFailsWithAReport() throws {
        let folder = try makeSuite()
        let record = try CLIRunner.run(["check", "suite", "--update"], in: folder.url)
        #expect(record.status == 0, "\(record.stdout) \(record.stderr)")
        #expect(record.stdout.contains("UPDATED london: recorded expected.png"))
        let clean = try CLIRunner.run(["check", "suite"], in: folder.url)
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("PASSED london: 0 of 6144 pixels differ"))
        // Tokyo's expectation now shows London: the case must fail.
        let tokyo = folder.url.appendingPathComponent("suite/tokyo/expected.png")
        try FileManager.default.removeItem(at: tokyo)
        try FileManager.default.copyItem(at: folder.url.appendingPathComponent("suite/london/expected.png"), to: tokyo)
        let failing = try CLIRunner.run(["check", "suite"], in: folder.url)
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("FAILED tokyo: "), "\(failing.stdout)")
        #expect(failing.stdout.contains("1 of 2 cases passed"))
        let out = folder.url.appendingPathComponent("suite-report")
        #expect(failing.stdout.contains("report: \(out.appendingPathComponent("index.html").path)"), "\(failing.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output").path), "nothing in the folder it runs from")
        for name in ["actual.png", "expected.png", "diff.png", "report.json"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("tokyo/\(name)").path), "\(name)")
        }
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("1 of 2 cases failed"))
        let tokyoAt = try #require(html.range(of: "id=\"case-tokyo\""))
        let londonAt = try #require(html.range(of: "id=\"case-london\""))
        #expect(tokyoAt.lowerBound < londonAt.lowerBound, "the failing case comes first")
        #expect(html.contains("class=\"case failed\" id=\"case-tokyo\""))
        #expect(html.contains("type=\"range\""), "a slider compares expected and actual")
        #expect(html.contains("&quot;style&quot; : &quot;default&quot;"), "the render report is shown")
        // The closest of several expected images counts.
        try FileManager.default.copyItem(at: out.appendingPathComponent("tokyo/actual.png"),
                                         to: folder.url.appendingPathComponent("suite/tokyo/expected-2.png"))
        let closest = try CLIRunner.run(["check", "suite"], in: folder.url)
        #expect(closest.status == 0, "\(closest.stdout)")
        #expect(closest.stdout.contains("PASSED tokyo: 0 of 6144"))
    }

    @Test("bad suites exit 1 or 2 with a message", arguments: [
        ("nothing", Int32(2), "nothing: no such suite folder"),
        ("empty", Int32(2), "no cases"),
        ("broken", Int32(1), "FAILED bad: "),
        ("unrecorded", Int32(1), "no expected*.png"),
    ])
    func badSuites(_ suite: String, _ status: Int32, _ message: String) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try folder.write("center: [100, 0]\nzoom: 2\n", to: "broken/bad/case.yaml")
        try folder.write("center: [10, 0]\nzoom: 2\nsize: 8x8\n", to: "unrecorded/new/case.yaml")
        let run = try CLIRunner.run(["check", suite], in: folder.url)
        #expect(run.status == status, "\(run.stdout) \(run.stderr)")
        #expect((run.stdout + run.stderr).contains(message), "\(run.stdout) \(run.stderr)")
    }
}
