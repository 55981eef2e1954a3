/* xml.c - text into SVG documents. */
#include "xml.h"

void xml_textn(FILE *f, const char *s, size_t n)
{
	for (; n && *s; s++, n--) {
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

void xml_text(FILE *f, const char *s)
{
	xml_textn(f, s, (size_t)-1);
}
