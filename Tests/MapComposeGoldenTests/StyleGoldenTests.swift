import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Stability goldens for the shipped styles, run as a `mapcompose check` suite
/// (`Tests/MapComposeGoldenTests/Suite/<case>/case.yaml` + `expected.png`, each stating its
/// threshold and allowed share of differing pixels). Actual, expected and diff images and the
/// HTML report go to `Output/test-results/golden-suite/`. `RECORD_GOLDENS=1 make test`
/// rewrites the expected images and fails, so a recording is never a pass. They guard against
/// unintended changes; geometry and colour correctness is checked by `ReferenceRenderTests`.
@Suite struct StyleGoldenTests {
    static let suite = TestPaths.repositoryRoot.appendingPathComponent("Tests/MapComposeGoldenTests/Suite")

    @Test func shippedStylesMatchTheirRecordedImages() async throws {
        let record = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
        let output = TestPaths.results("golden-suite")
        let outcomes = try await CheckSuite(folder: Self.suite, outputFolder: output, update: record,
                                            allowOutsidePaths: true).run()
        #expect(outcomes.count == 4)
        if record {
            Issue.record("recorded \(outcomes.filter { $0.status == .updated }.map(\.name)); run again without RECORD_GOLDENS")
            return
        }
        for outcome in outcomes {
            #expect(outcome.status == .passed, "\(outcome.name): \(outcome.message); see \(output.path)/index.html")
        }
    }
}
