import Foundation
@testable import MapComposeCore
import MapComposeTestSupport
import Testing

@Suite struct PendingOutputFileTests {
    /// What `/proc/self/fd/N` points to, or nil when N is not open.
    func openFile(_ descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    /// Names in `folder`, hidden ones included (temporary files start with a dot).
    func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func commitClosesTheDescriptorWhenTheWriteFails() throws {
        let folder = try TemporaryFolder()
        var opened: Int32 = -1
        var temporary = ""
        // The temporary file is /dev/full, where every write fails with ENOSPC.
        let file = try PendingOutputFile(path: folder.url.appendingPathComponent("o.png").path) { path in
            temporary = path
            opened = open("/dev/full", O_WRONLY | O_CLOEXEC)
            return opened
        }
        #expect(opened >= 0 && openFile(opened) == "/dev/full")
        #expect(PendingFileRegistry.pendingPaths.contains(temporary))
        #expect(throws: OutputError(path: file.path, reason: "No space left on device")) {
            try file.commit(Data([1, 2, 3]))
        }
        #expect(openFile(opened) != "/dev/full", "the descriptor was closed")
        #expect(!PendingFileRegistry.pendingPaths.contains(temporary))
        #expect(try names(folder.url).isEmpty)
    }

    @Test func temporaryFileIsRegisteredUntilCommitted() throws {
        let folder = try TemporaryFolder()
        let target = folder.url.appendingPathComponent("map.png").path
        let file = try PendingOutputFile(path: target)
        let listed = try names(folder.url)
        #expect(listed.count == 1 && listed[0].hasPrefix(".map.png.") && listed[0].hasSuffix(".tmp"))
        let temporary = folder.url.appendingPathComponent(listed[0]).path
        #expect(PendingFileRegistry.pendingPaths.contains(temporary))
        try file.commit(Data("abc".utf8))
        #expect(!PendingFileRegistry.pendingPaths.contains(temporary))
        #expect(try names(folder.url) == ["map.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("abc".utf8))
    }

    @Test func discardRemovesTheTemporaryFileAndItsRegistration() throws {
        let folder = try TemporaryFolder()
        let file = try PendingOutputFile(path: folder.url.appendingPathComponent("m").path)
        let temporary = folder.url.appendingPathComponent(try names(folder.url)[0]).path
        file.discard()
        #expect(!PendingFileRegistry.pendingPaths.contains(temporary))
        #expect(try names(folder.url).isEmpty)
    }

    @Test func replacingAFileKeepsItsPermissions() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("old", to: "o.png").path
        #expect(chmod(target, 0o600) == 0)
        try PendingOutputFile(path: target).commit(Data("new".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    }

    @Test("special files are refused", arguments: ["/dev/null", "/dev/zero"])
    func specialFilesAreRefused(_ path: String) {
        #expect(throws: OutputError(path: path, reason: "it is a device, not a regular file; name a file, or give - to write to standard output")) {
            _ = try PendingOutputFile(path: path)
        }
    }

    @Test func linkToAFolderIsRefused() throws {
        let folder = try TemporaryFolder()
        let link = folder.url.appendingPathComponent("l.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/tmp")
        #expect(throws: OutputError(path: link, reason: "it is a folder ('\(link)' links to '/tmp')")) {
            _ = try PendingOutputFile(path: link)
        }
    }

    @Test func linkLoopIsRefused() throws {
        let folder = try TemporaryFolder()
        let link = folder.url.appendingPathComponent("loop.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "loop.png")
        #expect(throws: OutputError(path: link, reason: "too many levels of symbolic links")) {
            _ = try PendingOutputFile(path: link)
        }
    }
}
