/* tui.c - every curses call of locus: terminal setup, colours per canvas style, keys. */
#include "tui.h"

#include "../common/util.h"
#include "dash.h"

/* after locus's headers: term.h defines macros such as 'lines' */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <term.h>

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

struct tui {
	SCREEN *scr;
	int w, h;			/* size at the last draw */
	bool utf8;
	int colors;
	attr_t attr[CV_STYLE_NR];
	int sigfd;			/* tui_wait's signals, or -1 until it is first called */
};

/* For fatal signals: what puts the terminal back, computed while it is safe. */
static struct termios saved_tio;
static bool have_tio;
static char reset_seq[128];
static size_t reset_len;
static struct tui *open_tui;

static void append_cap(const char *name)
{
	char *s = tigetstr(name);
	size_t n;

	if (!s || s == (char *)-1)
		return;
	n = strlen(s);
	if (reset_len + n < sizeof(reset_seq)) {
		memcpy(reset_seq + reset_len, s, n);
		reset_len += n;
	}
}

/* Async-signal-safe: write the saved sequences, restore the modes, die of the signal. */
static void fatal_signal(int sig)
{
	if (reset_len && write(STDOUT_FILENO, reset_seq, reset_len) < 0)
		reset_len = 0;
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit(void)
{
	if (open_tui)
		endwin(); /* an exit path that skipped tui_close */
	locus_err_hold(false);
}

/* 256-colour heat ramp, cold to hot; the cube index is 16 + 36r + 6g + b. */
static const short heat256[10] = { -1, 17, 19, 26, 33, 37, 71, 178, 208, 196 };
static const short heat8[10] = { -1, COLOR_BLUE, COLOR_BLUE, COLOR_CYAN, COLOR_CYAN,
				  COLOR_GREEN, COLOR_GREEN, COLOR_YELLOW, COLOR_RED, COLOR_RED };
static const short class_bg[5] = { COLOR_GREEN, COLOR_CYAN, COLOR_BLUE, COLOR_YELLOW, COLOR_RED };

static void set_pair(struct tui *t, int style, short fg, short bg, attr_t extra)
{
	init_pair((short)(style + 1), fg, bg);
	t->attr[style] = COLOR_PAIR(style + 1) | extra;
}

static void setup_styles(struct tui *t)
{
	t->attr[CV_DIM] = A_DIM;
	t->attr[CV_BOLD] = A_BOLD;
	t->attr[CV_TITLE] = A_BOLD;
	t->attr[CV_FOCUS] = A_BOLD | A_REVERSE;
	t->attr[CV_WARN] = A_BOLD;
	t->attr[CV_KEY] = A_REVERSE;
	for (int k = 0; k < 5; k++)
		t->attr[CV_CLASS0 + k] = A_REVERSE;
	if (!t->colors)
		return; /* monochrome: attributes; a heat cell's ramp character says its level */
	t->attr[CV_FOCUS] = 0;
	set_pair(t, CV_TITLE, COLOR_CYAN, -1, A_BOLD);
	set_pair(t, CV_FOCUS, COLOR_YELLOW, -1, A_BOLD);
	set_pair(t, CV_WARN, COLOR_RED, -1, A_BOLD);
	set_pair(t, CV_SPARK, COLOR_GREEN, -1, 0);
	set_pair(t, CV_BAR, COLOR_GREEN, -1, 0);
	for (int k = 0; k < 5; k++)
		set_pair(t, CV_CLASS0 + k, COLOR_BLACK, class_bg[k], 0);
	/* a heat cell keeps its ramp character, black over its colour: a screen copied as text
	 * (into a mail to the list) keeps every cell's level */
	for (int l = 1; l < 10; l++)
		set_pair(t, CV_HEAT0 + l, COLOR_BLACK, t->colors >= 256 ? heat256[l] : heat8[l],
			 t->colors < 256 && l >= 8 ? A_BOLD : 0);
}

struct tui *tui_open(char *why, size_t len)
{
	const char *term = getenv("TERM");
	struct sigaction sa = { .sa_handler = fatal_signal };
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };
	struct tui *t;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(why, len, "standard input or output is not a terminal");
		return NULL;
	}
	if (!term || !*term || !strcmp(term, "dumb")) {
		snprintf(why, len, "TERM is %s", term && *term ? "dumb" : "unset");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->sigfd = -1;
	setlocale(LC_CTYPE, ""); /* only character handling: numbers keep their '.' */
	t->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	have_tio = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
	t->scr = newterm(NULL, stdout, stdin);
	if (!t->scr) {
		snprintf(why, len, "terminal type '%s' is unknown to terminfo", term);
		free(t);
		return NULL;
	}
	reset_len = 0;
	append_cap("sgr0");
	append_cap("cnorm");
	append_cap("rmcup");
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	if (!open_tui)
		atexit(at_exit);
	open_tui = t;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		t->colors = COLORS >= 256 ? 256 : 8;
	}
	setup_styles(t);
	locus_err_hold(true); /* said on the screen it would overwrite: after it, on stderr */
	return t;
}

void tui_size(struct tui *t, int *w, int *h)
{
	(void)t;
	getmaxyx(stdscr, *h, *w);
}

bool tui_utf8(const struct tui *t)
{
	return t->utf8;
}

int tui_colors(const struct tui *t)
{
	return t->colors;
}

int tui_fd(const struct tui *t)
{
	(void)t;
	return STDIN_FILENO;
}

bool tui_gone(const struct tui *t)
{
	struct pollfd p = { tui_fd(t), POLLIN, 0 };

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

bool tui_wait(struct tui *t)
{
	struct pollfd pfd[2] = { { tui_fd(t), POLLIN, 0 }, { -1, POLLIN, 0 } };
	sigset_t set;
	int rc;

	if (t->sigfd < 0) {
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigaddset(&set, SIGHUP);
		t->sigfd = signalfd(-1, &set, SFD_CLOEXEC); /* blocked by the caller */
	}
	pfd[1].fd = t->sigfd;
	rc = poll(pfd, 2, -1);
	/* Ctrl-C, kill or hangup: leave like q */
	return !((rc < 0 && errno != EINTR) || (rc > 0 && pfd[1].revents));
}

void tui_draw(struct tui *t, const struct canvas *c)
{
	int w, h;

	getmaxyx(stdscr, h, w);
	if (w != t->w || h != t->h) {
		clear(); /* a resize: repaint every cell, the corner we never write too */
		t->w = w;
		t->h = h;
	}
	for (int y = 0; y < c->h && y < h; y++) {
		for (int x = 0; x < c->w && x < w; x++) {
			const struct cv_cell *cell = &c->cell[y * c->w + x];
			uint32_t ch = cell->ch;
			attr_t a = t->attr[cell->style];

			if (y == h - 1 && x == w - 1)
				continue; /* writing there scrolls some terminals */
			if (ch < 0x80) {
				mvaddch(y, x, (chtype)ch | a);
			} else {
				wchar_t wc[2] = { (wchar_t)ch, 0 };
				cchar_t cc;

				setcchar(&cc, wc, a, (short)PAIR_NUMBER(a), NULL);
				mvadd_wch(y, x, &cc);
			}
		}
	}
	refresh();
}

int tui_key(struct tui *t)
{
	int ch = getch();

	(void)t;
	switch (ch) {
	case ERR:
		return -1;
	case KEY_RESIZE:
		return 0;
	case KEY_UP:
		return DASH_KEY_UP;
	case KEY_DOWN:
		return DASH_KEY_DOWN;
	case KEY_PPAGE:
		return DASH_KEY_PGUP;
	case KEY_NPAGE:
		return DASH_KEY_PGDN;
	case KEY_HOME:
		return DASH_KEY_HOME;
	case KEY_BTAB:
		return DASH_KEY_BTAB;
	case '\t':
		return DASH_KEY_TAB;
	}
	return ch;
}

void tui_close(struct tui *t)
{
	if (!t)
		return;
	endwin();
	delscreen(t->scr);
	open_tui = NULL;
	locus_err_hold(false);
	if (t->sigfd >= 0)
		close(t->sigfd);
	free(t);
}
