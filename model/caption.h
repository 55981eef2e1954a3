/* caption.h - what a picture says of itself: what ran, where and when (filled by
 * collectors/caption.h from this machine or a recording, drawn by report/svg_caption.h). */
#ifndef LOCUS_CAPTION_H
#define LOCUS_CAPTION_H

/* "" where unknown. */
struct svg_caption {
	char command[512];	/* what ran: the locus command line, or the recording's */
	char kernel[160];	/* "6.1.0-18-amd64 x86_64", or the recording's */
	char host[128];		/* the machine's name */
	char date[64];		/* "2026-12-02 03:50 UTC", or "recorded 2026-12-02 ..." */
	char ended[160];	/* how the run or recording ended where it did not end whole:
				 * "interrupted by SIGINT", "the recording's end is missing:
				 * cut short" ("" when whole) */
};

#endif
