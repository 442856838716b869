// libxml2 loaded with dlopen when the first XML document is read (see libxml2_loader.h).

#include "libxml2_loader.h"

#include "library_loader.h"

#include <pthread.h>

// Every function called through the loaded library, once: FN(return type, name, parameters,
// arguments) for those that return a value, PROC(name, parameters, arguments) for the rest.
#define MC_XML_FUNCTIONS(FN, PROC)                                                                            \
    PROC(xmlInitParser, (void), ())                                                                           \
    FN(mc_xml_reader *, xmlReaderForMemory,                                                                   \
       (const char *buffer, int size, const char *url, const char *encoding, int options),                   \
       (buffer, size, url, encoding, options))                                                                \
    PROC(xmlFreeTextReader, (mc_xml_reader * reader), (reader))                                               \
    PROC(xmlTextReaderSetStructuredErrorHandler,                                                              \
         (mc_xml_reader * reader, mc_xml_error_handler handler, void *context), (reader, handler, context))   \
    FN(int, xmlTextReaderRead, (mc_xml_reader * reader), (reader))                                            \
    FN(int, xmlTextReaderNodeType, (mc_xml_reader * reader), (reader))                                        \
    FN(int, xmlTextReaderGetParserLineNumber, (mc_xml_reader * reader), (reader))                             \
    FN(int, xmlTextReaderGetParserColumnNumber, (mc_xml_reader * reader), (reader))                           \
    FN(void *, xmlTextReaderCurrentNode, (mc_xml_reader * reader), (reader))                                  \
    FN(long, xmlGetLineNo, (const void *node), (node))                                                        \
    FN(const unsigned char *, xmlTextReaderConstLocalName, (mc_xml_reader * reader), (reader))                \
    FN(const unsigned char *, xmlTextReaderConstName, (mc_xml_reader * reader), (reader))                     \
    FN(const unsigned char *, xmlTextReaderConstValue, (mc_xml_reader * reader), (reader))                    \
    FN(int, xmlTextReaderIsEmptyElement, (mc_xml_reader * reader), (reader))                                  \
    FN(int, xmlTextReaderHasAttributes, (mc_xml_reader * reader), (reader))                                   \
    FN(int, xmlTextReaderMoveToNextAttribute, (mc_xml_reader * reader), (reader))                             \
    FN(int, xmlTextReaderMoveToElement, (mc_xml_reader * reader), (reader))

/// The functions' indexes, names and the slots they are resolved into, once.
MC_LIBRARY_TABLE(MC_XML_FUNCTIONS)
static mc_library_state state = {.once = PTHREAD_ONCE_INIT};

static void load(void) {
    if (mc_library_load("libxml2.so.2", "reading XML documents", "libxml2", mc_library_names, mc_library_slots,
                        mc_library_function_count, state.error, sizeof state.error) != 0) {
        return;
    }
    mc_xmlInitParser();  // libxml2's global state, before any document
    state.loaded = 1;
}

int mc_xml_load(char *errbuf, size_t errlen) {
    pthread_once(&state.once, load);
    return mc_library_outcome(&state, errbuf, errlen);
}

MC_LIBRARY_WRAPPERS(MC_XML_FUNCTIONS)
