/* The 0.3 API on whatever backend GALE_BACKEND_AUTO picks (the CPU here, the GPU on
 * the device machine): kinds and their parameters as table entries (gale_kind_name,
 * gale_kind_params, gale_param_bounds against the defaults gale.h and its parts document, and
 * gale_batch_set/get), sequences registered once and referenced by tasks (results
 * identical to the same windows given inline, every field and the CIGAR), 0.2-size
 * structs, the bulk result getter, groups and graphs refused by pair kinds, and the
 * device lists of gale_ctx_opts. Random cases from a printed seed (GALE_TEST_SEED). */
#define GALE_EXPERIMENTAL_API
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

static const int kinds[] = {GALE_XDROP,       GALE_WFA,         GALE_EDIT,       GALE_INDEL,
                            GALE_WFA_LINEAR,  GALE_ZDROP_EXTZ2, GALE_ZDROP_EXTD2, GALE_ZDROP_EXTS2};

/* What gale.h and its parts (include/gale/) document, written out here rather than read from the library. */
typedef struct documented {
    int kind, param;
    int64_t def, lo, hi;
} documented;
static const documented docs[] = {
    {GALE_XDROP, GALE_P_MATCH, 1, -(1 << 20), 1 << 20},
    {GALE_XDROP, GALE_P_MISMATCH, -1, -(1 << 20), 1 << 20},
    {GALE_XDROP, GALE_P_GAP, -1, -(1 << 20), -1},
    {GALE_XDROP, GALE_P_XDROP, 100, 0, 1 << 29},
    {GALE_XDROP, GALE_P_DIRECTION, GALE_DIR_BOTH, GALE_DIR_LEFT, GALE_DIR_BOTH},
    {GALE_XDROP, GALE_P_N_POLICY, GALE_N_DNA5, GALE_N_DNA5, GALE_N_BYTES},
    {GALE_WFA, GALE_P_PENALTY_MISMATCH, 4, 1, 4096},
    {GALE_WFA, GALE_P_PENALTY_GAP_OPEN, 6, 0, 4096},
    {GALE_WFA, GALE_P_PENALTY_GAP_EXTEND, 2, 1, 4096},
    {GALE_WFA, GALE_P_PENALTY_GAP_OPEN2, 0, 0, 4096},
    {GALE_WFA, GALE_P_PENALTY_GAP_EXTEND2, 0, 0, 4096},
    {GALE_WFA, GALE_P_SCOPE, GALE_SCOPE_ALIGNMENT, GALE_SCOPE_SCORE, GALE_SCOPE_ALIGNMENT},
    {GALE_WFA, GALE_P_PATTERN_BEGIN_FREE, 0, 0, 2147483647},
    {GALE_WFA, GALE_P_TEXT_END_FREE, 0, 0, 2147483647},
    {GALE_WFA, GALE_P_MEMORY_LIMIT, 256, 1, 1 << 20},
    {GALE_WFA, GALE_P_EXPECTED_ERROR, 100, 1, 1000},
    {GALE_WFA, GALE_P_GPU_BACKTRACE, GALE_GPU_BT_CODES, GALE_GPU_BT_CODES, GALE_GPU_BT_PIGGYBACK},
    {GALE_WFA, GALE_P_N_POLICY, GALE_N_DNA5, GALE_N_DNA5, GALE_N_BYTES},
    {GALE_EDIT, GALE_P_SCOPE, GALE_SCOPE_ALIGNMENT, GALE_SCOPE_SCORE, GALE_SCOPE_ALIGNMENT},
    {GALE_EDIT, GALE_P_MEMORY_LIMIT, 256, 1, 1 << 20},
    {GALE_WFA, GALE_PX_WFA_GROUP_THREADS, 0, 0, 256},
    {GALE_EDIT, GALE_PX_WFA_UNITS_PER_SM, 0, 0, 64},
    /* the Z-drop kinds' table in gale/zdrop.h */
    {GALE_ZDROP_EXTZ2, GALE_P_MATCH, 2, -128, 127},
    {GALE_ZDROP_EXTZ2, GALE_P_PENALTY_MISMATCH, 4, -127, 128},
    {GALE_ZDROP_EXTZ2, GALE_P_PENALTY_N, 1, -127, 128},
    {GALE_ZDROP_EXTZ2, GALE_P_PENALTY_GAP_OPEN, 4, 0, 127},
    {GALE_ZDROP_EXTZ2, GALE_P_PENALTY_GAP_EXTEND, 2, 0, 127},
    {GALE_ZDROP_EXTZ2, GALE_P_BAND, 500, -1, 1 << 30},
    {GALE_ZDROP_EXTZ2, GALE_P_ZDROP, 400, -1, 1 << 30},
    {GALE_ZDROP_EXTZ2, GALE_P_END_BONUS, -1, -(1 << 30), 1 << 30},
    {GALE_ZDROP_EXTZ2, GALE_P_ZDROP_MATRIX, 0, 0, 1},
    {GALE_ZDROP_EXTZ2, GALE_P_ZDROP_MAT(4, 4), 0, -128, 127},
    {GALE_ZDROP_EXTD2, GALE_P_MATCH, 2, -128, 127},
    {GALE_ZDROP_EXTD2, GALE_P_PENALTY_GAP_OPEN2, 24, 0, 127},
    {GALE_ZDROP_EXTD2, GALE_P_PENALTY_GAP_EXTEND2, 1, 0, 127},
    {GALE_ZDROP_EXTD2, GALE_P_BAND, 500, -1, 1 << 30},
    {GALE_ZDROP_EXTD2, GALE_P_ZDROP_MAT(0, 0), 0, -128, 127},
    {GALE_ZDROP_EXTS2, GALE_P_MATCH, 1, -128, 127},
    {GALE_ZDROP_EXTS2, GALE_P_PENALTY_MISMATCH, 2, -127, 128},
    {GALE_ZDROP_EXTS2, GALE_P_PENALTY_GAP_OPEN, 2, 0, 127},
    {GALE_ZDROP_EXTS2, GALE_P_PENALTY_GAP_EXTEND, 1, 1, 127},
    {GALE_ZDROP_EXTS2, GALE_P_PENALTY_GAP_OPEN2, 32, 0, 127},
    {GALE_ZDROP_EXTS2, GALE_P_ZDROP, 200, -1, 1 << 30},
    {GALE_ZDROP_EXTS2, GALE_P_NONCAN, 9, 0, 127},
    {GALE_ZDROP_EXTZ2, GALE_P_ZDROP_FLAGS, 0, 0, 0xdf},
    {GALE_ZDROP_EXTD2, GALE_P_ZDROP_FLAGS, 0, 0, 0xdf},
    {GALE_ZDROP_EXTS2, GALE_P_ZDROP_FLAGS, 0x700, 0, 0x7df},
};

static gale_ctx *make_ctx(void)
{
    gale_ctx *ctx = NULL;
    REQUIRE_OK(gale_ctx_create(&ctx, NULL));
    return ctx;
}

static void test_kinds_and_params(gale_ctx *ctx)
{
    size_t k, i, j;
    gale_bounds bd;
    CHECK(gale_kind_name(0) == NULL);
    CHECK(gale_kind_name(99) == NULL);
    CHECK(strcmp(gale_kind_name(GALE_POA), "poa") == 0);
    CHECK(gale_kind_name(-1) == NULL);
    CHECK(strcmp(gale_kind_name(GALE_XDROP), "xdrop") == 0);
    CHECK(strcmp(gale_kind_name(GALE_WFA), "wfa") == 0);
    CHECK(strcmp(gale_kind_name(GALE_EDIT), "edit") == 0);
    CHECK(strcmp(gale_kind_name(GALE_ZDROP_EXTZ2), "zdrop_extz2") == 0);
    CHECK(strcmp(gale_kind_name(GALE_ZDROP_EXTD2), "zdrop_extd2") == 0);
    CHECK(strcmp(gale_kind_name(GALE_ZDROP_EXTS2), "zdrop_exts2") == 0);
    bd.size = sizeof bd;
    CHECK_ST(gale_param_bounds(GALE_ZDROP_EXTZ2, GALE_P_PENALTY_GAP_OPEN2, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_ZDROP_EXTS2, GALE_P_BAND, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_ZDROP_EXTS2, GALE_P_END_BONUS, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_ZDROP_EXTD2, GALE_P_NONCAN, &bd), GALE_E_RANGE);
    memset(&bd, 0, sizeof bd);
    bd.size = sizeof bd;
    CHECK_ST(gale_param_bounds(99, GALE_P_MATCH, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_XDROP, GALE_P_SCOPE, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_EDIT, GALE_P_PENALTY_MISMATCH, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_WFA, GALE_P_XDROP, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_XDROP, GALE_P_MATCH, NULL), GALE_E_INVALID);
    bd.size = 0;
    CHECK_ST(gale_param_bounds(GALE_XDROP, GALE_P_MATCH, &bd), GALE_E_INVALID);
    bd.size = sizeof bd;

    /* The documented bounds and defaults. */
    for (i = 0; i < sizeof docs / sizeof docs[0]; ++i) {
        const documented *d = &docs[i];
        CHECK_ST(gale_param_bounds(d->kind, d->param, &bd), GALE_OK);
        CHECK_MSG(bd.lower == d->lo && bd.upper == d->hi && bd.default_value == d->def,
                  "kind %d param %d: bounds [%lld, %lld] default %lld; gale.h says [%lld, %lld] default %lld",
                  d->kind, d->param, (long long)bd.lower, (long long)bd.upper, (long long)bd.default_value,
                  (long long)d->lo, (long long)d->hi, (long long)d->def);
        CHECK(bd.name != NULL && bd.name[0] != '\0');
    }

    /* Every listed parameter: its bounds hold in gale_batch_set, its default is what a
     * fresh batch reads back. */
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        int ids[64];
        size_t n = 0, n2 = 0;
        gale_batch *b = NULL;
        CHECK_ST(gale_kind_params(kinds[k], NULL, 0, &n), GALE_OK);
        CHECK(n > 0 && n <= 64);
        CHECK_ST(gale_kind_params(kinds[k], ids, 64, &n2), GALE_OK);
        CHECK_EQ_I64((int64_t)n, (int64_t)n2);
        CHECK_ST(gale_kind_params(kinds[k], ids, 1, NULL), GALE_E_INVALID);
        CHECK_ST(gale_kind_params(kinds[k], NULL, 1, &n2), GALE_E_INVALID);
        CHECK_ST(gale_kind_params(77, ids, 64, &n2), GALE_E_RANGE);
        REQUIRE_OK(gale_batch_create(ctx, kinds[k], &b));
        for (i = 0; i < n; ++i) {
            int64_t v = 12345;
            if (i > 0) CHECK_MSG(ids[i] > ids[i - 1], "kind %d: parameter ids not in order", kinds[k]);
            CHECK(ids[i] < 10000); /* experimental ids are not listed */
            CHECK_ST(gale_param_bounds(kinds[k], ids[i], &bd), GALE_OK);
            CHECK_ST(gale_batch_get(b, ids[i], &v), GALE_OK);
            CHECK_MSG(v == bd.default_value, "kind %d param %d: fresh batch reads %lld, default %lld", kinds[k],
                      ids[i], (long long)v, (long long)bd.default_value);
            CHECK_ST(gale_batch_set(b, ids[i], bd.lower), GALE_OK);
            CHECK_ST(gale_batch_set(b, ids[i], bd.upper), GALE_OK);
            if (bd.lower > INT64_MIN) CHECK_ST(gale_batch_set(b, ids[i], bd.lower - 1), GALE_E_RANGE);
            if (bd.upper < INT64_MAX) CHECK_ST(gale_batch_set(b, ids[i], bd.upper + 1), GALE_E_RANGE);
            CHECK_ST(gale_batch_get(b, ids[i], &v), GALE_OK);
            CHECK_EQ_I64(v, bd.upper);
            CHECK_ST(gale_batch_set(b, ids[i], bd.default_value), GALE_OK);
        }
        /* What bounds alone cannot say: the experimental group shape takes 0, 32, 128 or
         * 256 (the CUDA kernel's groups); a refused value leaves the last valid one. */
        if (kinds[k] == GALE_WFA || kinds[k] == GALE_EDIT) {
            int64_t v = -1;
            CHECK_ST(gale_batch_set(b, GALE_PX_WFA_GROUP_THREADS, 128), GALE_OK);
            CHECK_ST(gale_batch_set(b, GALE_PX_WFA_GROUP_THREADS, 64), GALE_E_RANGE);
            CHECK_ST(gale_batch_set(b, GALE_PX_WFA_GROUP_THREADS, 33), GALE_E_RANGE);
            CHECK_ST(gale_batch_get(b, GALE_PX_WFA_GROUP_THREADS, &v), GALE_OK);
            CHECK_EQ_I64(v, 128);
            CHECK_ST(gale_batch_set(b, GALE_PX_WFA_GROUP_THREADS, 0), GALE_OK);
        }
        /* WFA2-lib's heuristic bits only (0x08 is none of them); no drops on edit or indel
         * (WFA2-lib refuses them); a refused word leaves the last valid one. */
        if (kinds[k] == GALE_WFA || kinds[k] == GALE_EDIT || kinds[k] == GALE_INDEL || kinds[k] == GALE_WFA_LINEAR) {
            int64_t v = -1;
            const int drops = kinds[k] == GALE_WFA || kinds[k] == GALE_WFA_LINEAR;
            CHECK_ST(gale_batch_set(b, GALE_P_WFA_HEURISTIC, GALE_WFA_H_WFADAPTIVE | GALE_WFA_H_BANDED_STATIC), GALE_OK);
            CHECK_ST(gale_batch_set(b, GALE_P_WFA_HEURISTIC, 0x08), GALE_E_RANGE);
            CHECK_ST(gale_batch_set(b, GALE_P_WFA_HEURISTIC, GALE_WFA_H_XDROP), drops ? GALE_OK : GALE_E_RANGE);
            CHECK_ST(gale_batch_set(b, GALE_P_WFA_HEURISTIC, GALE_WFA_H_ZDROP | GALE_WFA_H_WFMASH),
                     drops ? GALE_OK : GALE_E_RANGE);
            CHECK_ST(gale_batch_get(b, GALE_P_WFA_HEURISTIC, &v), GALE_OK);
            CHECK_EQ_I64(v, drops ? GALE_WFA_H_ZDROP | GALE_WFA_H_WFMASH : GALE_WFA_H_WFADAPTIVE | GALE_WFA_H_BANDED_STATIC);
            CHECK_ST(gale_batch_set(b, GALE_P_WFA_HEURISTIC, GALE_WFA_H_NONE), GALE_OK);
        }
        /* The Z-drop kinds' flag word takes ksw2's bits only (0x20 is none of them; the
         * splice bits belong to exts2); a refused word leaves the last valid one. */
        if (kinds[k] == GALE_ZDROP_EXTZ2 || kinds[k] == GALE_ZDROP_EXTD2 || kinds[k] == GALE_ZDROP_EXTS2) {
            int64_t v = -1;
            CHECK_ST(gale_batch_set(b, GALE_P_ZDROP_FLAGS, GALE_ZD_EXTZ_ONLY | GALE_ZD_RIGHT), GALE_OK);
            CHECK_ST(gale_batch_set(b, GALE_P_ZDROP_FLAGS, 0x20), GALE_E_RANGE);
            if (kinds[k] != GALE_ZDROP_EXTS2) CHECK_ST(gale_batch_set(b, GALE_P_ZDROP_FLAGS, GALE_ZD_SPLICE_FOR), GALE_E_RANGE);
            CHECK_ST(gale_batch_get(b, GALE_P_ZDROP_FLAGS, &v), GALE_OK);
            CHECK_EQ_I64(v, GALE_ZD_EXTZ_ONLY | GALE_ZD_RIGHT);
        }
        /* Every documented parameter of this kind is listed (the experimental ones are not). */
        for (i = 0; i < sizeof docs / sizeof docs[0]; ++i) {
            int found = 0;
            if (docs[i].kind != kinds[k] || docs[i].param >= 10000) continue;
            for (j = 0; j < n; ++j) found |= ids[j] == docs[i].param;
            CHECK_MSG(found, "kind %d does not list parameter %d", kinds[k], docs[i].param);
        }
        gale_batch_destroy(b);
    }
}

/* Result i of b and its CIGAR (NULL/0 for X-drop). */
typedef struct full_result {
    gale_result r;
    const uint32_t *cigar;
    size_t n_ops;
} full_result;

static full_result get_full(gale_batch *b, int kind, size_t i)
{
    full_result f;
    memset(&f, 0, sizeof f);
    f.r.size = sizeof f.r;
    CHECK_ST(gale_result_get(b, i, &f.r), GALE_OK);
    if (kind != GALE_XDROP) CHECK_ST(gale_result_cigar(b, i, &f.cigar, &f.n_ops), GALE_OK);
    return f;
}

/* Registered sequences: two chromosome-like sequences, many tasks over windows of
 * them, against the same windows copied inline. */
static void test_registered(gale_ctx *ctx, tu_rng *rng)
{
    size_t ki;
    const int64_t len = tu_scaled(60000, 4000);
    tu_pair chrom;
    tu_pair_make(rng, &chrom, len, 32, 0.04, TU_LOWER | TU_NRUNS);
    for (ki = 0; ki < sizeof kinds / sizeof kinds[0]; ++ki) {
        const int kind = kinds[ki];
        gale_batch *reg = NULL, *inl = NULL;
        uint32_t hid = 0, vid = 0, id3 = 0;
        long t, n_tasks = tu_scaled(300, 40);
        gale_task task;
        REQUIRE_OK(gale_batch_create(ctx, kind, &reg));
        REQUIRE_OK(gale_batch_create(ctx, kind, &inl));
        CHECK_ST(gale_batch_add_sequence(reg, chrom.h, chrom.h_len, &hid), GALE_OK);
        CHECK_ST(gale_batch_add_sequence(reg, chrom.v, chrom.v_len, &vid), GALE_OK);
        CHECK_EQ_I64(hid, 1);
        CHECK_EQ_I64(vid, 2);
        CHECK_ST(gale_batch_add_sequence(reg, "", 0, &id3), GALE_OK); /* empty is a sequence too */
        CHECK_EQ_I64(id3, 3);
        for (t = 0; t < n_tasks; ++t) {
            /* A window of each (the same region, roughly: the pair is colinear), and for
             * X-drop a seed inside both windows where they share bases. */
            int64_t span = tu_logrange(rng, 1, kind == GALE_XDROP ? 20000 : 3000);
            int64_t ho = tu_range(rng, 0, chrom.h_len - 1), hl = tu_range(rng, 0, span);
            int64_t vo, vl;
            if (ho + hl > chrom.h_len) hl = chrom.h_len - ho;
            vo = ho * chrom.v_len / chrom.h_len + tu_range(rng, -20, 20);
            if (vo < 0) vo = 0;
            if (vo > chrom.v_len) vo = chrom.v_len;
            vl = hl + tu_range(rng, -10, 10);
            if (vl < 0) vl = 0;
            if (vo + vl > chrom.v_len) vl = chrom.v_len - vo;
            gale_task_init(&task);
            task.h_seq = hid;
            task.h_offset = ho;
            task.h_len = hl;
            task.v_seq = vid;
            task.v_offset = vo;
            task.v_len = vl;
            task.user = (uint64_t)t * 7 + 1;
            if (kind == GALE_XDROP) {
                int64_t k = tu_range(rng, 0, hl < vl ? hl : vl);
                task.h_begin = tu_range(rng, 0, hl - k);
                task.h_end = task.h_begin + k;
                task.v_begin = tu_range(rng, 0, vl - k);
                task.v_end = task.v_begin + k;
            }
            CHECK_ST(gale_batch_add(reg, &task), GALE_OK);
            task.h_seq = task.v_seq = 0;
            task.h_offset = task.v_offset = 0;
            task.h = chrom.h + ho;
            task.v = chrom.v + vo;
            CHECK_ST(gale_batch_add(inl, &task), GALE_OK);
        }
        /* One task entirely on the empty registered sequence. */
        gale_task_init(&task);
        task.h_seq = id3;
        task.v_seq = id3;
        CHECK_ST(gale_batch_add(reg, &task), GALE_OK);
        gale_task_init(&task);
        CHECK_ST(gale_batch_add(inl, &task), GALE_OK);

        /* Refusals; nothing is added. */
        gale_task_init(&task);
        task.h_seq = 4; /* not registered */
        task.v = "ACGT";
        task.v_len = 4;
        CHECK_ST(gale_batch_add(reg, &task), GALE_E_INVALID);
        task.h_seq = hid;
        task.h_offset = chrom.h_len - 2;
        task.h_len = 3; /* past the end */
        CHECK_ST(gale_batch_add(reg, &task), GALE_E_INPUT);
        task.h_offset = -1;
        task.h_len = 1;
        CHECK_ST(gale_batch_add(reg, &task), GALE_E_INPUT);
        {
            /* An offset near INT64_MAX: refused, and its message computes no end past
             * 64 bits (found by fuzz_api: signed overflow, UBSan) */
            const char *m;
            task.h_offset = INT64_MAX;
            task.h_len = 25;
            CHECK_ST(gale_batch_add(reg, &task), GALE_E_INPUT);
            m = gale_last_error();
            CHECK_MSG(strstr(m, "[9223372036854775807, 9223372036854775807 + 25)") != NULL,
                      "window at offset INT64_MAX: message \"%s\"", m);
            task.h_offset = INT64_MIN;
            CHECK_ST(gale_batch_add(reg, &task), GALE_E_INPUT);
            task.h_len = 1;
        }
        task.h_offset = 0;
        task.h = "A"; /* both inline and registered */
        CHECK_ST(gale_batch_add(reg, &task), GALE_E_INVALID);
        task.h_seq = 0;
        task.h_offset = 5; /* an offset into an inline sequence */
        CHECK_ST(gale_batch_add(reg, &task), GALE_E_INVALID);
        {
            size_t c = 0;
            CHECK_ST(gale_batch_count(reg, &c), GALE_OK);
            CHECK_EQ_I64((int64_t)c, n_tasks + 1);
        }
        CHECK_ST(gale_batch_add_sequence(reg, "ACGT", 4, NULL), GALE_E_INVALID);
        CHECK_ST(gale_batch_add_sequence(reg, NULL, 4, &id3), GALE_E_INVALID);
        CHECK_ST(gale_batch_add_sequence(reg, "ACGT", -1, &id3), GALE_E_INVALID);
        {
            const char *m;
            CHECK_ST(gale_batch_add_sequence(reg, "ACGTACGT!CGT", 12, &id3), GALE_E_INPUT);
            m = gale_last_error();
            CHECK_MSG(strstr(m, "sequence 4") != NULL && strstr(m, "position 8") != NULL,
                      "bad byte in a registered sequence: message \"%s\" names neither the sequence nor the position",
                      m);
        }
        CHECK_ST(gale_batch_add_sequence(reg, "ACGT", 4, &id3), GALE_OK);
        CHECK_EQ_I64(id3, 4); /* the refused one took no id */

        REQUIRE_OK(gale_submit(reg));
        REQUIRE_OK(gale_submit(inl));
        REQUIRE_OK(gale_wait(reg));
        REQUIRE_OK(gale_wait(inl));
        CHECK_ST(gale_batch_add_sequence(reg, "ACGT", 4, &id3), GALE_E_STATE);
        for (t = 0; t <= n_tasks; ++t) {
            full_result a = get_full(reg, kind, (size_t)t), b = get_full(inl, kind, (size_t)t);
            char what[64];
            snprintf(what, sizeof what, "kind %d task %ld registered vs inline", kind, t);
            CHECK_MSG(tu_result_eq(&a.r, &b.r, 1, what), "%s", what);
            CHECK_MSG(a.n_ops == b.n_ops && (a.n_ops == 0 || memcmp(a.cigar, b.cigar, a.n_ops * 4) == 0),
                      "%s: CIGARs differ", what);
        }
        /* Reset forgets the registered sequences. */
        REQUIRE_OK(gale_batch_reset(reg));
        gale_task_init(&task);
        task.h_seq = 1;
        CHECK_ST(gale_batch_add(reg, &task), GALE_E_INVALID);
        CHECK_ST(gale_batch_add_sequence(reg, "AC", 2, &id3), GALE_OK);
        CHECK_EQ_I64(id3, 1);
        gale_batch_destroy(reg);
        gale_batch_destroy(inl);
    }
    tu_pair_free(&chrom);
}

/* Structs of 0.2's size are accepted with the new fields at their defaults; a size
 * between two releases is refused. */
static void test_struct_sizes(gale_ctx *ctx)
{
    gale_ctx_opts o;
    gale_ctx *c2 = NULL;
    gale_batch *b = NULL;
    gale_task t;
    size_t n = 99;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 2;
    o.size = offsetof(gale_ctx_opts, n_devices);
    o.n_devices = -7;  /* beyond the caller's struct: never read */
    CHECK_ST(gale_ctx_create(&c2, &o), GALE_OK);
    CHECK_ST(gale_ctx_devices(c2, NULL, 0, &n), GALE_OK);
    CHECK_EQ_I64((int64_t)n, 0);
    gale_ctx_destroy(c2);
    o.size = offsetof(gale_ctx_opts, n_devices) + 4;
    CHECK_ST(gale_ctx_create(&c2, &o), GALE_E_INVALID);

    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    gale_task_init(&t);
    t.h = "ACGTACGT";
    t.h_len = 8;
    t.v = "ACGTACGT";
    t.v_len = 8;
    t.h_begin = t.v_begin = 2;
    t.h_end = t.v_end = 4;
    t.size = offsetof(gale_task, h_seq);
    t.h_seq = 77; /* beyond the caller's struct: never read */
    t.h_offset = 5;
    CHECK_ST(gale_batch_add(b, &t), GALE_OK);
    t.size = offsetof(gale_task, h_seq) + 8;
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INVALID);
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    {
        gale_result r;
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        CHECK_ST(gale_result_get(b, 0, &r), GALE_OK);
        CHECK_EQ_I64(r.score, 8); /* identical 8-base sequences: the whole of both */
        CHECK_EQ_I64(r.h_end, 8);
    }
    gale_batch_destroy(b);
}

/* gale_result_get_range against gale_result_get, with the caller's element size. */
static void test_bulk(gale_ctx *ctx, tu_rng *rng)
{
    size_t ki;
    for (ki = 0; ki < sizeof kinds / sizeof kinds[0]; ++ki) {
        gale_batch *b = NULL;
        const size_t n = (size_t)tu_scaled(500, 50);
        const size_t stride = sizeof(gale_result) + 24; /* a caller built against a later, larger struct */
        unsigned char *buf = (unsigned char *)malloc(stride * n);
        tu_pair *pairs = (tu_pair *)calloc(n, sizeof *pairs);
        size_t i;
        REQUIRE(buf && pairs);
        REQUIRE_OK(gale_batch_create(ctx, kinds[ki], &b));
        for (i = 0; i < n; ++i) {
            gale_task t;
            tu_pair_make(rng, &pairs[i], tu_range(rng, 1, 400), 1, 0.05, 0);
            tu_task_from_pair(&t, &pairs[i], 1000 + i);
            if (kinds[ki] != GALE_XDROP) t.h_begin = t.h_end = t.v_begin = t.v_end = 0;
            REQUIRE_OK(gale_batch_add(b, &t));
        }
        {
            gale_result one;
            memset(&one, 0, sizeof one);
            one.size = sizeof one;
            CHECK_ST(gale_result_get_range(b, 0, 1, &one), GALE_E_STATE);
            CHECK_ST(gale_result_get_range(b, 0, 0, NULL), GALE_E_STATE); /* n = 0 is checked too */
        }
        REQUIRE_OK(gale_submit(b));
        REQUIRE_OK(gale_wait(b));
        memset(buf, 0xab, stride * n);
        ((gale_result *)(void *)buf)->size = stride;
        CHECK_ST(gale_result_get_range(b, 0, n, (gale_result *)(void *)buf), GALE_OK);
        for (i = 0; i < n; ++i) {
            gale_result r, g;
            size_t j;
            memcpy(&g, buf + i * stride, sizeof g);
            memset(&r, 0, sizeof r);
            r.size = sizeof r;
            CHECK_ST(gale_result_get(b, i, &r), GALE_OK);
            CHECK(tu_result_eq(&g, &r, 1, "bulk vs single"));
            CHECK_EQ_I64(g.user, 1000 + (int64_t)i);
            /* gale.h, "Struct sizes": each element keeps the caller's size, and the bytes
             * past this library's struct (a newer caller's fields) read 0 */
            CHECK_EQ_I64((int64_t)g.size, (int64_t)stride);
            for (j = sizeof(gale_result); j < stride; ++j)
                CHECK_MSG(buf[i * stride + j] == 0, "result %zu: byte %zu past gale_result is 0x%02x, not 0", i, j,
                          buf[i * stride + j]);
        }
        {   /* a range inside, and ranges past the end (nothing copied) */
            gale_result r[3];
            memset(r, 0x5a, sizeof r);
            r[0].size = sizeof r[0];
            CHECK_ST(gale_result_get_range(b, n - 2, 2, r), GALE_OK);
            CHECK_EQ_I64(r[1].user, 1000 + (int64_t)n - 1);
            memset(r, 0x5a, sizeof r);
            r[0].size = sizeof r[0];
            CHECK_ST(gale_result_get_range(b, n - 2, 3, r), GALE_E_RANGE);
            CHECK_EQ_I64(r[1].score, (int64_t)0x5a5a5a5a5a5a5a5aLL);
            CHECK_ST(gale_result_get_range(b, n + 1, 1, r), GALE_E_RANGE);
            CHECK_ST(gale_result_get_range(b, (size_t)-1, 2, r), GALE_E_RANGE);
            CHECK_ST(gale_result_get_range(b, 0, 0, NULL), GALE_OK);
            CHECK_ST(gale_result_get_range(b, n + 1, 0, NULL), GALE_E_RANGE);
            CHECK_ST(gale_result_get_range(b, 0, 1, NULL), GALE_E_INVALID);
            r[0].size = 8;
            CHECK_ST(gale_result_get_range(b, 0, 1, r), GALE_E_INVALID);
        }
        gale_batch_destroy(b);
        for (i = 0; i < n; ++i) tu_pair_free(&pairs[i]);
        free(pairs);
        free(buf);
    }
}

/* Groups and graphs: the shapes of the coming kinds, refused by the pair kinds. */
static void test_shapes(gale_ctx *ctx)
{
    size_t ki;
    const char *seqs[2] = {"ACGT", "ACGA"};
    const int64_t lens[2] = {4, 4};
    const uint32_t edges[2] = {0, 1};
    for (ki = 0; ki < sizeof kinds / sizeof kinds[0]; ++ki) {
        gale_batch *b = NULL;
        gale_group g;
        gale_graph gr;
        uint32_t id = 0;
        size_t c = 1;
        REQUIRE_OK(gale_batch_create(ctx, kinds[ki], &b));
        gale_group_init(&g);
        CHECK_EQ_I64((int64_t)g.size, (int64_t)sizeof g);
        g.n = 2;
        g.seqs = seqs;
        g.lens = lens;
        CHECK_ST(gale_batch_add_group(b, &g), GALE_E_UNSUPPORTED);
        CHECK_ST(gale_batch_add_group(b, NULL), GALE_E_INVALID);
        g.size = 0;
        CHECK_ST(gale_batch_add_group(b, &g), GALE_E_INVALID);
        gale_graph_init(&gr);
        gr.n_nodes = 2;
        gr.node_seqs = seqs;
        gr.node_lens = lens;
        gr.n_edges = 1;
        gr.edges = edges;
        CHECK_ST(gale_batch_add_graph(b, &gr, &id), GALE_E_UNSUPPORTED);
        CHECK_ST(gale_batch_add_graph(b, &gr, NULL), GALE_E_INVALID);
        CHECK_ST(gale_batch_add_graph(NULL, &gr, &id), GALE_E_HANDLE);
        CHECK_ST(gale_batch_count(b, &c), GALE_OK);
        CHECK_EQ_I64((int64_t)c, 0);
        gale_batch_destroy(b);
    }
}

/* Device lists: checked on every backend; on the CPU backend no device is used. */
static void test_devices(void)
{
    gale_ctx_opts o;
    gale_ctx *c = NULL;
    int list[3] = {0, 0, 0}, got[4] = {-1, -1, -1, -1};
    size_t n = 99;
    const int ngpu = gale_cuda_device_count();
    unsigned f = gale_features();
    CHECK(f & GALE_FEATURE_CPU);
    CHECK_MSG(!(f & GALE_FEATURE_DPX) || (f & GALE_FEATURE_CUDA), "DPX without CUDA: features %#x", f);
    CHECK_MSG(!(f & GALE_FEATURE_DPX) || ngpu > 0, "DPX in use with no device: features %#x", f);

    gale_ctx_opts_init(&o);
    CHECK_EQ_I64(o.n_devices, 0);
    CHECK(o.devices == NULL);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1;
    o.n_devices = -2;
    CHECK_ST(gale_ctx_create(&c, &o), GALE_E_RANGE);
    o.n_devices = 2;
    CHECK_ST(gale_ctx_create(&c, &o), GALE_E_INVALID); /* devices NULL */
    list[1] = -1;
    o.devices = list;
    CHECK_ST(gale_ctx_create(&c, &o), GALE_E_RANGE);
    list[1] = 0;
    CHECK_ST(gale_ctx_create(&c, &o), GALE_OK);
    CHECK_ST(gale_ctx_devices(c, got, 4, &n), GALE_OK);
    CHECK_EQ_I64((int64_t)n, 0);
    CHECK_ST(gale_ctx_devices(c, NULL, 4, &n), GALE_E_INVALID);
    CHECK_ST(gale_ctx_devices(c, got, 4, NULL), GALE_E_INVALID);
    CHECK_ST(gale_ctx_devices(NULL, got, 4, &n), GALE_E_HANDLE);
    gale_ctx_destroy(c);

    o.backend = GALE_BACKEND_CUDA;
    if (ngpu == 0) {
        CHECK_ST(gale_ctx_create(&c, &o), GALE_E_UNSUPPORTED);
        return;
    }
    /* One GPU listed twice: two entries, each with its own streams and share. */
    o.n_devices = 2;
    o.device_memory = (uint64_t)512 << 20;
    CHECK_ST(gale_ctx_create(&c, &o), GALE_OK);
    CHECK_ST(gale_ctx_devices(c, got, 1, &n), GALE_OK);
    CHECK_EQ_I64((int64_t)n, 2);
    CHECK_EQ_I64(got[0], 0);
    CHECK_EQ_I64(got[1], -1); /* cap 1: one copied */
    gale_ctx_destroy(c);
    list[2] = ngpu; /* not present */
    o.n_devices = 3;
    CHECK_ST(gale_ctx_create(&c, &o), GALE_E_RANGE);
    o.n_devices = GALE_DEVICES_ALL;
    o.devices = NULL;
    CHECK_ST(gale_ctx_create(&c, &o), GALE_OK);
    CHECK_ST(gale_ctx_devices(c, got, 4, &n), GALE_OK);
    CHECK_EQ_I64((int64_t)n, ngpu);
    gale_ctx_destroy(c);
}

int main(void)
{
    tu_rng rng;
    gale_ctx *ctx;
    tu_rng_init(&rng, tu_seed("kinds"));
    ctx = make_ctx();
    test_kinds_and_params(ctx);
    test_registered(ctx, &rng);
    test_struct_sizes(ctx);
    test_bulk(ctx, &rng);
    test_shapes(ctx);
    test_devices();
    gale_ctx_destroy(ctx);
    return tu_finish("kinds");
}
