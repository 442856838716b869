import Foundation
import Testing
@testable import MapComposeCore

/// The executable's own path (where the basemap is looked for beside it) is the one Foundation
/// gives, found without listing the executable's folder.
@Suite struct ExecutableLocationTests {
    @Test func theExecutableIsTheOneFoundationNames() throws {
        let found = try #require(ExecutableLocation.url)
        let foundation = try #require(Bundle.main.executableURL)
        #expect(found.path == foundation.resolvingSymlinksInPath().path)
        #expect(FileManager.default.isExecutableFile(atPath: found.path))
    }

    @Test func theBasemapIsLookedForBesideTheExecutable() throws {
        let folder = try #require(ExecutableLocation.url).deletingLastPathComponent()
        let candidates = BasemapLocator.candidates(environment: [:]).map(\.path)
        #expect(candidates.contains(folder.appendingPathComponent(BasemapLocator.fileName).path))
    }
}
