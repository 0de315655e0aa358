/*
 * SPOA's scoring options, shared by gale poa and gale graph-align (both run SPOA
 * 4.0.8's engine): -m -n -g -e -q -c and -l/--algorithm, their bounds, defaults and help.
 */
#ifndef GALE_CLI_POA_SCORES_H
#define GALE_CLI_POA_SCORES_H

#include <stdint.h>
#include <stdio.h>

/* getopt's letters of these options, and their long form */
#define POA_SCORE_OPTSTRING "m:n:g:e:q:c:l:"
#define POA_SCORE_LONGOPTS {"algorithm", required_argument, NULL, 'l'}

/* The values' places in the array the commands keep them in: m n g e q c algorithm. */
enum { POA_M, POA_N, POA_G, POA_E, POA_Q, POA_C, POA_ALGORITHM, POA_N_SCORES };

/* spoa's defaults into p[0 .. POA_N_SCORES). */
void poa_scores_init(int64_t *p);
/* Option opt (its value arg) of command cmd into p: 1 when it is one of these, 0 when
 * not (nothing done), -1 after a usage error. Scores in [-128, 127] (spoa truncates them
 * to 8 bits), gap penalties <= 0, -l 0..2. */
int poa_score_option(const char *cmd, int opt, const char *arg, int64_t *p);
/* The help of these options: -m .. -l, then more (the command's own, "" for none), then
 * the gap mode line. */
void usage_poa_scores(FILE *out, const char *more);

#endif
