import CLibXML2
import CLibXML2Loader
import Testing

/// CLibXML2Loader declares libxml2's error structure and constants itself (so that mapcompose
/// need not link libxml2); each must be as libxml2's own headers have it.
@Suite struct LibXML2LoaderLayoutTests {
    @Test func theErrorLaysOutAsLibxml2s() {
        #expect(MemoryLayout<mc_xml_error>.size == MemoryLayout<xmlError>.size)
        #expect(MemoryLayout<mc_xml_error>.stride == MemoryLayout<xmlError>.stride)
        #expect(MemoryLayout<mc_xml_error>.alignment == MemoryLayout<xmlError>.alignment)
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.domain) == MemoryLayout<xmlError>.offset(of: \.domain))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.code) == MemoryLayout<xmlError>.offset(of: \.code))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.message) == MemoryLayout<xmlError>.offset(of: \.message))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.level) == MemoryLayout<xmlError>.offset(of: \.level))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.file) == MemoryLayout<xmlError>.offset(of: \.file))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.line) == MemoryLayout<xmlError>.offset(of: \.line))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.int1) == MemoryLayout<xmlError>.offset(of: \.int1))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.int2) == MemoryLayout<xmlError>.offset(of: \.int2))
        #expect(MemoryLayout<mc_xml_error>.offset(of: \.node) == MemoryLayout<xmlError>.offset(of: \.node))
    }

    @Test func constantsAreLibxml2s() {
        #expect(MC_XML_PARSE_NOERROR == Int32(XML_PARSE_NOERROR.rawValue))
        #expect(MC_XML_PARSE_NOWARNING == Int32(XML_PARSE_NOWARNING.rawValue))
        #expect(MC_XML_PARSE_NONET == Int32(XML_PARSE_NONET.rawValue))
        #expect(MC_XML_PARSE_NOCDATA == Int32(XML_PARSE_NOCDATA.rawValue))
        #expect(MC_XML_PARSE_HUGE == Int32(XML_PARSE_HUGE.rawValue))
        #expect(MC_XML_PARSE_IGNORE_ENC == Int32(XML_PARSE_IGNORE_ENC.rawValue))
        #expect(MC_XML_READER_TYPE_ELEMENT == Int32(XML_READER_TYPE_ELEMENT.rawValue))
        #expect(MC_XML_READER_TYPE_TEXT == Int32(XML_READER_TYPE_TEXT.rawValue))
        #expect(MC_XML_READER_TYPE_CDATA == Int32(XML_READER_TYPE_CDATA.rawValue))
        #expect(MC_XML_READER_TYPE_WHITESPACE == Int32(XML_READER_TYPE_WHITESPACE.rawValue))
        #expect(MC_XML_READER_TYPE_SIGNIFICANT_WHITESPACE == Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue))
        #expect(MC_XML_READER_TYPE_END_ELEMENT == Int32(XML_READER_TYPE_END_ELEMENT.rawValue))
        #expect(MC_XML_ERR_ERROR == Int32(XML_ERR_ERROR.rawValue))
    }

    @Test func loadingFindsEveryFunction() {
        var why = [CChar](repeating: 0, count: 512)
        let status = mc_xml_load(&why, why.count)
        #expect(status == 0, "\(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }
}
