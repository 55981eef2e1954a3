/* cacheline_report.c - render the cacheline analysis. */
#include "cacheline_report.h"

#include <inttypes.h>
#include <string.h>

#include "../common/util.h"

#define JSON_LINES 100


static void nodes_text(uint64_t nodes, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int n = 0; n < 64 && o + 4 < len; n++)
		if (nodes >> n & 1)
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", n);
	if (!o)
		snprintf(buf, len, "-");
}

/*
 * A set in at most width columns: whole numbers, then "+N" for those left out
 * ("+" alone when the set itself overflowed); a number is never cut.
 */
static void set_text(const struct cl_set *s, int width, char *buf, size_t len)
{
	char one[32], tail[16];
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < s->len; i++) {
		int l = snprintf(one, sizeof(one), "%s%" PRIu64, i ? "," : "", s->v[i]);
		int left = s->len - i - 1;
		int need = left || s->more ? snprintf(tail, sizeof(tail), ",+%d", left + 1) : 0;

		if ((int)o + l + need > width && (i || (int)o + l > width))
			break;
		if (o + (size_t)l + 1 >= len)
			break;
		memcpy(buf + o, one, (size_t)l + 1);
		o += (size_t)l;
	}
	if (i < s->len)
		snprintf(buf + o, len - o, "%s+%d%s", i ? "," : "", s->len - i, s->more ? "+" : "");
	else if (s->more)
		snprintf(buf + o, len - o, ",+");
}

void cacheline_report_unsupported(FILE *f, const char *why)
{
	fputc('\n', f);
	fprint_folded(f, " Cachelines: not supported: ", why, 3, 80);
}

/*
 * The code column (the last of its row): names where the maps allow, else
 * addresses, each whole; those beyond width are counted ("+2 more"), never cut.
 */
static void code_text(const struct symbolizer *syms, const struct cl_set *s, int width, char *buf,
		      size_t len)
{
	size_t o = 0;
	char name[256], one[280];
	int i;

	buf[0] = '\0';
	for (i = 0; i < s->len; i++) {
		const char *n = symbolize(syms, s->v[i], name, sizeof(name));
		int l;

		if (n) /* the function alone */
			l = snprintf(one, sizeof(one), "%s%.*s", i ? "," : "", (int)strcspn(n, "+ "), n);
		else
			l = snprintf(one, sizeof(one), "%s0x%" PRIx64, i ? "," : "", s->v[i]);
		/* the first always goes in; a later one leaves room for " +N" */
		if (i && (int)o + l + (i + 1 < s->len || s->more ? 4 : 0) > width)
			break;
		if (o + (size_t)l + 1 >= len)
			break;
		memcpy(buf + o, one, (size_t)l + 1);
		o += (size_t)l;
	}
	if (i < s->len || s->more) { /* " +2 more" where it fits, else " +2" */
		char more[24];
		int k = snprintf(more, sizeof(more), " +%d%s more", s->len - i, s->more ? "+" : "");

		if ((int)o + k > width)
			k = snprintf(more, sizeof(more), " +%d%s", s->len - i, s->more ? "+" : "");
		if (o + (size_t)k < len)
			memcpy(buf + o, more, (size_t)k + 1);
	}
}

/* Prose within 80 columns: first line after lead, the rest indented under it. */
static void print_wrapped(FILE *f, const char *lead, const char *text)
{
	size_t indent = strlen(lead), width = 80 - indent;

	fputs(lead, f);
	while (strlen(text) > width) {
		size_t cut = width;

		while (cut > 0 && text[cut] != ' ')
			cut--;
		if (cut == 0)
			break;
		fprintf(f, "%.*s\n%*s", (int)cut, text, (int)indent, "");
		text += cut + 1;
	}
	fprintf(f, "%s\n", text);
}

void cacheline_report_text(FILE *f, const struct cacheline *c, const struct symbolizer *syms)
{
	const struct mem_stats *t = &c->total;
	char a[32], b[32], d[32], e[32];

	fprintf(f, "\n Cachelines: %s memory samples (%s loads, %s stores)\n",
		fmt_count(t->samples, a, sizeof(a)), fmt_count(t->loads, b, sizeof(b)),
		fmt_count(t->stores, d, sizeof(d)));
	fprintf(f, "   %s placed on %d lines of %u bytes\n", fmt_count(c->placed, e, sizeof(e)),
		cacheline_count(c), c->cfg.line_size);
	fprintf(f, "   HITM %s (local %s, remote %s)", fmt_count(mem_stats_hitm(t), a, sizeof(a)),
		fmt_count(t->lcl_hitm, b, sizeof(b)), fmt_count(t->rmt_hitm, d, sizeof(d)));
	if (t->ld_noaddr + t->st_noaddr + t->unparsable)
		fprintf(f, "; %s without a data address, %s unparsable",
			fmt_count(t->ld_noaddr + t->st_noaddr, a, sizeof(a)),
			fmt_count(t->unparsable, b, sizeof(b)));
	fputc('\n', f);
	if (!c->nlines)
		return;
	if (!mem_stats_hitm(&c->lines[0].st))
		fprintf(f, "   no line saw a HITM: the busiest lines by samples follow\n");
	fprintf(f, "\n   %2s %-16s %6s %6s %6s %6s %6s %7s %-5s\n", "#", "line", "HITM", "local",
		"remote", "loads", "stores", "st L1%", "nodes");
	for (int i = 0; i < c->nlines && i < CL_REPORT_LINES; i++) {
		const struct cl_line *l = &c->lines[i];
		char nodes[64], verdict[512], sh[16];

		/* lines without HITM are the noise a c2c table leaves out */
		if (i >= 3 && !mem_stats_hitm(&l->st))
			break;
		nodes_text(l->nodes, nodes, sizeof(nodes));
		fprintf(f, "   %2d 0x%-14" PRIx64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
			   " %6" PRIu64 " %7s %-5s\n",
			i + 1, l->addr, mem_stats_hitm(&l->st), l->st.lcl_hitm, l->st.rmt_hitm,
			l->st.loads, l->st.stores,
			fmt_share((double)l->st.st_l1hit, (double)l->st.stores, 1, sh, sizeof(sh)),
			nodes);
		fprintf(f, "      %-6s %6s %6s %6s %5s  %-14s %-8s %s\n", "offset", "HITM", "stores",
			"loads", "lat", "threads", "CPUs", "code");
		for (int k = 0; k < l->noff; k++) {
			const struct cl_offset *o = &l->off[k];
			char tids[64], cpus[64], ips[320], off[16], lat[16], sh2[16];

			set_text(&o->tids, 14, tids, sizeof(tids));
			set_text(&o->cpus, 8, cpus, sizeof(cpus));
			code_text(syms, &o->ips, 15, ips, sizeof(ips)); /* to column 80 */
			snprintf(off, sizeof(off), "+0x%x", o->offset);
			if (o->lat_n)
				fmt_count(o->lat_sum / o->lat_n, lat, sizeof(lat));
			else
				snprintf(lat, sizeof(lat), "-");
			/* the offset's shares of the line's HITM and stores */
			fprintf(f, "      %-6s %6s %6s %6" PRIu64 " %5.5s  %-14s %-8s %s\n",
				off,
				fmt_share((double)mem_stats_hitm(&o->st),
					  (double)mem_stats_hitm(&l->st), 1, sh, sizeof(sh)),
				fmt_share((double)o->st.stores, (double)l->st.stores, 1, sh2,
					  sizeof(sh2)),
				o->st.loads, lat, tids, cpus, ips);
		}
		cl_verdict_text(c, l, verdict, sizeof(verdict));
		print_wrapped(f, "      => ", verdict);
		if (symbolize(syms, l->addr + l->off[0].offset, verdict,
					   sizeof(verdict)))
			fprintf(f, "      data: %s\n", verdict);
		fputc('\n', f);
	}
	fprintf(f, "   %d lines in all (the JSON output has the first %d)\n", cacheline_count(c),
		JSON_LINES);
}

static void stats_json(struct json *j, const struct mem_stats *s)
{
	json_object(j, "hitm");
	json_uint(j, "local", s->lcl_hitm);
	json_uint(j, "remote", s->rmt_hitm);
	json_object_end(j);
	json_uint(j, "loads", s->loads);
	json_uint(j, "stores", s->stores);
	json_object(j, "loads_by_level");
	json_uint(j, "l1", s->ld_l1hit);
	json_uint(j, "lfb", s->ld_fbhit);
	json_uint(j, "l2", s->ld_l2hit);
	json_uint(j, "llc", s->ld_llchit);
	json_uint(j, "local_dram", s->lcl_dram);
	json_uint(j, "remote_dram", s->rmt_dram);
	json_uint(j, "remote_cache_hit", s->rmt_hit);
	json_object_end(j);
	json_object(j, "store_l1");
	json_uint(j, "hit", s->st_l1hit);
	json_uint(j, "miss", s->st_l1miss);
	json_object_end(j);
}

static void set_json(struct json *j, const char *key, const struct cl_set *s, bool hex)
{
	char buf[32];

	json_array(j, key);
	for (int i = 0; i < s->len; i++) {
		if (hex) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, s->v[i]);
			json_string(j, NULL, buf);
		} else {
			json_uint(j, NULL, s->v[i]);
		}
	}
	json_array_end(j);
}

static void symbols_json(struct json *j, const struct symbolizer *syms, const struct cl_set *s)
{
	char name[256];

	json_array(j, "symbols");
	for (int i = 0; i < s->len; i++) {
		const char *n = symbolize(syms, s->v[i], name, sizeof(name));

		if (n)
			json_string(j, NULL, n);
	}
	json_array_end(j);
}

void cacheline_report_json_members(struct json *j, const struct cacheline *c,
				   const struct symbolizer *syms)
{
	const struct mem_stats *t = &c->total;
	char buf[512];

	json_object(j, "memory");
	json_uint(j, "samples", t->samples);
	json_uint(j, "placed", c->placed);
	json_uint(j, "no_address", t->ld_noaddr + t->st_noaddr);
	json_uint(j, "unparsable", t->unparsable);
	json_uint(j, "line_size", c->cfg.line_size);
	json_int(j, "lines", cacheline_count(c));
	stats_json(j, t);
	json_object_end(j);
	json_array(j, "cachelines");
	for (int i = 0; i < c->nlines && i < JSON_LINES; i++) {
		const struct cl_line *l = &c->lines[i];

		json_object(j, NULL);
		snprintf(buf, sizeof(buf), "0x%" PRIx64, l->addr);
		json_string(j, "address", buf);
		stats_json(j, &l->st);
		json_string(j, "verdict", cl_verdict_name(l->verdict));
		cl_verdict_text(c, l, buf, sizeof(buf));
		json_string(j, "verdict_text", buf);
		json_array(j, "offsets");
		for (int k = 0; k < l->noff; k++) {
			const struct cl_offset *o = &l->off[k];

			json_object(j, NULL);
			json_uint(j, "offset", o->offset);
			json_uint(j, "loads", o->st.loads);
			json_uint(j, "stores", o->st.stores);
			if (l->st.stores)
				json_number(j, "store_share",
					    (double)o->st.stores / (double)l->st.stores);
			if (mem_stats_hitm(&l->st))
				json_number(j, "hitm_share", (double)mem_stats_hitm(&o->st) /
								 (double)mem_stats_hitm(&l->st));
			json_object(j, "hitm");
			json_uint(j, "local", o->st.lcl_hitm);
			json_uint(j, "remote", o->st.rmt_hitm);
			json_object_end(j);
			if (o->lat_n)
				json_number(j, "mean_load_latency", (double)o->lat_sum / (double)o->lat_n);
			set_json(j, "tids", &o->tids, false);
			set_json(j, "writers", &o->writers, false);
			set_json(j, "cpus", &o->cpus, false);
			set_json(j, "code", &o->ips, true);
			symbols_json(j, syms, &o->ips);
			if (symbolize(syms, l->addr + o->offset, buf, sizeof(buf)))
				json_string(j, "data_symbol", buf);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}
