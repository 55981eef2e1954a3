/* xml.h - text into SVG documents: markup characters escaped, control characters blanked,
 * bytes beyond ASCII as '?' (a task name is any bytes, the document UTF-8). */
#ifndef LOCUS_XML_H
#define LOCUS_XML_H

#include <stdio.h>

void xml_text(FILE *f, const char *s);

#endif
