/*
 * gale CLI: work split over threads (the parsers of a chunk's lines), and the
 * first error of such work, the one line-by-line reading would have met.
 */
#ifndef GALE_CLI_THREADS_H
#define GALE_CLI_THREADS_H

#include <pthread.h>
#include <stddef.h>

/* Runs fn(arg, begin, end) over [0, n) cut into up to threads contiguous
 * parts of at least min_part items, one per thread, the caller's thread
 * taking the first. threads < 1 counts as 1; a thread that cannot be
 * started leaves its part to the caller. */
void parallel_for(int threads, size_t n, size_t min_part, void (*fn)(void *arg, size_t begin, size_t end), void *arg);

/* The first (lowest-index) failure of a parallel_for: each part reports its
 * own first failure; the lowest index wins, whatever the order the threads
 * finish in. */
typedef struct first_error {
    pthread_mutex_t mu;
    size_t index;          /* SIZE_MAX: none */
    char text[512];
} first_error;

void first_error_init(first_error *e);
void first_error_free(first_error *e);
/* Records text as the failure of item index if it is the first so far. */
void first_error_put(first_error *e, size_t index, const char *text);
/* The index of the first failure so far, SIZE_MAX for none: a part may stop
 * at an item past it (its failure could not win). */
size_t first_error_index(first_error *e);

/* The threads the CLI's own work may use: --threads, or the online CPUs
 * for 0, at most GALE_THREADS_MAX. */
int cli_threads(long long requested);

#endif
