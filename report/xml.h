/* xml.h - text into SVG documents: markup characters escaped, control characters blanked. */
#ifndef LOCUS_XML_H
#define LOCUS_XML_H

#include <stdio.h>

void xml_text(FILE *f, const char *s);

#endif
