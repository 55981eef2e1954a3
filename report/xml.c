/* xml.c - text into SVG documents. */
#include "xml.h"

#include <stdint.h>

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

size_t utf8_seq_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = u[0] < 0x80 ? 1 : (u[0] & 0xe0) == 0xc0 ? 2 : (u[0] & 0xf0) == 0xe0 ? 3 :
		     (u[0] & 0xf8) == 0xf0 ? 4 : 0;
	uint32_t cp;

	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((u[i] & 0xc0) != 0x80)
			return 0;
	cp = len == 1 ? u[0] : len == 2 ? u[0] & 0x1fu : len == 3 ? u[0] & 0x0fu : u[0] & 0x07u;
	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (u[i] & 0x3fu);
	/* overlong forms, surrogates and beyond U+10FFFF are not UTF-8 */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void xml_text_utf8n(FILE *f, const char *s, size_t n)
{
	while (n && *s) {
		size_t len = (unsigned char)*s < 0x80 ? 1 : utf8_seq_len(s, n);

		if (len > 1) {
			fwrite(s, 1, len, f);
		} else if (len == 1) {
			xml_textn(f, s, 1);
		} else {
			fputc('?', f);
			len = 1;
		}
		s += len;
		n -= len;
	}
}
