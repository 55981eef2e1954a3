/* xml.c - text into SVG documents. */
#include "xml.h"

void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			fputc((unsigned char)*s < 0x20 ? ' ' : (unsigned char)*s >= 0x7f ? '?' : *s, f);
		}
	}
}
