import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `mapcompose cache prune|clear` touch only folders that carry a cache's `cache.json`: a
/// project or another program's cache given as `--cache-dir` is left alone.
@Suite struct CacheFolderSafetyTests {
    @Test("a folder holding no cache is refused", arguments: [["clear"], ["prune", "--max-size", "0"]])
    func aProjectIsNotACache(_ command: [String]) throws {
        let folder = try TemporaryFolder()
        try folder.write("print(1)\n", to: "src/main.py")
        try folder.write("# docs\n", to: "docs/index.md")
        try folder.write("{\"note\": \"another program's\"}", to: "pip/cache.json")
        let run = try CLIRunner.run(["cache"] + command + ["--cache-dir", "."], in: folder.url)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("is not a mapcompose cache folder: its folders (docs, pip, src) carry no cache.json"),
                "\(run.stderr)")
        #expect(try CLIRunner.contents(of: folder.url) == ["docs", "pip", "src"])
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("src")) == ["main.py"])
    }

    @Test func clearDeletesOnlyMarkedCacheFolders() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("cache")
        let space = DiskTileCache(root: root).space(for: CacheDescription(id: "tiles-1", layer: "tiles", source: "xyz-url:x",
                                                                          maxBytes: 1 << 20))
        space.write("1/0/0", CacheEntry(metadata: .init(status: 200, expires: 0), body: Data([1, 2, 3])))
        try folder.write("keep\n", to: "cache/fontconfig/font.cache")
        let run = try CLIRunner.run(["cache", "clear", "--cache-dir", "cache"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("tiles-1: cleared"))
        #expect(try CLIRunner.contents(of: root) == ["fontconfig"])
    }
}
