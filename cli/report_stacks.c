/* report_stacks.c - locus report's --folded and --flame outputs (report_stacks.h). */
#include "report_stacks.h"

#include <string.h>

#include "counting.h"

int stacks_take(struct stacks_plan *p, const struct cli_cmd *cmd, int code, const char *arg)
{
	struct stacks_out o = { 0 };
	const char *eq;

	if (code == OPT_ST_ADDRS) {
		p->addresses = true;
		return 1;
	}
	if (code != OPT_ST_FOLDED && code != OPT_ST_FLAME)
		return 0;
	eq = strchr(arg, '=');
	if (!eq || stacks_out_view(&o, arg, (size_t)(eq - arg)) < 0 || !eq[1]) {
		cli_usage_error(cmd, "bad --%s '%s' (KIND=FILE, KIND one of wakers, blocked, "
				"offwake, blocked-time, offwake-time)",
				code == OPT_ST_FLAME ? "flame" : "folded", arg);
		return -1;
	}
	if (p->n == STACKS_OUT_MAX) {
		cli_usage_error(cmd, "more than %d --folded and --flame outputs", STACKS_OUT_MAX);
		return -1;
	}
	if (cli_check_output(cmd, eq + 1) < 0)
		return -1;
	o.flame = code == OPT_ST_FLAME;
	o.path = eq + 1;
	p->out[p->n++] = o;
	return 1;
}
