/* svg_caption.c - the caption drawn in every SVG picture (svg_caption.h). */
#include "svg_caption.h"

#include <string.h>

#include "xml.h"

void svg_caption_lines(const struct svg_caption *c, const struct topology *t,
		       const struct provenance *p, const char *cpus_note, char *line1,
		       size_t len1, char *line2, size_t len2)
{
	char cpus[420] = "", note[200] = "";
	size_t at, room;

	if (cpus_note)
		snprintf(cpus, sizeof(cpus), " (%s)", cpus_note);
	else if (t)
		snprintf(cpus, sizeof(cpus), " (%d CPUs, %d node%s)", t->nonline, t->nnodes,
			 t->nnodes == 1 ? "" : "s");
	/* how it ended, where not whole: kept whole, the command cut before it */
	if (c->ended[0])
		snprintf(note, sizeof(note), " [%s]", c->ended);
	room = len1 > strlen(note) + 8 ? len1 - strlen(note) : len1;
	snprintf(line1, room, "command: %s", c->command[0] ? c->command : "unknown");
	if (room > 4 && strlen(line1) == room - 1)
		memcpy(line1 + room - 4, "...", 4);
	if (room < len1)
		strncat(line1, note, len1 - strlen(line1) - 1);
	at = (size_t)snprintf(line2, len2, "kernel %s | machine %s%s",
			      c->kernel[0] ? c->kernel : "unknown",
			      c->host[0] ? c->host : "unknown", cpus);
	if (c->date[0] && at < len2)
		at += (size_t)snprintf(line2 + at, len2 - at, " | %s", c->date);
	if (p && at < len2)
		at += (size_t)snprintf(line2 + at, len2 - at, " | source: %s",
				       prov_source_name(p->source));
	if (p && p->affinity[0] && at < len2) /* the CPUs the workload could use */
		snprintf(line2 + at, len2 - at, " | the workload's affinity: %s", p->affinity);
}

int svg_caption_draw(FILE *f, int x, int y, const char *line1, const char *line2)
{
	fprintf(f, "<g class=\"caption\" font-size=\"10\" fill=\"#555\">\n<text x=\"%d\" y=\"%d\">",
		x, y);
	xml_text(f, line1);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"%d\">", x, y + 13);
	xml_text(f, line2);
	fprintf(f, "</text>\n</g>\n");
	return 26;
}

int svg_text_width(const char *s, int font_px)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80; /* characters, not UTF-8 bytes */
	return (int)((double)n * font_px * 0.58) + 1;
}
