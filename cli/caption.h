/* caption.h - what a picture says of itself (report/svg_caption.h), filled from a live run or a file. */
#ifndef LOCUS_CLI_CAPTION_H
#define LOCUS_CLI_CAPTION_H

#include "../collectors/perfdata.h"
#include "../report/svg_caption.h"

/* A live run: locus's own command line (argv[0] its subcommand), this machine, now (UTC). */
void caption_live(struct svg_caption *c, int argc, char **argv);
/*
 * A recording: the command that recorded it, its kernel and host (from its header, or
 * "not in the file"), its date (the file's modification time, "recorded ...").
 */
void caption_file(struct svg_caption *c, const struct pd_file *pf, const char *path);

#endif
