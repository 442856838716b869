import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Manifest rows, jobs and shards: what is read, what is refused, and with which message.
@Suite struct ManifestTests {
    func rows(_ text: String, name: String) throws -> [ManifestRow] {
        let folder = try TemporaryFolder()
        let url = try folder.write(text, to: name)
        let reader = try ManifestFormat.open(url.path)
        var rows: [ManifestRow] = []
        while let row = try reader.next() { rows.append(row) }
        return rows
    }

    @Test func jsonLinesSkipBlankLinesAndKeepBadOnesAsRows() throws {
        let rows = try rows("{\"output\": \"a.png\", \"zoom\": 3, \"center\": [1.5, 2]}\r\n\n  \nnot json\n{\"output\": \"b.png\"}",
                            name: "m.jsonl")
        #expect(rows.map(\.ordinal) == [0, 1, 2])
        #expect(rows.map { $0.location.split(separator: ":").last.map(String.init) } == ["1", "4", "5"])
        #expect(try rows[0].fields.get() == ["output": "a.png", "zoom": "3", "center": "1.5,2"])
        #expect(throws: ManifestError.self) { try rows[1].fields.get() }
        #expect(try rows[2].fields.get() == ["output": "b.png"], "the last line needs no newline")
    }

    @Test func emptyJSONLinesManifestHasNoRows() throws {
        #expect(try rows("", name: "m.jsonl").isEmpty)
        #expect(try rows("\n\n", name: "m.jsonl").isEmpty)
    }

    @Test func csvRowsByHeaderWithQuotedCommas() throws {
        let rows = try rows("output, center ,zoom\na.png,\"51.5,-0.12\",4\n\nb.png,,\nc.png\n", name: "m.csv")
        #expect(rows.count == 3)
        #expect(try rows[0].fields.get() == ["output": "a.png", "center": "51.5,-0.12", "zoom": "4"])
        #expect(try rows[1].fields.get() == ["output": "b.png"], "empty cells are not given")
        #expect(rows[2].location.hasSuffix("m.csv: row 5"))
        #expect(throws: ManifestError.self) { try rows[2].fields.get() }
    }

    @Test("unreadable CSV manifests", arguments: [("", "no header row"), ("a,b,a\n1,2,3\n", "names 'a' twice"), (",,\n", "names no fields")])
    func badCSV(_ text: String, _ message: String) throws {
        do {
            _ = try rows(text, name: "m.csv")
            Issue.record("read without an error")
        } catch let error as ManifestError {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func jobFieldsBecomeARequest() throws {
        let job = try BatchJob(fields: ["output": "x/y.jpg", "bbox": "-11,49,2,61", "padding": "5", "size": "300x200",
                                        "scale": "2", "quality": "70", "id": "uk"])
        #expect(job.id == "uk" && job.format == .jpeg && job.width == 300 && job.height == 200 && job.scale == 2)
        guard case .bbox(let bounds, 5, false) = job.area else { Issue.record("\(job.area)"); return }
        #expect(bounds.west == -11 && bounds.north == 61)
        #expect(try BatchJob(fields: ["output": "p", "format": "png", "center": "0,0", "zoom": "1"]).format == .png)
    }

    @Test("bad job fields", arguments: [
        (["center": "0,0", "zoom": "1"], "no 'output'"),
        (["output": "/abs.png", "center": "0,0", "zoom": "1"], "must be a relative path"),
        (["output": "a/../../b.png", "center": "0,0", "zoom": "1"], "must be a relative path"),
        (["output": "a.png", "center": "0,0"], "center needs a zoom"),
        (["output": "a.png"], "no area"),
        (["output": "a.png", "center": "0,0", "zoom": "1", "bbox": "0,0,1,1"], "either center (with zoom) or bbox"),
        (["output": "a.png", "center": "0,0", "zoom": "inf"], "zoom 'inf' is not a number"),
        (["output": "a.png", "center": "0,0", "zoom": "1", "size": "0x10"], "size '0x10': expected WIDTHxHEIGHT"),
        (["output": "a.png", "center": "0,0", "zoom": "1", "format": "gif"], "format 'gif' is not one of"),
        (["output": "a.png", "center": "0,0", "zoom": "1", "format": "jpeg"], "contradicts the output name"),
        (["output": "a.png", "center": "0,0", "zoom": "1", "padding": "-3"], "padding -3 must be 0 or more"),
        (["output": "a.png", "bbox": "0,0,1,1", "fractional-zoom": "maybe"], "fractional-zoom 'maybe'"),
        (["output": "a.png", "center": "0,0", "zoom": "1", "colour": "red"], "unknown key 'colour'"),
    ])
    func badJob(_ fields: [String: String], _ message: String) {
        do {
            _ = try BatchJob(fields: fields)
            Issue.record("accepted \(fields)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func shardsPartitionEveryPosition() throws {
        let shards = try (1...7).map { try BatchShard("\($0)/7") }
        for ordinal in 0..<1000 {
            #expect(shards.filter { $0.contains(ordinal) }.count == 1)
        }
        #expect(BatchShard.all.contains(12345))
        for text in ["0/3", "4/3", "1/0", "a/b", "1/3/4", "", "-1/3", "1/9999999"] {
            #expect(throws: ManifestError.self, "\(text)") { try BatchShard(text) }
        }
    }
}
