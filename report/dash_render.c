/* dash_render.c - the dashboard's layout, header, footer, help and keys. */
#include "dash.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "dash_panes.h"
#include "prov_report.h"

#define MIN_W 40
#define MIN_H 12

/*
 * The antagonists pane's height below the tasks and CPUs (bottom rows): up to want inner
 * rows while those keep keep rows, else none (the tasks and CPUs come first).
 */
static int blame_rows(int bottom, int want, int keep)
{
	int ph = want + 2, cap = bottom / 2 > 3 ? bottom / 2 : 3;

	if (!want || bottom - keep < 3)
		return 0;
	if (ph > bottom - keep)
		ph = bottom - keep;
	return ph > cap ? cap : ph;
}

/* A pane wanted but left out: one row to say so (see dash_layout). */
static void note_row(struct dash_layout *l, int w, int blame)
{
	int y = l->footer.y - 1;

	if ((!blame || l->blame.h) && l->tasks.h)
		return;
	if (l->tasks.h >= 4 && l->tasks.y + l->tasks.h - 1 == y) {
		l->tasks.h--;
		l->cpus.h--;
		l->note = (struct dash_rect){ 0, y, l->tasks.w + l->cpus.w, 1 };
	} else if (!l->tasks.h && l->locality.y + l->locality.h <= y) {
		l->note = (struct dash_rect){ 0, y, w, 1 };
	} else {
		l->note = l->footer;
		l->footer.h = 0;
	}
}

bool dash_wide(int w, int h)
{
	return w >= 160 && h >= 30;
}

void dash_layout(int w, int h, int blame, bool blame_data, struct dash_layout *l)
{
	/* with its data it may leave the tasks a pair to show; a reason alone, more */
	int body, rest, top, left, ph, keep = blame_data ? 5 : 8;

	memset(l, 0, sizeof(*l));
	if (w < MIN_W || h < MIN_H) {
		l->too_small = true;
		return;
	}
	l->header = (struct dash_rect){ 0, 0, w, 2 };
	l->footer = (struct dash_rect){ 0, h - 1, w, 1 };
	body = h - 3;
	if (dash_wide(w, h)) {
		/* wide: the heatmap takes the right side, top to bottom */
		int lw = w * 11 / 20, tw = lw * 3 / 5;

		ph = blame_rows(body - 13, blame, keep);
		l->counters = (struct dash_rect){ 0, 2, lw, 8 };
		l->locality = (struct dash_rect){ 0, 10, lw, 5 };
		l->tasks = (struct dash_rect){ 0, 15, tw, body - 13 - ph };
		l->cpus = (struct dash_rect){ tw, 15, lw - tw, body - 13 - ph };
		if (ph)
			l->blame = (struct dash_rect){ 0, 2 + body - ph, lw, ph };
		l->heatmap = (struct dash_rect){ lw, 2, w - lw, body };
		note_row(l, w, blame);
		return;
	}
	rest = body - 5;			/* the locality pane: a frame around 3 rows */
	/* the antagonists' rows come from the counters' and heatmap's share */
	top = blame && blame_data ? rest * 2 / 5 : rest * 11 / 20;
	if (top < 8)
		top = rest < 8 ? rest : 8;	/* six counters in a frame */
	left = w / 2 < 64 ? w / 2 : 64;
	l->counters = (struct dash_rect){ 0, 2, left, top };
	l->heatmap = (struct dash_rect){ left, 2, w - left, top };
	l->locality = (struct dash_rect){ 0, 2 + top, w, 5 };
	ph = blame_rows(rest - top, blame, keep);
	if (rest - top - ph >= 4) {
		int tw = w * 3 / 5;

		l->tasks = (struct dash_rect){ 0, 7 + top, tw, rest - top - ph };
		l->cpus = (struct dash_rect){ tw, 7 + top, w - tw, rest - top - ph };
	}
	if (ph)
		l->blame = (struct dash_rect){ 0, 2 + body - ph, w, ph };
	note_row(l, w, blame);
}

int dash_pane_rows(int w, int h, enum dash_pane p)
{
	struct dash_layout l;
	const struct dash_rect *r[PANE_NR] = { &l.counters, &l.heatmap, &l.tasks, &l.cpus,
						&l.blame };

	dash_layout(w, h, 0, false, &l);
	return l.too_small || r[p]->h < 3 ? 0 : r[p]->h - 2;
}

bool dash_not_traced(struct canvas *c, int x, int y, int w, int rows, const struct dash_view *v)
{
	char buf[320];

	if (!v->why_not)
		return false;
	snprintf(buf, sizeof(buf), "not traced: %s", v->why_not);
	canvas_wrap(c, x, y, w, rows, CV_DIM, buf);
	return true;
}

int dash_first_row(int scroll, int n, int rows)
{
	int max = n - rows;

	if (max < 0)
		max = 0;
	return scroll < 0 ? 0 : scroll > max ? max : scroll;
}

const char *dash_fmt_ns(uint64_t ns, char *buf, size_t len)
{
	return fmt_ns_short((double)ns, buf, len);
}

const char *dash_fmt_rate(const struct dash_view *v, uint64_t count, char *buf, size_t len)
{
	if (v->span_s <= 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	return fmt_short((double)count / v->span_s, buf, len);
}

static bool blame_on(const struct dash_ui *ui)
{
	return ui->blame_pane && !ui->blame_hidden;
}

/* The pane d steps from the focused one (1: next, -1: before), skipping a hidden one. */
static int focus_step(const struct dash_ui *ui, int d)
{
	int f = (ui->focus + PANE_NR + d) % PANE_NR;

	if (f == PANE_BLAME && !blame_on(ui))
		f = (f + PANE_NR + d) % PANE_NR;
	return f;
}

enum dash_action dash_key(struct dash_ui *ui, int key)
{
	if (ui->help && key != 'q' && key != 'Q') {
		ui->help = false; /* any key closes the help */
		return DASH_REDRAW;
	}
	switch (key) {
	case 'q':
	case 'Q':
		return DASH_QUIT;
	case ' ':
		ui->paused = !ui->paused;
		return DASH_PAUSE;
	case '\t':
	case DASH_KEY_TAB:
		ui->focus = focus_step(ui, 1);
		return DASH_REDRAW;
	case DASH_KEY_BTAB:
		ui->focus = focus_step(ui, -1);
		return DASH_REDRAW;
	case '1': case '2': case '3': case '4':
		ui->focus = key - '1';
		return DASH_REDRAW;
	case '5':
		if (!blame_on(ui))
			return DASH_NONE;
		ui->focus = PANE_BLAME;
		return DASH_REDRAW;
	case 'a':
		if (!ui->blame_pane)
			return DASH_NONE;
		ui->blame_hidden = !ui->blame_hidden;
		if (ui->blame_hidden && ui->focus == PANE_BLAME)
			ui->focus = PANE_COUNTERS;
		return DASH_REDRAW;
	case 's': /* the antagonists: by wait inflicted or wakeups delayed; the others three */
		ui->sort[ui->focus] = (ui->sort[ui->focus] + 1) % (ui->focus == PANE_BLAME ? 2 : 3);
		ui->scroll[ui->focus] = 0;
		return DASH_REDRAW;
	case 'i':
		ui->cumulative = !ui->cumulative;
		return DASH_REDRAW;
	case 'r':
		return DASH_RESET;
	case 'h':
	case '?':
		ui->help = true;
		return DASH_REDRAW;
	case 'o':
		ui->output = !ui->output;
		return DASH_REDRAW;
	case DASH_KEY_UP:
		ui->scroll[ui->focus] -= ui->scroll[ui->focus] > 0;
		return DASH_REDRAW;
	case DASH_KEY_DOWN:
		ui->scroll[ui->focus]++; /* clamped when drawn */
		return DASH_REDRAW;
	case DASH_KEY_PGUP:
		ui->scroll[ui->focus] -= 10;
		if (ui->scroll[ui->focus] < 0)
			ui->scroll[ui->focus] = 0;
		return DASH_REDRAW;
	case DASH_KEY_PGDN:
		ui->scroll[ui->focus] += 10;
		return DASH_REDRAW;
	case DASH_KEY_HOME:
		ui->scroll[ui->focus] = 0;
		return DASH_REDRAW;
	}
	return DASH_NONE;
}

void dash_shorten(const char *cmd, int room, char *out, size_t len)
{
	size_t n = strlen(cmd), cut;

	if (room < 0)
		room = 0;
	if ((int)n <= room) {
		snprintf(out, len, "%s", cmd);
		return;
	}
	/* the longest prefix of whole arguments that leaves room for " ..." */
	cut = room > 4 ? (size_t)room - 4 : 0;
	while (cut > 0 && cmd[cut] != ' ')
		cut--;
	if (cut == 0) { /* the first argument alone is too long: cut it, marked */
		cut = room > 3 ? (size_t)room - 3 : 0;
		snprintf(out, len, "%.*s...", (int)cut, cmd);
		return;
	}
	snprintf(out, len, "%.*s ...", (int)cut, cmd);
}

static void header(struct canvas *c, struct dash_rect r, const struct dash_view *v)
{
	const struct dash_ui *ui = v->ui;
	const struct provenance *p = v->total ? &v->total->prov : NULL;
	uint64_t dropped = v->total ? sched_results_dropped(v->total) : 0;
	char mode[48], lost[32], rest[160], scope[96], cmd[512], what[512] = "", cost[48] = "",
	     smp[72] = "", line[256];
	/* a replayed file's span may be anything: clamped before the conversion (99999 h) */
	int x, room, secs = v->elapsed_s > 0 ? (int)fmin(v->elapsed_s, 359999999.0) : 0;

	if (ui->paused)
		snprintf(mode, sizeof(mode), "[paused]");
	else if (ui->cumulative)
		snprintf(mode, sizeof(mode), "[cumulative]");
	else
		snprintf(mode, sizeof(mode), "[interval %.1f s]", v->interval_s);
	if (p)
		snprintf(rest, sizeof(rest), "  %d:%02d:%02d  CPUs %s  %s%s", secs / 3600,
			 secs / 60 % 60, secs % 60, p->cpus_honored,
			 dropped ? fmt_count(dropped, lost, sizeof(lost)) : "none lost",
			 dropped ? " lost" : "");
	else
		snprintf(rest, sizeof(rest), "  %d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60);
	room = r.w - 10 - (int)strlen(v->state) - 2 - (int)strlen(rest) - (int)strlen(mode) - 1;
	if (p && p->cost.measured) /* the collector's own, where the whole command still fits */
		snprintf(cost, sizeof(cost), "  own cost %.2f%% CPU", 100.0 * prov_cost_share(p));
	if (cost[0] && room - (int)strlen(cost) >= (int)strlen(v->command)) {
		strncat(rest, cost, sizeof(rest) - strlen(rest) - 1);
		room -= (int)strlen(cost);
	}
	x = canvas_text(c, r.x, r.y, 0, CV_BOLD, "locus top ");
	dash_shorten(v->command, room > 8 ? room : 8, cmd, sizeof(cmd));
	x += canvas_text(c, r.x + x, r.y, 0, CV_NORMAL, cmd);
	x += canvas_printf(c, r.x + x, r.y, 0, CV_TITLE, "  %s", v->state);
	x += canvas_text(c, r.x + x, r.y, 0, dropped ? CV_WARN : CV_NORMAL, rest);
	if (r.w - (int)strlen(mode) > x + 1)
		canvas_text(c, r.x + r.w - (int)strlen(mode), r.y, 0,
			    ui->paused ? CV_WARN : CV_FOCUS, mode);
	if (p) {
		int n = snprintf(line, sizeof(line), "%s, %s, delays %s",
				 prov_scope_text(p, scope, sizeof(scope)),
				 prov_source_name(p->source), prov_delay_key(p->delay));
		const char *base = v->output_path ? strrchr(v->output_path, '/') : NULL;
		/* the output file's name (key o) before the sample's detail: the panes say it */
		int need = v->output_path ? (int)strlen(base ? base + 1 : v->output_path) + 14 : 0;

		if (v->total->delays_untimed)
			snprintf(smp, sizeof(smp), " (1 in %u timed, idle counts scaled%s)",
				 p->sample_every, v->blame && v->blame->in_kernel ?
				 ", antagonists sampled" : "");
		if (n + (int)strlen(smp) + need <= r.w && n >= 0 && n < (int)sizeof(line))
			snprintf(line + n, sizeof(line) - (size_t)n, "%s", smp);
		x = canvas_text(c, r.x, r.y + 1, 0, CV_DIM, line);
	}
	else
		x = canvas_text(c, r.x, r.y + 1, 0, CV_WARN, !v->why_not ? "" :
				v->proc_switches ? "sched events: not traced (cs vol/invol: the tasks' "
						   "own accounting in /proc)" :
				"sched events: not traced");
	if (v->cannot && v->cannot[0]) { /* the names only: the reasons are in the panes */
		int at = snprintf(what, sizeof(what), "; cannot measure: "), depth = 0;

		for (const char *q = v->cannot; *q && at < (int)sizeof(what) - 1; q++) {
			depth += *q == '(';
			if (!depth && !(*q == ' ' && q[1] == '('))
				what[at++] = *q;
			depth -= *q == ')' && depth > 0;
		}
		what[at] = '\0';
	}
	if (v->output_path) { /* the whole path where it fits, else the file's name, else the key */
		const char *base = strrchr(v->output_path, '/');
		/* the path before what cannot be measured (the panes say that) */
		const char *show = r.w - x >= (int)strlen(v->output_path) + 14 || !base ?
					   v->output_path : base + 1;

		if (r.w - x >= (int)strlen(show) + 14)
			x += canvas_printf(c, r.x + x, r.y + 1, 0, CV_DIM, "; output: %s (o)", show);
		else
			x += canvas_text(c, r.x + x, r.y + 1, 0, CV_DIM, "; o: output");
	}
	if (what[0] && (int)strlen(what) > r.w - x) { /* cut with "...", or left out */
		if (r.w - x > 30)
			snprintf(what + r.w - x - 3, sizeof(what) - (size_t)(r.w - x - 3), "...");
		else
			what[0] = '\0'; /* the panes say what cannot be measured */
	}
	canvas_text(c, r.x + x, r.y + 1, 0, CV_WARN, what);
}

/* The last lines of the workload's output, over the panes. */
static void output_box(struct canvas *c, const struct dash_view *v)
{
	int w = c->w - 4, h = c->h - 6, x = 2, y = 3, row = 0, n = 0;
	const char *s = v->output_tail ? v->output_tail : "";
	char title[256];

	if (w < 20 || h < 3)
		return;
	for (const char *p = s; *p; p++)
		n += *p == '\n';
	if (*s && s[strlen(s) - 1] != '\n')
		n++;
	for (int i = 0; i < h; i++)
		canvas_fill(c, x, y + i, w, CV_NORMAL, ' ');
	snprintf(title, sizeof(title), "workload output: %s (o closes)", v->output_path);
	canvas_box(c, x, y, w, h, title, true);
	if (!*s) {
		canvas_text(c, x + 2, y + 1, w - 4, CV_DIM, "(nothing written yet)");
		return;
	}
	/* the last h - 2 lines */
	for (int skip = n - (h - 2); skip > 0 && *s; skip--) {
		const char *nl = strchr(s, '\n');

		s = nl ? nl + 1 : s + strlen(s);
	}
	while (*s && row < h - 2) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);
		char line[512];

		snprintf(line, sizeof(line), "%.*s", len, s);
		for (char *q = line; *q; q++)
			if ((unsigned char)*q < 0x20)
				*q = ' '; /* tabs, escapes: never sent to the terminal */
		canvas_text(c, x + 2, y + 1 + row++, w - 4, CV_NORMAL, line);
		s = nl ? nl + 1 : s + len;
	}
}

static void footer(struct canvas *c, struct dash_rect r, const struct dash_ui *ui)
{
	static const char *const keys[][2] = {
		{ "q", "quit" }, { "space", "pause" }, { "tab/1-4", "focus" }, { "s", "sort" },
		{ "i", "interval/total" }, { "r", "reset" }, { "?", "help" }, { "o", "output" },
		{ "arrows", "scroll" },
	};
	int x = r.x;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *k = i == 2 && blame_on(ui) ? "tab/1-5" : keys[i][0];
		int need = (int)(strlen(k) + strlen(keys[i][1])) + 3;

		if (x + need > r.x + r.w)
			break;
		x += canvas_text(c, x, r.y, 0, CV_KEY, k);
		x += canvas_printf(c, x, r.y, 0, CV_DIM, " %s  ", keys[i][1]);
		if (i == 3 && ui->blame_pane && x + 16 <= r.x + r.w) { /* after sort */
			x += canvas_text(c, x, r.y, 0, CV_KEY, "a");
			x += canvas_text(c, x, r.y, 0, CV_DIM, " antagonists  ");
		}
	}
}

static void help(struct canvas *c, const struct dash_ui *ui)
{
	static const char *const lines[] = {
		"q          quit (stops the workload)",
		"space      pause / resume the display",
		"tab, 1-4   focus: counters, heatmap, tasks, CPUs",
		"s          sort the focused pane (heatmap: which",
		"           matrix: wakeups, previous CPU, migrations)",
		"i          last interval / cumulative since start",
		"r          reset: start counting from now",
		"o          the workload's last lines of output",
		"arrows     scroll the focused pane (PgUp/PgDn, Home)",
		"h, ?       this help; any key closes it",
	};
	static const char *const blame_lines[] = {
		"tab, 1-5   focus: counters, heatmap, tasks, CPUs,",
		"           antagonists",
		"a          show / hide the antagonists (who delayed",
		"           woken tasks); s: by wait or by wakeups",
	};
	const char *show[16];
	int n = 0, w = 58, h, x, y;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (i == 2 && ui->blame_pane) { /* the focus line, then key a */
			for (int k = 0; k < 4; k++)
				show[n++] = blame_lines[k];
			continue;
		}
		show[n++] = lines[i];
	}
	h = n + 2;
	x = (c->w - w) / 2;
	y = (c->h - h) / 2;

	if (x < 0)
		x = 0;
	if (y < 0)
		y = 0;
	for (int i = 0; i < h; i++)
		canvas_fill(c, x, y + i, w, CV_NORMAL, ' ');
	canvas_box(c, x, y, w, h, "keys", true);
	for (int i = 0; i < n; i++)
		canvas_text(c, x + 2, y + 1 + i, w - 4, CV_NORMAL, show[i]);
}

/* The rows the screen needs at its width for what l leaves out: "(antagonists: needs 33
 * rows; the terminal has 21)". */
static void note(struct canvas *c, const struct dash_layout *l, int blame, bool blame_data)
{
	struct dash_layout m;
	char buf[160] = "";
	int tasks = l->tasks.h ? 0 : -1, bl = blame && !l->blame.h ? -1 : 0, n = 0;

	for (int h = c->h + 1; h <= 4 * c->h + 64 && (tasks < 0 || bl < 0); h++) {
		dash_layout(c->w, h, blame, blame_data, &m);
		if (tasks < 0 && m.tasks.h)
			tasks = h;
		if (bl < 0 && m.blame.h)
			bl = h;
	}
	if (tasks > 0)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "tasks and CPUs: need %d rows; ",
			      tasks);
	if (bl > 0)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "antagonists: needs %d rows; ", bl);
	if (tasks < 0 || bl < 0)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s: no room at this width; ",
			      tasks < 0 ? "tasks and CPUs" : "antagonists");
	canvas_printf(c, l->note.x, l->note.y, l->note.w, CV_DIM, "(%sthe terminal has %d)", buf,
		      c->h);
}

void dash_render(struct canvas *c, const struct dash_view *v)
{
	struct dash_layout l;
	int f = v->ui->focus;
	int want = dash_blame_want(v, dash_wide(c->w, c->h) ? c->w * 11 / 20 : c->w);
	bool data = v->blame != NULL && !v->why_not;

	canvas_clear(c);
	dash_layout(c->w, c->h, want, data, &l);
	if (l.too_small) {
		canvas_printf(c, 0, 0, 0, CV_WARN, "locus top: terminal %dx%d is too small",
			      c->w, c->h);
		canvas_printf(c, 0, 1, 0, CV_NORMAL, "(needs %dx%d; q quits)", MIN_W, MIN_H);
		return;
	}
	header(c, l.header, v);
	pane_counters(c, l.counters, v, f == PANE_COUNTERS);
	pane_heatmap(c, l.heatmap, v, f == PANE_HEATMAP);
	pane_locality(c, l.locality, v);
	if (l.tasks.h) {
		pane_tasks(c, l.tasks, v, f == PANE_TASKS);
		pane_cpus(c, l.cpus, v, f == PANE_CPUS);
	}
	if (l.blame.h)
		pane_blame(c, l.blame, v, f == PANE_BLAME);
	if (l.note.h)
		note(c, &l, want, data);
	if (l.footer.h)
		footer(c, l.footer, v->ui);
	if (v->ui->output && v->output_path)
		output_box(c, v);
	if (v->ui->help)
		help(c, v->ui);
}
