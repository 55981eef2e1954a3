/* stat_doc.c - the counting report written: text and JSON, each to its file (stat_report.h). */
#include <string.h>

#include "../common/outfile.h"
#include "../common/util.h"
#include "stat_report.h"

struct report_job {
	const struct stat_result *res;
	const struct stat_report_ctx *ctx;
	const struct report_extra *extra;
};

static void json_doc(FILE *f, void *arg)
{
	const struct report_job *job = arg;
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "locus_version", LOCUS_VERSION);
	stat_report_json_members(&j, job->res, job->ctx);
	if (job->extra && job->extra->json)
		job->extra->json(&j, job->extra->ctx);
	json_object_end(&j);
	json_end(&j);
}

static void text_doc(FILE *f, void *arg)
{
	const struct report_job *job = arg;

	if (!job->extra || job->extra->counters)
		stat_report_text(f, job->res, job->ctx);
	if (job->extra && job->extra->text)
		job->extra->text(f, job->extra->ctx);
}

int stat_report_write(const struct stat_result *res, const struct stat_report_ctx *ctx,
		      const struct report_extra *extra, const char *out_path, const char *json_path)
{
	struct report_job job = { res, ctx, extra };
	int rc = 0;

	if (out_path) {
		if (write_file_atomically(out_path, text_doc, &job) < 0) {
			locus_err("the report follows on standard output instead");
			text_doc(stdout, &job);
			rc = -1;
		}
	} else if (!(json_path && !strcmp(json_path, "-"))) {
		text_doc(stdout, &job);
	}
	if (json_path && write_file_atomically(json_path, json_doc, &job) < 0)
		rc = -1;
	return rc;
}
