/*
 * gale CLI: work split over threads (threads.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "threads.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gale.h"

typedef struct part {
    void (*fn)(void *, size_t, size_t);
    void *arg;
    size_t begin, end;
} part;

static void *run_part(void *p)
{
    part *pt = p;
    pt->fn(pt->arg, pt->begin, pt->end);
    return NULL;
}

void parallel_for(int threads, size_t n, size_t min_part, void (*fn)(void *arg, size_t begin, size_t end), void *arg)
{
    enum { MAX_PARTS = 256 };
    part parts[MAX_PARTS];
    pthread_t tid[MAX_PARTS];
    int started[MAX_PARTS];
    size_t nparts, i, per;

    if (n == 0)
        return;
    if (min_part == 0)
        min_part = 1;
    nparts = threads < 1 ? 1 : (size_t)threads;
    if (nparts > MAX_PARTS)
        nparts = MAX_PARTS;
    if (nparts > (n + min_part - 1) / min_part)
        nparts = (n + min_part - 1) / min_part;
    per = (n + nparts - 1) / nparts;
    for (i = 0; i < nparts; i++) {
        parts[i].fn = fn;
        parts[i].arg = arg;
        parts[i].begin = i * per < n ? i * per : n;
        parts[i].end = (i + 1) * per < n ? (i + 1) * per : n;
        started[i] = 0;
    }
    for (i = 1; i < nparts; i++)
        started[i] = pthread_create(&tid[i], NULL, run_part, &parts[i]) == 0;
    run_part(&parts[0]);
    for (i = 1; i < nparts; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            run_part(&parts[i]);
    }
}

void first_error_init(first_error *e)
{
    pthread_mutex_init(&e->mu, NULL);
    e->index = SIZE_MAX;
    e->text[0] = '\0';
}

void first_error_free(first_error *e)
{
    pthread_mutex_destroy(&e->mu);
}

void first_error_put(first_error *e, size_t index, const char *text)
{
    pthread_mutex_lock(&e->mu);
    if (index < e->index) {
        e->index = index;
        snprintf(e->text, sizeof e->text, "%s", text);
    }
    pthread_mutex_unlock(&e->mu);
}

size_t first_error_index(first_error *e)
{
    size_t i;
    pthread_mutex_lock(&e->mu);
    i = e->index;
    pthread_mutex_unlock(&e->mu);
    return i;
}

int cli_threads(long long requested)
{
    long n = requested > 0 ? (long)requested : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > GALE_THREADS_MAX)
        n = GALE_THREADS_MAX;
    return (int)n;
}
