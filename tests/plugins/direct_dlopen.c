/*
 * direct_dlopen.c - a C caller that does not link libgale: it loads the bella
 * plugin with dlopen as gale_plugin.h documents, checks its entry, and calls the
 * plain-array C entry point through the function table (and through the exported
 * gale_bella_extend symbol). Linked without libgale (tests/plugins/meson.build);
 * libgale comes in at run time as the plugin's dependency.
 *
 *   direct_dlopen PATH_TO_gale-bella.so
 *
 * Expected values are worked out by hand: identical reads extend to both ends
 * (each side scores match x its length), a seed at a read end has nothing to
 * extend on that side (0, seed unchanged), one direction leaves the other side
 * alone, per-pair schemes scale the scores, and a bad seed fails with
 * GALE_E_INPUT, a message naming the alignment, and outputs untouched.
 *
 * Unloading: the plugin keeps its gale contexts between calls (their worker
 * threads stay: counted in /proc/self/task) and reuses them (a repeated call
 * adds no thread); after dlclose the module is really gone (dlopen with
 * RTLD_NOLOAD finds nothing) and so are the contexts' threads - also when a
 * thread that called the plugin, successfully and not, is still alive then.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "gale_bella.h"
#include "gale_plugin.h"

static int failures = 0, checks = 0;

#define CHECK(cond, ...)                                   \
    do {                                                   \
        ++checks;                                          \
        if (!(cond)) {                                     \
            ++failures;                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                  \
            fputc('\n', stderr);                           \
        }                                                  \
    } while (0)

static void seed_is(const gale_bella_seed *s, int bh, int bv, int eh, int ev, const char *what)
{
    CHECK(s->begin_h == bh && s->begin_v == bv && s->end_h == eh && s->end_v == ev,
          "%s: seed H [%d, %d) V [%d, %d), expected H [%d, %d) V [%d, %d)", what, s->begin_h, s->end_h, s->begin_v,
          s->end_v, bh, eh, bv, ev);
}

/* Is thread `tid` of this process one of the CUDA driver's own? Once anything in the
 * process asks the CUDA runtime for its devices (libgale does, to choose a backend), the
 * driver starts helper threads (named "cuda...") that live as long as the process, whatever
 * gale's contexts do: they are not counted. */
static void thread_name(const char *tid, char *name, size_t size)
{
    char path[64];
    FILE *f;
    name[0] = '\0';
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", tid);
    f = fopen(path, "r");
    if (!f) return;
    if (fgets(name, (int)size, f)) name[strcspn(name, "\n")] = '\0';
    else name[0] = '\0';
    fclose(f);
}

static int is_cuda_thread(const char *tid)
{
    char name[32];
    thread_name(tid, name, sizeof name);
    return strncmp(name, "cuda", 4) == 0;
}

/* Prints every thread's name (all of them, the CUDA driver's too): what a failed count saw. */
static void print_threads(const char *when)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    if (!d) return;
    printf("threads %s:", when);
    while ((e = readdir(d)) != NULL) {
        char name[32];
        if (e->d_name[0] == '.') continue;
        thread_name(e->d_name, name, sizeof name);
        printf(" %s(%s)", e->d_name, name);
    }
    printf("\n");
    closedir(d);
}

/* The process's threads, less the CUDA driver's, or -1 without /proc. */
static int thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && !is_cuda_thread(e->d_name)) ++n;
    closedir(d);
    return n;
}

/* The thread count once it is `want`, or what it is after 5 s: a joined thread
 * can still be listed for a moment after pthread_join returns. */
static int threads_settle(int want)
{
    struct timespec pause = {0, 10 * 1000 * 1000};
    int k, n = thread_count();
    for (k = 0; k < 500 && n != want && n >= 0; ++k) {
        nanosleep(&pause, NULL);
        n = thread_count();
    }
    return n;
}

static void *idle_main(void *arg)
{
    return arg;
}

/* The thread count once it has not changed for 5 samples 10 ms apart (at most 2 s). */
static int threads_stable(void)
{
    struct timespec pause = {0, 10 * 1000 * 1000};
    int k, same = 0, n = thread_count();
    for (k = 0; k < 200 && same < 5 && n >= 0; ++k) {
        int m;
        nanosleep(&pause, NULL);
        m = thread_count();
        same = m == n ? same + 1 : 0;
        n = m;
    }
    return n;
}

/* A thread that calls the plugin (a success, then a failure, whose message lands in
 * the plugin's thread-local storage) and stays alive until main has closed the
 * module: neither may keep the module loaded. */
typedef struct caller {
    const gale_bella_api *api;
    const char *read;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stage; /* 1: calls made; 2: main is done with the module */
    gale_status ok, bad;
    int32_t res;
    char msg[256];
} caller;

static void *caller_main(void *arg)
{
    caller *c = (caller *)arg;
    const char *t[1], *q[1];
    int64_t len[1];
    gale_bella_scoring sc = {1, -1, -1};
    gale_bella_seed s;
    t[0] = q[0] = c->read;
    len[0] = 40;
    s.begin_h = s.begin_v = 10, s.end_h = s.end_v = 27;
    /* 3 CPU threads: a context of its own, created on this thread */
    c->ok = c->api->extend(&s, GALE_DIR_BOTH, t, len, q, len, &sc, 1, 7, 17, &c->res, 1, 0, 3);
    s.begin_h = 35, s.end_h = 52; /* outside the read */
    c->bad = c->api->extend(&s, GALE_DIR_BOTH, t, len, q, len, &sc, 1, 7, 17, &c->res, 1, 0, 3);
    snprintf(c->msg, sizeof c->msg, "%s", c->api->last_error());
    pthread_mutex_lock(&c->mu);
    c->stage = 1;
    pthread_cond_broadcast(&c->cv);
    while (c->stage != 2) pthread_cond_wait(&c->cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

int main(int argc, char **argv)
{
    void *h;
    void *sym;
    gale_plugin_entry_fn entry;
    const gale_plugin_info *info;
    const gale_bella_api *api;
    gale_bella_extend_fn direct;
    /* a 40-base read, and a second read equal to its first 30 bases */
    const char *a = "ACGTTGCAAGGCTTACCGATTGACCATGGTACAGTCAGTA";
    const char *target[4], *query[4];
    int64_t tlen[4], qlen[4];
    gale_bella_seed seeds[4];
    gale_bella_scoring bella = {1, -1, -1}, per[4] = {{1, -1, -1}, {2, -3, -2}, {1, -1, -1}, {3, -1, -1}};
    int32_t res[4];
    gale_status st;
    int i;
    int base_threads, kept_threads, n;
    caller c;
    pthread_t tid;
    void *again;

    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_gale-bella.so\n", argv[0]);
        return 2;
    }
    /* The thread count to come back to. Measured after a first thread has come and
     * gone: sanitizer runtimes (TSan) start a helper thread of their own then. */
    if (pthread_create(&tid, NULL, idle_main, NULL) == 0) pthread_join(tid, NULL);
    base_threads = threads_stable();
    h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "FAIL: dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    sym = dlsym(h, GALE_PLUGIN_ENTRY_SYMBOL);
    CHECK(sym != NULL, "no %s in %s", GALE_PLUGIN_ENTRY_SYMBOL, argv[1]);
    if (!sym) return 1;
    memcpy(&entry, &sym, sizeof entry);
    info = entry();
    CHECK(info && info->abi >= 1 && info->abi <= GALE_PLUGIN_ABI && info->size >= sizeof(gale_plugin_info),
          "bad plugin info");
    if (!info) return 1;
    CHECK(strcmp(info->name, "bella") == 0, "name %s", info->name);
    api = (const gale_bella_api *)info->api;
    CHECK(api && api->size >= sizeof(gale_bella_api) && api->version >= 1 && api->extend && api->last_error,
          "bad function table");
    sym = dlsym(h, "gale_bella_extend");
    CHECK(sym != NULL, "gale_bella_extend is not exported");
    if (!api || !sym) return 1;
    memcpy(&direct, &sym, sizeof direct);
    CHECK(direct == api->extend, "the table's extend is not the exported gale_bella_extend");
    CHECK(dlsym(h, "gale_bella_last_error") != NULL, "gale_bella_last_error is not exported");
    printf("loaded %s: %s %s (ABI %u): %s\n", argv[1], info->name, info->version, (unsigned)info->abi,
           info->description);

    for (i = 0; i < 4; ++i) {
        target[i] = a;
        tlen[i] = 40;
        query[i] = a;
        qlen[i] = 40;
    }
    qlen[2] = 30; /* read 2 is a's first 30 bases */

    /* identical reads, seed [10, 27): left 10, right 13: 10 + 13 + 17 = 40, seed = whole reads */
    seeds[0].begin_h = 10, seeds[0].begin_v = 10, seeds[0].end_h = 27, seeds[0].end_v = 27;
    /* seed at the start: nothing on the left; right 23: 0 + 23 + 17 = 40 */
    seeds[1].begin_h = 0, seeds[1].begin_v = 0, seeds[1].end_h = 17, seeds[1].end_v = 17;
    /* seed at the end of the shorter read 2 ([13, 30)): left 13, nothing on read 2's right: 13 + 0 + 17 */
    seeds[2].begin_h = 13, seeds[2].begin_v = 13, seeds[2].end_h = 30, seeds[2].end_v = 30;
    /* whole reads as the seed: nothing to extend: 0 + 0 + 17 */
    seeds[3].begin_h = 0, seeds[3].begin_v = 0, seeds[3].end_h = 40, seeds[3].end_v = 40;
    st = api->extend(seeds, GALE_DIR_BOTH, target, tlen, query, qlen, &bella, 1, 7, 17, res, 4, 0, 2);
    CHECK(st == GALE_OK, "extend: %d %s", st, api->last_error());
    CHECK(res[0] == 40 && res[1] == 40 && res[2] == 30 && res[3] == 17, "res %d %d %d %d, expected 40 40 30 17",
          res[0], res[1], res[2], res[3]);
    seed_is(&seeds[0], 0, 0, 40, 40, "pair 0");
    seed_is(&seeds[1], 0, 0, 40, 40, "pair 1");
    seed_is(&seeds[2], 0, 0, 30, 30, "pair 2");
    seed_is(&seeds[3], 0, 0, 40, 40, "pair 3");

    /* The context of that call (2 CPU threads) is kept, and the same call reuses it. */
    kept_threads = thread_count();
    if (base_threads >= 0) {
        CHECK(kept_threads > base_threads, "%d threads after a call, %d before: no context kept", kept_threads,
              base_threads);
        for (i = 0; i < 4; ++i) seeds[i].begin_h = seeds[i].begin_v = 10, seeds[i].end_h = seeds[i].end_v = 27;
        st = api->extend(seeds, GALE_DIR_BOTH, target, tlen, query, tlen, &bella, 1, 7, 17, res, 4, 0, 2);
        CHECK(st == GALE_OK && res[0] == 40, "repeated call: %d (%s), res %d", st, api->last_error(), res[0]);
        n = thread_count();
        CHECK(n == kept_threads, "a repeated call changed the thread count from %d to %d: context not reused",
              kept_threads, n);
        printf("threads: %d before the first call, %d after it and after the same call again\n", base_threads, n);
    } else {
        printf("no /proc/self/task: context reuse not checked\n");
    }

    /* per-pair schemes, NUL-terminated strings (no lengths), one direction, the exported symbol */
    for (i = 0; i < 4; ++i) {
        seeds[i].begin_h = seeds[i].begin_v = 10;
        seeds[i].end_h = seeds[i].end_v = 27;
        query[i] = a;
    }
    st = direct(seeds, GALE_DIR_LEFT, target, NULL, query, NULL, per, 4, 7, 17, res, 4, 0, 1);
    CHECK(st == GALE_OK, "extend left: %d %s", st, api->last_error());
    /* left only: match x 10 + 17 */
    CHECK(res[0] == 27 && res[1] == 37 && res[2] == 27 && res[3] == 47, "left res %d %d %d %d, expected 27 37 27 47",
          res[0], res[1], res[2], res[3]);
    for (i = 0; i < 4; ++i) seed_is(&seeds[i], 0, 0, 27, 27, "left only");
    st = direct(seeds, GALE_DIR_RIGHT, target, NULL, query, NULL, per, 4, 7, 0, res, 4, 0, 1);
    CHECK(st == GALE_OK, "extend right: %d %s", st, api->last_error());
    /* right only, kmer_length 0: match x 13 */
    CHECK(res[0] == 13 && res[1] == 26 && res[2] == 13 && res[3] == 39, "right res %d %d %d %d, expected 13 26 13 39",
          res[0], res[1], res[2], res[3]);
    for (i = 0; i < 4; ++i) seed_is(&seeds[i], 0, 0, 40, 40, "then right only");

    /* No alive end cell on a side: SeqAn's "undefined" score, INT32_MIN - gap for that side
     * (gale.h). A pair of tests/oracle's undefined-score cases (the oracle checks that SeqAn
     * returns its marker on both sides there): h = rev("TAGGT") + "TAGGT", v = rev("GCTTTCGC")
     * + "GCTTTCGC", an empty seed in the middle, +1/-2/-2, X = 5. One side: INT32_MIN + 2 +
     * 17; both sides: the 64-bit sum is below INT32_MIN, so res is clamped to INT32_MIN. The
     * seed stays where it was. */
    {
        const char *uh = "TGGATTAGGT", *uv = "CGCTTTCGGCTTTCGC";
        const char *ut[1], *uq[1];
        gale_bella_scoring us = {1, -2, -2};
        gale_bella_seed s;
        int d;
        ut[0] = uh;
        uq[0] = uv;
        for (d = GALE_DIR_LEFT; d <= GALE_DIR_BOTH; ++d) {
            int32_t want = d == GALE_DIR_BOTH ? INT32_MIN : (int32_t)((int64_t)INT32_MIN + 2 + 17);
            s.begin_h = s.end_h = 5;
            s.begin_v = s.end_v = 8;
            res[0] = 0;
            st = api->extend(&s, d, ut, NULL, uq, NULL, &us, 1, 5, 17, res, 1, 0, 1);
            CHECK(st == GALE_OK, "undefined case, direction %d: %d %s", d, st, api->last_error());
            CHECK(res[0] == want, "undefined case, direction %d: res %d, expected %d", d, res[0], want);
            seed_is(&s, 5, 8, 5, 8, "undefined case");
        }
    }

    /* a seed outside read 1: GALE_E_INPUT naming alignment 1; nothing written */
    seeds[0].begin_h = seeds[0].begin_v = 10, seeds[0].end_h = seeds[0].end_v = 27;
    seeds[1].begin_h = 30, seeds[1].begin_v = 10, seeds[1].end_h = 47, seeds[1].end_v = 27;
    res[0] = res[1] = -5;
    st = api->extend(seeds, GALE_DIR_BOTH, target, tlen, query, qlen, &bella, 1, 7, 17, res, 2, 0, 1);
    CHECK(st == GALE_E_INPUT, "bad seed: got %d (%s)", st, api->last_error());
    CHECK(strstr(api->last_error(), "alignment 1") != NULL, "message '%s' does not name alignment 1",
          api->last_error());
    CHECK(res[0] == -5 && res[1] == -5 && seeds[0].begin_h == 10 && seeds[0].end_h == 27,
          "a failing call wrote its outputs");
    printf("bad seed: %s\n", api->last_error());

    /* bad arguments */
    st = api->extend(seeds, 0, target, tlen, query, qlen, &bella, 1, 7, 17, res, 1, 0, 1);
    CHECK(st == GALE_E_RANGE, "direction 0: got %d", st);
    st = api->extend(seeds, GALE_DIR_BOTH, target, tlen, query, qlen, per, 2, 7, 17, res, 3, 0, 1);
    CHECK(st == GALE_E_INVALID, "2 schemes for 3 pairs: got %d", st);
    st = api->extend(NULL, GALE_DIR_BOTH, target, tlen, query, qlen, &bella, 1, 7, 17, res, 1, 0, 1);
    CHECK(st == GALE_E_INVALID, "NULL seeds: got %d", st);
    st = api->extend(NULL, GALE_DIR_BOTH, NULL, NULL, NULL, NULL, NULL, 0, 7, 17, NULL, 0, 0, 1);
    CHECK(st == GALE_OK, "no alignments: got %d (%s)", st, api->last_error());
    st = api->extend(seeds, GALE_DIR_BOTH, target, tlen, query, qlen, &bella, 1, 7, 17, res, 1, -1, 1);
    CHECK(st == GALE_E_INVALID, "ngpus -1: got %d", st);

    /* Another thread calls, and is still alive when the module is closed. */
    c.api = api;
    c.read = a;
    c.stage = 0;
    c.res = 0;
    c.msg[0] = '\0';
    pthread_mutex_init(&c.mu, NULL);
    pthread_cond_init(&c.cv, NULL);
    if (pthread_create(&tid, NULL, caller_main, &c) != 0) {
        fprintf(stderr, "FAIL: cannot start a thread\n");
        return 1;
    }
    pthread_mutex_lock(&c.mu);
    while (c.stage != 1) pthread_cond_wait(&c.cv, &c.mu);
    pthread_mutex_unlock(&c.mu);
    CHECK(c.ok == GALE_OK && c.res == 40, "call from a thread: %d, res %d", c.ok, c.res);
    CHECK(c.bad == GALE_E_INPUT && strstr(c.msg, "alignment 0") != NULL, "failing call from a thread: %d '%s'",
          c.bad, c.msg);

    /* Loaded now (the check below can see a module), then really unloaded by dlclose. */
    again = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
    CHECK(again != NULL, "RTLD_NOLOAD does not find the loaded module");
    if (again) dlclose(again);
    CHECK(dlclose(h) == 0, "dlclose: %s", dlerror());
    again = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
    CHECK(again == NULL, "%s is still loaded after dlclose (thread-local destructors, unique symbols or "
          "threads of the module keep it)", argv[1]);
    if (again) dlclose(again);
    else printf("after dlclose: %s is unloaded (RTLD_NOLOAD finds nothing)\n", argv[1]);
    if (base_threads >= 0) {
        /* the plugin's contexts are gone with it: only main and the caller thread are left */
        n = threads_settle(base_threads + 1);
        print_threads("after dlclose");
        CHECK(n == base_threads + 1, "%d threads after dlclose, expected %d: contexts not destroyed at unload", n,
              base_threads + 1);
    }
    pthread_mutex_lock(&c.mu);
    c.stage = 2;
    pthread_cond_broadcast(&c.cv);
    pthread_mutex_unlock(&c.mu);
    pthread_join(tid, NULL);

    if (failures) {
        fprintf(stderr, "direct_dlopen: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    printf("direct_dlopen: all %d checks passed\n", checks);
    return 0;
}
