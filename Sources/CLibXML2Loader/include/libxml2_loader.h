// libxml2's streaming reader, loaded with dlopen when the first XML document is read rather
// than at start-up: a process that reads no XML never maps libxml2 and the ICU and liblzma it
// brings. The types and constants are libxml2's, as its stable ABI lays them out, under names
// of their own (LibXML2LoaderLayoutTests checks each against libxml2's headers); every call
// goes through the loaded library.
#ifndef MAPCOMPOSE_LIBXML2_LOADER_H
#define MAPCOMPOSE_LIBXML2_LOADER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// xmlTextReader, used through pointers only.
typedef struct mc_xml_reader mc_xml_reader;

/// xmlError: what the parser reports, with where.
typedef struct {
    int domain;
    int code;
    char *message;
    int level;  // an xmlErrorLevel
    char *file;
    int line;
    char *str1, *str2, *str3;
    int int1;
    int int2;  // the column
    void *ctxt;
    void *node;
} mc_xml_error;

/// xmlStructuredErrorFunc.
typedef void (*mc_xml_error_handler)(void *context, mc_xml_error *error);

// xmlParserOption
#define MC_XML_PARSE_NOERROR (1 << 5)
#define MC_XML_PARSE_NOWARNING (1 << 6)
#define MC_XML_PARSE_NONET (1 << 11)
#define MC_XML_PARSE_NOCDATA (1 << 14)
#define MC_XML_PARSE_HUGE (1 << 19)
#define MC_XML_PARSE_IGNORE_ENC (1 << 21)
// xmlReaderTypes
#define MC_XML_READER_TYPE_ELEMENT 1
#define MC_XML_READER_TYPE_TEXT 3
#define MC_XML_READER_TYPE_CDATA 4
#define MC_XML_READER_TYPE_WHITESPACE 13
#define MC_XML_READER_TYPE_SIGNIFICANT_WHITESPACE 14
#define MC_XML_READER_TYPE_END_ELEMENT 15
// xmlErrorLevel
#define MC_XML_ERR_ERROR 2

/// Loads libxml2 once (thread-safe) and sets up its parser: 0 when it is ready, else -1 with
/// a message naming the library and the Debian package that has it.
int mc_xml_load(char *errbuf, size_t errlen);

// The calls below may be made only once mc_xml_load returned 0. Each is the libxml2 function
// of the same name without the "mc_" prefix.

/// Sets up libxml2's global state (mc_xml_load calls it, before any document).
void mc_xmlInitParser(void);
mc_xml_reader *mc_xmlReaderForMemory(const char *buffer, int size, const char *url, const char *encoding, int options);
void mc_xmlFreeTextReader(mc_xml_reader *reader);
void mc_xmlTextReaderSetStructuredErrorHandler(mc_xml_reader *reader, mc_xml_error_handler handler, void *context);
int mc_xmlTextReaderRead(mc_xml_reader *reader);
int mc_xmlTextReaderNodeType(mc_xml_reader *reader);
int mc_xmlTextReaderGetParserLineNumber(mc_xml_reader *reader);
int mc_xmlTextReaderGetParserColumnNumber(mc_xml_reader *reader);
void *mc_xmlTextReaderCurrentNode(mc_xml_reader *reader);
long mc_xmlGetLineNo(const void *node);
const unsigned char *mc_xmlTextReaderConstLocalName(mc_xml_reader *reader);
const unsigned char *mc_xmlTextReaderConstName(mc_xml_reader *reader);
const unsigned char *mc_xmlTextReaderConstValue(mc_xml_reader *reader);
int mc_xmlTextReaderIsEmptyElement(mc_xml_reader *reader);
int mc_xmlTextReaderHasAttributes(mc_xml_reader *reader);
int mc_xmlTextReaderMoveToNextAttribute(mc_xml_reader *reader);
int mc_xmlTextReaderMoveToElement(mc_xml_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
