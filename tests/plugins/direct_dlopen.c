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
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
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

    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_gale-bella.so\n", argv[0]);
        return 2;
    }
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

    CHECK(dlclose(h) == 0, "dlclose: %s", dlerror());
    if (failures) {
        fprintf(stderr, "direct_dlopen: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    printf("direct_dlopen: all %d checks passed\n", checks);
    return 0;
}
