/*
 * struct_sizes.c - gale.h's "Struct sizes" rule, struct by struct.
 *
 * Structs the caller fills (gale_ctx_opts, gale_task, gale_group, gale_graph): a
 * size larger than this library's (a caller built against a newer gale.h) is
 * accepted when every byte past this library's struct is 0, and refused with
 * GALE_E_INVALID otherwise, the message naming the struct, its size, this
 * library's size and the first nonzero byte. Structs gale fills (gale_result through
 * gale_result_get and gale_result_get_range, gale_stats, gale_bounds): with a larger
 * size, the fields are what the library's own size gives, every byte past them is 0
 * and `size` is left as the caller set it. Every struct: a size above
 * GALE_STRUCT_SIZE_MAX is refused before anything past the struct is read or written.
 *
 * Suite 'unit'; CPU backend; no random input.
 */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

/* Room for the largest size accepted, and a little more. */
#define BUF_SIZE (GALE_STRUCT_SIZE_MAX + 64)

/* True if the decimal number `value` appears in msg as a whole digit run. */
static int has_number(const char *msg, unsigned long long value)
{
    const char *p = msg;
    while (*p) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            unsigned long long x = strtoull(p, &end, 10);
            if (x == value) return 1;
            p = end;
        } else {
            ++p;
        }
    }
    return 0;
}

/* Every struct of this API begins with its size_t size. */
static void set_size(unsigned char *buf, size_t size) { memcpy(buf, &size, sizeof size); }
static size_t get_size(const unsigned char *buf)
{
    size_t size;
    memcpy(&size, buf, sizeof size);
    return size;
}

/* ------------------------------------------------------------------ */
/* Structs the caller fills                                             */
/* ------------------------------------------------------------------ */

/* One struct the library reads: how to pass it, and what an accepted one gives. */
typedef struct in_case {
    const char *name;                          /* the struct's type name */
    size_t lib_size;                           /* sizeof it, as this gale.h has it */
    const void *proto;                         /* a valid struct, lib_size bytes */
    gale_status accepted;                      /* what the call returns when the struct is accepted */
    gale_status (*call)(void *env, const void *s);
    void *env;
} in_case;

/* The call with the struct in buf at the given size and the tail as it is. */
static gale_status call_sized(const in_case *c, unsigned char *buf, size_t size)
{
    set_size(buf, size);
    return c->call(c->env, buf);
}

/* The call must refuse the struct with GALE_E_INVALID and a message naming the struct,
 * its size, this library's size and `first`, the first nonzero byte past it. */
static void expect_tail_refused(const in_case *c, unsigned char *buf, size_t size, size_t first)
{
    gale_status st = call_sized(c, buf, size);
    const char *m = gale_last_error();
    CHECK_MSG(st == GALE_E_INVALID, "%s of size %zu with byte %zu nonzero: got %d (%s), expected GALE_E_INVALID",
              c->name, size, first, st, gale_status_string(st));
    CHECK_MSG(strstr(m, c->name) != NULL, "%s refused: the message does not name the struct: \"%s\"", c->name, m);
    CHECK_MSG(has_number(m, size), "%s refused: the message does not name its size %zu: \"%s\"", c->name, size, m);
    CHECK_MSG(has_number(m, c->lib_size), "%s refused: the message does not name the library's size %zu: \"%s\"",
              c->name, c->lib_size, m);
    CHECK_MSG(has_number(m, first), "%s refused: the message does not name byte %zu: \"%s\"", c->name, first, m);
}

static void check_input_struct(const in_case *c)
{
    unsigned char *buf = (unsigned char *)malloc(BUF_SIZE);
    /* a byte more, a word more, a newer struct's worth more, and the most accepted */
    const size_t extras[] = {1, 8, 64, GALE_STRUCT_SIZE_MAX - c->lib_size};
    size_t k;
    gale_status st;
    REQUIRE(buf != NULL);
    REQUIRE(c->lib_size < GALE_STRUCT_SIZE_MAX);

    memset(buf, 0, BUF_SIZE);
    memcpy(buf, c->proto, c->lib_size);
    CHECK_MSG((st = call_sized(c, buf, c->lib_size)) == c->accepted, "%s of its own size: got %d (%s): %s", c->name,
              st, gale_status_string(st), gale_last_error());

    for (k = 0; k < sizeof extras / sizeof extras[0]; ++k) {
        const size_t size = c->lib_size + extras[k];
        const size_t offs[3] = {c->lib_size, c->lib_size + extras[k] / 2, size - 1};
        size_t j;
        memset(buf, 0, BUF_SIZE);
        memcpy(buf, c->proto, c->lib_size);
        /* larger, the tail all zero: accepted as the library's own struct */
        st = call_sized(c, buf, size);
        CHECK_MSG(st == c->accepted, "%s of size %zu (library: %zu) with a zero tail: got %d (%s), expected %d (%s): %s",
                  c->name, size, c->lib_size, st, gale_status_string(st), c->accepted,
                  gale_status_string(c->accepted), gale_last_error());
        /* one nonzero byte anywhere in the tail: refused, the byte named */
        for (j = 0; j < 3; ++j) {
            buf[offs[j]] = (unsigned char)(j == 1 ? 0x80 : 0x01);
            expect_tail_refused(c, buf, size, offs[j]);
            buf[offs[j]] = 0;
        }
        /* two: the first is named */
        if (offs[1] > offs[0]) {
            buf[offs[1]] = 0xff;
            buf[size - 1] = 0xff;
            expect_tail_refused(c, buf, size, offs[1]);
            buf[offs[1]] = buf[size - 1] = 0;
        }
        /* and the tail is zero again: accepted again (a refusal leaves nothing behind) */
        CHECK_MSG((st = call_sized(c, buf, size)) == c->accepted, "%s of size %zu after a refusal: got %d (%s)", c->name,
                  size, st, gale_status_string(st));
    }

    /* Above GALE_STRUCT_SIZE_MAX: refused, zero tail or not, and no byte past the
     * struct is read (SIZE_MAX would reach far past this buffer). */
    memset(buf, 0, BUF_SIZE);
    memcpy(buf, c->proto, c->lib_size);
    st = call_sized(c, buf, (size_t)GALE_STRUCT_SIZE_MAX + 1);
    CHECK_MSG(st == GALE_E_INVALID, "%s of size GALE_STRUCT_SIZE_MAX + 1: got %d (%s)", c->name, st,
              gale_status_string(st));
    CHECK_MSG(strstr(gale_last_error(), c->name) && has_number(gale_last_error(), GALE_STRUCT_SIZE_MAX),
              "%s too large: the message names neither the struct nor GALE_STRUCT_SIZE_MAX: \"%s\"", c->name,
              gale_last_error());
    st = call_sized(c, buf, SIZE_MAX);
    CHECK_MSG(st == GALE_E_INVALID, "%s of size SIZE_MAX: got %d (%s)", c->name, st, gale_status_string(st));
    free(buf);
    printf("  %s (%zu bytes): larger sizes checked\n", c->name, c->lib_size);
}

static gale_status call_ctx_create(void *env, const void *s)
{
    gale_ctx *ctx = NULL;
    gale_status st = gale_ctx_create(&ctx, (const gale_ctx_opts *)s);
    (void)env;
    if (st == GALE_OK) {
        int threads = 0;
        /* the fields of the caller's struct were read: threads = 1 */
        CHECK_ST(gale_ctx_threads(ctx, &threads), GALE_OK);
        CHECK_EQ_I64(threads, 1);
        CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);
    } else {
        CHECK_MSG(ctx == NULL, "a refused gale_ctx_create left *out set");
    }
    return st;
}

/* gale_batch_add: a task is added exactly when accepted. */
static gale_status call_batch_add(void *env, const void *s)
{
    gale_batch *b = (gale_batch *)env;
    size_t before = 0, after = 0;
    gale_status st;
    REQUIRE_OK(gale_batch_count(b, &before));
    st = gale_batch_add(b, (const gale_task *)s);
    REQUIRE_OK(gale_batch_count(b, &after));
    CHECK_MSG(after == before + (st == GALE_OK), "gale_batch_add returned %d and the count went %zu -> %zu", st, before,
              after);
    return st;
}

static gale_status call_add_group(void *env, const void *s)
{
    return gale_batch_add_group((gale_batch *)env, (const gale_group *)s);
}

static gale_status call_add_graph(void *env, const void *s)
{
    uint32_t id = 0;
    return gale_batch_add_graph((gale_batch *)env, (const gale_graph *)s, &id);
}

static void test_inputs(gale_ctx *ctx)
{
    static const char *seqs[2] = {"ACGT", "ACGA"};
    static const int64_t lens[2] = {4, 4};
    static const uint32_t edges[2] = {0, 1};
    gale_ctx_opts o;
    gale_task t;
    gale_group g;
    gale_graph gr;
    gale_batch *b = NULL;
    in_case c;

    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1;
    c.name = "gale_ctx_opts";
    c.lib_size = sizeof o;
    c.proto = &o;
    c.accepted = GALE_OK;
    c.call = call_ctx_create;
    c.env = NULL;
    check_input_struct(&c);

    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    gale_task_init(&t);
    t.h = t.v = "ACGTACGT";
    t.h_len = t.v_len = 8;
    t.h_begin = t.v_begin = 2;
    t.h_end = t.v_end = 4;
    c.name = "gale_task";
    c.lib_size = sizeof t;
    c.proto = &t;
    c.accepted = GALE_OK;
    c.call = call_batch_add;
    c.env = b;
    check_input_struct(&c);
    {
        /* The tasks added with a larger size are whole tasks: identical 8-base
         * sequences extend to the whole of both. */
        gale_result r;
        size_t n = 0, i;
        REQUIRE_OK(gale_batch_count(b, &n));
        CHECK(n > 0);
        REQUIRE_OK(gale_submit(b));
        REQUIRE_OK(gale_wait(b));
        for (i = 0; i < n; ++i) {
            memset(&r, 0, sizeof r);
            r.size = sizeof r;
            CHECK_ST(gale_result_get(b, i, &r), GALE_OK);
            CHECK_EQ_I64(r.score, 8);
        }
    }
    CHECK_ST(gale_batch_destroy(b), GALE_OK);

    /* Groups and graphs: today's kinds take neither, so an accepted struct gives
     * GALE_E_UNSUPPORTED (the size is checked first) and a refused one GALE_E_INVALID. */
    REQUIRE_OK(gale_batch_create(ctx, GALE_WFA, &b));
    gale_group_init(&g);
    g.n = 2;
    g.seqs = seqs;
    g.lens = lens;
    c.name = "gale_group";
    c.lib_size = sizeof g;
    c.proto = &g;
    c.accepted = GALE_E_UNSUPPORTED;
    c.call = call_add_group;
    c.env = b;
    check_input_struct(&c);

    gale_graph_init(&gr);
    gr.n_nodes = 2;
    gr.node_seqs = seqs;
    gr.node_lens = lens;
    gr.n_edges = 1;
    gr.edges = edges;
    c.name = "gale_graph";
    c.lib_size = sizeof gr;
    c.proto = &gr;
    c.accepted = GALE_E_UNSUPPORTED;
    c.call = call_add_graph;
    c.env = b;
    check_input_struct(&c);
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
}

/* ------------------------------------------------------------------ */
/* Structs gale fills                                                   */
/* ------------------------------------------------------------------ */

#define FILL 0xA5

/* buf[from, to) is all zero. */
static int all_zero(const unsigned char *buf, size_t from, size_t to, size_t *where)
{
    size_t i;
    for (i = from; i < to; ++i)
        if (buf[i] != 0) {
            *where = i;
            return 0;
        }
    return 1;
}

/* buf[from, to) is all FILL: nothing was written there. */
static int untouched(const unsigned char *buf, size_t from, size_t to)
{
    size_t i;
    for (i = from; i < to; ++i)
        if (buf[i] != FILL) return 0;
    return 1;
}

/* After a successful call with `size`: the size kept and the tail zero; with `last`,
 * nothing written past the struct either (no array element follows it). */
static void expect_out_tail(const char *name, const unsigned char *buf, size_t lib_size, size_t size, int last)
{
    size_t where = 0;
    CHECK_MSG(get_size(buf) == size, "%s: size was %zu, the library changed it to %zu", name, size, get_size(buf));
    CHECK_MSG(all_zero(buf, lib_size, size, &where), "%s of size %zu: byte %zu past the library's %zu is 0x%02x, not 0",
              name, size, where, lib_size, buf[where]);
    CHECK_MSG(!last || untouched(buf, size, size + 16 <= BUF_SIZE ? size + 16 : BUF_SIZE),
              "%s of size %zu: a byte past the caller's size was written", name, size);
}

/* A size above GALE_STRUCT_SIZE_MAX: refused and nothing written. */
static void expect_out_too_large(const char *name, unsigned char *buf, gale_status st)
{
    CHECK_MSG(st == GALE_E_INVALID, "%s of size > GALE_STRUCT_SIZE_MAX: got %d (%s)", name, st, gale_status_string(st));
    CHECK_MSG(strstr(gale_last_error(), name) && has_number(gale_last_error(), GALE_STRUCT_SIZE_MAX),
              "%s too large: the message names neither the struct nor GALE_STRUCT_SIZE_MAX: \"%s\"", name,
              gale_last_error());
    CHECK_MSG(untouched(buf, sizeof(size_t), BUF_SIZE), "%s refused for its size, yet written", name);
}

static const size_t out_extras[] = {1, 8, 64, 0 /* to GALE_STRUCT_SIZE_MAX */};

static size_t out_size(size_t lib_size, size_t k)
{
    return out_extras[k] ? lib_size + out_extras[k] : GALE_STRUCT_SIZE_MAX;
}

static void test_results(gale_ctx *ctx)
{
    enum { N = 3 };
    static const char *h[N] = {"ACGTACGTAC", "ACGTTTTTAC", "AC"};
    unsigned char *buf = (unsigned char *)malloc(BUF_SIZE * N);
    gale_result want[N], got;
    gale_stats want_st, got_st;
    gale_batch *b = NULL;
    size_t i, k;
    REQUIRE(buf != NULL);
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    for (i = 0; i < N; ++i) {
        gale_task t;
        gale_task_init(&t);
        t.h = h[i];
        t.v = "ACGTACGTAC";
        t.h_len = (int64_t)strlen(h[i]);
        t.v_len = 10;
        t.h_begin = t.v_begin = 0;
        t.h_end = t.v_end = 2;
        t.user = 100 + i;
        REQUIRE_OK(gale_batch_add(b, &t));
    }
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    for (i = 0; i < N; ++i) {
        memset(&want[i], 0, sizeof want[i]);
        want[i].size = sizeof want[i];
        REQUIRE_OK(gale_result_get(b, i, &want[i]));
    }
    memset(&want_st, 0, sizeof want_st);
    want_st.size = sizeof want_st;
    REQUIRE_OK(gale_batch_stats(b, &want_st));

    for (k = 0; k < sizeof out_extras / sizeof out_extras[0]; ++k) {
        const size_t size = out_size(sizeof(gale_result), k);
        char what[80];
        /* gale_result_get */
        for (i = 0; i < N; ++i) {
            memset(buf, FILL, BUF_SIZE);
            set_size(buf, size);
            CHECK_ST(gale_result_get(b, i, (gale_result *)(void *)buf), GALE_OK);
            memcpy(&got, buf, sizeof got);
            snprintf(what, sizeof what, "gale_result_get, size %zu, result %zu", size, i);
            CHECK(tu_result_eq(&got, &want[i], 1, what));
            CHECK_EQ_I64(got.reserved0, 0);
            expect_out_tail("gale_result (gale_result_get)", buf, sizeof(gale_result), size, 1);
        }
        /* gale_result_get_range: the elements lie `size` apart, each as above */
        memset(buf, FILL, BUF_SIZE * N);
        set_size(buf, size);
        CHECK_ST(gale_result_get_range(b, 0, N, (gale_result *)(void *)buf), GALE_OK);
        for (i = 0; i < N; ++i) {
            memcpy(&got, buf + i * size, sizeof got);
            snprintf(what, sizeof what, "gale_result_get_range, size %zu, result %zu", size, i);
            CHECK(tu_result_eq(&got, &want[i], 1, what));
            expect_out_tail("gale_result (gale_result_get_range)", buf + i * size, sizeof(gale_result), size, i == N - 1);
        }
        /* the same array passed again as it is (its size kept) gives the same */
        CHECK_ST(gale_result_get_range(b, 0, N, (gale_result *)(void *)buf), GALE_OK);
        for (i = 0; i < N; ++i) {
            memcpy(&got, buf + i * size, sizeof got);
            CHECK(tu_result_eq(&got, &want[i], 1, "gale_result_get_range, the array passed again"));
        }

        /* gale_batch_stats */
        memset(buf, FILL, BUF_SIZE);
        set_size(buf, out_size(sizeof(gale_stats), k));
        CHECK_ST(gale_batch_stats(b, (gale_stats *)(void *)buf), GALE_OK);
        memcpy(&got_st, buf, sizeof got_st);
        CHECK_EQ_I64(got_st.tasks, want_st.tasks);
        CHECK_EQ_I64(got_st.cells, want_st.cells);
        CHECK_EQ_I64(got_st.rescued, want_st.rescued);
        CHECK_EQ_I64(got_st.kernel_ns, want_st.kernel_ns);
        CHECK_EQ_I64(got_st.elapsed_ns, want_st.elapsed_ns);
        expect_out_tail("gale_stats", buf, sizeof(gale_stats), out_size(sizeof(gale_stats), k), 1);
    }

    /* Above GALE_STRUCT_SIZE_MAX: refused, nothing written. */
    memset(buf, FILL, BUF_SIZE);
    set_size(buf, (size_t)GALE_STRUCT_SIZE_MAX + 1);
    expect_out_too_large("gale_result", buf, gale_result_get(b, 0, (gale_result *)(void *)buf));
    set_size(buf, SIZE_MAX);
    expect_out_too_large("gale_result", buf, gale_result_get(b, 0, (gale_result *)(void *)buf));
    expect_out_too_large("gale_result", buf, gale_result_get_range(b, 0, 1, (gale_result *)(void *)buf));
    expect_out_too_large("gale_stats", buf, gale_batch_stats(b, (gale_stats *)(void *)buf));
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
    free(buf);
    printf("  gale_result (%zu bytes), gale_stats (%zu bytes): larger sizes checked\n", sizeof(gale_result),
           sizeof(gale_stats));
}

/* gale_zdrop_result (since 0.6), a struct gale fills, as gale_stats: larger sizes give the
 * same fields, the size kept and the tail 0; a smaller size and one above
 * GALE_STRUCT_SIZE_MAX are refused, nothing written. */
static void test_zdrop_result(gale_ctx *ctx)
{
    unsigned char *buf = (unsigned char *)malloc(BUF_SIZE);
    gale_zdrop_result want, got;
    gale_batch *b = NULL;
    gale_task t;
    size_t k;
    REQUIRE(buf != NULL);
    REQUIRE_OK(gale_batch_create(ctx, GALE_ZDROP_EXTZ2, &b));
    gale_task_init(&t);
    t.h = "ACGTACGTACGGTT";
    t.h_len = 14;
    t.v = "ACGTACCTACGG";
    t.v_len = 12;
    t.user = 7;
    REQUIRE_OK(gale_batch_add(b, &t));
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    memset(&want, 0, sizeof want);
    want.size = sizeof want;
    REQUIRE_OK(gale_result_zdrop(b, 0, &want));
    CHECK_EQ_I64((int64_t)want.user, 7);
    for (k = 0; k < sizeof out_extras / sizeof out_extras[0]; ++k) {
        const size_t size = out_size(sizeof(gale_zdrop_result), k);
        memset(buf, FILL, BUF_SIZE);
        set_size(buf, size);
        CHECK_ST(gale_result_zdrop(b, 0, (gale_zdrop_result *)(void *)buf), GALE_OK);
        memcpy(&got, buf, sizeof got);
        got.size = want.size;
        CHECK_MSG(memcmp(&got, &want, sizeof got) == 0, "gale_zdrop_result of size %zu: fields differ", size);
        expect_out_tail("gale_zdrop_result", buf, sizeof(gale_zdrop_result), size, 1);
    }
    memset(buf, FILL, BUF_SIZE);
    set_size(buf, sizeof(gale_zdrop_result) - 1);
    CHECK_ST(gale_result_zdrop(b, 0, (gale_zdrop_result *)(void *)buf), GALE_E_INVALID);
    CHECK_MSG(untouched(buf, sizeof(size_t), BUF_SIZE), "gale_zdrop_result refused for its size, yet written");
    set_size(buf, (size_t)GALE_STRUCT_SIZE_MAX + 1);
    expect_out_too_large("gale_zdrop_result", buf, gale_result_zdrop(b, 0, (gale_zdrop_result *)(void *)buf));
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
    free(buf);
    printf("  gale_zdrop_result (%zu bytes): larger sizes checked\n", sizeof(gale_zdrop_result));
}

static void test_bounds(void)
{
    unsigned char *buf = (unsigned char *)malloc(BUF_SIZE);
    gale_bounds want, got;
    size_t k;
    REQUIRE(buf != NULL);
    memset(&want, 0, sizeof want);
    want.size = sizeof want;
    REQUIRE_OK(gale_param_bounds(GALE_WFA, GALE_P_PENALTY_GAP_OPEN, &want));
    for (k = 0; k < sizeof out_extras / sizeof out_extras[0]; ++k) {
        const size_t size = out_size(sizeof(gale_bounds), k);
        memset(buf, FILL, BUF_SIZE);
        set_size(buf, size);
        CHECK_ST(gale_param_bounds(GALE_WFA, GALE_P_PENALTY_GAP_OPEN, (gale_bounds *)(void *)buf), GALE_OK);
        memcpy(&got, buf, sizeof got);
        CHECK_EQ_I64(got.lower, want.lower);
        CHECK_EQ_I64(got.upper, want.upper);
        CHECK_EQ_I64(got.default_value, want.default_value);
        CHECK(got.name != NULL && want.name != NULL && strcmp(got.name, want.name) == 0);
        expect_out_tail("gale_bounds", buf, sizeof(gale_bounds), size, 1);
    }
    /* a failing call (unknown parameter) writes nothing, whatever the size */
    memset(buf, FILL, BUF_SIZE);
    set_size(buf, sizeof(gale_bounds) + 64);
    CHECK_ST(gale_param_bounds(GALE_WFA, GALE_P_XDROP, (gale_bounds *)(void *)buf), GALE_E_RANGE);
    CHECK_MSG(untouched(buf, sizeof(size_t), BUF_SIZE), "a failed gale_param_bounds wrote into the struct");
    set_size(buf, (size_t)GALE_STRUCT_SIZE_MAX + 1);
    expect_out_too_large("gale_bounds", buf, gale_param_bounds(GALE_WFA, GALE_P_PENALTY_GAP_OPEN,
                                                               (gale_bounds *)(void *)buf));
    free(buf);
    printf("  gale_bounds (%zu bytes): larger sizes checked\n", sizeof(gale_bounds));
}

int main(void)
{
    gale_ctx *ctx = NULL;
    REQUIRE_OK(tu_ctx_new(&ctx, GALE_BACKEND_CPU, 2));
    test_inputs(ctx);
    test_results(ctx);
    test_zdrop_result(ctx);
    test_bounds();
    CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);
    return tu_finish("struct_sizes");
}
