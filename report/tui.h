/* tui.h - the terminal: the one module that calls curses. Shows canvases, reads keys. */
#ifndef LOCUS_TUI_H
#define LOCUS_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "canvas.h"

struct tui;

/*
 * Take over the terminal on stdin/stdout (alternate screen, no echo, keys
 * unbuffered). Returns NULL with the reason in why when there is none to
 * use: not a tty, TERM unset or unknown. Fatal signals restore the terminal
 * before the process dies.
 */
struct tui *tui_open(char *why, size_t len);
/* The screen size now (after a resize too). */
void tui_size(struct tui *t, int *w, int *h);
/* Whether box drawing and block characters show (a UTF-8 locale). */
bool tui_utf8(const struct tui *t);
/* Colours: 256, 8, or 0 (none: the ramp characters carry the heatmap). */
int tui_colors(const struct tui *t);
/* Show a canvas of the screen's size. */
void tui_draw(struct tui *t, const struct canvas *c);
/* The fd to poll for keys. */
int tui_fd(const struct tui *t);
/* The next key without waiting (dash key codes), -1 when none, 0 after a resize. */
int tui_key(struct tui *t);
/* Whether the terminal hung up (its window closed, tmux killed): no key will come. */
bool tui_gone(const struct tui *t);
/*
 * Wait for a key or a resize (true), or for SIGINT, SIGTERM or SIGHUP, which the caller
 * keeps blocked (false: leave as on q; an error too).
 */
bool tui_wait(struct tui *t);
/* Give the terminal back as it was. */
void tui_close(struct tui *t);

#endif
