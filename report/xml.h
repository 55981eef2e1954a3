/* xml.h - text into SVG documents: markup characters escaped, control characters blanked,
 * bytes beyond ASCII as '?' (a task name is any bytes, the document UTF-8). */
#ifndef LOCUS_XML_H
#define LOCUS_XML_H

#include <stddef.h>
#include <stdio.h>

void xml_text(FILE *f, const char *s);
/* The first n bytes of s (or up to its NUL), escaped as xml_text does. */
void xml_textn(FILE *f, const char *s, size_t n);

#endif
