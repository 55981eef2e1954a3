/* sweep_report.c - the benchmark loop as text tables and as JSON. */
#include "prov_report.h"
#include "sweep_report.h"

#include <string.h>

#include "../common/outfile.h"
#include "../common/util.h"
#include "json.h"

/* Measures some run of the set has, metric first. */
static int present(const struct sweep_set *s, int *cols)
{
	int n = 0;

	for (int m = 0; m < M_NR; m++) {
		bool any = false;

		for (int i = 0; i < s->nruns && !any; i++)
			any = s->runs[i].have[m];
		if (any)
			cols[n++] = m;
	}
	return n;
}

const char *sweep_measure_label(const struct sweep_set *s, int m)
{
	if (m == M_METRIC)
		return s->metric_unit[0] ? s->metric_unit : "metric";
	return measure_info((enum measure)m)->label;
}

const char *sweep_measure_words(const struct sweep_set *s, int m)
{
	switch (m) {
	case M_METRIC:
		return s->metric_name[0] ? s->metric_name : s->metric_unit[0] ? s->metric_unit :
		       "metric";
	case M_S_migrations:
		return "migrations/s";
	case M_S_wakeups:
		return "wakeups/s";
	case M_CS:
		return "switches/s";
	case M_SAME_CPU:
		return "same-CPU wakeups";
	case M_SMT:
		return "SMT-sibling wakeups";
	case M_LLC:
		return "shared-LLC wakeups";
	case M_NODE:
		return "same-node wakeups";
	case M_REMOTE:
		return "other-node wakeups";
	case M_P99:
		return "p99 wake-to-run";
	case M_IDLE_PCT:
		return "wakeups that passed over an idle CPU";
	case M_HITM:
		return "HITM/s";
	case M_ELAPSED:
		return "wall time";
	default:
		return measure_info((enum measure)m)->label;
	}
}

const char *sweep_measure_text(const struct sweep_set *s, int m, double v, char *buf,
			       size_t len)
{
	(void)s;
	if (m == M_P99) /* microseconds: in a duration's units */
		return fmt_ns(v > 0 ? (uint64_t)(v * 1e3 + 0.5) : 0, buf, len);
	if (v != 0 && v < 100 && v > -100)
		snprintf(buf, len, v < 10 && v > -10 ? "%.3f" : "%.2f", v);
	else
		fmt_short(v, buf, len);
	return buf;
}

void sweep_legend(FILE *f, const struct sweep_set *s, const int *cols, int n)
{
	char text[1200];
	size_t at = 0;
	bool classes = false;

	for (int c = 0; c < n && at < sizeof(text); c++) {
		int m = cols[c];
		const char *what = sweep_measure_words(s, m), *sep = at ? "; " : "";

		if (m >= M_SAME_CPU && m <= M_REMOTE) { /* the classes, once */
			if (!classes)
				at += (size_t)snprintf(text + at, sizeof(text) - at, "%ssame%%..rmt%%: "
						       "wakeups by where the target CPU lies from "
						       "the waker's", sep);
			classes = true;
		} else if (m == M_METRIC) {
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s: %s (the metric)",
					       sep, sweep_measure_label(s, m), what);
		} else if (m == M_ELAPSED) {
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s: each run's "
					       "elapsed time in seconds", sep,
					       sweep_measure_label(s, m));
		} else if (strcmp(what, sweep_measure_label(s, m))) {
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s: %s", sep,
					       sweep_measure_label(s, m), what);
		}
	}
	if (at)
		fprint_folded(f, "   columns: ", text, 5, 80);
}

/* A column's width: the metric's and a duration's 9, the rest 7. */
static int col_width(const int *cols, int c)
{
	return (c == 0 && cols[0] == M_METRIC) || cols[c] == M_P99 ? 9 : 7;
}

/* A cell of the loop's table: the measure's value in its units, right-aligned. */
static void cell(FILE *f, const struct sweep_set *s, int m, int width, double v)
{
	char buf[32];

	fprintf(f, " %*s", width, sweep_measure_text(s, m, v, buf, sizeof(buf)));
}

void sweep_report_text(FILE *f, const struct sweep_set *s)
{
	int cols[M_NR], ncols = present(s, cols);

	fprintf(f, "\n Benchmark loop: %s\n", s->command);
	if (s->have_metric)
		fprintf(f, "   metric: %s (%s is better)\n", s->metric_name,
			s->metric_higher ? "higher" : "lower");
	if (s->hitm_why[0]) {
		char t[400];

		snprintf(t, sizeof(t), "not supported: %s", s->hitm_why);
		fprint_folded(f, "   HITM/s: ", t, 5, 80);
	}
	if (s->prov.source != PROV_NONE)
		fprintf(f, "   measured by %s, CPUs %s%s%s, delays %s%s\n",
			prov_source_name(s->prov.source), s->prov.cpus_honored,
			s->prov.affinity[0] ? ", the workload's affinity " : "", s->prov.affinity,
			prov_delay_key(s->prov.delay), s->prov.sample_every > 1 ? " (sampled)" : "");
	if (s->prov.source != PROV_NONE && s->prov.sample_every > 1)
		fprintf(f, "   1 wakeup in %u timed on each CPU, every one the same chance: idle%% is a\n"
			   "   sample's share, its 95%% interval in the JSON (ci95 of each run)\n",
			s->prov.sample_every);
	if (ncols)
		sweep_legend(f, s, cols, ncols);
	for (int v = 0; v < s->nvalues; v++) {
		const char *val = s->values[v];

		if (s->sweep_name[0])
			fprintf(f, "\n %s=%s\n", s->sweep_name, val);
		else
			fprintf(f, "\n");
		fprintf(f, "   %-7s", "run");
		for (int c = 0; c < ncols; c++)
			fprintf(f, " %*s", col_width(cols, c), sweep_measure_label(s, cols[c]));
		fprintf(f, "\n");
		for (int i = 0; i < s->nruns; i++) {
			const struct sweep_run *r = &s->runs[i];

			if (strcmp(r->value, val))
				continue;
			fprintf(f, "   %-7d", r->rep);
			for (int c = 0; c < ncols; c++) {
				int w = col_width(cols, c);

				if (r->have[cols[c]])
					cell(f, s, cols[c], w, r->m[cols[c]]);
				else
					fprintf(f, " %*s", w, "-");
			}
			if (r->interrupted)
				fprintf(f, "  interrupted (exit %d)", r->exit_code);
			else if (!r->ok)
				fprintf(f, "  failed (exit %d)", r->exit_code);
			fprintf(f, "\n");
		}
		for (int row = 0; row < 2; row++) {
			fprintf(f, "   %-7s", row ? "stddev%" : "mean");
			for (int c = 0; c < ncols; c++) {
				struct measure_sum ms;
				int w = col_width(cols, c);

				sweep_summarize(s->runs, s->nruns, val, (enum measure)cols[c], &ms);
				if (!ms.n || (row && (ms.n < 2 || ms.mean == 0)))
					fprintf(f, " %*s", w, "-");
				else if (row)
					fprintf(f, " %*.1f", w, 100.0 * ms.stddev / ms.mean);
				else
					cell(f, s, cols[c], w, ms.mean);
			}
			fprintf(f, "\n");
		}
	}
}

void sweep_report_json(FILE *f, const struct sweep_set *s)
{
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "format", "locus-sweep-1");
	json_object(&j, "env");
	json_string(&j, "locus_version", s->version);
	json_string(&j, "kernel", s->kernel);
	json_string(&j, "hostname", s->hostname);
	json_string(&j, "cpu_model", s->cpu_model);
	json_string(&j, "topology", s->topology);
	json_string(&j, "command_line", s->cmdline);
	json_string(&j, "time", s->time);
	json_object_end(&j);
	json_string(&j, "command", s->command);
	json_object(&j, "metric");
	json_bool(&j, "present", s->have_metric);
	json_string(&j, "name", s->metric_name);
	json_string(&j, "unit", s->metric_unit);
	json_bool(&j, "higher_is_better", s->metric_higher);
	json_object_end(&j);
	json_object(&j, "sweep");
	json_string(&j, "name", s->sweep_name);
	json_array(&j, "values");
	for (int v = 0; v < s->nvalues; v++)
		json_string(&j, NULL, s->values[v]);
	json_array_end(&j);
	json_int(&j, "repeat", s->repeat);
	json_object_end(&j);
	if (s->hitm_why[0])
		json_string(&j, "hitm_unsupported", s->hitm_why);
	if (s->prov.source != PROV_NONE) {
		json_object(&j, "provenance");
		prov_json_members(&j, &s->prov);
		json_object_end(&j);
	}
	json_array(&j, "runs");
	for (int i = 0; i < s->nruns; i++) {
		const struct sweep_run *r = &s->runs[i];

		json_object(&j, NULL);
		json_string(&j, "value", r->value);
		json_int(&j, "run", r->rep);
		json_int(&j, "exit_code", r->exit_code);
		json_bool(&j, "ok", r->ok);
		if (r->interrupted)
			json_bool(&j, "interrupted", true);
		if (r->dropped >= 0)
			json_int(&j, "dropped", r->dropped);
		json_object(&j, "measures");
		for (int m = 0; m < M_NR; m++)
			if (r->have[m])
				json_number(&j, measure_info((enum measure)m)->key, r->m[m]);
		json_object_end(&j);
		json_object(&j, "ci95"); /* sampled measures: the sample's own 95% interval */
		for (int m = 0; m < M_NR; m++)
			if (r->have[m] && r->have_ci[m]) {
				json_array(&j, measure_info((enum measure)m)->key);
				json_number(&j, NULL, r->lo[m]);
				json_number(&j, NULL, r->hi[m]);
				json_array_end(&j);
			}
		json_object_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_end(&j);
}

static void json_file(FILE *f, void *ctx)
{
	sweep_report_json(f, ctx);
}

static void sweep_svg_doc(FILE *f, void *ctx)
{
	sweep_report_svg(f, ctx);
}

static void text_file(FILE *f, void *ctx)
{
	sweep_report_text(f, ctx);
}

int sweep_report_json_file(const char *path, struct sweep_set *s)
{
	return write_file_atomically(path, json_file, s);
}

int sweep_report_write(struct sweep_set *s, const char *out_path, const char *json_path,
		       const char *svg)
{
	int rc = 0;

	if (out_path) {
		if (write_file_atomically(out_path, text_file, s) < 0) {
			locus_err("the report follows on standard output instead");
			sweep_report_text(stdout, s);
			rc = -1;
		}
	} else if (!(json_path && !strcmp(json_path, "-"))) {
		sweep_report_text(stdout, s);
	}
	if (json_path && !strcmp(json_path, "-"))
		sweep_report_json(stdout, s);
	if (svg && write_file_atomically(svg, sweep_svg_doc, s) < 0)
		rc = -1;
	return rc;
}
