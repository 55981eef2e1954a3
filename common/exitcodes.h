/* exitcodes.h - the process exit codes locus uses, in one place. */
#ifndef LOCUS_EXITCODES_H
#define LOCUS_EXITCODES_H

enum locus_exit {
	EXIT_LOCUS_OK = 0,
	EXIT_LOCUS_RUNTIME = 1, /* locus itself failed at run time */
	EXIT_LOCUS_USAGE = 2,	/* bad options or arguments */
	EXIT_LOCUS_NOEXEC = 127, /* the workload could not be executed */
	/* locus diff --exit-code, for git bisect run: 1 is "worse" (bad) */
	EXIT_LOCUS_SKIP = 125,	/* the new batch could not be measured: bisect skips */
	EXIT_LOCUS_ABORT = 128	/* nothing to compare against: bisect stops */
};

/* The workload's exit status as a shell reports it: code, or 128+signal. */
#define EXIT_FROM_WAIT(st) (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st))

#endif
