/*
 * svg_caption.h - the caption every SVG picture carries in the image itself (not only in
 * its <title>): what ran, on which kernel and machine, when, and how it was measured.
 */
#ifndef LOCUS_SVG_CAPTION_H
#define LOCUS_SVG_CAPTION_H

#include <stddef.h>
#include <stdio.h>

#include "../model/caption.h"
#include "../model/provenance.h"
#include "../model/topology.h"

/*
 * The caption's two lines: line1 "command: ..." (cut with "..." past len1), line2
 * "kernel K · host H (N CPUs, M nodes) · date · source S". t and p may be NULL (then
 * no CPUs or source are said); cpus_note, when given, replaces the CPUs part.
 */
void svg_caption_lines(const struct svg_caption *c, const struct topology *t,
		       const struct provenance *p, const char *cpus_note, char *line1,
		       size_t len1, char *line2, size_t len2);

/* Draw the lines at (x, y), grey, one under the other; returns the height used (px). */
int svg_caption_draw(FILE *f, int x, int y, const char *line1, const char *line2);

/* The width a line of 11-px sans-serif text needs, roughly (px), to size pictures. */
int svg_text_width(const char *s, int font_px);

#endif
