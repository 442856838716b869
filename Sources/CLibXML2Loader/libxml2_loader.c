// libxml2 loaded with dlopen when the first XML document is read (see libxml2_loader.h).

#include "libxml2_loader.h"

#include "library_loader.h"

#include <pthread.h>
#include <stdio.h>

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

/// Each function's place in `slots`.
#define INDEX_OF_FUNCTION(type, name, parameters, arguments) index_##name,
#define INDEX_OF_PROCEDURE(name, parameters, arguments) index_##name,
enum { MC_XML_FUNCTIONS(INDEX_OF_FUNCTION, INDEX_OF_PROCEDURE) function_count };

#define NAME_OF_FUNCTION(type, name, parameters, arguments) #name,
#define NAME_OF_PROCEDURE(name, parameters, arguments) #name,
static const char *const names[] = {MC_XML_FUNCTIONS(NAME_OF_FUNCTION, NAME_OF_PROCEDURE)};

/// The entry points, resolved once.
static void *slots[function_count];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;            // set once, by load()
static char load_error[512];  // why not, when not

static void load(void) {
    if (mc_library_load("libxml2.so.2", "reading XML documents", "libxml2", names, slots, function_count, load_error,
                        sizeof load_error) != 0) {
        return;
    }
    ((void (*)(void))slots[index_xmlInitParser])();  // libxml2's global state, before any document
    loaded = 1;
}

int mc_xml_load(char *errbuf, size_t errlen) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (errbuf && errlen) snprintf(errbuf, errlen, "%s", load_error);
    return -1;
}

#define WRAP_FUNCTION(type, name, parameters, arguments) \
    type mc_##name parameters { return ((type(*) parameters)slots[index_##name]) arguments; }
#define WRAP_PROCEDURE(name, parameters, arguments) \
    void mc_##name parameters { ((void(*) parameters)slots[index_##name]) arguments; }
MC_XML_FUNCTIONS(WRAP_FUNCTION, WRAP_PROCEDURE)
