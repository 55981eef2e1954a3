/* caption.h - a picture's caption (model/caption.h) from a live run or a recording's header. */
#ifndef LOCUS_COLLECTORS_CAPTION_H
#define LOCUS_COLLECTORS_CAPTION_H

#include "perfdata.h"
#include "../model/caption.h"

/* A live run: locus's own command line (argv[0] its subcommand), this machine, now (UTC). */
void caption_live(struct svg_caption *c, int argc, char **argv);
/*
 * A recording: the command that recorded it, its kernel and host (from its header, or
 * "not in the file"), its date (the file's modification time, "recorded ...").
 */
void caption_file(struct svg_caption *c, const struct pd_file *pf, const char *path);

#endif
