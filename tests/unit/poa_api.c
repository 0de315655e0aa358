/*
 * poa_api.c - GALE_POA through the C API: groups (inline, registered, weights,
 * qualities, the 0.3 gale_group size), gale_result_poa (fields, struct sizes, wrong
 * kind, before the end), and the refusals, each with its message. The results
 * themselves are checked against SPOA by the oracle suite (tests/oracle/poa_spoa.cpp);
 * here only windows whose answer is plain: identical reads. Also gale_poa_graph_*
 * (sequence-to-graph, since 0.7) on a small diamond graph, and its refusals.
 *
 * Suite 'unit'; CPU backend; no random input.
 */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gale.h"

static gale_batch *poa_batch(gale_ctx *ctx)
{
    gale_batch *b = NULL;
    REQUIRE_OK(gale_batch_create(ctx, GALE_POA, &b));
    REQUIRE_OK(gale_batch_set(b, GALE_P_POA_OUTPUT, GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA | GALE_POA_OUT_GFA));
    return b;
}

static void test_identical_reads(gale_ctx *ctx)
{
    static const char *seqs[3] = {"ACGT", "", "ACGT"};
    static const int64_t lens[3] = {4, 0, 4};
    static const char *quals[3] = {"IIII", NULL, "!!!!"};
    gale_batch *b = poa_batch(ctx);
    gale_group g;
    unsigned char buf[sizeof(gale_poa_result) + 32];
    gale_poa_result *r = (gale_poa_result *)buf;
    gale_result gr;
    size_t i;

    gale_group_init(&g);
    g.n = 3;
    g.seqs = seqs;
    g.lens = lens;
    g.quals = quals;
    g.user = 42;
    REQUIRE_OK(gale_batch_add_group(b, &g));
    memset(buf, 0xA5, sizeof buf);
    r->size = sizeof buf;
    CHECK_ST(gale_result_poa(b, 0, r), GALE_E_STATE); /* before submit */
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    REQUIRE_OK(gale_result_poa(b, 0, r));
    CHECK(r->size == sizeof buf);
    for (i = sizeof(gale_poa_result); i < sizeof buf; i++) CHECK(buf[i] == 0);
    CHECK(r->user == 42);
    CHECK(r->flags == 0);
    CHECK(r->n_seqs == 3);
    /* The first read meets an empty graph (0), the empty one is skipped (0), the third
     * matches the first four times in local mode: 4 x 5. */
    CHECK_EQ_I64(r->scores[0], 0);
    CHECK_EQ_I64(r->scores[1], 0);
    CHECK_EQ_I64(r->scores[2], 20);
    CHECK_EQ_I64(r->consensus_len, 4);
    CHECK(memcmp(r->consensus, "ACGT", 4) == 0);
    CHECK(r->n_rows == 3); /* two non-empty reads and the consensus row */
    CHECK_EQ_I64(r->row_len, 4);
    for (i = 0; i < r->n_rows; i++) CHECK(memcmp(r->msa + i * 4, "ACGT", 4) == 0);
    CHECK(r->gfa_len > 0 && memcmp(r->gfa, "H\tVN:Z:1.0\n", 11) == 0);
    CHECK(r->cells > 0);

    memset(&gr, 0, sizeof gr);
    gr.size = sizeof gr;
    REQUIRE_OK(gale_result_get(b, 0, &gr));
    CHECK_EQ_I64(gr.score, 20);
    CHECK(gr.user == 42);
    CHECK_ST(gale_result_poa(b, 1, r), GALE_E_RANGE);
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
}

static void test_registered_and_old_size(gale_ctx *ctx)
{
    static const int64_t lens[2] = {0, 6};
    static const char *seqs[2] = {NULL, "ACGTAC"};
    static const int32_t weights[2] = {3, 1};
    gale_batch *b = poa_batch(ctx);
    gale_group g;
    gale_poa_result r;
    uint32_t id = 0, ids[2];

    REQUIRE_OK(gale_batch_add_sequence(b, "ACGTAC", 6, &id));
    ids[0] = id;
    ids[1] = 0;
    gale_group_init(&g);
    g.n = 2;
    g.seqs = seqs;
    g.lens = lens;
    g.seq_ids = ids;
    g.weights = weights;
    g.size = offsetof(gale_group, quals); /* a caller built against 0.3 */
    REQUIRE_OK(gale_batch_add_group(b, &g));
    g.size = offsetof(gale_group, quals) + 1;
    CHECK_ST(gale_batch_add_group(b, &g), GALE_E_INVALID);
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    REQUIRE_OK(gale_result_poa(b, 0, &r));
    CHECK_EQ_I64(r.scores[1], 30);
    CHECK_EQ_I64(r.consensus_len, 6);
    CHECK(memcmp(r.consensus, "ACGTAC", 6) == 0);
    CHECK(r.gfa != NULL && r.gfa_len > 0); /* GFA was asked for */
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
}

/* GALE_P_POA_STRAND_AMBIGUOUS (spoa -s), GALE_POA_OUT_DOT and 0.6's struct size. The
 * expected values follow from spoa's main.cpp by hand: the first read meets an empty
 * graph (0 = 0: kept forward, so complemented twice: "aacCG" is added as "AACCG"); the
 * second, CGGTT, is AACCG's reverse complement (5 matches: 25 beats its forward
 * score); the third matches as it is. */
static void test_strands(gale_ctx *ctx)
{
    static const char *seqs[3] = {"aacCG", "CGGTT", "AACCG"};
    static const int64_t lens[3] = {5, 5, 5};
    static const char dot0[] = "digraph 3 {\n  graph [rankdir = LR]\n"
                               "  0[label = \"0 - A\", style = filled, fillcolor = goldenrod1]\n"
                               "  0 -> 1 [label = \"6\", color = goldenrod1]\n"; /* weight: both ends, 1 + 1 per read */
    gale_batch *b = NULL;
    gale_group g;
    unsigned char buf[sizeof(gale_poa_result) + 16];
    gale_poa_result *r = (gale_poa_result *)buf;
    const size_t size06 = offsetof(gale_poa_result, user) + sizeof(uint64_t);
    size_t i;

    REQUIRE_OK(gale_batch_create(ctx, GALE_POA, &b));
    CHECK(gale_batch_set(b, GALE_P_POA_STRAND_AMBIGUOUS, 2) != GALE_OK);
    CHECK(gale_batch_set(b, GALE_P_POA_OUTPUT, 16) != GALE_OK);
    REQUIRE_OK(gale_batch_set(b, GALE_P_POA_STRAND_AMBIGUOUS, 1));
    REQUIRE_OK(gale_batch_set(b, GALE_P_POA_OUTPUT, GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA | GALE_POA_OUT_DOT));
    gale_group_init(&g);
    g.n = 3;
    g.seqs = seqs;
    g.lens = lens;
    REQUIRE_OK(gale_batch_add_group(b, &g));
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    memset(buf, 0, sizeof buf);
    r->size = sizeof(gale_poa_result);
    REQUIRE_OK(gale_result_poa(b, 0, r));
    CHECK(r->reversed != NULL);
    if (r->reversed) CHECK(r->reversed[0] == 0 && r->reversed[1] == 1 && r->reversed[2] == 0);
    CHECK_EQ_I64(r->scores[0], 0);
    CHECK_EQ_I64(r->scores[1], 25);
    CHECK_EQ_I64(r->scores[2], 25);
    CHECK(r->n_rows == 4 && r->row_len == 5);
    for (i = 0; i < r->n_rows && r->row_len == 5; i++) CHECK(memcmp(r->msa + i * 5, "AACCG", 5) == 0);
    CHECK(r->consensus_len == 5 && memcmp(r->consensus, "AACCG", 5) == 0);
    CHECK(r->dot_len > (int64_t)sizeof dot0 && memcmp(r->dot, dot0, sizeof dot0 - 1) == 0);
    CHECK(r->dot_len > 2 && memcmp(r->dot + r->dot_len - 2, "}\n", 2) == 0);
    /* A caller built against 0.6: the fields past `user` are not written. */
    memset(buf, 0xA5, sizeof buf);
    r->size = size06;
    REQUIRE_OK(gale_result_poa(b, 0, r));
    CHECK(r->n_seqs == 3 && r->size == size06);
    for (i = size06; i < sizeof buf; i++) CHECK(buf[i] == 0xA5);
    r->size = size06 - 1;
    CHECK_ST(gale_result_poa(b, 0, r), GALE_E_INVALID);
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
}

static void test_refusals(gale_ctx *ctx)
{
    const char *bad[2] = {"ACGT", "AC GT"};
    const int64_t lens[2] = {4, 5};
    const int32_t neg[2] = {1, -1};
    const char *badq[2] = {"IIII", "II\x1fII"};
    gale_batch *b = poa_batch(ctx), *w = NULL;
    gale_group g;
    gale_task t;
    gale_poa_result r;
    size_t n = 9;

    gale_group_init(&g);
    g.n = 2;
    g.seqs = bad;
    g.lens = lens;
    CHECK_ST(gale_batch_add_group(b, &g), GALE_E_INPUT);
    CHECK(strstr(gale_last_error(), "position 2") != NULL);
    CHECK(strstr(gale_last_error(), "1 of the group") != NULL);
    bad[1] = "ACGTA";
    g.weights = neg;
    CHECK_ST(gale_batch_add_group(b, &g), GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "negative weight") != NULL);
    g.weights = NULL;
    g.quals = badq;
    CHECK_ST(gale_batch_add_group(b, &g), GALE_E_INPUT);
    CHECK(strstr(gale_last_error(), "quality") != NULL);
    g.quals = NULL;
    g.lens = NULL;
    CHECK_ST(gale_batch_add_group(b, &g), GALE_E_INVALID);
    REQUIRE_OK(gale_batch_count(b, &n));
    CHECK(n == 0); /* nothing was added by the failures */
    gale_task_init(&t);
    t.h = t.v = "ACGT";
    t.h_len = t.v_len = 4;
    CHECK_ST(gale_batch_add(b, &t), GALE_E_UNSUPPORTED);
    CHECK_ST(gale_batch_set(b, GALE_P_POA_GAP_OPEN, 1), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(b, GALE_P_MATCH, 128), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(b, GALE_P_POA_ALGORITHM, 3), GALE_E_RANGE);
    CHECK_ST(gale_batch_destroy(b), GALE_OK);

    REQUIRE_OK(gale_batch_create(ctx, GALE_WFA, &w));
    REQUIRE_OK(gale_batch_add(w, &t));
    REQUIRE_OK(gale_submit(w));
    REQUIRE_OK(gale_wait(w));
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    CHECK_ST(gale_result_poa(w, 0, &r), GALE_E_RANGE);
    r.size = 8;
    CHECK_ST(gale_result_poa(w, 0, &r), GALE_E_INVALID);
    CHECK_ST(gale_batch_destroy(w), GALE_OK);
}

/* Sequence-to-graph (gale_poa_graph_*, since 0.7): a diamond ACGT -> (GG | TT) -> CA. */
static void test_graph(void)
{
    const char *seqs[4] = {"ACGT", "GG", "TT", "CA"};
    const int64_t lens[4] = {4, 2, 2, 2};
    uint32_t edges[10] = {0, 1, 0, 2, 1, 3, 2, 3, 3, 0};
    gale_graph g;
    gale_poa_graph *h = NULL;
    gale_poa_graph_alignment a;
    unsigned char buf[sizeof(gale_poa_graph_alignment) + 16];
    gale_poa_graph_alignment *big = (gale_poa_graph_alignment *)(void *)buf;
    size_t bad = 0;
    uint32_t i;
    char cig[64];
    size_t at = 0;

    gale_graph_init(&g);
    g.n_nodes = 4;
    g.node_seqs = seqs;
    g.node_lens = lens;
    g.n_edges = 5; /* the last edge, 3 -> 0, closes a cycle */
    g.edges = edges;
    CHECK(gale_poa_graph_create(&g, &h, &bad) == GALE_E_INPUT);
    CHECK(h == NULL && bad == 4);
    CHECK(strstr(gale_last_error(), "edge 4 (3 -> 0) closes a cycle") != NULL);
    edges[9] = 7;
    CHECK(gale_poa_graph_create(&g, &h, &bad) == GALE_E_INPUT && bad == SIZE_MAX);
    CHECK(strstr(gale_last_error(), "edge 4") != NULL);
    g.n_edges = 4;
    CHECK(gale_poa_graph_create(NULL, &h, NULL) == GALE_E_INVALID);
    CHECK(gale_poa_graph_create(&g, NULL, NULL) == GALE_E_INVALID);
    REQUIRE_OK(gale_poa_graph_create(&g, &h, &bad));
    CHECK(bad == SIZE_MAX);

    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    REQUIRE_OK(gale_poa_graph_align(h, GALE_POA_GLOBAL, 5, -4, -8, -6, -10, -4, "ACGTTTCA", 8, &a));
    CHECK(a.score == 40);
    CHECK(a.n_path == 3 && a.path[0] == 0 && a.path[1] == 2 && a.path[2] == 3);
    CHECK(a.path_len == 8 && a.path_start == 0 && a.path_end == 8);
    CHECK(a.query_start == 0 && a.query_end == 8 && a.matches == 8 && a.block_len == 8);
    CHECK(a.n_ops == 1 && a.cigar[0] == ((8u << GALE_CIGAR_SHIFT) | GALE_CIGAR_EQUAL));
    CHECK(a.cells > 0);

    /* local: a piece from inside the first segment to inside the last; the bytes past the
       struct of a larger size are zeroed */
    memset(buf, 0xab, sizeof buf);
    big->size = sizeof buf;
    REQUIRE_OK(gale_poa_graph_align(h, GALE_POA_LOCAL, 5, -4, -8, -6, -10, -4, "GTGGC", 5, big));
    CHECK(big->size == sizeof buf);
    for (i = sizeof(gale_poa_graph_alignment); i < sizeof buf; i++) CHECK(buf[i] == 0);
    CHECK(big->score == 25 && big->n_path == 3 && big->path[1] == 1);
    CHECK(big->path_start == 2 && big->path_end == 7);

    /* a mismatch and a deletion (global, linear gaps) */
    REQUIRE_OK(gale_poa_graph_align(h, GALE_POA_GLOBAL, 5, -4, -8, -8, -8, -8, "ACTTGCA", 7, &a));
    for (i = 0; i < a.n_ops; i++)
        at += (size_t)snprintf(cig + at, sizeof cig - at, "%u%c", GALE_CIGAR_LEN(a.cigar[i]),
                               GALE_CIGAR_STR[GALE_CIGAR_OP(a.cigar[i])]);
    /* two paths score 18 (through GG and through TT); SPOA's tie-break takes GG */
    CHECK(strcmp(cig, "2=1D1=1X3=") == 0 && a.matches == 6 && a.score == 18 && a.path[1] == 1);
    CHECK(a.block_len == 8 && a.path_len == 8);

    /* empty read: nothing aligned, score 0 */
    REQUIRE_OK(gale_poa_graph_align(h, GALE_POA_GLOBAL, 5, -4, -8, -6, -10, -4, NULL, 0, &a));
    CHECK(a.n_path == 0 && a.n_ops == 0 && a.score == 0);

    /* refusals */
    CHECK(gale_poa_graph_align(h, 3, 5, -4, -8, -6, -10, -4, "A", 1, &a) == GALE_E_RANGE);
    CHECK(gale_poa_graph_align(h, 0, 5, -4, 1, -6, -10, -4, "A", 1, &a) == GALE_E_RANGE);
    CHECK(gale_poa_graph_align(h, 0, 5, -4, -8, -6, -10, -4, "A C", 3, &a) == GALE_E_INPUT);
    CHECK(strstr(gale_last_error(), "position 1") != NULL);
    CHECK(gale_poa_graph_align(NULL, 0, 5, -4, -8, -6, -10, -4, "A", 1, &a) == GALE_E_INVALID);
    gale_poa_graph_free(h);
    gale_poa_graph_free(NULL);

    /* a node of no bytes, a byte outside '!'..'~' */
    g.n_edges = 0;
    {
        const int64_t zero[4] = {4, 0, 2, 2};
        g.node_lens = zero;
        CHECK(gale_poa_graph_create(&g, &h, NULL) == GALE_E_INPUT);
        CHECK(strstr(gale_last_error(), "node 1") != NULL);
    }
    {
        const char *sp[4] = {"ACGT", "G G", "TT", "CA"};
        const int64_t l3[4] = {4, 3, 2, 2};
        g.node_seqs = sp;
        g.node_lens = l3;
        CHECK(gale_poa_graph_create(&g, &h, NULL) == GALE_E_INPUT);
        CHECK(strstr(gale_last_error(), "node 1: byte 0x20 at position 1") != NULL);
    }
}

int main(void)
{
    gale_ctx *ctx = NULL;
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 2;
    REQUIRE_OK(gale_ctx_create(&ctx, &o));
    test_identical_reads(ctx);
    test_registered_and_old_size(ctx);
    test_refusals(ctx);
    test_strands(ctx);
    test_graph();
    gale_ctx_destroy(ctx);
    return tu_finish("poa_api");
}
