import Foundation
import Testing
@testable import MapComposeCore

/// Documents are read within stated bounds (nesting depth, size) whatever their shape, and a
/// fault is reported where it is, not where the parser gave up.
@Suite struct XMLTreeBoundsTests {
    static func nested(_ depth: Int) -> Data {
        Data((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8)
    }

    @Test func fiftyThousandNestedElementsAreRefusedWithTheirPosition() {
        do {
            _ = try XMLTreeElement.parse(Self.nested(50_000))
            Issue.record("a 50,000-deep document parsed")
        } catch {
            #expect(error.line == 1)
            #expect(error.column > 3 * XMLTreeReader.maximumDepth)
            #expect(error.description.contains("elements nest more than 256 deep"), "\(error.description)")
        }
    }

    @Test func nestingUpToTheBoundIsRead() throws {
        var element: XMLTreeElement? = try XMLTreeElement.parse(Self.nested(XMLTreeReader.maximumDepth))
        var depth = 0
        while let current = element {
            depth += 1
            element = current.children.first
        }
        #expect(depth == XMLTreeReader.maximumDepth)
    }

    @Test func aDocumentOverTenMegabytesIsRead() throws {
        // libxml2 refuses more than 10,000,000 bytes of lookahead, or of one text node, unless
        // told otherwise; both are here.
        let entry = "<Entry>" + String(repeating: "x", count: 500) + "</Entry>\n"
        let big = "<Big>" + String(repeating: "y", count: 10_500_000) + "</Big>\n"
        let xml = "<?xml version=\"1.0\"?>\n<Capabilities>\n" + String(repeating: entry, count: 2_000) + big + "</Capabilities>\n"
        #expect(xml.utf8.count > 11_000_000)
        let root = try XMLTreeElement.parse(Data(xml.utf8))
        #expect(root.children("Entry").count == 2_000)
        #expect(root.child("Big")?.text.count == 10_500_000)
    }

    @Test func aDocumentOverTheSizeBoundIsRefusedBeforeParsing() {
        let data = Data(count: XMLTreeReader.maximumBytes + 1)
        do {
            _ = try XMLTreeElement.parse(data)
            Issue.record("a document over the bound parsed")
        } catch {
            #expect(error.description == "unreadable XML: the document is \(data.count) bytes, more than the 64 MiB read; is it the right document?")
        }
    }

    @Test(arguments: [
        ("<r>\n  <a>\n  </b>\n</r>\n<!-- end -->\n\n", 3, 7),
        ("<r>\n  <a x='1' x='2'/>\n\n\n</r>\n", 2, 17),
        ("<r>\n  <a>&nosuch;</a>\n\n\n</r>\n", 2, 14),
        ("<r>\n  <a>\n  </a>\n</r>\n<extra/>\n\n\n", 5, 1),
    ] as [(String, Int, Int)])
    func errorsPointAtTheFault(xml: String, line: Int, column: Int) {
        do {
            _ = try XMLTreeElement.parse(Data(xml.utf8))
            Issue.record("'\(xml)' parsed")
        } catch {
            #expect(error.line == line, "\(error.description)")
            #expect(error.column == column, "\(error.description)")
        }
    }
}
