import Foundation
import Logging

/// A folder of check cases (see `CheckCase`), rendered and compared with their expected images.
/// Each case's `actual.png`, `expected.png` (the closest), `diff.png` and `report.json` go to
/// `<output>/<case>/`, and `<output>/index.html` shows them all, the largest differences first.
/// Renders go through `StaticMapWriter`, as `render` and `batch` do.
public struct CheckSuite: Sendable {
    public let folder: URL
    public let outputFolder: URL
    /// Rewrite each case's closest expected image with the render when they differ (or write
    /// `expected.png` when there is none).
    public let update: Bool
    public let store: TileStore
    /// The disk cache and HTTP client of the cases' remote sources.
    public let remote: RemoteEnvironment
    /// Let cases name style files outside the suite's folder.
    public let allowOutsidePaths: Bool
    let logger: Logger

    /// `folder` and `outputFolder` are standardized: a path ending in `..` names the folder it
    /// leads to.
    public init(folder: URL, outputFolder: URL, update: Bool = false, store: TileStore = TileStore(),
                remote: RemoteEnvironment = .standard, allowOutsidePaths: Bool = false,
                logger: Logger = Logger(label: "check")) {
        self.folder = folder.standardizedFileURL
        self.outputFolder = outputFolder.standardizedFileURL
        self.update = update
        self.store = store
        self.remote = remote
        self.allowOutsidePaths = allowOutsidePaths
        self.logger = logger
    }

    /// The case folders: `folder` itself when it holds a case file, else its sub-folders that do.
    public func caseFolders() throws(ManifestError) -> [URL] {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ManifestError("\(folder.path): no such suite folder")
        }
        if manager.fileExists(atPath: folder.appendingPathComponent(CheckCase.fileName).path) { return [folder] }
        let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        let cases = names.sorted().map { folder.appendingPathComponent($0) }
            .filter { manager.fileExists(atPath: $0.appendingPathComponent(CheckCase.fileName).path) }
        guard !cases.isEmpty else {
            throw ManifestError("\(folder.path): no cases (sub-folders with a \(CheckCase.fileName) and expected*.png)")
        }
        return cases
    }

    /// Runs every case and writes the HTML report; the outcomes are in the suite's order.
    public func run() async throws(ManifestError) -> [CheckCaseOutcome] {
        let folders = try caseFolders()
        do {
            try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        } catch {
            throw ManifestError("\(outputFolder.path): cannot create the report folder: \(error.localizedDescription)")
        }
        var outcomes: [CheckCaseOutcome] = []
        for caseFolder in folders { outcomes.append(await run(caseFolder)) }
        do {
            try Data(CheckReportPage.html(outcomes, suite: folder.path).utf8)
                .write(to: outputFolder.appendingPathComponent("index.html"))
        } catch {
            throw ManifestError("\(outputFolder.path)/index.html: cannot write the report: \(error.localizedDescription)")
        }
        return outcomes
    }

    /// The files a case writes in its output folder.
    static let outputNames = ["actual.png", "expected.png", "diff.png", "report.json"]

    /// One case: render, compare with the closest expected image, write the images.
    func run(_ caseFolder: URL) async -> CheckCaseOutcome {
        let name = caseFolder.lastPathComponent
        var outcome = CheckCaseOutcome(name: name, status: .failed, message: "", threshold: 0.1, allowed: 0)
        guard !["", ".", "..", "/"].contains(name) else {
            outcome.message = "\(caseFolder.path): a case needs a folder with a name of its own"
            return outcome
        }
        let out = outputFolder.appendingPathComponent(name)
        let manager = FileManager.default
        do {
            try checkOutputs(of: caseFolder, in: out)
            for name in Self.outputNames { try? manager.removeItem(at: out.appendingPathComponent(name)) }
            let testCase = try CheckCase(folder: caseFolder)
            outcome.threshold = testCase.comparison.threshold
            outcome.allowed = testCase.comparison.allowed
            try manager.createDirectory(at: out, withIntermediateDirectories: true)
            let actualURL = out.appendingPathComponent("actual.png"), reportURL = out.appendingPathComponent("report.json")
            let style = try await StyleCache(baseFolder: caseFolder.path, remote: remote,
                                             confinement: allowOutsidePaths ? nil : folder.path).style(testCase.job.style)
            let job = testCase.job
            let request = RenderRequest(style: style, area: job.area, width: job.width, height: job.height,
                                        scale: job.scale, format: .png, output: actualURL.path, reportPath: reportURL.path)
            do {
                try await StaticMapWriter(store: store, logger: logger).write(request)
            } catch {
                outcome.reportJSON = try? String(contentsOf: reportURL, encoding: .utf8)
                throw error
            }
            outcome.reportJSON = try? String(contentsOf: reportURL, encoding: .utf8)
            let actualData = try CheckCase.read(actualURL, expecting: "a PNG image")
            let actual = try StraightPNGDecoder.decode(actualData)
            guard !testCase.expected.isEmpty else {
                guard update else {
                    outcome.message = "no expected*.png in \(caseFolder.path): `mapcompose check --update` records one"
                    return outcome
                }
                try PendingOutputFile(path: caseFolder.appendingPathComponent("expected.png").path).commit(actualData)
                outcome.status = .updated
                outcome.message = "recorded expected.png"
                return outcome
            }
            let (result, expected) = try testCase.comparison.compare(actual: actual, expectedFiles: testCase.expected)
            let closest = testCase.expected[result.expectedIndex]
            outcome.expectedName = closest.lastPathComponent
            outcome.differingPixels = result.result.differingPixels
            outcome.totalPixels = result.result.totalPixels
            try ImageComparison.writeImages(to: out, actual: actual, expected: expected,
                                            diff: result.result.diffImage)
            outcome.status = result.passed ? .passed : .failed
            outcome.message = result.result.summary
                + (result.passed ? "" : "; more than allowed \(String(format: "%.4f%%", testCase.comparison.allowed * 100))")
            if update, actual != expected {
                try PendingOutputFile(path: closest.path).commit(actualData)
                outcome.status = .updated
                outcome.message = "rewrote \(closest.lastPathComponent) (was: \(result.result.summary))"
            }
        } catch {
            outcome.message = "\(error)"
        }
        return outcome
    }

    /// Refuses a case whose output files would land on its own files (`--out` inside the suite).
    private func checkOutputs(of caseFolder: URL, in out: URL) throws(ManifestError) {
        var files = RunFiles()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: caseFolder.path)) ?? []
        for name in names {
            files.addInput(caseFolder.appendingPathComponent(name).path, role: "the case's \(name)")
        }
        for name in Self.outputNames {
            do {
                try files.claimOutput(out.appendingPathComponent(name).path, role: name)
            } catch {
                throw ManifestError("--out \(outputFolder.path): writing \(error.path) would overwrite the case's own "
                                    + "files; give --out a folder outside the suite")
            }
        }
    }
}
