/*
 * gale CLI: several processes (MPI ranks) over one input, `mpirun -np N gale
 * ...` (doc/cli.md, "Several processes (MPI)"). Every MPI call of the CLI is
 * in ranks.c, and every one is made on the main thread (MPI_THREAD_FUNNELED):
 * the reader thread and the library's threads never call MPI.
 *
 * The input is cut into the same chunks on every rank (stream.c), chunk k
 * belongs to rank k % N, and rank 0 writes every chunk's results in input
 * order. Built without MPI (no GALE_HAVE_MPI), or run without mpirun, this
 * is one rank of one and every function below is a no-op.
 *
 * (Not "mpi.h": that name is MPI's own header.)
 */
#ifndef GALE_CLI_RANKS_H
#define GALE_CLI_RANKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

/* Starts MPI when the process was started by Open MPI's mpirun (its
 * environment says so); a plain run starts nothing. On ranks other than 0,
 * standard output goes to /dev/null: rank 0 writes every result, and --help
 * or --version is printed once. 0, or the exit status after a message (MPI
 * failed to start; or gale without MPI started as one of several ranks,
 * where every rank would write the whole output). */
int ranks_init(int *argc, char ***argv);
/* Ends MPI, when ranks_init started it. */
void ranks_finalize(void);
/* The status this rank exits with, given the run's rc; called by every rank at the end
 * of a command that ran (a collective under several ranks). Under several ranks, when
 * some rank failed and printed its message, the ranks that printed nothing exit 0 and
 * those that did exit rc (mpirun's status is still 1): Open MPI aborts the job at the
 * first rank that exits non-zero and may drop what another rank wrote to stderr but
 * mpirun had not forwarded yet - the failing rank's message, seen under load. rc
 * unchanged with one rank, or when no failing rank said anything. */
int ranks_exit_status(int rc);

/* This process's rank and the number of ranks (0 and 1 without MPI). */
int ranks_me(void);
int ranks_n(void);
/* The rank among the ranks of this node (MPI_COMM_TYPE_SHARED): the GPU a
 * rank takes by default is this modulo the devices present. */
int ranks_local(void);
/* "Open MPI v4.1.4, ..." (MPI_Get_library_version), or NULL without MPI. */
const char *ranks_library(void);

/* Every rank's exit status so far, the worst (largest) of them returned to
 * every rank: the collective each side of a failure meets, so that one
 * rank's failure stops all, none waiting for the others. */
int ranks_agree(int rc);
/* all[r * k + i] = rank r's mine[i], on every rank. 0, or -1 (MPI's failures
 * abort the job before that, ranks.c). */
int ranks_allgather(const uint64_t mine[], int k, uint64_t all[]);
/* n bytes to rank 0, in pieces of at most 1 MiB. 0, or -1 as ranks_allgather. */
int ranks_send0(const void *buf, size_t n);
/* Rank 0: the n bytes rank from sends (ranks_send0), piece by piece into one
 * buffer of 1 MiB (rank 0 holds no other rank's chunk whole), each written to
 * out as it comes. out NULL, or after a write error: received and dropped,
 * so that the sender is not left waiting. 0, or -1 after a write error
 * (errno set). */
int ranks_recv_write(int from, size_t n, FILE *out);
/* The end of a run: the worst exit status of all ranks is returned, and
 * rank 0's t gets every rank's cells and rescued pairs added (t->pairs is
 * rank 0's: it wrote every pair). */
int ranks_totals(int rc, run_totals *t);

#endif
