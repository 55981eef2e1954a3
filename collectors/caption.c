/* caption.c - picture captions from this machine or a recording's header (caption.h). */
#include "caption.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

static void utc(char *buf, size_t len, const char *what, time_t when)
{
	struct tm tm;
	char d[40];

	gmtime_r(&when, &tm);
	strftime(d, sizeof(d), "%Y-%m-%d %H:%M UTC", &tm);
	snprintf(buf, len, "%s%s", what, d);
}

void caption_live(struct svg_caption *c, int argc, char **argv)
{
	struct utsname u;
	size_t at;

	memset(c, 0, sizeof(*c));
	at = (size_t)snprintf(c->command, sizeof(c->command), "locus");
	for (int i = 0; i < argc && at < sizeof(c->command); i++)
		at += (size_t)snprintf(c->command + at, sizeof(c->command) - at, " %s", argv[i]);
	if (uname(&u) == 0) {
		snprintf(c->kernel, sizeof(c->kernel), "%s %s", u.release, u.machine);
		snprintf(c->host, sizeof(c->host), "%s", u.nodename);
	}
	utc(c->date, sizeof(c->date), "", time(NULL));
}

void caption_file(struct svg_caption *c, const struct pd_file *pf, const char *path)
{
	struct stat st;

	memset(c, 0, sizeof(*c));
	snprintf(c->command, sizeof(c->command), "%s (recorded in %s)",
		 pf->cmdline[0] ? pf->cmdline : "not in the file", path);
	snprintf(c->kernel, sizeof(c->kernel), "%s%s%s",
		 pf->osrelease[0] ? pf->osrelease : "not in the file", pf->arch[0] ? " " : "",
		 pf->arch);
	snprintf(c->host, sizeof(c->host), "%s", pf->hostname[0] ? pf->hostname : "not in the file");
	if (stat(path, &st) == 0)
		utc(c->date, sizeof(c->date), "recorded ", st.st_mtime);
	if (pf->end_missing)
		snprintf(c->ended, sizeof(c->ended), "the recording's end is missing: a write failed");
	else if (pf->copy_cut)
		snprintf(c->ended, sizeof(c->ended), "the file is cut short: read to its last whole "
			 "record");
	else if (pf->cut_short)
		snprintf(c->ended, sizeof(c->ended), "the recording never finished: read to its last "
			 "whole record");
}
