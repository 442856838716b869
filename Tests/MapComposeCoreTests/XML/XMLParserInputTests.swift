import Foundation
import Testing
@testable import MapComposeCore

/// Documents that would make Foundation's XMLParser trap on Linux are made safe (a processing
/// instruction without data) or refused with a message (text that is not UTF-8), for the
/// element tree and for OGC exception documents alike.
@Suite struct XMLParserInputTests {
    @Test func aProcessingInstructionWithoutDataParses() throws {
        let xml = "<?xml version=\"1.0\"?>\n<?bare?><root><?x?><a>t</a><?with data?></root>"
        let root = try XMLTreeElement.parse(Data(xml.utf8))
        #expect(root.name == "root")
        #expect(root.child("a")?.text == "t")
    }

    @Test func onlyBareProcessingInstructionsArePadded() {
        let cases = [
            ("<?a?><?b c?>", "<?a ?><?b c?>"),
            ("<??>", "<? ?>"),
            ("<r>no instruction</r>", "<r>no instruction</r>"),
            ("<?xml version='1.0'?><r/>", "<?xml version='1.0'?><r/>"),
            ("<?a?", "<?a?"),
            ("x<?", "x<?"),
            ("<?p?><?q?>", "<?p ?><?q ?>"),
        ]
        for (input, expected) in cases {
            let padded = XMLParserInput.paddingBareProcessingInstructions(Data(input.utf8))
            #expect(String(decoding: padded, as: UTF8.self) == expected, "\(input)")
        }
    }

    @Test func textThatIsNotUTF8IsRefusedWithTheByte() {
        var data = Data("<r>ok".utf8)
        data.append(contentsOf: [0xFF, 0xFE])
        data.append(contentsOf: Data("</r>".utf8))
        #expect(throws: XMLTreeError.self) { try XMLTreeElement.parse(data) }
        #expect((try? XMLParserInput.prepared(data)) == nil)
        #expect(XMLParserInput.firstInvalidUTF8(data) == 5)
    }

    @Test func exceptionReportsAreReadSafely() {
        let report = "<?xml version=\"1.0\"?><?bare?><ServiceExceptionReport><ServiceException>Bad layer</ServiceException></ServiceExceptionReport>"
        #expect(ServiceExceptionText.message(in: Data(report.utf8)) == "Bad layer")
        var latin1 = Data("<ServiceExceptionReport><ServiceException>caf".utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: Data("</ServiceException></ServiceExceptionReport>".utf8))
        #expect(ServiceExceptionText.message(in: latin1) == nil)
    }
}

/// Parser errors are told in words, not as Foundation's "The operation could not be completed".
@Suite struct XMLParserErrorTextTests {
    @Test(arguments: ["<bad", "<r><a></r>", "", "<r>&nosuch;</r>", "<?xml version='1.0'?>"])
    func malformedDocumentsNameWhatIsWrong(xml: String) {
        do {
            _ = try XMLTreeElement.parse(Data(xml.utf8))
            Issue.record("'\(xml)' parsed")
        } catch {
            #expect(!error.description.contains("could not be completed"), "\(error.description)")
            #expect(error.description.hasPrefix("malformed XML at line "), "\(error.description)")
        }
    }
}

/// Document type declarations, whose notations, unparsed entities and attribute lists without
/// defaults make Foundation's XMLParser trap on Linux, are blanked out before parsing.
@Suite struct XMLDocumentTypeTests {
    @Test(arguments: [
        "<!DOCTYPE r [<!NOTATION n SYSTEM 'x'>]><r/>",
        "<!DOCTYPE r [<!NOTATION n PUBLIC 'p'>]><r/>",
        "<!DOCTYPE r [<!ENTITY e SYSTEM 'x' NDATA n><!NOTATION n SYSTEM 'y'>]><r/>",
        "<!DOCTYPE r [<!ELEMENT r ANY><!ATTLIST r a CDATA #IMPLIED>]><r/>",
        "<?xml version='1.0'?>\n<!DOCTYPE r SYSTEM \"x.dtd\" [\n  <!-- a ] comment > -->\n  <?pi ]>?>\n  <!ATTLIST r a CDATA \"]>\">\n]>\n<r/>",
        "<!DOCTYPE WMT_MS_Capabilities SYSTEM 'http://schemas.opengis.net/wms/1.1.1/capabilities_1_1_1.dtd' [ <!ELEMENT VendorSpecificCapabilities EMPTY> ]><r/>",
    ])
    func declarationsAreSkipped(xml: String) throws {
        #expect(try XMLTreeElement.parse(Data(xml.utf8)).name == "r")
    }

    @Test func lineBreaksAreKeptSoErrorsPointAtTheRightLine() throws {
        let xml = "<!DOCTYPE r [\n<!NOTATION n SYSTEM 'x'>\n]>\n<r>\n<a></b>\n</r>"
        let blanked = try XMLParserInput.blankingDocumentTypeDeclarations(Data(xml.utf8))
        #expect(blanked.count == xml.utf8.count)
        #expect(String(decoding: blanked, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).count == 6)
        // The same document with the declaration's three lines left empty fails on the same line.
        var lines: [Int] = []
        for document in [xml, "\n\n\n<r>\n<a></b>\n</r>"] {
            do {
                _ = try XMLTreeElement.parse(Data(document.utf8))
                Issue.record("a mismatched tag parsed")
            } catch {
                lines.append(error.line)
            }
        }
        #expect(lines.count == 2 && lines[0] == lines[1] && lines[0] >= 5, "\(lines)")
    }

    @Test(arguments: ["<!DOCTYPE r [<!ELEMENT r ANY>", "<!DOCTYPE r 'unclosed><r/>", "<!DOCTYPE r [<!-- ]> <r/>"])
    func anUnendedDeclarationIsAnError(xml: String) {
        #expect(throws: XMLTreeError.self) { try XMLTreeElement.parse(Data(xml.utf8)) }
    }
}
