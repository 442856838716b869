import Foundation
import MapComposeTestSupport
import Testing

/// `mapcompose check` with suites from others and mistakes of its own user: golden images are
/// replaced atomically, paths ending in `..` name the case they lead to, `--out` inside the
/// suite is refused, styles stay inside their case, and broken files are named plainly.
@Suite struct CheckSafetyTests {
    static let london = "style: default\ncenter: \"51.5,-0.12\"\nzoom: 4\nsize: 32x24\n"

    /// A suite with one recorded case, `london`.
    func recordedSuite() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("mapcompose-check")
        try folder.write(Self.london, to: "suite/london/case.yaml")
        let record = try CLIRunner.run(["check", "suite", "--update"], in: folder.url)
        #expect(record.status == 0, "\(record.stdout) \(record.stderr)")
        return folder
    }

    @Test func updateReplacesADifferingExpectedImageInPlace() throws {
        let folder = try recordedSuite()
        let caseFolder = folder.url.appendingPathComponent("suite/london")
        let expected = caseFolder.appendingPathComponent("expected.png")
        let recorded = try Data(contentsOf: expected)
        try folder.write("style: default\ncenter: \"35.7,139.7\"\nzoom: 4\nsize: 32x24\n", to: "suite/london/case.yaml")
        let update = try CLIRunner.run(["check", "suite", "--out", "out", "--update"], in: folder.url)
        #expect(update.status == 0, "\(update.stdout) \(update.stderr)")
        #expect(update.stdout.contains("UPDATED london: rewrote expected.png"), "\(update.stdout)")
        #expect(try CLIRunner.contents(of: caseFolder) == ["case.yaml", "expected.png"])
        let rewritten = try Data(contentsOf: expected)
        #expect(rewritten != recorded)
        let again = try CLIRunner.run(["check", "suite", "--out", "out"], in: folder.url)
        #expect(again.stdout.contains("PASSED london: 0 of 768 pixels differ"), "\(again.stdout)")
    }

    @Test func aPathEndingInDotDotNamesTheCaseItLeadsTo() throws {
        let folder = try recordedSuite()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("suite/london/sub"),
                                                withIntermediateDirectories: true)
        let run = try CLIRunner.run(["check", "suite/london/sub/..", "--out", "o/check"], in: folder.url)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("PASSED london: "), "\(run.stdout)")
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("o")) == ["check"])
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("o/check")) == ["index.html", "london"])
    }

    @Test func outInsideTheSuiteIsRefusedAndTheGoldenImageKept() throws {
        let folder = try recordedSuite()
        let expected = folder.url.appendingPathComponent("suite/london/expected.png")
        let recorded = try Data(contentsOf: expected)
        let run = try CLIRunner.run(["check", "suite", "--out", "suite"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAILED london: --out \(folder.url.path)/suite: writing \(expected.path) would overwrite"),
                "\(run.stdout)")
        #expect(try Data(contentsOf: expected) == recorded)
    }

    @Test func stylesOutsideTheCaseNeedAnOption() throws {
        let folder = try TemporaryFolder()
        try folder.write("root:*:19000:0:99999:7:::\n", to: "shadow")
        try folder.write("style: ../../shadow\ncenter: [0, 0]\nzoom: 1\nsize: 8x8\n", to: "suite/c/case.yaml")
        let confined = try CLIRunner.run(["check", "suite", "--out", "o"], in: folder.url)
        #expect(confined.status == 1)
        #expect(confined.stdout.contains("FAILED c: style '../../shadow': \(folder.url.path)/shadow is outside"), "\(confined.stdout)")
        let allowed = try CLIRunner.run(["check", "suite", "--out", "o", "--allow-outside-paths"], in: folder.url)
        #expect(allowed.stdout.contains("FAILED c: style '../../shadow': \(folder.url.path)/shadow: not a style"), "\(allowed.stdout)")
        let html = try String(contentsOf: folder.url.appendingPathComponent("o/index.html"), encoding: .utf8)
        #expect(!html.contains("root:") && !allowed.stdout.contains("root:"))
    }

    @Test("broken case files are named plainly", arguments: [
        ("folder-case", "case.yaml is a folder, not a case file"),
        ("folder-expected", "expected.png is a folder, not a PNG image"),
        ("empty-expected", "expected.png is empty, not a PNG image"),
    ])
    func brokenCaseFiles(_ kind: String, _ message: String) throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        let caseFolder = folder.url.appendingPathComponent("suite/c")
        if kind == "folder-case" {
            try manager.createDirectory(at: caseFolder.appendingPathComponent("case.yaml"), withIntermediateDirectories: true)
        } else {
            try folder.write("center: [0, 0]\nzoom: 1\nsize: 8x8\n", to: "suite/c/case.yaml")
        }
        if kind == "folder-expected" {
            try manager.createDirectory(at: caseFolder.appendingPathComponent("expected.png"), withIntermediateDirectories: true)
        }
        if kind == "empty-expected" { try folder.write("", to: "suite/c/expected.png") }
        let run = try CLIRunner.run(["check", "suite", "--out", "o"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAILED c: \(caseFolder.path)/\(message)"), "\(run.stdout)")
        #expect(!run.stdout.contains("NSCocoaErrorDomain"))
    }
}
