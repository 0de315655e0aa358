/*
 * lastz_api.c - the contract of gale_lastz_* (GALE_LASTZ, since 0.6): defaults, bad
 * arguments and inputs refused with their status and a message naming what is wrong
 * (never a crash), gale.h's struct-size rule for gale_lastz_params (read) and
 * gale_lastz_alignment (written), and a small fixed case whose alignment is worked out
 * by hand from LASTZ's rules (an exact 60-bp match, HOXD70: 15 A-A 91, 15 C-C 100,
 * 15 G-G 100, 15 T-T 91 = 5730). The results themselves are compared with Debian's
 * lastz in tests/oracle/ydrop_lastz.sh and tests/cli/lastz_ref.sh. Also LASTZ's seeding,
 * gale_lastz_seeder_* (since 0.7): its defaults, refusals, and an exact match found whole
 * (tests/cli/lastz_seed.sh compares it with lastz).
 *
 * Suite 'unit'; CPU; no random input.
 */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

/* HOXD70's score of a base against itself (LASTZ's default matrix, written out here) */
static int32_t hoxd70_self(char c)
{
    return c == 'A' || c == 'T' ? 91 : 100;
}

/* The one-change pairs: 200 bases of kUnit repeated, target and query identical but at
 * position 100 (t in the target, q in the query, 0: kUnit's base there), extended from an
 * anchor over the whole pair. one_change_score: the single alignment's score when it
 * covers the target whole, else INT32_MIN; one_change_rest: the HOXD70 score of the 199
 * other positions. */
static const char kUnit[] = "ACGTTGCAAGCTTCGAGATC";
static int32_t one_change_rest(void)
{
    int32_t sum = 0;
    for (int k = 0; k < 200; k++)
        if (k != 100) sum += hoxd70_self(kUnit[k % 20]);
    return sum;
}
static int32_t one_change_score(gale_ctx *ctx, char t, char q, const gale_lastz_params *p)
{
    char tx[200], qx[200];
    gale_lastz_anchor whole = {0, 0, 200, 0};
    gale_lastz_result *r = NULL;
    gale_lastz_alignment a;
    int32_t score = INT32_MIN;
    for (int k = 0; k < 200; k++) qx[k] = tx[k] = kUnit[k % 20];
    tx[100] = t;
    if (q) qx[100] = q;
    a.size = sizeof a;
    if (gale_lastz_extend(ctx, tx, 200, qx, 200, &whole, 1, p, &r) == GALE_OK && gale_lastz_result_count(r) == 1 &&
        gale_lastz_result_get(r, 0, &a) == GALE_OK && a.beg1 == 1 && a.end1 == 200)
        score = a.score;
    gale_lastz_result_free(r);
    return score;
}

int main(void)
{
    gale_ctx_opts o;
    gale_ctx *ctx = NULL;
    gale_lastz_params p;
    gale_lastz_result *r = NULL;
    gale_lastz_alignment a;
    char flank1[201], flank2[201], t[400], q[400];
    const char *core = "AAAAAAAAAAAAAAACCCCCCCCCCCCCCCGGGGGGGGGGGGGGGTTTTTTTTTTTTTTT";
    gale_lastz_anchor an = {100, 100, 60, 5730};
    unsigned char big[sizeof(gale_lastz_params) + 16];

    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1;
    CHECK(gale_ctx_create(&ctx, &o) == GALE_OK);

    gale_lastz_params_init(&p);
    CHECK(p.size == sizeof p);
    CHECK(p.matrix[0][0] == 91 && p.matrix[1][1] == 100 && p.matrix[0][3] == -123 && p.matrix[1][2] == -125);
    CHECK(p.x_score == -1000 && p.fill_score == -100 && p.gap_open == 400 && p.gap_extend == 30);
    CHECK(p.ydrop == 9400 && p.gapped_thresh == 3000 && p.flags == 0);
    CHECK(p.traceback_bytes == 80ull * 1024 * 1024);

    /* target and query: unrelated flanks (a repeat of period 3 against one of period 4,
     * mismatching enough to stop the extension) around the same 60-bp core */
    for (int i = 0; i < 200; i++) {
        flank1[i] = "ACG"[i % 3];
        flank2[i] = "TTGA"[i % 4];
    }
    flank1[200] = flank2[200] = 0;
    snprintf(t, sizeof t, "%.100s%s%.100s", flank1, core, flank1 + 100);
    snprintf(q, sizeof q, "%.100s%s%.100s", flank2, core, flank2 + 100);

    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, NULL, &r) == GALE_OK);
    CHECK(gale_lastz_result_count(r) >= 1);
    if (gale_lastz_result_count(r) >= 1) {
        a.size = sizeof a;
        CHECK(gale_lastz_result_get(r, 0, &a) == GALE_OK);
        CHECK(a.score >= 5730);
        CHECK(a.beg1 <= 101 && a.end1 >= 160 && a.beg2 <= 101 && a.end2 >= 160);
        CHECK(a.n_ops >= 1 && a.cigar != NULL);
        CHECK(a.anchor == 0); /* the one anchor (LASTZ's hspid: its number in the segments file) */
        CHECK(gale_lastz_result_get(r, gale_lastz_result_count(r), &a) == GALE_E_RANGE);
        /* a larger gale_lastz_alignment: written as ours, the rest zeroed, size kept */
        {
            unsigned char buf[sizeof(gale_lastz_alignment) + 32];
            gale_lastz_alignment *b = (gale_lastz_alignment *)(void *)buf;
            memset(buf, 0xab, sizeof buf);
            b->size = sizeof buf;
            CHECK(gale_lastz_result_get(r, 0, b) == GALE_OK);
            CHECK(b->size == sizeof buf && b->score == a.score);
            for (size_t k = sizeof(gale_lastz_alignment); k < sizeof buf; k++) CHECK(buf[k] == 0);
            /* 0.6's struct (up to cigar): taken, anchor left as it was */
            memset(buf, 0xab, sizeof buf);
            b->size = offsetof(gale_lastz_alignment, cigar) + sizeof b->cigar;
            CHECK(gale_lastz_result_get(r, 0, b) == GALE_OK);
            CHECK(b->score == a.score && b->anchor == 0xabababab);
            b->size = offsetof(gale_lastz_alignment, cigar);
            CHECK(gale_lastz_result_get(r, 0, b) == GALE_E_INVALID);
        }
    }
    CHECK(gale_lastz_result_truncations(r) == 0);
    /* what the call did: on a context of one CPU thread the serial walk alone (all zero);
     * a larger struct is zeroed past ours, a smaller one refused, NULLs refused */
    {
        gale_lastz_stats st;
        unsigned char buf[sizeof(gale_lastz_stats) + 16];
        gale_lastz_stats *big = (gale_lastz_stats *)(void *)buf;
        memset(&st, 0xab, sizeof st);
        st.size = sizeof st;
        CHECK(gale_lastz_result_stats(r, &st) == GALE_OK);
        /* (the context: the CPU backend, one thread) */
        CHECK(st.sides_phase1 == 0 && st.sides_device == 0 && st.sides_walked == 0 && st.cells_phase1 == 0);
        memset(buf, 0xcd, sizeof buf);
        big->size = sizeof buf;
        CHECK(gale_lastz_result_stats(r, big) == GALE_OK);
        for (size_t k = sizeof(gale_lastz_stats); k < sizeof buf; k++) CHECK(buf[k] == 0);
        big->size = sizeof(gale_lastz_stats) - 8;
        CHECK(gale_lastz_result_stats(r, big) == GALE_E_INVALID);
        CHECK(gale_lastz_result_stats(NULL, &st) == GALE_E_INVALID);
        CHECK(gale_lastz_result_stats(r, NULL) == GALE_E_INVALID);
    }
    gale_lastz_result_free(r);
    r = NULL;
    gale_lastz_result_free(NULL);
    CHECK(gale_lastz_result_count(NULL) == 0);

    /* the threshold drops it; an empty anchor table gives no alignment */
    p.gapped_thresh = 1000000;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_OK);
    CHECK(gale_lastz_result_count(r) == 0);
    gale_lastz_result_free(r);
    r = NULL;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, NULL, 0, NULL, &r) == GALE_OK);
    CHECK(gale_lastz_result_count(r) == 0);
    gale_lastz_result_free(r);
    r = NULL;
    gale_lastz_params_init(&p);

    /* bad arguments and inputs: refused, out set to NULL, a message naming the problem */
    CHECK(gale_lastz_extend(NULL, t, 260, q, 260, &an, 1, NULL, &r) == GALE_E_HANDLE && r == NULL);
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, NULL, NULL) == GALE_E_INVALID);
    CHECK(gale_lastz_extend(ctx, NULL, 260, q, 260, &an, 1, NULL, &r) == GALE_E_INVALID);
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, NULL, 1, NULL, &r) == GALE_E_INVALID);
    CHECK(gale_lastz_extend(ctx, t, -1, q, 260, &an, 1, NULL, &r) == GALE_E_INVALID);
    CHECK(gale_lastz_extend(ctx, t, (int64_t)1 << 31, q, 260, &an, 1, NULL, &r) == GALE_E_LIMIT);
    {
        char tz[260];
        memcpy(tz, t, 260);
        tz[17] = 0;
        CHECK(gale_lastz_extend(ctx, tz, 260, q, 260, &an, 1, NULL, &r) == GALE_E_INPUT);
        CHECK(strstr(gale_last_error(), "target") && strstr(gale_last_error(), "17"));
    }
    {
        gale_lastz_anchor out_of_range = {250, 100, 20, 0};
        CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &out_of_range, 1, NULL, &r) == GALE_E_INPUT);
        CHECK(strstr(gale_last_error(), "anchor 0") != NULL);
    }
    p.gap_extend = -1;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_RANGE);
    gale_lastz_params_init(&p);
    p.flags = 1u << 20;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_RANGE);
    gale_lastz_params_init(&p);
    p.traceback_bytes = 5;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_RANGE);

    /* gale_lastz_params sizes: 0.6's (before ambi_n_n) accepted, its flags only; any other
     * smaller one refused; a larger one accepted only when its extra bytes are 0; one above
     * GALE_STRUCT_SIZE_MAX refused */
    gale_lastz_params_init(&p);
    p.size = offsetof(gale_lastz_params, ambi_n_n);
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_OK);
    gale_lastz_result_free(r);
    r = NULL;
    p.size = offsetof(gale_lastz_params, ambi_n_n) - 8;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_INVALID);
    p.size = sizeof p - 4;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_INVALID);
    memset(big, 0, sizeof big);
    gale_lastz_params_init(&p);
    memcpy(big, &p, sizeof p);
    ((gale_lastz_params *)(void *)big)->size = sizeof big;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, (gale_lastz_params *)(void *)big, &r) == GALE_OK);
    gale_lastz_result_free(r);
    r = NULL;
    big[sizeof p + 3] = 1;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, (gale_lastz_params *)(void *)big, &r) == GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "gale_lastz_params") != NULL);
    p.size = GALE_STRUCT_SIZE_MAX + 1;
    CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_INVALID);

    /* GALE_LASTZ_SCORES_FILE: lower-case x scores fill_score (-100) against a base, not
     * x_score (-1000); upper-case X still x_score. An identical pair but for one x (or X)
     * in the target aligns whole and ungapped either way: the scores differ by 900, or
     * not at all. */
    {
        static const char unit[] = "ACGTTGCAAGCTTCGAGATC";
        char tx[200], qx[200];
        int32_t sum = 0, got[4];
        for (int k = 0; k < 200; k++) qx[k] = tx[k] = unit[k % 20];
        for (int k = 0; k < 200; k++)
            if (k != 100) sum += hoxd70_self(qx[k]);
        for (int v = 0; v < 4; v++) { /* x default, x from a file, X default, X from a file */
            gale_lastz_anchor whole = {0, 0, 200, 0};
            gale_lastz_alignment a;
            gale_lastz_params_init(&p);
            if (v & 1) p.flags |= GALE_LASTZ_SCORES_FILE;
            tx[100] = v < 2 ? 'x' : 'X';
            got[v] = 0;
            REQUIRE(gale_lastz_extend(ctx, tx, 200, qx, 200, &whole, 1, &p, &r) == GALE_OK);
            CHECK(gale_lastz_result_count(r) == 1);
            a.size = sizeof a;
            if (gale_lastz_result_count(r) == 1 && gale_lastz_result_get(r, 0, &a) == GALE_OK) {
                CHECK(a.beg1 == 1 && a.end1 == 200 && a.n_ops == 1);
                got[v] = a.score;
            }
            gale_lastz_result_free(r);
            r = NULL;
        }
        CHECK_MSG(got[0] == sum - 1000 && got[1] == sum - 100 && got[2] == sum - 1000 && got[3] == sum - 1000,
                  "x/X scores %d %d %d %d, expected %d %d %d %d", got[0], got[1], got[2], got[3], sum - 1000,
                  sum - 100, sum - 1000, sum - 1000);
    }

    /* GALE_LASTZ_SCORES_TABLE: the whole score set from the caller, as gale lastz builds it
     * from a scoring file over A C G T N (here N against N +50, N against a base -20): an
     * identical pair but for position 100 scores as the table says there; a table with
     * SCORES_FILE, a missing table and an entry out of range are refused; row and column 0
     * are the library's whatever the table holds. */
    {
        static int32_t table[256 * 256];
        const int32_t sum = one_change_rest();
        struct { char t, q; int32_t want; } v[] = {{'N', 'N', 50}, {'N', 'A', -20}, {'n', 'c', -20}, {'X', 'A', -1000}};
        for (int k = 0; k < 256 * 256; k++) table[k] = -100;
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
                const int32_t m[4][4] = {{91, -114, -31, -123}, {-114, 100, -125, -31}, {-31, -125, 100, -114},
                                         {-123, -31, -114, 91}};
                for (int ca = 0; ca < 2; ca++)
                    for (int cb = 0; cb < 2; cb++)
                        table[("ACGT"[a] + 32 * ca) * 256 + "ACGT"[b] + 32 * cb] = m[a][b];
            }
        for (int a = 0; a < 4; a++)
            for (int ca = 0; ca < 2; ca++)
                for (int cn = 0; cn < 2; cn++) {
                    table[("ACGT"[a] + 32 * ca) * 256 + 'N' + 32 * cn] = -20;
                    table[('N' + 32 * cn) * 256 + "ACGT"[a] + 32 * ca] = -20;
                }
        table['N' * 256 + 'N'] = table['n' * 256 + 'n'] = table['N' * 256 + 'n'] = table['n' * 256 + 'N'] = 50;
        for (int k = 0; k < 256; k++) table['X' * 256 + k] = table[k * 256 + 'X'] = -1000;
        table[0] = INT32_MIN; /* (row and column 0: the library's own) */
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            gale_lastz_params_init(&p);
            p.flags |= GALE_LASTZ_SCORES_TABLE;
            p.scores_table = table;
            const int32_t got = one_change_score(ctx, v[i].t, v[i].q, &p);
            CHECK_MSG(got == sum + v[i].want, "table: %c against %c: score %d, expected %d", v[i].t, v[i].q, got,
                      sum + v[i].want);
        }
        gale_lastz_params_init(&p);
        p.flags |= GALE_LASTZ_SCORES_TABLE;
        CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_INVALID); /* no table */
        p.scores_table = table;
        p.flags |= GALE_LASTZ_SCORES_FILE;
        CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_INVALID);
        p.flags &= ~GALE_LASTZ_SCORES_FILE;
        table['A' * 256 + 'C'] = 1 << 21;
        CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_RANGE);
        CHECK(strstr(gale_last_error(), "scores_table[65][67]") != NULL);
        table['A' * 256 + 'C'] = -114;
        CHECK(r == NULL);
    }

    /* GALE_LASTZ_AMBIGUOUS_N / _IUPAC (--ambiguous): an identical pair but for one letter at
     * position 100 of the target: N against a base scores fill (-100) by default and
     * ambi_n_other with either flag; R (an IUPAC code) against a base fill unless _IUPAC;
     * R against R (the query given R there too) the matrix' fill (-100) by default, ambi_n_n
     * under _IUPAC */
    {
        const int32_t sum = one_change_rest();
        struct { char t, q; uint32_t flags; int32_t want; } v[] = {
            {'N', 0, 0, -100}, {'N', 0, GALE_LASTZ_AMBIGUOUS_N, -7}, {'n', 0, GALE_LASTZ_AMBIGUOUS_IUPAC, -7},
            {'R', 0, GALE_LASTZ_AMBIGUOUS_N, -100}, {'R', 0, GALE_LASTZ_AMBIGUOUS_IUPAC, -7},
            {'R', 'R', 0, -100}, {'R', 'r', GALE_LASTZ_AMBIGUOUS_IUPAC, 5}, {'N', 'N', GALE_LASTZ_AMBIGUOUS_N, 5}};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            gale_lastz_params_init(&p);
            p.flags |= v[i].flags;
            p.ambi_n_n = 5;
            p.ambi_n_other = -7;
            const int32_t got = one_change_score(ctx, v[i].t, v[i].q, &p);
            CHECK_MSG(got == sum + v[i].want, "case %zu (%c against %c, flags %u): score %d, expected %d", i, v[i].t,
                      v[i].q ? v[i].q : kUnit[0], v[i].flags, got, sum + v[i].want);
        }
        /* ambi scores out of range refused */
        gale_lastz_params_init(&p);
        p.flags |= GALE_LASTZ_AMBIGUOUS_N;
        p.ambi_n_other = -(1 << 21);
        CHECK(gale_lastz_extend(ctx, t, 260, q, 260, &an, 1, &p, &r) == GALE_E_RANGE);
    }

    /* LASTZ's seeding (gale_lastz_seeder_*, since 0.7): the target, 200 bases of a fixed
     * pseudo-random sequence, found whole in the query after 40 Ns: the first word's hit
     * extends to both ends of the target (all matches; above 3 x 3000, no entropy
     * scaling), and the later words lie on that extension: one HSP, scoring the HOXD70
     * sum. A target shorter than the seed has none; bad arguments are refused. */
    {
        char t[200], q2[240];
        int32_t whole = 0;
        gale_lastz_seeder *sd = NULL;
        gale_lastz_anchor *h = NULL;
        size_t n = 99;
        gale_lastz_seed_params sp;
        gale_lastz_params p;
        uint32_t lcg = 12345;
        for (int k = 0; k < 200; k++) {
            lcg = lcg * 1103515245u + 12345u;
            t[k] = "ACGT"[(lcg >> 16) & 3];
            whole += hoxd70_self(t[k]);
        }
        memset(q2, 'N', 40);
        memcpy(q2 + 40, t, 200);
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, NULL, &sd) == GALE_OK);
        CHECK(gale_lastz_seeder_find(sd, q2, 240, &h, &n) == GALE_OK);
        CHECK_MSG(n == 1 && h && h[0].pos1 == 0 && h[0].pos2 == 40 && h[0].length == 200 && h[0].score == whole,
                  "%zu HSPs, the first %u %u %u %d (expected 0 40 200 %d)", n, h ? h[0].pos1 : 0, h ? h[0].pos2 : 0,
                  h ? h[0].length : 0, h ? h[0].score : 0, whole);
        gale_lastz_hsps_free(h);
        /* its stats: one find, the 182 words of the target found at least (each at its own
         * place), one HSP; on the GPU (an AUTO context there) or not at all */
        {
            gale_lastz_seed_stats ss;
            unsigned char buf[sizeof(gale_lastz_seed_stats) + 16];
            gale_lastz_seed_stats *big = (gale_lastz_seed_stats *)(void *)buf;
            memset(&ss, 0xff, sizeof ss);
            ss.size = sizeof ss;
            CHECK(gale_lastz_seeder_stats(sd, &ss) == GALE_OK);
            CHECK_MSG(ss.finds == 1 && ss.hits >= 182 && ss.hsps == 1 && ss.finds_device_failed == 0 &&
                          (ss.finds_device == 0 || ss.finds_device == 1) && ss.seconds >= 0 &&
                          ss.device_seconds >= 0,
                      "stats: %llu finds (%llu on the GPU, %llu failed there), %llu hits, %llu HSPs",
                      (unsigned long long)ss.finds, (unsigned long long)ss.finds_device,
                      (unsigned long long)ss.finds_device_failed, (unsigned long long)ss.hits,
                      (unsigned long long)ss.hsps);
            memset(buf, 0xee, sizeof buf);
            big->size = sizeof buf;
            CHECK(gale_lastz_seeder_stats(sd, big) == GALE_OK);
            for (size_t k = sizeof(gale_lastz_seed_stats); k < sizeof buf; k++) CHECK(buf[k] == 0);
            big->size = sizeof(gale_lastz_seed_stats) - 8;
            CHECK(gale_lastz_seeder_stats(sd, big) == GALE_E_INVALID);
            CHECK(gale_lastz_seeder_stats(NULL, &ss) == GALE_E_INVALID);
            CHECK(gale_lastz_seeder_stats(sd, NULL) == GALE_E_INVALID);
        }
        /* the same HSPs, in the same order, on four threads over windows of 100 query
         * positions (GALE_LASTZ_SEED_WINDOW) as on one: a query of the target's pieces,
         * some mutated, among unrelated bases (under TSan: the threads' shares) */
        {
            char qm[3000];
            gale_ctx_opts o4;
            gale_ctx *ctx4 = NULL;
            gale_lastz_seeder *sd4 = NULL;
            gale_lastz_anchor *h4 = NULL;
            size_t n4 = 0, n1 = 0;
            for (int k = 0; k < 3000; k++) {
                lcg = lcg * 1103515245u + 12345u;
                qm[k] = (k / 150) % 3 == 0 ? "ACGT"[(lcg >> 16) & 3] : t[(k / 150 * 37) % 50 + k % 150];
                if ((lcg >> 8) % 29 == 0) qm[k] = "ACGT"[(lcg >> 20) & 3];
            }
            gale_ctx_opts_init(&o4);
            o4.backend = GALE_BACKEND_CPU;
            o4.threads = 4;
            CHECK(gale_ctx_create(&ctx4, &o4) == GALE_OK);
            CHECK(setenv("GALE_LASTZ_SEED_WINDOW", "100", 1) == 0);
            CHECK(gale_lastz_seeder_create(ctx4, t, 200, NULL, NULL, &sd4) == GALE_OK);
            unsetenv("GALE_LASTZ_SEED_WINDOW");
            CHECK(gale_lastz_seeder_find(sd, qm, 3000, &h, &n1) == GALE_OK);
            CHECK(gale_lastz_seeder_find(sd4, qm, 3000, &h4, &n4) == GALE_OK);
            CHECK_MSG(n1 > 2 && n4 == n1 && (n1 == 0 || memcmp(h, h4, n1 * sizeof *h) == 0),
                      "%zu HSPs on one thread, %zu on four: not the same", n1, n4);
            gale_lastz_hsps_free(h);
            gale_lastz_hsps_free(h4);
            gale_lastz_seeder_free(sd4);
            gale_ctx_destroy(ctx4);
        }
        /* above the threshold no HSP */
        gale_lastz_seed_params_init(&sp);
        CHECK(sp.size == sizeof sp && sp.seed == NULL && sp.transitions == 1 && sp.step == 1 && sp.xdrop == 910 &&
              sp.hsp_thresh == 3000 && sp.flags == 0);
        sp.hsp_thresh = whole + 1;
        gale_lastz_seeder *sd2 = NULL;
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_OK);
        CHECK(gale_lastz_seeder_find(sd2, q2, 240, &h, &n) == GALE_OK && n == 0 && h == NULL);
        gale_lastz_seeder_free(sd2);
        /* lower case never seeds: no HSP */
        for (int k = 40; k < 240; k++) q2[k] = (char)(q2[k] | 0x20);
        CHECK(gale_lastz_seeder_find(sd, q2, 240, &h, &n) == GALE_OK && n == 0);
        /* a target of two records joined as lastz joins a [multiple] target (byte 0, each
         * record followed by byte 0, the last one not counted): the query's copy of both
         * (one run of bases) makes one HSP a record, each ending at the separator, on
         * the joined target's positions (no entropy scaling: the scores are the sums) */
        {
            char tj[203];
            int32_t half[2] = {0, 0};
            tj[0] = 0;
            memcpy(tj + 1, t, 100);
            tj[101] = 0;
            memcpy(tj + 102, t + 100, 100);
            tj[202] = 0;
            for (int k = 0; k < 200; k++) half[k / 100] += hoxd70_self(t[k]);
            gale_lastz_seed_params_init(&sp);
            sp.flags = GALE_LASTZ_SEED_NOENTROPY;
            CHECK(gale_lastz_seeder_create(ctx, tj, 202, NULL, &sp, &sd2) == GALE_OK);
            for (int k = 40; k < 240; k++) q2[k] = t[k - 40];
            CHECK(gale_lastz_seeder_find(sd2, q2, 240, &h, &n) == GALE_OK);
            CHECK_MSG(n == 2 && h[0].pos1 == 1 && h[0].pos2 == 40 && h[0].length == 100 && h[0].score == half[0] &&
                          h[1].pos1 == 102 && h[1].pos2 == 140 && h[1].length == 100 && h[1].score == half[1],
                      "%zu HSPs, the first %u %u %u %d (expected 1 40 100 %d, then 102 140 100 %d)", n,
                      n ? h[0].pos1 : 0, n ? h[0].pos2 : 0, n ? h[0].length : 0, n ? h[0].score : 0, half[0], half[1]);
            gale_lastz_hsps_free(h);
            gale_lastz_seeder_free(sd2);
            for (int k = 40; k < 240; k++) q2[k] = (char)(q2[k] | 0x20);
        }
        /* a target shorter than the seed, an empty query */
        CHECK(gale_lastz_seeder_create(ctx, t, 18, NULL, NULL, &sd2) == GALE_OK);
        CHECK(gale_lastz_seeder_find(sd2, t, 200, &h, &n) == GALE_OK && n == 0);
        CHECK(gale_lastz_seeder_find(sd2, "", 0, &h, &n) == GALE_OK && n == 0);
        gale_lastz_seeder_free(sd2);
        /* refused */
        sd2 = NULL;
        gale_lastz_seed_params_init(&sp);
        sp.seed = "11x1a";
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_INVALID && sd2 == NULL);
        CHECK(strstr(gale_last_error(), "illegal character") != NULL);
        /* a half-weight seed has no 1 to flip: transitions must be 0 (lastz refuses
         * --transition with it); and the seeds lastz cannot index */
        sp.seed = "TTTTTTTTTTTT";
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_INVALID && sd2 == NULL);
        CHECK(strstr(gale_last_error(), "strict seeds") != NULL);
        sp.transitions = 0;
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_OK && sd2 != NULL);
        gale_lastz_seeder_free(sd2);
        sd2 = NULL;
        sp.seed = "TTTTTTTTTTTTTTTTTTTTTTTTTTTTT"; /* 29 bits and no 1 to resolve them */
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_INVALID);
        CHECK(strstr(gale_last_error(), "more resolving bits (1) than it has matches (0)") != NULL);
        sp.seed = "T00000000000000000000000000000000000000000000000000000000000000T"; /* 64 positions */
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_INVALID);
        CHECK(strstr(gale_last_error(), "exceeding 63") != NULL);
        sp.seed = "1T1T1T1T1T1T1T1T1T1T1T1T11"; /* 14 1s, 12 Ts: the resolved 1s over 16 bases */
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_INVALID);
        CHECK(strstr(gale_last_error(), "spread too widely") != NULL);
        /* an overweight seed (match15: 30 bits, 28 indexed, the last two 1s resolved against
         * the bases): a query that is the target with a transition at every 15th base has
         * one transition in each of its 186 windows on the diagonal, wherever it falls, so
         * with no transition allowed no hit (an index that left the two bases unresolved
         * would hit where the transition is in them), with one every window hits once */
        {
            static const char ts[256] = {['A'] = 'G', ['G'] = 'A', ['C'] = 'T', ['T'] = 'C'};
            char qt[200];
            for (int k = 0; k < 200; k++) qt[k] = k % 15 == 7 ? ts[(unsigned char)t[k]] : t[k];
            for (int tr = 0; tr <= 1; tr++) {
                gale_lastz_seed_params_init(&sp);
                sp.seed = "111111111111111";
                sp.transitions = tr;
                gale_lastz_seed_stats ss;
                ss.size = sizeof ss;
                CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_OK);
                CHECK(gale_lastz_seeder_find(sd2, qt, 200, &h, &n) == GALE_OK);
                gale_lastz_hsps_free(h);
                CHECK(gale_lastz_seeder_stats(sd2, &ss) == GALE_OK);
                CHECK_MSG(ss.hits == (tr ? 186u : 0u), "match15, %d transitions: %llu seed hits, expected %u", tr,
                          (unsigned long long)ss.hits, tr ? 186u : 0u);
                gale_lastz_seeder_free(sd2);
                sd2 = NULL;
            }
        }
        gale_lastz_seed_params_init(&sp);
        sp.transitions = 3;
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_RANGE);
        gale_lastz_seed_params_init(&sp);
        sp.step = 0;
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_RANGE);
        gale_lastz_seed_params_init(&sp);
        sp.flags = 2;
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_RANGE);
        gale_lastz_seed_params_init(&sp);
        sp.size = sizeof sp - 4;
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, &sp, &sd2) == GALE_E_INVALID);
        /* a scoring file's table (GALE_LASTZ_SCORES_TABLE): LASTZ's masked set scores N as
         * the bad score unless N is one of the file's labels (GALE_LASTZ_SCORES_N_ROW and
         * _N_COL): then the file's N scores let an HSP run through an N run in both */
        {
            static int32_t table[256 * 256];
            static const int32_t hox[4][4] = {
                {91, -114, -31, -123}, {-114, 100, -125, -31}, {-31, -125, 100, -114}, {-123, -31, -114, 91}};
            char tn[410];
            for (int k = 0; k < 256 * 256; k++) table[k] = -100;
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) table["ACGT"[r] * 256 + "ACGT"[c]] = hox[r][c];
            for (int k = 0; k < 4; k++) table['N' * 256 + "ACGT"[k]] = table["ACGT"[k] * 256 + 'N'] = -10;
            table['N' * 256 + 'N'] = -5;
            for (int k = 0; k < 256; k++) table['X' * 256 + k] = table[k * 256 + 'X'] = -1000;
            memcpy(tn, t, 200);
            memset(tn + 200, 'N', 10);
            for (int k = 0; k < 200; k++) /* (t's bases shifted A->C->G->T->A: not a repeat of t) */
                tn[210 + k] = "CGTA"[strchr("ACGT", t[k]) - "ACGT"];
            for (int with_n = 0; with_n < 2; with_n++) {
                gale_lastz_params_init(&p);
                p.flags = GALE_LASTZ_SCORES_TABLE | (with_n ? GALE_LASTZ_SCORES_N_ROW | GALE_LASTZ_SCORES_N_COL : 0);
                p.scores_table = table;
                CHECK(gale_lastz_seeder_create(ctx, tn, 410, &p, NULL, &sd2) == GALE_OK);
                CHECK(gale_lastz_seeder_find(sd2, tn, 410, &h, &n) == GALE_OK);
                CHECK_MSG(with_n ? n == 1 && h[0].pos1 == 0 && h[0].pos2 == 0 && h[0].length == 410
                                 : n == 2 && h[0].pos1 == 0 && h[0].length == 200 && h[1].pos1 == 210 && h[1].length == 200,
                          "N %s the file's labels: %zu HSPs, the first %u %u %u", with_n ? "among" : "not among", n,
                          n ? h[0].pos1 : 0, n ? h[0].pos2 : 0, n ? h[0].length : 0);
                gale_lastz_hsps_free(h);
                gale_lastz_seeder_free(sd2);
                sd2 = NULL;
            }
        }
        CHECK(gale_lastz_seeder_create(NULL, t, 200, NULL, NULL, &sd2) == GALE_E_HANDLE);
        CHECK(gale_lastz_seeder_create(ctx, t, 200, NULL, NULL, NULL) == GALE_E_INVALID);
        CHECK(gale_lastz_seeder_find(NULL, t, 200, &h, &n) == GALE_E_INVALID);
        CHECK(gale_lastz_seeder_find(sd, NULL, 200, &h, &n) == GALE_E_INVALID);
        CHECK(gale_lastz_seeder_find(sd, t, 200, NULL, &n) == GALE_E_INVALID);
        CHECK(sd2 == NULL);
        gale_lastz_seeder_free(sd);
        gale_lastz_seeder_free(NULL);
        gale_lastz_hsps_free(NULL);
    }

    /* the id has no batch kind */
    {
        gale_batch *b = NULL;
        CHECK(gale_batch_create(ctx, GALE_LASTZ, &b) == GALE_E_RANGE);
    }

    gale_ctx_destroy(ctx);
    return tu_finish("lastz_api");
}
