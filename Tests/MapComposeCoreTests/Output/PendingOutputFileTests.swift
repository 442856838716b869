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

    /// A terminating signal's handler runs while other threads go on: a temporary file another
    /// thread is making when it comes is waited for and removed, not left behind.
    @Test func aFileBeingMadeWhenTheFilesAreRemovedIsRemovedOnceMade() throws {
        let folder = try TemporaryFolder()
        let begun = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let target = folder.url.appendingPathComponent("slow.png").path
        nonisolated(unsafe) var file: PendingOutputFile?
        Thread.detachNewThread {
            file = try? PendingOutputFile(path: target) { path in
                begun.signal()
                usleep(30_000)  // the handler starts meanwhile
                return open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            }
            done.signal()
        }
        begun.wait()
        folder.url.path.withCString { PendingFileRegistry.removeAllOnceMade(under: $0) }
        done.wait()
        #expect(file != nil)
        #expect(try names(folder.url).isEmpty, "the file made while the handler waited is removed")
        file?.discard()
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

    /// Makes a special file in `folder`: a FIFO, or a socket bound there.
    func makeSpecialFile(_ kind: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(kind).path
        if kind == "fifo" {
            try #require(mkfifo(path, 0o644) == 0)
            return path
        }
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
        return path
    }

    @Test("special files are refused and left alone", arguments: [
        ("/dev/zero", "a device"), ("fifo", "a FIFO (named pipe)"), ("socket", "a socket"),
    ])
    func specialFilesAreRefused(_ name: String, _ kind: String) throws {
        let folder = try TemporaryFolder()
        let path = name.hasPrefix("/") ? name : try makeSpecialFile(name, in: folder.url)
        #expect(throws: OutputError(path: path, reason: "it is \(kind), not a regular file; name a file, or give - to write to standard output")) {
            _ = try PendingOutputFile(path: path)
        }
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG)
        #expect(try names(folder.url) == (name.hasPrefix("/") ? [] : [name]))
    }

    @Test("links to a folder, or in a loop, are refused", arguments: [
        ("/tmp", "it is a folder ('LINK' links to '/tmp')"),
        ("loop.png", "too many levels of symbolic links"),
    ])
    func badLinksAreRefused(_ destination: String, _ reason: String) throws {
        let folder = try TemporaryFolder()
        let link = folder.url.appendingPathComponent("loop.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: destination)
        #expect(throws: OutputError(path: link, reason: reason.replacingOccurrences(of: "LINK", with: link))) {
            _ = try PendingOutputFile(path: link)
        }
        #expect(try names(folder.url) == ["loop.png"])
    }
}
