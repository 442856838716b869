import MapComposeCore
import MapComposeTestSupport
import Foundation
import Testing

@Suite struct OutputPathTests {
    @Test("paths split into folder, name and extension", arguments: [
        ("o", ".", "o", ""),
        ("o.png", ".", "o.png", "png"),
        ("/o", "/", "o", ""),
        ("/a/b.c/d", "/a/b.c", "d", ""),
        ("a/.png", "a", ".png", ""),
        ("a/b.tar.gz", "a", "b.tar.gz", "gz"),
        ("dir/", "dir", "", ""),
        ("x.", ".", "x.", ""),
        ("", ".", "", ""),
    ])
    func parts(_ path: String, _ folder: String, _ name: String, _ ext: String) {
        #expect(OutputPath.folder(of: path) == folder)
        #expect(OutputPath.name(of: path) == name)
        #expect(OutputPath.pathExtension(of: path) == ext)
        if !name.isEmpty { #expect(OutputPath.joined(folder, name) == path) }
    }

    /// `--out maps/` and `--out maps` give the same paths, with one slash.
    @Test(arguments: [("maps/", "uk/london.png", "maps/uk/london.png"), ("maps//", "a.png", "maps/a.png"),
                      ("/", "a.png", "/a.png"), (".", "a.png", "a.png"), ("/srv/out/", "a.png", "/srv/out/a.png")])
    func aFolderWithATrailingSlashIsJoinedWithOne(_ folder: String, _ name: String, _ expected: String) {
        #expect(OutputPath.joined(folder, name) == expected)
    }

    @Test func linksAreFollowedRelativeToTheirFolder() throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        try manager.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: false)
        try manager.createSymbolicLink(atPath: folder.url.appendingPathComponent("sub/in").path, withDestinationPath: "../t.png")
        try manager.createSymbolicLink(atPath: folder.url.appendingPathComponent("out").path, withDestinationPath: "sub/in")
        let base = folder.url.path
        #expect(try OutputPath.followingLinks(base + "/out") == base + "/sub/../t.png")
        #expect(try OutputPath.followingLinks(base + "/plain.png") == base + "/plain.png")
    }
}
