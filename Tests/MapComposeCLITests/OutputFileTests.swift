import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Output names of any length, symbolic links, special files and standard output.
@Suite struct OutputFileTests {
    static let view = ["--center", "0,0", "--zoom", "1", "--size", "64x48"]

    @Test("one-character names work", arguments: [
        (["--format", "png", "o"], "o", ImageFormat.png),
        (["--format", "jpeg", "a"], "a", ImageFormat.jpeg),
        (["--report", "r", "o.png"], "o.png", ImageFormat.png),
    ])
    func oneCharacterNames(_ arguments: [String], _ image: String, _ format: ImageFormat) throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(Self.view + arguments, in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: folder.url.appendingPathComponent(image))
        #expect(data.starts(with: format == .png ? [0x89, 0x50, 0x4E, 0x47] : [0xFF, 0xD8, 0xFF]))
        let decoded = try TileDecoder.decode(data)
        #expect(decoded.width == 64 && decoded.height == 48)
        if arguments.contains("r") {
            let report = try JSONDecoder().decode(RenderReport.self, from: Data(contentsOf: folder.url.appendingPathComponent("r")))
            #expect(report.pixels == [64, 48])
        }
        #expect(try CLIRunner.contents(of: folder.url) == ([image] + (arguments.contains("r") ? ["r"] : [])).sorted())
    }

    @Test func oneCharacterAbsoluteName() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("m").path
        let run = try CLIRunner.run(Self.view + ["--format", "png", path], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try CLIRunner.contents(of: folder.url) == ["m"])
    }

    /// A copy of /dev/null's device node in a test folder, so that a regression replaces the
    /// copy and never the system's own (making device nodes needs root).
    @Test(.enabled(if: getuid() == 0, "making a device node needs root"))
    func deviceOutputIsRefusedAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        let device = folder.url.appendingPathComponent("null.png").path
        var null = stat()
        try #require(stat("/dev/null", &null) == 0 && null.st_mode & S_IFMT == S_IFCHR)
        try #require(mknod(device, S_IFCHR | 0o666, null.st_rdev) == 0, "mknod: \(String(cString: strerror(errno)))")
        let run = try CLIRunner.run(Self.view + ["null.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines == ["error: cannot write 'null.png': it is a device, not a regular file; name a file, or give - to write to standard output"])
        var info = stat()
        #expect(lstat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "still a device")
        #expect(try CLIRunner.contents(of: folder.url) == ["null.png"])
    }

    @Test func fifoOutputIsRefused() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let run = try CLIRunner.run(Self.view + ["pipe.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines == ["error: cannot write 'pipe.png': it is a FIFO (named pipe), not a regular file; name a file, or give - to write to standard output"])
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try CLIRunner.contents(of: folder.url) == ["pipe.png"])
    }

    @Test("a symbolic link is followed to its final target and stays a link", arguments: [true, false])
    func symlinkChainIsFollowed(_ targetExists: Bool) throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        try manager.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: false)
        if targetExists { try folder.write("old", to: "target.png") }
        try manager.createSymbolicLink(atPath: folder.url.appendingPathComponent("sub/inner.png").path,
                                       withDestinationPath: "../target.png")
        try manager.createSymbolicLink(atPath: folder.url.appendingPathComponent("outer.png").path,
                                       withDestinationPath: "sub/inner.png")
        let run = try CLIRunner.run(Self.view + ["outer.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try manager.destinationOfSymbolicLink(atPath: folder.url.appendingPathComponent("outer.png").path) == "sub/inner.png")
        #expect(try manager.destinationOfSymbolicLink(atPath: folder.url.appendingPathComponent("sub/inner.png").path) == "../target.png")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("target.png"))
        #expect(image.width == 64 && image.height == 48)
        #expect(try CLIRunner.contents(of: folder.url) == ["outer.png", "sub", "target.png"])
        #expect(try CLIRunner.contents(of: folder.url.appendingPathComponent("sub")) == ["inner.png"])
    }

    @Test("- writes the image to standard output", arguments: [
        ([], ImageFormat.png), (["--format", "png"], .png), (["--format", "jpeg"], .jpeg),
    ])
    func imageToStandardOutput(_ arguments: [String], _ format: ImageFormat) throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(Self.view + arguments + ["-"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutData.starts(with: format == .png ? [0x89, 0x50, 0x4E, 0x47] : [0xFF, 0xD8, 0xFF]))
        let image = try TileDecoder.decode(run.stdoutData)
        #expect(image.width == 64 && image.height == 48)
        #expect(try CLIRunner.contents(of: folder.url).isEmpty)
    }

    @Test func reportToStandardOutputWhenTheImageGoesToAFile() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(Self.view + ["--report", "-", "o.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(RenderReport.self, from: run.stdoutData)
        #expect(report.pixels == [64, 48])
        #expect(try CLIRunner.contents(of: folder.url) == ["o.png"])
    }

    @Test func standardOutputWithNoReaderIsAWriteError() throws {
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = Self.view + ["-"]
        process.currentDirectoryURL = folder.url
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try out.fileHandleForReading.close()
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        #expect(String(decoding: errData, as: UTF8.self) == "error: cannot write to standard output: Broken pipe\n")
    }
}
