/*
 * gale CLI: the subcommands main dispatches to, one file each (xdrop.c,
 * wfa.c). Each takes its own argv (argv[0] is the command's name) and returns
 * the exit status.
 */
#ifndef GALE_CLI_SUBCOMMANDS_H
#define GALE_CLI_SUBCOMMANDS_H

#include <stdio.h>

int cmd_xdrop(int argc, char **argv);
void usage_xdrop(FILE *out);

int cmd_wfa(int argc, char **argv);
void usage_wfa(FILE *out);

int cmd_lastz(int argc, char **argv);
void usage_lastz(FILE *out);
int cmd_zdrop(int argc, char **argv);
void usage_zdrop(FILE *out);
int cmd_poa(int argc, char **argv);
void usage_poa(FILE *out);
int cmd_graph_align(int argc, char **argv);
void usage_graph_align(FILE *out);
int cmd_compare(int argc, char **argv);
void usage_compare(FILE *out);

#endif
