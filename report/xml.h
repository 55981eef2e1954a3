/* xml.h - text into SVG documents: markup characters escaped, control characters blanked,
 * bytes beyond ASCII as '?' (a task name is any bytes, the document UTF-8). */
#ifndef LOCUS_XML_H
#define LOCUS_XML_H

#include <stddef.h>
#include <stdio.h>

void xml_text(FILE *f, const char *s);
/* The first n bytes of s (or up to its NUL), escaped as xml_text does. */
void xml_textn(FILE *f, const char *s, size_t n);
/*
 * The first n bytes of s (or up to its NUL) with valid UTF-8 kept (a function's name,
 * "café"): markup escaped, control characters blanked, each byte of an invalid or
 * cut sequence as '?'.
 */
void xml_text_utf8n(FILE *f, const char *s, size_t n);
/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
size_t utf8_seq_len(const char *s, size_t n);

#endif
