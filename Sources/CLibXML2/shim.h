// libxml2 (Debian's libxml2-dev, already a dependency of Foundation's XML support): its
// streaming reader, which reads the element trees of conf.xml and capabilities documents.
//
// Debian builds libxml2 with ICU, and its encoding header then includes the system's ICU
// headers, whose types clash with the copy of ICU inside Foundation in any Swift module that
// sees both. Only the reader's functions are used here, never the ICU converters, so the ICU
// part of the headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
