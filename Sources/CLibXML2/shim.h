// libxml2 (Debian's libxml2-dev, already a dependency of Foundation's XML support): its
// streaming reader, which reads the element trees of conf.xml and capabilities documents.
#include <libxml/xmlreader.h>
