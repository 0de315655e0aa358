/*
 * The C API contract of the wavefront kinds (GALE_WFA, GALE_EDIT): parameters
 * and their bounds, task validation, gale_result_cigar's errors, and small
 * alignments whose results are worked out by hand in the comments (no value
 * here comes from gale's own output). The oracle suite compares with WFA2-lib.
 */
#include "testutil.h"

#include <gale.h>

#include <stdlib.h>
#include <string.h>

static gale_ctx *ctx;

static gale_batch *make(int kind) {
    gale_batch *b = NULL;
    CHECK_ST(gale_batch_create(ctx, kind, &b), GALE_OK);
    return b;
}

static gale_status add(gale_batch *b, const char *pattern, const char *text) {
    gale_task t;
    tu_task_seqs(&t, text, (int64_t)strlen(text), pattern, (int64_t)strlen(pattern));
    return gale_batch_add(b, &t);
}

/* Formats a BAM-style CIGAR as text ("" for none). */
static void cigar_text(const uint32_t *c, size_t n, char *out, size_t cap) {
    const char *ops = "MIDNSHP=X";
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && used + 16 < cap; ++i)
        used += (size_t)snprintf(out + used, cap - used, "%u%c", c[i] >> 4, (c[i] & 15) < 9 ? ops[c[i] & 15] : '?');
}

/* Runs one pair through a fresh batch of `kind` after `setup`, then checks the
 * score, the aligned region and the CIGAR text. */
typedef void (*setup_fn)(gale_batch *);
static void expect(int kind, setup_fn setup, const char *pattern, const char *text, int64_t score,
                   int64_t v_begin, int64_t v_end, int64_t h_begin, int64_t h_end, const char *cigar) {
    gale_batch *b = make(kind);
    if (!b) return;
    if (setup) setup(b);
    CHECK_ST(add(b, pattern, text), GALE_OK);
    REQUIRE_OK(gale_submit(b));
    CHECK_ST(gale_wait(b), GALE_OK);
    gale_result r;
    CHECK_ST(tu_result_fetch(b, 0, &r), GALE_OK);
    CHECK_MSG(r.score == score, "'%s' vs '%s': score %lld, expected %lld", pattern, text, (long long)r.score,
              (long long)score);
    CHECK_MSG(r.v_begin == v_begin && r.v_end == v_end && r.h_begin == h_begin && r.h_end == h_end,
              "'%s' vs '%s': region v [%lld,%lld) h [%lld,%lld), expected v [%lld,%lld) h [%lld,%lld)", pattern,
              text, (long long)r.v_begin, (long long)r.v_end, (long long)r.h_begin, (long long)r.h_end,
              (long long)v_begin, (long long)v_end, (long long)h_begin, (long long)h_end);
    const uint32_t *c = NULL;
    size_t n = 99;
    CHECK_ST(gale_result_cigar(b, 0, &c, &n), GALE_OK);
    char got[256];
    cigar_text(c, n, got, sizeof got);
    CHECK_MSG(strcmp(got, cigar) == 0, "'%s' vs '%s': CIGAR %s, expected %s", pattern, text, got, cigar);
    gale_batch_destroy(b);
}

static void two_piece(gale_batch *b) {
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN2, 24), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND2, 1), GALE_OK);
}
static void n_mismatch(gale_batch *b) { CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_MISMATCH), GALE_OK); }
static void text_begin_free4(gale_batch *b) { CHECK_ST(gale_batch_set(b, GALE_P_TEXT_BEGIN_FREE, 4), GALE_OK); }
static void pattern_ends_free(gale_batch *b) {
    CHECK_ST(gale_batch_set(b, GALE_P_PATTERN_BEGIN_FREE, 100), GALE_OK); /* clamped to the length */
    CHECK_ST(gale_batch_set(b, GALE_P_PATTERN_END_FREE, 100), GALE_OK);
}

static void test_hand_cases(void) {
    /* Defaults x = 4, o = 6, e = 2: a gap of L costs 6 + 2L. */
    expect(GALE_WFA, NULL, "", "", 0, 0, 0, 0, 0, "");
    expect(GALE_WFA, NULL, "ACGT", "ACGT", 0, 0, 4, 0, 4, "4=");
    expect(GALE_WFA, NULL, "acgt", "ACGT", 0, 0, 4, 0, 4, "4="); /* case is folded */
    expect(GALE_WFA, NULL, "ACGT", "AGGT", -4, 0, 4, 0, 4, "1=1X2=");
    /* One text base too many costs 6 + 2; the greedy extension puts the gap
     * after the three matching bases: ACG-T / ACGGT. */
    expect(GALE_WFA, NULL, "ACGT", "ACGGT", -8, 0, 4, 0, 5, "3=1D1=");
    expect(GALE_WFA, NULL, "", "ACG", -12, 0, 0, 0, 3, "3D");
    expect(GALE_WFA, NULL, "ACG", "", -12, 0, 3, 0, 0, "3I");
    /* N matches N under GALE_N_DNA5 (as WFA2-lib compares bytes), not under GALE_N_MISMATCH. */
    expect(GALE_WFA, NULL, "ANT", "ANT", 0, 0, 3, 0, 3, "3=");
    expect(GALE_WFA, n_mismatch, "ANT", "ANT", -4, 0, 3, 0, 3, "1=1X1=");
    /* A 30-base gap: one piece 6 + 60 = 66; with a second piece 24 + 30 = 54. */
    const char *p30 = "GGGGCCCC", *t30 = "GGGGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACCCC";
    expect(GALE_WFA, NULL, p30, t30, -66, 0, 8, 0, 38, "4=30D4=");
    expect(GALE_WFA, two_piece, p30, t30, -54, 0, 8, 0, 38, "4=30D4=");
    /* Ends-free: the text's first 4 bases may stay unaligned. */
    expect(GALE_WFA, text_begin_free4, "ACGT", "TTTTACGT", 0, 0, 4, 4, 8, "4=");
    /* Pattern ends free (lengths clamped): only the middle aligns. */
    expect(GALE_WFA, pattern_ends_free, "TTACGTTT", "ACG", 0, 2, 5, 0, 3, "3=");
    /* Edit distance: ACGTACGT -> ACTTACG is one substitution and one extra
     * pattern base at the end: 2 = 1 X 4 = 1 I. */
    expect(GALE_EDIT, NULL, "ACGTACGT", "ACTTACG", 2, 0, 8, 0, 7, "2=1X4=1I");
    expect(GALE_EDIT, NULL, "", "ACGT", 4, 0, 0, 0, 4, "4D");
}

static void test_params(void) {
    gale_batch *w = make(GALE_WFA), *e = make(GALE_EDIT), *x = make(GALE_XDROP);
    REQUIRE(w && e && x);
    int64_t v = 0;
    static const struct { int id; int64_t def; } defs[] = {
        {GALE_P_PENALTY_MISMATCH, 4}, {GALE_P_PENALTY_GAP_OPEN, 6}, {GALE_P_PENALTY_GAP_EXTEND, 2},
        {GALE_P_PENALTY_GAP_OPEN2, 0}, {GALE_P_PENALTY_GAP_EXTEND2, 0}, {GALE_P_SCOPE, GALE_SCOPE_ALIGNMENT},
        {GALE_P_PATTERN_BEGIN_FREE, 0}, {GALE_P_PATTERN_END_FREE, 0}, {GALE_P_TEXT_BEGIN_FREE, 0},
        {GALE_P_TEXT_END_FREE, 0}, {GALE_P_MEMORY_LIMIT, 256}, {GALE_P_EXPECTED_ERROR, 100},
        {GALE_P_N_POLICY, GALE_N_DNA5}, {GALE_P_GPU_BACKTRACE, GALE_GPU_BT_CODES},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; ++i) {
        CHECK_ST(gale_batch_get(w, defs[i].id, &v), GALE_OK);
        CHECK_MSG(v == defs[i].def, "param %d default %lld, expected %lld", defs[i].id, (long long)v,
                  (long long)defs[i].def);
    }
    /* Bounds */
    CHECK_ST(gale_batch_set(w, GALE_P_PENALTY_MISMATCH, 0), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_PENALTY_MISMATCH, 4097), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_PENALTY_GAP_OPEN, -1), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_PENALTY_GAP_EXTEND, 0), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_SCOPE, 2), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_TEXT_END_FREE, -1), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_MEMORY_LIMIT, 0), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_EXPECTED_ERROR, 1001), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_GPU_BACKTRACE, -1), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_GPU_BACKTRACE, 2), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(e, GALE_P_GPU_BACKTRACE, GALE_GPU_BT_PIGGYBACK), GALE_OK);
    CHECK_ST(gale_batch_get(e, GALE_P_GPU_BACKTRACE, &v), GALE_OK);
    CHECK_EQ_I64(v, GALE_GPU_BT_PIGGYBACK);
    CHECK_ST(gale_batch_set(x, GALE_P_GPU_BACKTRACE, GALE_GPU_BT_CODES), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_PENALTY_MISMATCH, 4096), GALE_OK);
    CHECK_ST(gale_batch_get(w, GALE_P_PENALTY_MISMATCH, &v), GALE_OK);
    CHECK_EQ_I64(v, 4096);
    /* Parameters of other kinds are refused */
    CHECK_ST(gale_batch_set(w, GALE_P_XDROP, 10), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(w, GALE_P_MATCH, 1), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(e, GALE_P_PENALTY_MISMATCH, 2), GALE_E_RANGE);
    CHECK_ST(gale_batch_get(e, GALE_P_PENALTY_GAP_OPEN, &v), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(e, GALE_P_SCOPE, GALE_SCOPE_SCORE), GALE_OK);
    CHECK_ST(gale_batch_set(x, GALE_P_SCOPE, GALE_SCOPE_SCORE), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(x, GALE_P_PENALTY_GAP_OPEN, 1), GALE_E_RANGE);
    gale_batch *none = NULL;
    CHECK_ST(gale_batch_create(ctx, 99, &none), GALE_E_RANGE);
    gale_batch_destroy(x);
    gale_batch_destroy(w);
    gale_batch_destroy(e);
}

static void test_tasks(void) {
    gale_batch *b = make(GALE_WFA);
    REQUIRE(b);
    gale_task t;
    gale_task_init(&t);
    t.v = "ACGT";
    t.v_len = 4;
    t.h = "ACGT";
    t.h_len = 4;
    t.h_end = t.v_end = 1; /* a seed: X-drop only */
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INPUT);
    CHECK_ST(add(b, "AC#T", "ACGT"), GALE_E_INPUT);
    size_t n = 9;
    CHECK_ST(gale_batch_count(b, &n), GALE_OK);
    CHECK_EQ_I64((int64_t)n, 0);

    /* The penalty of the worst alignment must fit: 300,000 bases with the
     * largest penalties can cost more than 2^30. */
    const size_t len = 300000;
    char *big = malloc(len + 1);
    REQUIRE(big);
    memset(big, 'A', len);
    big[len] = 0;
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, 4096), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, 4096), GALE_OK);
    CHECK_ST(add(b, big, big), GALE_E_LIMIT);
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, 4), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, 2), GALE_OK);
    CHECK_ST(add(b, big, big), GALE_OK);
    /* Raising the penalties after the add is caught at submit. */
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, 4096), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, 4096), GALE_OK);
    CHECK_ST(gale_submit(b), GALE_E_LIMIT);
    free(big);

    /* gale_result_cigar errors */
    const uint32_t *c = NULL;
    size_t n_ops = 0;
    CHECK_ST(gale_batch_reset(b), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, 4), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, 2), GALE_OK);
    CHECK_ST(add(b, "ACGT", "ACGT"), GALE_OK);
    CHECK_ST(gale_result_cigar(b, 0, &c, &n_ops), GALE_E_STATE);
    REQUIRE_OK(gale_submit(b));
    CHECK_ST(gale_wait(b), GALE_OK);
    CHECK_ST(gale_result_cigar(b, 0, NULL, &n_ops), GALE_E_INVALID);
    CHECK_ST(gale_result_cigar(b, 0, &c, NULL), GALE_E_INVALID);
    CHECK_ST(gale_result_cigar(b, 1, &c, &n_ops), GALE_E_RANGE);
    CHECK_ST(gale_result_cigar(NULL, 0, &c, &n_ops), GALE_E_HANDLE);
    CHECK_ST(gale_result_cigar(b, 0, &c, &n_ops), GALE_OK);
    CHECK_EQ_I64((int64_t)n_ops, 1);
    gale_batch_destroy(b);

    gale_batch *x = make(GALE_XDROP);
    REQUIRE(x);
    CHECK_ST(add(x, "ACGT", "ACGT"), GALE_OK);
    REQUIRE_OK(gale_submit(x));
    CHECK_ST(gale_wait(x), GALE_OK);
    CHECK_ST(gale_result_cigar(x, 0, &c, &n_ops), GALE_E_RANGE);
    gale_batch_destroy(x);

    /* Score-only scope: same score, no CIGAR, the whole sequences for end-to-end. */
    b = make(GALE_WFA);
    REQUIRE(b);
    CHECK_ST(gale_batch_set(b, GALE_P_SCOPE, GALE_SCOPE_SCORE), GALE_OK);
    CHECK_ST(add(b, "ACGT", "ACGGT"), GALE_OK);
    REQUIRE_OK(gale_submit(b));
    CHECK_ST(gale_wait(b), GALE_OK);
    gale_result r;
    CHECK_ST(tu_result_fetch(b, 0, &r), GALE_OK);
    CHECK_EQ_I64(r.score, -8);
    CHECK_EQ_I64(r.v_end, 4);
    CHECK_EQ_I64(r.h_end, 5);
    CHECK_ST(gale_result_cigar(b, 0, &c, &n_ops), GALE_OK);
    CHECK_EQ_I64((int64_t)n_ops, 0);
    gale_batch_destroy(b);
}

int main(void) {
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.threads = 2;
    REQUIRE_OK(gale_ctx_create(&ctx, &o));
    int backend = 0;
    gale_ctx_backend(ctx, &backend);
    printf("backend %s\n", backend == GALE_BACKEND_CUDA ? "cuda" : "cpu");
    test_params();
    test_tasks();
    test_hand_cases();
    gale_ctx_destroy(ctx);
    return tu_finish("wfa_api");
}
