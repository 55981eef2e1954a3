/* commands.h - every subcommand's entry point, dispatched from the table in main.c. */
#ifndef LOCUS_COMMANDS_H
#define LOCUS_COMMANDS_H

int cmd_stat(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_record(int argc, char **argv);

/* The program to exec for "locus bench ..." workloads (this binary). */
const char *locus_self_path(void);

#endif
