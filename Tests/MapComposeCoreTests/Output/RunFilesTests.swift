import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `RunFiles` tells outputs that land on an input or on another output, however spelt.
@Suite struct RunFilesTests {
    @Test func outputsOverInputsOrEachOtherAreRefused() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("in", to: "in.txt").path
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.url.appendingPathComponent("link").path, withDestinationPath: "in.txt")
        try manager.linkItem(atPath: input, toPath: folder.url.appendingPathComponent("hard").path)
        var files = RunFiles()
        files.addInput(input, role: "the input")
        for alias in ["link", "hard", "./in.txt", "sub/../in.txt"] {
            try manager.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
            #expect(throws: OutputError.self, "\(alias)") {
                try files.claimOutput(folder.url.path + "/" + alias, role: "the output")
            }
        }
        try files.claimOutput(folder.url.appendingPathComponent("new.png").path, role: "the image")
        let again = #expect(throws: OutputError.self) {
            try files.claimOutput(folder.url.path + "/sub/../new.png", role: "the report")
        }
        #expect(again?.reason == "it is also the image; give the report a file of its own")
        try files.claimOutput("-", role: "standard output")
        try files.claimOutput("-", role: "standard output again")
    }

    @Test func pathsWithNULAreRefusedEverywhere() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.path + "/ctl\u{0}nul.png"
        var files = RunFiles()
        #expect(throws: OutputError.self) { try files.claimOutput(path, role: "the image") }
        #expect(throws: OutputError.self) { try PendingOutputFile(path: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
