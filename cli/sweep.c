/* sweep.c - `locus run -r N --sweep ... --metric ...`: options checked, the loop run, reports. */
#include "sweep.h"

#include <stdio.h>
#include <string.h>

#include "../common/exitcodes.h"
#include "../report/sweep_report.h"
#include "../pipeline/bench_loop.h"
#include "../pipeline/bench_plan.h"
#include "traced.h"

int sweep_check(const struct cli_cmd *cmd, const struct sweep_opts *so, char **cmdv)
{
	struct bench_plan bp = { so->sweep, so->metric, so->direction, 0, 0, NULL };
	char why[320];

	if (!cmdv || !cmdv[0]) {
		cli_usage_error(cmd, "-r, --sweep and --metric need a command after --");
		return -1;
	}
	if (bench_plan_check(&bp, cmdv, why, sizeof(why)) < 0) {
		cli_usage_error(cmd, "%s", why);
		return -1;
	}
	return 0;
}

/* The JSON file the runs go to as they end. */
struct sweep_json {
	const char *path;	/* --json, or NULL; "-" waits for the end */
	bool failed;		/* it could not be written (said once) */
};

static void run_done(struct bench_loop *lp)
{
	struct sweep_json *sj = lp->ctx;

	/* every run goes to the file as soon as it is done: a later failure loses nothing */
	if (sj->path && strcmp(sj->path, "-") && !sj->failed &&
	    sweep_report_json_file(sj->path, lp->set) < 0)
		sj->failed = true;
}

int sweep_main(const struct counting_opts *o, const struct sweep_opts *so, char **cmdv,
	       const struct topology *topo)
{
	struct sweep_set set = { 0 };
	struct metric metric = { 0 };
	struct sweep_json sj = { o->json_path, false };
	struct session_cfg cfg;
	struct source_cfg tc;
	struct bench_plan bp = { so->sweep, so->metric, so->direction, (int)o->repeat, so->argc,
				 so->argv };
	struct bench_loop lp;
	int rc;

	bench_loop_setup(&set, &metric, &bp, topo, cmdv);
	counting_session(o, cmdv, &cfg);
	cfg.derive_software = !o->events;
	traced_source_cfg(&tc, o, &so->tr, &so->col, topo);
	lp = (struct bench_loop){ .set = &set, .metric = &metric, .session = &cfg, .trace = &tc,
				  .quiet = o->quiet, .show_output = so->show_output,
				  .run_done = run_done, .ctx = &sj };
	bench_loop_run(&lp, cmdv);
	rc = sweep_report_write(&set, o->out_path, o->json_path, so->svg) < 0;
	rc = bench_loop_status(&lp, sj.path, sj.failed, rc ? EXIT_LOCUS_RUNTIME : EXIT_LOCUS_OK);
	if (set.have_metric)
		metric_release(&metric);
	sweep_set_release(&set);
	return rc;
}
