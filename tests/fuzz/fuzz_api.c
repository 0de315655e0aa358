/*
 * fuzz_api: the public C API (include/gale.h) driven by the fuzz input as a
 * sequence of calls on the CPU backend: contexts (valid and invalid options),
 * batches of every kind, parameters (valid and invalid ids and values), tasks
 * (valid and invalid: lengths, NULL pointers where the API refuses them, seeds,
 * registered windows, bad bytes, 0.2-size structs, junction arrays), registered sequences, groups
 * and graphs, submit, poll, wait, cancel, the result getters with indices in and
 * out of range, stats, reset and destroy, and calls on NULL or destroyed handles.
 *
 * The harness keeps a model of every batch (its state, tasks, registered
 * sequences) and checks each call against what gale.h promises:
 *   - every status is a pinned code, and one the call may give in that state for
 *     those arguments (a call whose arguments are all valid must succeed); after a
 *     failure gale_last_error() says something;
 *   - a failed gale_batch_add / gale_batch_add_sequence adds nothing; a failed
 *     gale_batch_set leaves the parameter as it was;
 *   - results only once the batch is done (gale_poll then says GALE_OK), never
 *     written past the size the caller gave; a batch not cancelled finishes GALE_OK;
 *     cancelling a batch that is done or not submitted changes nothing;
 *   - every result is right: a WFA/edit result has a valid CIGAR whose penalty is
 *     the score, optimal by a plain DP on short pairs (tests/common/wfa_check.h);
 *     an X-drop result extends its seed inside the sequences;
 *   - inputs are copied by gale_batch_add (the harness frees its buffer at once);
 *   - destroying the context destroys its batches; nothing leaks (LeakSanitizer).
 *
 * Input: a stream of bytes read by fz_u8 & co (fuzz_common.h); each operation
 * starts with one byte (its number modulo N_OPS) and takes the bytes it needs.
 * tests/fuzz/make_corpus.py writes seed inputs in this encoding.
 */
#define GALE_EXPERIMENTAL_API
#include "fuzz_common.h"

#define MAX_CTX 2
#define MAX_BATCH 4
#define MAX_TASKS 48
#define MAX_SEQS 8
#define MAX_BASES 24000 /* bases added per input, all batches: bounds the time of one input */
#define RANGE_CAP 64    /* elements of the gale_result_get_range buffer (> MAX_TASKS) */
#define FZ_MAX_PENALTY (1 << 16) /* WFA batches that may cost more are not submitted (op_submit) */

#define TASK02_SIZE offsetof(gale_task, h_seq)
#define OPTS02_SIZE offsetof(gale_ctx_opts, n_devices)

/* Bit masks of statuses a call may return. */
#define M(s) (1u << (s))

enum { S_OPEN, S_SUBMITTED, S_DONE, S_CANCELED };

typedef struct shadow_task {
    const char *h, *v; /* the bases gale was given (the harness's copies) */
    int64_t h_len, v_len;
    gale_task t;       /* coordinates as the task gave them (seed relative to the window) */
} shadow_task;

typedef struct shadow_seq {
    char *bases;
    int64_t len;
} shadow_seq;

typedef struct shadow_batch {
    gale_batch *b;     /* NULL: slot empty */
    int ctx;
    int kind;
    int state;
    int cancel_requested; /* gale_cancel after the last submit */
    size_t n_tasks;
    shadow_task tasks[MAX_TASKS];
    char *owned[2 * MAX_TASKS]; /* inline bases kept for the checks */
    size_t n_owned;
    shadow_seq seqs[MAX_SEQS];
    size_t n_seqs;
    int results_checked;
} shadow_batch;

static gale_ctx *ctxs[MAX_CTX];
static shadow_batch batches[MAX_BATCH];
/* GALE_FUZZ_TRACE=1 in the environment: every checked call on stderr (to read a
 * crash file's program). */
static int trace;
static const void *stale[4]; /* destroyed handles, usable as long as nothing was created since */
static size_t n_stale;
static size_t bases_added;
static char *last_seq; /* the last generated sequence (for related pairs) */
static int64_t last_len;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_init();
    trace = getenv("GALE_FUZZ_TRACE") && getenv("GALE_FUZZ_TRACE")[0] == '1';
    return 0;
}

/* ------------------------------------------------------------------ */
/* Checking statuses                                                   */
/* ------------------------------------------------------------------ */

static void trace_call(const char *what, gale_status st)
{
    if (trace)
        fprintf(stderr, "fuzz_api: %-48s -> %d %s\n", what, st, st == GALE_OK ? "" : gale_last_error());
}

static void expect(const char *what, gale_status st, unsigned allowed)
{
    trace_call(what, st);
    FZ_CHECK_STATUS_KNOWN(st, what);
    if (allowed == 0)
        FZ_CHECK(st == GALE_OK, "%s: expected GALE_OK, got %d (%s): %s", what, st, gale_status_string(st),
                 gale_last_error());
    else
        FZ_CHECK(st != GALE_OK && (allowed & M(st)), "%s: got %d (%s: %s), allowed mask 0x%x", what, st,
                 gale_status_string(st), st ? gale_last_error() : "", allowed);
    if (st != GALE_OK && st != GALE_E_AGAIN) /* not finished yet is no failure */
        FZ_CHECK(gale_last_error()[0] != '\0', "%s: failed (%d) with an empty gale_last_error()", what, st);
}

/* As expect, for calls that may also succeed: st must be GALE_OK or in allowed. */
static void expect_maybe(const char *what, gale_status st, unsigned allowed)
{
    trace_call(what, st);
    FZ_CHECK_STATUS_KNOWN(st, what);
    FZ_CHECK(st == GALE_OK || (allowed & M(st)), "%s: got %d (%s: %s), allowed mask 0x%x (or OK)", what, st,
             gale_status_string(st), gale_last_error(), allowed);
    if (st != GALE_OK && st != GALE_E_AGAIN) /* not finished yet is no failure */
        FZ_CHECK(gale_last_error()[0] != '\0', "%s: failed (%d) with an empty gale_last_error()", what, st);
}

static void note_created(void) { n_stale = 0; }

static void note_destroyed(const void *h)
{
    if (n_stale < sizeof stale / sizeof stale[0])
        stale[n_stale++] = h;
}

/* ------------------------------------------------------------------ */
/* The model                                                           */
/* ------------------------------------------------------------------ */

static void shadow_clear(shadow_batch *s)
{
    size_t i;
    for (i = 0; i < s->n_owned; i++)
        free(s->owned[i]);
    for (i = 0; i < s->n_seqs; i++)
        free(s->seqs[i].bases);
    s->n_owned = s->n_seqs = s->n_tasks = 0;
    s->results_checked = 0;
}

static void shadow_drop(shadow_batch *s)
{
    shadow_clear(s);
    s->b = NULL;
}

static int64_t param(const shadow_batch *s, int id)
{
    int64_t v = 0;
    gale_status st = gale_batch_get(s->b, id, &v);
    FZ_CHECK(st == GALE_OK, "gale_batch_get(%d) on a %s batch: %d", id, gale_kind_name(s->kind), st);
    return v;
}

/* The most a WFA / edit task of these lengths can cost (lib/kinds.cpp's bound: the
 * cheaper of the trivial alignments); 0 for X-drop. */
static int64_t penalty_bound(const shadow_batch *s, int64_t h_len, int64_t v_len)
{
    int64_t shorter = h_len < v_len ? h_len : v_len, x = 1, o = 0, e = 1, subst, gaps;
    int64_t diff = h_len > v_len ? h_len - v_len : v_len - h_len;
    if (s->kind == GALE_XDROP)
        return 0;
    if (s->kind == GALE_WFA) {
        x = param(s, GALE_P_PENALTY_MISMATCH);
        o = param(s, GALE_P_PENALTY_GAP_OPEN);
        e = param(s, GALE_P_PENALTY_GAP_EXTEND);
    }
    subst = x * shorter + (diff ? o + e * diff : 0);
    gaps = (h_len ? o + e * h_len : 0) + (v_len ? o + e * v_len : 0);
    return subst < gaps ? subst : gaps;
}

/* Whether a task of these lengths exceeds the kind's limit (lib/kinds.cpp, gale.h). */
static int over_limit(const shadow_batch *s, int64_t h_len, int64_t v_len)
{
    int64_t shorter = h_len < v_len ? h_len : v_len;
    if (s->kind == GALE_XDROP) {
        int64_t top = param(s, GALE_P_MATCH), mm = param(s, GALE_P_MISMATCH);
        if (mm > top)
            top = mm;
        if (top < 0)
            top = 0;
        return top * shorter > ((int64_t)1 << 30);
    } else {
        int64_t x = 1, o = 0, e = 1, diff = h_len > v_len ? h_len - v_len : v_len - h_len, subst, gaps;
        if (s->kind == GALE_WFA) {
            x = param(s, GALE_P_PENALTY_MISMATCH);
            o = param(s, GALE_P_PENALTY_GAP_OPEN);
            e = param(s, GALE_P_PENALTY_GAP_EXTEND);
        }
        if (h_len > ((int64_t)1 << 30) || v_len > ((int64_t)1 << 30))
            return 1;
        subst = x * shorter + (diff ? o + e * diff : 0);
        gaps = (h_len ? o + e * h_len : 0) + (v_len ? o + e * v_len : 0);
        return (subst < gaps ? subst : gaps) > ((int64_t)1 << 30);
    }
}

/* ------------------------------------------------------------------ */
/* Sequences from the input                                            */
/* ------------------------------------------------------------------ */

/* A sequence in a malloc'd buffer of exactly its length (so that reading past it is
 * caught), by the low 3 bits of its first byte: 0-2 bytes mapped onto ACGT, 3 raw
 * bytes, 4-5 onto the whole alphabet (IUPAC, U, lower case), 6 a unit repeated, 7
 * the last valid sequence with a few edits (long related pairs from a few bytes). *bad: it holds a byte outside
 * gale's alphabet. */
static char *gen_seq(fz_bytes *in, int64_t *len_out, int *bad)
{
    static const char acgt[] = "ACGT";
    static const char all[] = "ACGTNacgtnUuRYSWKMBDHVrykmbdhv";
    uint8_t how = fz_u8(in);
    int64_t len, i;
    char *s;
    *bad = 0;
    if ((how & 7) == 7 && last_seq) {
        /* related: the last sequence, edited */
        int edits = fz_u8(in) % 16;
        len = last_len;
        s = (char *)malloc((size_t)len + 64);
        FZ_CHECK(s != NULL, "out of memory");
        memcpy(s, last_seq, (size_t)len);
        for (i = 0; i < edits && len < last_len + 63; i++) {
            uint16_t at = fz_u16(in);
            uint8_t what = fz_u8(in);
            int64_t pos = len ? at % (len + 1) : 0;
            if ((what & 3) == 0 && pos < len) {
                s[pos] = acgt[(what >> 2) & 3];
            } else if ((what & 3) == 1 && pos < len) {
                int64_t k = 1 + ((what >> 2) % 8);
                if (k > len - pos)
                    k = len - pos;
                memmove(s + pos, s + pos + k, (size_t)(len - pos - k));
                len -= k;
            } else {
                memmove(s + pos + 1, s + pos, (size_t)(len - pos));
                s[pos] = acgt[(what >> 2) & 3];
                len++;
            }
        }
        {
            char *exact = (char *)malloc((size_t)len + 1);
            FZ_CHECK(exact != NULL, "out of memory");
            memcpy(exact, s, (size_t)len);
            free(s);
            s = exact;
        }
    } else if ((how & 7) == 6) {
        /* long and repetitive: a unit repeated */
        size_t ul;
        const uint8_t *u = fz_take(in, 1 + fz_u8(in) % 8, &ul);
        len = fz_u16(in) % 2048;
        s = (char *)malloc((size_t)len + 1);
        FZ_CHECK(s != NULL, "out of memory");
        for (i = 0; i < len; i++)
            s[i] = ul ? acgt[u[i % (int64_t)ul] & 3] : 'A';
    } else {
        size_t got;
        const uint8_t *p;
        len = (how & 8) ? fz_u16(in) % 512 : fz_u8(in) % 48;
        p = fz_take(in, (size_t)len, &got);
        len = (int64_t)got;
        s = (char *)malloc((size_t)len + 1);
        FZ_CHECK(s != NULL, "out of memory");
        for (i = 0; i < len; i++) {
            if ((how & 7) < 3)
                s[i] = acgt[p[i] & 3];
            else if ((how & 7) == 4 || (how & 7) == 5)
                s[i] = all[p[i] % (sizeof all - 1)];
            else
                s[i] = (char)p[i]; /* 3, and 7 before any valid sequence: raw bytes */
        }
        if ((how & 0x30) == 0x30 && len > 0) {
            int64_t at = fz_u8(in) % len;
            s[at] = (char)fz_u8(in); /* one raw byte */
        }
    }
    for (i = 0; i < len; i++)
        if (wc_code(s[i]) == 5)
            *bad = 1;
    s[len] = '\0';
    /* an exact-size copy: reading s[len] would be a bug */
    {
        char *exact = (char *)malloc(len ? (size_t)len : 1);
        FZ_CHECK(exact != NULL, "out of memory");
        memcpy(exact, s, (size_t)len);
        free(s);
        s = exact;
    }
    if (!*bad && len > 0) {
        free(last_seq);
        last_seq = (char *)malloc((size_t)len);
        FZ_CHECK(last_seq != NULL, "out of memory");
        memcpy(last_seq, s, (size_t)len);
        last_len = len;
    }
    *len_out = len;
    return s;
}

static char *dup_bases(const char *s, int64_t n)
{
    char *d = (char *)malloc(n ? (size_t)n : 1);
    FZ_CHECK(d != NULL, "out of memory");
    if (n)
        memcpy(d, s, (size_t)n);
    return d;
}

/* ------------------------------------------------------------------ */
/* Results                                                             */
/* ------------------------------------------------------------------ */

static void check_result(shadow_batch *s, size_t i, const gale_result *r)
{
    const shadow_task *t = &s->tasks[i];
    FZ_CHECK(r->user == t->t.user, "result %zu: user %" PRIu64 ", task had %" PRIu64, i, r->user, t->t.user);
    if (s->kind == GALE_XDROP) {
        gale_task c = t->t;
        c.h_len = t->h_len;
        c.v_len = t->v_len;
        fz_check_xdrop(i, r, &c, param(s, GALE_P_DIRECTION));
    } else {
        fz_check_wfa(s->b, s->kind, i, r, t->v, t->v_len, t->h, t->h_len);
    }
}

/* Every result of a done batch, and its stats. */
static void check_all(shadow_batch *s)
{
    size_t i, count = 0;
    uint64_t cells = 0;
    gale_stats stats;
    if (s->results_checked)
        return;
    FZ_CHECK(gale_batch_count(s->b, &count) == GALE_OK && count == s->n_tasks, "count %zu, model %zu", count,
             s->n_tasks);
    for (i = 0; i < s->n_tasks; i++) {
        gale_result r;
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        expect("gale_result_get (done)", gale_result_get(s->b, i, &r), 0);
        check_result(s, i, &r);
        cells += r.cells;
    }
    memset(&stats, 0, sizeof stats);
    stats.size = sizeof stats;
    expect("gale_batch_stats (done)", gale_batch_stats(s->b, &stats), 0);
    FZ_CHECK(stats.tasks == s->n_tasks && stats.cells == cells && stats.rescued == 0 && stats.kernel_ns == 0,
             "stats: tasks %" PRIu64 " cells %" PRIu64 " (results: %zu, %" PRIu64 ")", stats.tasks, stats.cells,
             s->n_tasks, cells);
    s->results_checked = 1;
}

/* What a call that needs a done batch may give in the model's state. A cancelled batch
 * still gives the results of the tasks that finished first (gale.h, gale_cancel): the
 * result getters take it as a done one, and may also fail with GALE_E_CANCELED. */
static unsigned not_done_mask(const shadow_batch *s)
{
    switch (s->state) {
    case S_OPEN: return M(GALE_E_STATE);
    case S_SUBMITTED: return M(GALE_E_STATE) | (s->cancel_requested ? M(GALE_E_CANCELED) : 0);
    case S_CANCELED: return M(GALE_E_CANCELED);
    default: return 0;
    }
}

/* A cancelled task's result as gale.h has it: flags GALE_RF_CANCELED, the task's user,
 * every other field 0. */
static void check_cancelled_result(shadow_batch *s, size_t i, const gale_result *r)
{
    FZ_CHECK(r->flags == GALE_RF_CANCELED && r->user == s->tasks[i].t.user && r->score == 0 && r->score_left == 0 &&
                 r->score_right == 0 && r->cells == 0 && r->h_begin == 0 && r->h_end == 0 && r->v_begin == 0 &&
                 r->v_end == 0,
             "result %zu of a cancelled batch: flags 0x%x, user %" PRIu64 ", score %lld: not a cancelled task's", i,
             r->flags, r->user, (long long)r->score);
}

/* Every result of a cancelled batch: the tasks that finished first as in a done batch,
 * the others as cancelled, and no statistics. */
static void check_all_cancelled(shadow_batch *s)
{
    size_t i;
    gale_stats stats;
    for (i = 0; i < s->n_tasks; i++) {
        gale_result r;
        gale_status st;
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        st = gale_result_get(s->b, i, &r);
        expect_maybe("gale_result_get (cancelled batch)", st, M(GALE_E_CANCELED));
        if (st == GALE_OK)
            check_result(s, i, &r);
        else if (st == GALE_E_CANCELED)
            check_cancelled_result(s, i, &r);
    }
    memset(&stats, 0, sizeof stats);
    stats.size = sizeof stats;
    expect("gale_batch_stats (cancelled)", gale_batch_stats(s->b, &stats), M(GALE_E_CANCELED));
}

/* A getter said the batch is done (or cancelled): the model learns it, and gale_poll must agree.
 * A result (GALE_OK) may come from a cancelled batch too, for a task that finished first. */
static void learn_final(shadow_batch *s, gale_status st)
{
    if (s->state != S_SUBMITTED)
        return;
    if (st == GALE_OK) {
        const gale_status p = gale_poll(s->b, 0);
        FZ_CHECK(p == GALE_OK || (p == GALE_E_CANCELED && s->cancel_requested),
                 "a result was given before gale_poll said done (it says %d)", p);
        s->state = p == GALE_E_CANCELED ? S_CANCELED : S_DONE;
    } else if (st == GALE_E_CANCELED) {
        FZ_CHECK(gale_poll(s->b, 0) == GALE_E_CANCELED, "GALE_E_CANCELED before gale_poll said so");
        s->state = S_CANCELED;
    }
}

/* ------------------------------------------------------------------ */
/* Operations                                                          */
/* ------------------------------------------------------------------ */

static shadow_batch *pick_batch(fz_bytes *in) { return &batches[fz_u8(in) % MAX_BATCH]; }

static void op_ctx_create(fz_bytes *in)
{
    int slot = fz_u8(in) % MAX_CTX;
    uint8_t how = fz_u8(in);
    gale_ctx_opts o;
    gale_ctx *c = NULL;
    unsigned bad = 0;
    int devs[3];
    gale_status st;
    if (ctxs[slot])
        return;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1 + (how & 1);
    switch ((how >> 1) % 16) {
    case 0: st = gale_ctx_create(&c, NULL); break; /* defaults: AUTO (the CPU here), a thread per core */
    case 1: o.size = OPTS02_SIZE; st = gale_ctx_create(&c, &o); break;
    case 2: o.size = 7; bad = M(GALE_E_INVALID); st = gale_ctx_create(&c, &o); break;
    case 3: o.backend = 3 + fz_u8(in); bad = M(GALE_E_RANGE); st = gale_ctx_create(&c, &o); break;
    case 4: o.backend = GALE_BACKEND_CUDA; bad = M(GALE_E_UNSUPPORTED); st = gale_ctx_create(&c, &o); break;
    case 5: o.threads = -1 - fz_u8(in); bad = M(GALE_E_RANGE); st = gale_ctx_create(&c, &o); break;
    case 6: o.threads = 4097 + fz_u8(in); bad = M(GALE_E_RANGE); st = gale_ctx_create(&c, &o); break;
    case 7: o.device = -1; bad = M(GALE_E_RANGE); st = gale_ctx_create(&c, &o); break;
    case 8: o.n_devices = 2; o.devices = NULL; bad = M(GALE_E_INVALID); st = gale_ctx_create(&c, &o); break;
    case 9: /* ignored by the CPU backend, but checked */
        devs[0] = 0; devs[1] = fz_u8(in) & 1 ? -1 : 1; devs[2] = 0;
        o.n_devices = 3; o.devices = devs;
        bad = devs[1] < 0 ? M(GALE_E_RANGE) : 0;
        st = gale_ctx_create(&c, &o);
        break;
    case 10: o.n_devices = GALE_DEVICES_ALL; st = gale_ctx_create(&c, &o); break;
    case 11: o.n_devices = -2; bad = M(GALE_E_RANGE); st = gale_ctx_create(&c, &o); break;
    case 12: o.backend = GALE_BACKEND_AUTO; st = gale_ctx_create(&c, &o); break;
    case 13: bad = M(GALE_E_INVALID); st = gale_ctx_create(NULL, &o); break;
    default: st = gale_ctx_create(&c, &o); break;
    }
    expect("gale_ctx_create", st, bad);
    if (st != GALE_OK) {
        FZ_CHECK(c == NULL, "gale_ctx_create failed but set *out");
        return;
    }
    {
        int backend = -1, threads = 0;
        size_t n = 99;
        expect("gale_ctx_backend", gale_ctx_backend(c, &backend), 0);
        FZ_CHECK(backend == GALE_BACKEND_CPU, "backend %d", backend);
        expect("gale_ctx_threads", gale_ctx_threads(c, &threads), 0);
        FZ_CHECK(threads >= 1, "threads %d", threads);
        expect("gale_ctx_devices", gale_ctx_devices(c, NULL, 0, &n), 0);
        FZ_CHECK(n == 0, "%zu devices on the CPU backend", n);
    }
    note_created();
    ctxs[slot] = c;
}

static void op_ctx_destroy(fz_bytes *in)
{
    int slot = fz_u8(in) % MAX_CTX, i;
    if (!ctxs[slot]) {
        expect("gale_ctx_destroy(NULL)", gale_ctx_destroy(NULL), 0);
        return;
    }
    expect("gale_ctx_destroy", gale_ctx_destroy(ctxs[slot]), 0);
    note_destroyed(ctxs[slot]);
    for (i = 0; i < MAX_BATCH; i++)
        if (batches[i].b && batches[i].ctx == slot) {
            note_destroyed(batches[i].b);
            shadow_drop(&batches[i]);
        }
    ctxs[slot] = NULL;
}

static void op_batch_create(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    int slot = fz_u8(in) % MAX_CTX;
    uint8_t k = fz_u8(in);
    int kind = k < 240 ? 1 + k % 3 : (int)(k - 244); /* mostly valid; -4 .. 11 */
    gale_batch *b = NULL;
    gale_status st;
    unsigned bad = 0;
    if (s->b)
        return;
    if (!ctxs[slot])
        bad |= M(GALE_E_HANDLE);
    if (!gale_kind_name(kind))
        bad |= M(GALE_E_RANGE);
    if (kind < GALE_XDROP || kind > GALE_POA)
        FZ_CHECK(gale_kind_name(kind) == NULL, "kind %d has a name", kind);
    /* The kinds of 0.6 (indel, gap-linear, Z-drop, POA) are not modelled by this harness
     * yet (their parameters, task limits, group tasks and results): their bounds are
     * checked by tests/unit/kinds.c, POA's groups by tests/unit/poa_api.c, their results
     * by the oracle suite. (GALE_LASTZ, 10, is no batch kind: it has no name.) */
    if (kind >= GALE_INDEL && kind <= GALE_POA) {
        FZ_CHECK(gale_kind_name(kind) != NULL, "kind %d has no name", kind);
        return;
    }
    st = gale_batch_create(ctxs[slot], kind, &b);
    expect("gale_batch_create", st, bad);
    if (st != GALE_OK) {
        FZ_CHECK(b == NULL, "gale_batch_create failed but set *out");
        return;
    }
    note_created();
    memset(s, 0, sizeof *s);
    s->b = b;
    s->ctx = slot;
    s->kind = kind;
    s->state = S_OPEN;
}

static void op_batch_destroy(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    if (!s->b) {
        expect("gale_batch_destroy(NULL)", gale_batch_destroy(NULL), 0);
        return;
    }
    expect("gale_batch_destroy", gale_batch_destroy(s->b), 0);
    note_destroyed(s->b);
    shadow_drop(s);
}

/* A parameter id: one of the kind's, another kind's, an experimental one, or any. */
static int pick_param(fz_bytes *in, int kind)
{
    uint8_t how = fz_u8(in);
    int ids[32];
    size_t n = 0;
    int other = 1 + fz_u8(in) % 3;
    switch (how % 5) {
    case 0:
    case 1:
        FZ_CHECK(gale_kind_params(kind, ids, 32, &n) == GALE_OK && n > 0 && n <= 32, "gale_kind_params");
        return ids[fz_u8(in) % n];
    case 2:
        FZ_CHECK(gale_kind_params(other, ids, 32, &n) == GALE_OK && n > 0 && n <= 32, "gale_kind_params");
        return ids[fz_u8(in) % n];
    case 3: return fz_u8(in) & 1 ? GALE_PX_WFA_GROUP_THREADS : GALE_PX_WFA_UNITS_PER_SM;
    default: return (int)(int16_t)fz_u16(in);
    }
}

static void op_set(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    int id;
    gale_bounds bd;
    int known;
    int64_t v, before = 0, after = 0, lo, hi;
    uint8_t how;
    unsigned bad = 0;
    gale_status st;
    if (!s->b) {
        expect("gale_batch_set(NULL)", gale_batch_set(NULL, GALE_P_MATCH, 1), M(GALE_E_HANDLE));
        return;
    }
    id = pick_param(in, s->kind);
    memset(&bd, 0, sizeof bd);
    bd.size = sizeof bd;
    known = gale_param_bounds(s->kind, id, &bd) == GALE_OK;
    lo = known ? bd.lower : 0;
    hi = known ? bd.upper : 100;
    how = fz_u8(in);
    switch (how % 8) {
    case 0: v = lo; break;
    case 1: v = hi; break;
    case 2: v = lo == INT64_MIN ? lo : lo - 1; break;
    case 3: v = hi == INT64_MAX ? hi : hi + 1; break;
    case 4: v = known ? bd.default_value : 0; break;
    case 5: v = (int64_t)fz_u64(in); break;
    default: {
        /* inside, and small most of the time (penalties, X, free lengths) */
        uint64_t span = (uint64_t)(hi - lo) + 1, r = (how & 8) ? fz_u64(in) : fz_u8(in);
        v = lo + (int64_t)(span ? r % span : r);
        break;
    }
    }
    /* WFA2-lib's match score (since 0.6) makes WFA scores positive, which the checks of
     * fuzz_common.h do not model yet: it stays at its default 0 here (the oracle suite,
     * wfa_metrics_wfa2, checks it) */
    if (id == GALE_P_PENALTY_MATCH)
        v = 0;
    /* WFA2-lib's heuristics (since 0.7) give up optimality, which the DP check of
     * fuzz_common.h asserts: a valid heuristic becomes 0 here (the oracle suite,
     * wfa_heuristic_wfa2, checks them), and the refused values stay: bits that are not
     * WFA2-lib's strategies, or a drop on edit or indel, within the bounds (gale/wfa.h) */
    if (known && id == GALE_P_WFA_HEURISTIC && v >= lo && v <= hi) {
        const int64_t strategies = GALE_WFA_H_BANDED_STATIC | GALE_WFA_H_BANDED_ADAPTIVE | GALE_WFA_H_WFADAPTIVE |
                                   GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP | GALE_WFA_H_WFMASH;
        const int drop_refused = (s->kind == GALE_EDIT || s->kind == GALE_INDEL) &&
                                 (v & (GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP)) != 0;
        if ((v & ~strategies) || drop_refused)
            bad |= M(GALE_E_RANGE);
        else
            v = 0;
    }
    if (s->state != S_OPEN)
        bad |= M(GALE_E_STATE);
    if (!known || v < lo || v > hi)
        bad |= M(GALE_E_RANGE);
    if (known && id == GALE_PX_WFA_GROUP_THREADS && v != 0 && v != 32 && v != 128 && v != 256)
        bad |= M(GALE_E_RANGE);
    if (known)
        before = param(s, id);
    /* GALE_N_BYTES stores sequences another way: set or left only while the batch holds
     * no tasks and no registered sequences (gale.h) */
    if (known && id == GALE_P_N_POLICY && v >= lo && v <= hi && (before == GALE_N_BYTES) != (v == GALE_N_BYTES) &&
        (s->n_tasks > 0 || s->n_seqs > 0))
        bad |= M(GALE_E_STATE);
    st = gale_batch_set(s->b, id, v);
    expect("gale_batch_set", st, bad);
    if (known) {
        after = param(s, id);
        FZ_CHECK(after == (st == GALE_OK ? v : before), "param %d: %" PRId64 " after setting %" PRId64 " (%d) over %" PRId64,
                 id, after, v, st, before);
    } else {
        FZ_CHECK(gale_batch_get(s->b, id, &after) == GALE_E_RANGE, "gale_batch_get of unknown id %d", id);
    }
}

/* One side (h or v) of a task: *seq, *len, *id, *off as given to gale; the bases
 * it stands for in *bases / *blen (the model) and what is wrong with it. */
typedef struct side {
    const char *seq;
    int64_t len, off;
    uint32_t id;
    char *tmp;          /* the buffer given to gale inline, freed right after the call */
    const char *bases;  /* the model's copy of the window */
    int64_t blen;
    unsigned bad;
    int bad_bytes;
} side;

static void make_side(fz_bytes *in, shadow_batch *s, side *d)
{
    uint8_t how = fz_u8(in);
    memset(d, 0, sizeof *d);
    switch (how % 10) {
    case 5: /* inline, empty, NULL: allowed */
        break;
    case 6:
    case 7: { /* a window of a registered sequence (ids 0 .. n + 1: 0 is inline NULL) */
        uint32_t id = fz_u8(in) % (uint32_t)(s->n_seqs + 2);
        d->id = id;
        if (id == 0 || id > s->n_seqs) {
            d->off = fz_u8(in) % 3;
            d->len = fz_u8(in) % 3;
            if (id == 0 && (d->off != 0 || d->len > 0))
                d->bad |= M(GALE_E_INVALID);
            if (id > s->n_seqs)
                d->bad |= M(GALE_E_INVALID);
        } else {
            const shadow_seq *r = &s->seqs[id - 1];
            uint8_t w = fz_u8(in);
            if (w < 200) {
                d->off = r->len ? (int64_t)(fz_u16(in) % (r->len + 1)) : 0;
                d->len = (int64_t)(fz_u16(in) % (r->len - d->off + 1));
            } else {
                static const int64_t odd[] = {-1, 1, INT64_MIN, INT64_MAX, (int64_t)1 << 40};
                d->off = w & 1 ? r->len : odd[w % 5];
                d->len = w & 2 ? 1 : (int64_t)fz_u8(in);
            }
            if (d->off < 0 || d->off > r->len || d->len > r->len - d->off)
                d->bad |= M(GALE_E_INPUT);
            else
                d->bases = r->bases + d->off;
        }
        break;
    }
    case 8: { /* invalid: NULL with a length, a bad length, inline and registered, an offset inline */
        uint8_t w = fz_u8(in) % 4;
        static char one[1] = {'A'};
        if (w == 0) {
            d->len = 1 + fz_u8(in);
            d->bad |= M(GALE_E_INVALID);
        } else if (w == 1) {
            static const int64_t odd[] = {-1, (int64_t)INT32_MAX + 1, INT64_MIN, INT64_MAX};
            d->seq = one;
            d->len = odd[fz_u8(in) % 4];
            d->bad |= M(GALE_E_INVALID);
        } else if (w == 2) {
            d->seq = one;
            d->len = 1;
            d->id = 1 + fz_u8(in) % 3;
            d->bad |= M(GALE_E_INVALID);
        } else {
            d->seq = one;
            d->len = 1;
            d->off = 1 + fz_u8(in);
            d->bad |= M(GALE_E_INVALID);
        }
        break;
    }
    default: { /* inline bases */
        int64_t n;
        char *b = gen_seq(in, &n, &d->bad_bytes);
        d->tmp = dup_bases(b, n);
        d->seq = d->tmp;
        d->len = n;
        d->bases = b;
        d->blen = n;
        return;
    }
    }
    if (d->bases)
        d->blen = d->len;
}

static void op_add(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    union {
        gale_task t;
        unsigned char bytes[sizeof(gale_task) + 32];
    } u;
    gale_task *t = &u.t;
    side h, v;
    uint8_t how, seedhow;
    unsigned bad = 0;
    int null_task = 0, tail_set = 0, junc_read = 1;
    uint8_t *junc = NULL;
    size_t junc_len = 0;
    size_t count = 0, count_after = 0;
    gale_status st;
    int64_t hl, vl, k;
    int inline_bad_bytes;

    if (!s->b) {
        gale_task x;
        gale_task_init(&x);
        expect("gale_batch_add(NULL)", gale_batch_add(NULL, &x), M(GALE_E_HANDLE));
        return;
    }
    if (s->n_tasks >= MAX_TASKS || bases_added > MAX_BASES)
        return;
    how = fz_u8(in);
    make_side(in, s, &h);
    make_side(in, s, &v);
    memset(&u, 0xA5, sizeof u);
    gale_task_init(t);
    t->h = h.seq;
    t->h_len = h.len;
    t->h_seq = h.id;
    t->h_offset = h.off;
    t->v = v.seq;
    t->v_len = v.len;
    t->v_seq = v.id;
    t->v_offset = v.off;
    t->user = fz_u64(in);

    /* the seed: valid for the kind most of the time */
    hl = h.len;
    vl = v.len;
    seedhow = fz_u8(in);
    if (s->kind == GALE_XDROP && hl >= 0 && vl >= 0 && hl <= INT32_MAX && vl <= INT32_MAX) {
        int64_t hb = hl ? fz_u16(in) % (hl + 1) : 0, vb = vl ? fz_u16(in) % (vl + 1) : 0;
        int64_t room = (hl - hb < vl - vb) ? hl - hb : vl - vb;
        k = room > 0 ? fz_u8(in) % (room + 1) : 0;
        t->h_begin = hb;
        t->h_end = hb + k;
        t->v_begin = vb;
        t->v_end = vb + k;
    }
    switch (seedhow % 16) {
    case 0: t->h_begin = -1; break;
    case 1: t->v_end += 1; break;
    case 2: /* just past h (whose length may be a bad one, up to INT64_MAX) */
        if (t->h_len < INT64_MAX) {
            t->h_end = t->h_len + 1;
            t->h_begin = t->h_len;
        }
        break;
    case 3: t->v_begin = t->v_end + 1; break;
    case 4: t->h_end += 1; t->v_end += 1; break; /* may run past the end */
    default: break;
    }

    /* what may go wrong, as gale.h lists it */
    if (s->state != S_OPEN)
        bad |= M(GALE_E_STATE);
    if (h.len < 0 || h.len > INT32_MAX || v.len < 0 || v.len > INT32_MAX)
        bad |= M(GALE_E_INVALID);
    bad |= h.bad | v.bad;
    if (t->h_begin < 0 || t->h_begin > t->h_end || t->h_end > t->h_len || t->v_begin < 0 || t->v_begin > t->v_end ||
        t->v_end > t->v_len || t->h_end - t->h_begin != t->v_end - t->v_begin)
        bad |= M(GALE_E_INPUT);
    if (s->kind != GALE_XDROP && (t->h_begin || t->h_end || t->v_begin || t->v_end))
        bad |= M(GALE_E_INPUT);
    inline_bad_bytes = (h.id == 0 && h.bad_bytes) || (v.id == 0 && v.bad_bytes);
    if (inline_bad_bytes)
        bad |= M(GALE_E_INPUT);
    if (h.len >= 0 && v.len >= 0 && h.len <= INT32_MAX && v.len <= INT32_MAX && over_limit(s, h.len, v.len))
        bad |= M(GALE_E_LIMIT);
    /* a junction array (gale_task.junc, since 0.7; seedhow's high nibble 15): only
     * GALE_ZDROP_EXTS2 takes one, and this harness models none of the Z-drop kinds, so
     * every kind here refuses it - unless the struct is 0.2's, which has no such field */
    if ((seedhow >> 4) == 15) {
        junc_len = h.len > 0 && h.len <= 4096 ? (size_t)h.len : 1;
        junc = calloc(junc_len, 1);
        FZ_CHECK(junc != NULL, "out of memory");
        junc[0] = GALE_ZD_JUNC_FOR_DONOR;
        t->junc = junc;
    }

    /* the struct's size: this release's, 0.2's (the 0.3 fields ignored), larger, or bad */
    switch (how % 16) {
    case 0:
        /* a 0.2 caller has no h_seq .. v_offset: what lies there is not read */
        if (!h.id && !v.id && !h.off && !v.off) {
            t->size = TASK02_SIZE;
            junc_read = 0;
            t->h_seq = t->v_seq = 0xA5A5A5A5u;
            t->h_offset = t->v_offset = -12345;
        }
        break;
    case 1: t->size = 1 + fz_u8(in) % (TASK02_SIZE - 1); break;
    case 2:
        /* a newer caller's larger struct (gale.h, "Struct sizes"): its tail must be zero */
        t->size = sizeof(gale_task) + 16;
        if (fz_u8(in) & 1)
            memset(u.bytes + sizeof(gale_task), 0, 16);
        else
            tail_set = 1;
        break;
    case 3:
        null_task = 1;
        bad = M(GALE_E_INVALID);
        break;
    default: break;
    }

    if (junc && junc_read && !null_task)
        bad |= M(GALE_E_UNSUPPORTED);
    FZ_CHECK(gale_batch_count(s->b, &count) == GALE_OK, "gale_batch_count");
    st = gale_batch_add(s->b, null_task ? NULL : t);
    if (junc) { /* gale copied what it took */
        memset(junc, 0xFF, junc_len);
        free(junc);
    }
    /* the size being bad, INVALID comes before any other check but the handle's */
    if ((how % 16) == 1 || tail_set)
        expect("gale_batch_add (bad size)", st, M(GALE_E_INVALID));
    else
        expect("gale_batch_add", st, bad);
    FZ_CHECK(gale_batch_count(s->b, &count_after) == GALE_OK, "gale_batch_count");
    FZ_CHECK(count_after == count + (st == GALE_OK), "count %zu -> %zu after status %d", count, count_after, st);
    if (st == GALE_OK) {
        shadow_task *x = &s->tasks[s->n_tasks++];
        x->t = *t;
        x->t.h = x->t.v = NULL;
        x->h = h.bases ? h.bases : "";
        x->v = v.bases ? v.bases : "";
        x->h_len = h.len;
        x->v_len = v.len;
        /* inline bases are now the model's */
        if (h.id == 0 && h.bases) {
            s->owned[s->n_owned++] = (char *)h.bases;
            h.bases = NULL;
        }
        if (v.id == 0 && v.bases) {
            s->owned[s->n_owned++] = (char *)v.bases;
            v.bases = NULL;
        }
        bases_added += (size_t)(h.len + v.len);
    }
    /* gale copied what it took: the buffers go now */
    if (h.tmp) {
        memset(h.tmp, 'Z', (size_t)h.len);
        free(h.tmp);
    }
    if (v.tmp) {
        memset(v.tmp, 'Z', (size_t)v.len);
        free(v.tmp);
    }
    if (h.id == 0)
        free((char *)h.bases);
    if (v.id == 0)
        free((char *)v.bases);
}

static void op_add_sequence(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    uint8_t how = fz_u8(in);
    uint32_t id = 0;
    unsigned bad = 0;
    gale_status st;
    int64_t len;
    int bad_bytes = 0;
    char *bases = NULL, *tmp = NULL;
    static char one[1] = {'C'};
    if (!s->b) {
        expect("gale_batch_add_sequence(NULL)", gale_batch_add_sequence(NULL, "A", 1, &id), M(GALE_E_HANDLE));
        return;
    }
    if (s->n_seqs >= MAX_SEQS || bases_added > MAX_BASES)
        return;
    if (s->state != S_OPEN)
        bad |= M(GALE_E_STATE);
    switch (how % 8) {
    case 0: /* empty, NULL: allowed */
        len = 0;
        st = gale_batch_add_sequence(s->b, NULL, 0, &id);
        bases = dup_bases("", 0);
        break;
    case 1:
        len = 3;
        bad |= M(GALE_E_INVALID);
        st = gale_batch_add_sequence(s->b, NULL, len, &id);
        break;
    case 2: {
        static const int64_t odd[] = {-1, ((int64_t)1 << 40) + 1, INT64_MIN, INT64_MAX};
        len = odd[fz_u8(in) % 4];
        bad |= M(GALE_E_INVALID);
        st = gale_batch_add_sequence(s->b, one, len, &id);
        break;
    }
    case 3:
        len = 1;
        bad |= M(GALE_E_INVALID);
        st = gale_batch_add_sequence(s->b, one, 1, NULL);
        break;
    default:
        bases = gen_seq(in, &len, &bad_bytes);
        if (bad_bytes)
            bad |= M(GALE_E_INPUT);
        tmp = dup_bases(bases, len);
        st = gale_batch_add_sequence(s->b, tmp, len, &id);
        memset(tmp, 'Z', (size_t)len);
        free(tmp);
        break;
    }
    expect("gale_batch_add_sequence", st, bad);
    if (st == GALE_OK) {
        FZ_CHECK(id == s->n_seqs + 1, "registered sequence got id %u, expected %zu", id, s->n_seqs + 1);
        s->seqs[s->n_seqs].bases = bases;
        s->seqs[s->n_seqs].len = len;
        s->n_seqs++;
        bases_added += (size_t)len;
    } else {
        free(bases);
    }
}

static void op_group_graph(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    uint8_t how = fz_u8(in);
    const char *seqs[2] = {"ACGT", "ACG"};
    int64_t lens[2] = {4, 3};
    uint32_t edges[2] = {0, 1}, id = 0;
    unsigned bad = 0;
    gale_status st;
    if (!s->b)
        bad |= M(GALE_E_HANDLE);
    else if (s->state != S_OPEN)
        bad |= M(GALE_E_STATE);
    else
        bad |= M(GALE_E_UNSUPPORTED);
    if (how & 1) {
        gale_group g;
        gale_group_init(&g);
        g.n = 2;
        g.seqs = seqs;
        g.lens = lens;
        if (how & 2)
            g.size = 4;
        if (s->b && (how & 2))
            bad = M(GALE_E_INVALID);
        if (s->b && (how & 4))
            bad = M(GALE_E_INVALID);
        st = gale_batch_add_group(s->b, (how & 4) ? NULL : &g);
        expect("gale_batch_add_group", st, bad);
    } else {
        gale_graph g;
        gale_graph_init(&g);
        g.n_nodes = 2;
        g.node_seqs = seqs;
        g.node_lens = lens;
        g.n_edges = 1;
        g.edges = edges;
        if (s->b && (how & 6))
            bad = M(GALE_E_INVALID);
        st = gale_batch_add_graph(s->b, (how & 2) ? NULL : &g, (how & 4) ? NULL : &id);
        expect("gale_batch_add_graph", st, bad);
    }
}

/* GALE_FUZZ_TRACE: a batch's kind, parameters and tasks, before it is submitted. */
static void trace_batch(const shadow_batch *s)
{
    int ids[32];
    size_t n = 0, i;
    if (!trace)
        return;
    fprintf(stderr, "fuzz_api:   %s batch, %zu tasks, %zu registered;", gale_kind_name(s->kind), s->n_tasks,
            s->n_seqs);
    if (gale_kind_params(s->kind, ids, 32, &n) == GALE_OK)
        for (i = 0; i < n && i < 32; i++) {
            gale_bounds bd;
            memset(&bd, 0, sizeof bd);
            bd.size = sizeof bd;
            if (gale_param_bounds(s->kind, ids[i], &bd) == GALE_OK)
                fprintf(stderr, " %s=%" PRId64, bd.name, param(s, ids[i]));
        }
    fprintf(stderr, "\n");
    for (i = 0; i < s->n_tasks; i++)
        fprintf(stderr, "fuzz_api:   task %zu: h %" PRId64 " (seq %u at %" PRId64 "), v %" PRId64
                " (seq %u at %" PRId64 "), seed h [%" PRId64 ", %" PRId64 ") v [%" PRId64 ", %" PRId64 ")\n",
                i, s->tasks[i].h_len, s->tasks[i].t.h_seq, s->tasks[i].t.h_offset, s->tasks[i].v_len,
                s->tasks[i].t.v_seq, s->tasks[i].t.v_offset, s->tasks[i].t.h_begin, s->tasks[i].t.h_end,
                s->tasks[i].t.v_begin, s->tasks[i].t.v_end);
}

static void op_submit(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    unsigned bad = 0;
    gale_status st;
    size_t i;
    int limit = 0;
    if (!s->b) {
        expect("gale_submit(NULL)", gale_submit(NULL), M(GALE_E_HANDLE));
        return;
    }
    if (s->state != S_OPEN) {
        bad = M(GALE_E_STATE);
    } else {
        /* parameters may have changed since the tasks were added */
        int64_t worst = 0;
        for (i = 0; i < s->n_tasks; i++) {
            int64_t pb = penalty_bound(s, s->tasks[i].h_len, s->tasks[i].v_len);
            if (over_limit(s, s->tasks[i].h_len, s->tasks[i].v_len))
                limit = 1;
            if (pb > worst)
                worst = pb;
        }
        if (limit)
            bad = M(GALE_E_LIMIT);
        /* A wavefront alignment takes a step per penalty unit: with gap penalties of
         * thousands, one of a few hundred bases runs for seconds (a second in a
         * release build for 298 bases against an empty text at e = 4096). Such a
         * batch is not submitted, so that the fuzzer keeps its pace; its parameters
         * and tasks were checked on the way in. */
        if (!limit && worst > FZ_MAX_PENALTY) {
            if (trace)
                fprintf(stderr, "fuzz_api:   (not submitted: penalty up to %" PRId64 ")\n", worst);
            return;
        }
    }
    if (s->state == S_OPEN)
        trace_batch(s);
    st = gale_submit(s->b);
    expect("gale_submit", st, bad);
    if (st == GALE_OK) {
        s->state = S_SUBMITTED;
        s->cancel_requested = 0;
    }
}

static void op_poll(fz_bytes *in, int wait)
{
    shadow_batch *s = pick_batch(in);
    int ms = wait ? -1 : (int)(fz_u8(in) % 4) - 1; /* -1 .. 2 */
    gale_status st;
    if (!s->b) {
        expect("gale_poll(NULL)", wait ? gale_wait(NULL) : gale_poll(NULL, ms), M(GALE_E_HANDLE));
        return;
    }
    st = wait ? gale_wait(s->b) : gale_poll(s->b, ms);
    switch (s->state) {
    case S_OPEN: expect("gale_poll (open)", st, M(GALE_E_STATE)); return;
    case S_DONE: expect("gale_poll (done)", st, 0); return;
    case S_CANCELED: expect("gale_poll (cancelled)", st, M(GALE_E_CANCELED)); return;
    default: break;
    }
    if (ms < 0) {
        /* finished: done, or cancelled if asked */
        if (s->cancel_requested)
            expect_maybe("gale_wait (cancel asked)", st, M(GALE_E_CANCELED));
        else
            expect("gale_wait", st, 0);
    } else {
        expect_maybe("gale_poll", st, M(GALE_E_AGAIN) | (s->cancel_requested ? M(GALE_E_CANCELED) : 0));
    }
    if (st == GALE_OK)
        s->state = S_DONE;
    else if (st == GALE_E_CANCELED)
        s->state = S_CANCELED;
}

static void op_cancel(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    if (!s->b) {
        expect("gale_cancel(NULL)", gale_cancel(NULL), M(GALE_E_HANDLE));
        return;
    }
    expect("gale_cancel", gale_cancel(s->b), 0);
    if (s->state == S_SUBMITTED)
        s->cancel_requested = 1;
    /* done, cancelled or open: no effect (checked by the next poll / submit) */
}

static void op_result_get(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    uint8_t how = fz_u8(in);
    size_t i = (how & 0x80) ? (size_t)fz_u64(in) : (size_t)(fz_u8(in) % (s->n_tasks + 2));
    union {
        gale_result r;
        unsigned char bytes[sizeof(gale_result) + 16];
    } u;
    size_t size = sizeof(gale_result), j;
    unsigned bad = 0;
    gale_status st;
    if (!s->b) {
        memset(&u, 0, sizeof u);
        u.r.size = sizeof u.r;
        expect("gale_result_get(NULL)", gale_result_get(NULL, 0, &u.r), M(GALE_E_HANDLE));
        return;
    }
    switch (how % 8) {
    case 0: size = sizeof(gale_result) + 16; break; /* a larger struct: its tail is zeroed */
    case 1: size = fz_u8(in) % sizeof(gale_result); bad = M(GALE_E_INVALID); break;
    default: break;
    }
    memset(&u, 0xC3, sizeof u);
    u.r.size = size;
    st = gale_result_get(s->b, i, (how % 8) == 2 ? NULL : &u.r);
    if ((how % 8) == 2) {
        expect("gale_result_get(out NULL)", st, M(GALE_E_INVALID));
        return;
    }
    if (bad) {
        expect("gale_result_get (small size)", st, bad);
        return;
    }
    if (s->state == S_DONE)
        bad = i < s->n_tasks ? 0 : M(GALE_E_RANGE);
    else
        bad = not_done_mask(s);
    if (s->state == S_SUBMITTED) {
        expect_maybe("gale_result_get (submitted)", st, bad | (i < s->n_tasks ? 0 : M(GALE_E_RANGE)));
        learn_final(s, st);
        if (st == GALE_OK)
            FZ_CHECK(i < s->n_tasks, "result %zu of %zu tasks", i, s->n_tasks);
    } else if (s->state == S_CANCELED && i < s->n_tasks) {
        expect_maybe("gale_result_get (cancelled)", st, M(GALE_E_CANCELED));
    } else {
        expect("gale_result_get", st, s->state == S_CANCELED ? M(GALE_E_RANGE) : bad);
    }
    /* a cancelled task's result is written too (the one failure that writes) */
    const int written = st == GALE_OK || (st == GALE_E_CANCELED && i < s->n_tasks && s->state == S_CANCELED);
    for (j = sizeof(gale_result); j < sizeof u.bytes; j++)
        FZ_CHECK(u.bytes[j] == (written && j < size ? 0 : 0xC3),
                 "gale_result_get: byte %zu past sizeof(gale_result) is %u", j, u.bytes[j]);
    if (written) {
        FZ_CHECK(u.r.size == size, "result size %zu, the caller set %zu", u.r.size, size);
        if (st == GALE_E_CANCELED)
            check_cancelled_result(s, i, &u.r);
        else if (i < s->n_tasks)
            check_result(s, i, &u.r);
    } else {
        /* nothing written on failure but what the caller set */
        for (j = sizeof(size_t); j < sizeof(gale_result); j++)
            FZ_CHECK(u.bytes[j] == 0xC3, "gale_result_get failed (%d) but wrote byte %zu", st, j);
    }
}

static void op_result_range(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    static gale_result buf[RANGE_CAP + 1];
    uint8_t how = fz_u8(in);
    size_t first = fz_u8(in) % (s->n_tasks + 2), n = fz_u8(in) % (s->n_tasks + 2), j;
    unsigned bad;
    gale_status st;
    if ((how & 3) == 3) {
        first = (size_t)fz_u64(in);
        n = (size_t)fz_u64(in);
    }
    if (!s->b) {
        expect("gale_result_get_range(NULL)", gale_result_get_range(NULL, 0, 0, NULL), M(GALE_E_HANDLE));
        return;
    }
    memset(buf, 0xC3, sizeof buf);
    buf[0].size = sizeof(gale_result);
    /* n = 0: no buffer needed (the checks only) */
    st = gale_result_get_range(s->b, first, n, (n == 0 && (how & 4)) ? NULL : buf);
    const int range_ok = first <= s->n_tasks && n <= s->n_tasks - first;
    if (s->state == S_DONE)
        bad = range_ok ? 0 : M(GALE_E_RANGE);
    else
        bad = not_done_mask(s);
    if (s->state == S_SUBMITTED) {
        expect_maybe("gale_result_get_range (submitted)", st, bad | M(GALE_E_RANGE));
        learn_final(s, st);
    } else if (s->state == S_CANCELED && range_ok) {
        expect_maybe("gale_result_get_range (cancelled)", st, M(GALE_E_CANCELED));
    } else {
        expect("gale_result_get_range", st, s->state == S_CANCELED ? M(GALE_E_RANGE) : bad);
    }
    /* GALE_E_CANCELED comes only from an ended batch and a valid range: every element is
     * written, a cancelled task's as such */
    const int written = st == GALE_OK || st == GALE_E_CANCELED;
    if (written) {
        int any_cancelled = 0;
        FZ_CHECK(n <= RANGE_CAP, "gale_result_get_range took %zu results", n);
        for (j = 0; j < n; j++) {
            gale_result one;
            const int cancelled = (buf[j].flags & GALE_RF_CANCELED) != 0;
            memset(&one, 0, sizeof one);
            one.size = sizeof one;
            any_cancelled |= cancelled;
            expect_maybe("gale_result_get (after range)", gale_result_get(s->b, first + j, &one),
                         cancelled ? M(GALE_E_CANCELED) : 0);
            FZ_CHECK(memcmp(&one, &buf[j], sizeof one) == 0, "range result %zu differs from gale_result_get", first + j);
            if (cancelled)
                check_cancelled_result(s, first + j, &buf[j]);
        }
        FZ_CHECK(any_cancelled == (st == GALE_E_CANCELED), "gale_result_get_range returned %d, cancelled results: %d",
                 st, any_cancelled);
    }
    {
        const unsigned char *p = (const unsigned char *)&buf[written ? n : 0];
        size_t from = (written && n > 0) ? 0 : sizeof(size_t);
        for (j = from; j < sizeof(gale_result); j++)
            FZ_CHECK(p[j] == 0xC3, "gale_result_get_range wrote past its range (byte %zu)", j);
    }
}

static void op_cigar(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    uint8_t how = fz_u8(in);
    size_t i = (how & 0x80) ? (size_t)fz_u64(in) : (size_t)(fz_u8(in) % (s->n_tasks + 2)), n_ops = 7;
    const uint32_t *c = NULL;
    unsigned bad;
    gale_status st;
    if (!s->b) {
        expect("gale_result_cigar(NULL)", gale_result_cigar(NULL, 0, &c, &n_ops), M(GALE_E_HANDLE));
        return;
    }
    if ((how & 3) == 1) {
        expect("gale_result_cigar(cigar NULL)", gale_result_cigar(s->b, i, NULL, &n_ops), M(GALE_E_INVALID));
        return;
    }
    if ((how & 3) == 2) {
        expect("gale_result_cigar(n_ops NULL)", gale_result_cigar(s->b, i, &c, NULL), M(GALE_E_INVALID));
        return;
    }
    st = gale_result_cigar(s->b, i, &c, &n_ops);
    if (s->state == S_DONE)
        bad = (s->kind == GALE_XDROP || i >= s->n_tasks) ? M(GALE_E_RANGE) : 0;
    else
        bad = not_done_mask(s);
    if (s->state == S_SUBMITTED) {
        expect_maybe("gale_result_cigar (submitted)", st, bad | M(GALE_E_RANGE));
        learn_final(s, st);
    } else if (s->state == S_CANCELED && !(s->kind == GALE_XDROP || i >= s->n_tasks)) {
        expect_maybe("gale_result_cigar (cancelled)", st, M(GALE_E_CANCELED));
    } else {
        expect("gale_result_cigar", st, s->state == S_CANCELED ? M(GALE_E_RANGE) : bad);
    }
    if (st == GALE_E_CANCELED)
        FZ_CHECK(c == NULL && n_ops == 0, "gale_result_cigar of a cancelled task: %p, %zu ops", (const void *)c, n_ops);
    if (st == GALE_OK && n_ops > 0) {
        /* every op readable, with a known code */
        size_t j;
        unsigned acc = 0;
        for (j = 0; j < n_ops; j++)
            acc |= GALE_CIGAR_OP(c[j]) == GALE_CIGAR_EQUAL || GALE_CIGAR_OP(c[j]) == GALE_CIGAR_DIFF ||
                           GALE_CIGAR_OP(c[j]) == GALE_CIGAR_INS || GALE_CIGAR_OP(c[j]) == GALE_CIGAR_DEL
                       ? 0u
                       : 1u;
        FZ_CHECK(acc == 0, "CIGAR with an op gale does not emit");
    }
}

static void op_stats(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    uint8_t how = fz_u8(in);
    gale_stats stats;
    gale_status st;
    unsigned bad;
    if (!s->b) {
        memset(&stats, 0, sizeof stats);
        stats.size = sizeof stats;
        expect("gale_batch_stats(NULL)", gale_batch_stats(NULL, &stats), M(GALE_E_HANDLE));
        return;
    }
    memset(&stats, 0, sizeof stats);
    stats.size = (how & 3) == 1 ? 8 : sizeof stats;
    st = gale_batch_stats(s->b, (how & 3) == 2 ? NULL : &stats);
    if ((how & 3) == 1 || (how & 3) == 2) {
        expect("gale_batch_stats (bad out)", st, M(GALE_E_INVALID));
        return;
    }
    bad = s->state == S_DONE ? 0 : not_done_mask(s);
    if (s->state == S_SUBMITTED) {
        expect_maybe("gale_batch_stats (submitted)", st, bad);
        learn_final(s, st);
    } else {
        expect("gale_batch_stats", st, bad);
    }
    if (st == GALE_OK)
        FZ_CHECK(stats.size == sizeof stats && stats.tasks == s->n_tasks,
                 "stats: %" PRIu64 " tasks, model %zu", stats.tasks, s->n_tasks);
}

static void op_reset(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    gale_status st;
    size_t count = 99;
    int64_t before, after;
    int id;
    if (!s->b) {
        expect("gale_batch_reset(NULL)", gale_batch_reset(NULL), M(GALE_E_HANDLE));
        return;
    }
    id = s->kind == GALE_XDROP ? GALE_P_XDROP : GALE_P_SCOPE;
    before = param(s, id);
    st = gale_batch_reset(s->b);
    if (s->state == S_SUBMITTED)
        expect_maybe("gale_batch_reset (submitted)", st, M(GALE_E_STATE));
    else
        expect("gale_batch_reset", st, 0);
    if (st != GALE_OK)
        return;
    after = param(s, id);
    FZ_CHECK(before == after, "reset changed a parameter");
    FZ_CHECK(gale_batch_count(s->b, &count) == GALE_OK && count == 0, "count %zu after reset", count);
    shadow_clear(s);
    s->state = S_OPEN;
    s->cancel_requested = 0;
}

static void op_count(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    size_t count = 0;
    if (!s->b) {
        expect("gale_batch_count(NULL)", gale_batch_count(NULL, &count), M(GALE_E_HANDLE));
        return;
    }
    if (fz_u8(in) & 1) {
        expect("gale_batch_count(NULL out)", gale_batch_count(s->b, NULL), M(GALE_E_INVALID));
        return;
    }
    expect("gale_batch_count", gale_batch_count(s->b, &count), 0);
    FZ_CHECK(count == s->n_tasks, "count %zu, model %zu", count, s->n_tasks);
}

/* Calls on handles destroyed since the last create: GALE_E_HANDLE (gale.h). */
static void op_stale(fz_bytes *in)
{
    uint8_t how = fz_u8(in);
    gale_batch *b;
    size_t count;
    int64_t v;
    if (n_stale == 0)
        return;
    b = (gale_batch *)(uintptr_t)stale[how % n_stale];
    switch ((how >> 4) % 6) {
    case 0: expect("gale_batch_count (destroyed)", gale_batch_count(b, &count), M(GALE_E_HANDLE)); break;
    case 1: expect("gale_submit (destroyed)", gale_submit(b), M(GALE_E_HANDLE)); break;
    case 2: expect("gale_batch_get (destroyed)", gale_batch_get(b, GALE_P_MATCH, &v), M(GALE_E_HANDLE)); break;
    case 3: expect("gale_batch_destroy (destroyed)", gale_batch_destroy(b), M(GALE_E_HANDLE)); break;
    case 4: expect("gale_ctx_destroy (destroyed)", gale_ctx_destroy((gale_ctx *)(uintptr_t)stale[how % n_stale]),
                   M(GALE_E_HANDLE)); break;
    default: {
        gale_batch *nb = NULL;
        expect("gale_batch_create (destroyed ctx)",
               gale_batch_create((gale_ctx *)(uintptr_t)stale[how % n_stale], GALE_XDROP, &nb), M(GALE_E_HANDLE));
        FZ_CHECK(nb == NULL, "batch from a destroyed context");
        break;
    }
    }
}

/* Queries that need no handle. */
static void op_static(fz_bytes *in)
{
    uint8_t how = fz_u8(in);
    int kind = (int)(int8_t)fz_u8(in);
    int p = (int)(int16_t)fz_u16(in);
    gale_bounds bd;
    int ids[64];
    size_t n = 0, cap;
    gale_status st;
    switch (how % 5) {
    case 0:
        memset(&bd, 0, sizeof bd);
        bd.size = (how & 0x10) ? 3 : sizeof bd;
        st = gale_param_bounds(kind, p, (how & 0x20) ? NULL : &bd);
        if ((how & 0x30) != 0) {
            expect("gale_param_bounds (bad out)", st, M(GALE_E_INVALID));
        } else if (!gale_kind_name(kind)) {
            expect("gale_param_bounds (unknown kind)", st, M(GALE_E_RANGE));
        } else {
            expect_maybe("gale_param_bounds", st, M(GALE_E_RANGE));
            if (st == GALE_OK)
                FZ_CHECK(bd.lower <= bd.default_value && bd.default_value <= bd.upper && bd.name && bd.name[0],
                         "bounds of %d/%d", kind, p);
        }
        break;
    case 1:
        cap = fz_u8(in) % 20;
        st = gale_kind_params(kind, cap ? ids : NULL, cap, &n);
        expect("gale_kind_params", st, gale_kind_name(kind) ? 0 : M(GALE_E_RANGE));
        if (st == GALE_OK) {
            size_t j;
            for (j = 0; j + 1 < n && j + 1 < cap; j++)
                FZ_CHECK(ids[j] < ids[j + 1], "gale_kind_params not in id order");
        }
        expect("gale_kind_params(n NULL)", gale_kind_params(kind, ids, 4, NULL), M(GALE_E_INVALID));
        if (gale_kind_name(kind))
            expect("gale_kind_params(ids NULL, cap 3)", gale_kind_params(kind, NULL, 3, &n), M(GALE_E_INVALID));
        break;
    case 2:
        FZ_CHECK(gale_status_string(p) != NULL && gale_status_string(p)[0], "gale_status_string(%d)", p);
        FZ_CHECK(gale_last_error() != NULL, "gale_last_error NULL");
        break;
    case 3:
        FZ_CHECK(gale_version() == GALE_VERSION_NUMBER && strcmp(gale_version_string(), GALE_VERSION_STRING) == 0,
                 "version");
        FZ_CHECK((gale_features() & GALE_FEATURE_CPU) && gale_cuda_device_count() >= 0, "features");
        break;
    default: {
        /* a context's getters with NULL outputs */
        int slot = fz_u8(in) % MAX_CTX;
        size_t nd;
        int one[1];
        if (!ctxs[slot])
            break;
        expect("gale_ctx_backend(NULL)", gale_ctx_backend(ctxs[slot], NULL), M(GALE_E_INVALID));
        expect("gale_ctx_threads(NULL)", gale_ctx_threads(ctxs[slot], NULL), M(GALE_E_INVALID));
        expect("gale_ctx_devices(n NULL)", gale_ctx_devices(ctxs[slot], one, 1, NULL), M(GALE_E_INVALID));
        expect("gale_ctx_devices(devices NULL, cap 1)", gale_ctx_devices(ctxs[slot], NULL, 1, &nd),
               M(GALE_E_INVALID));
        expect("gale_ctx_backend(ctx NULL)", gale_ctx_backend(NULL, one), M(GALE_E_HANDLE));
        break;
    }
    }
}

/* Waits for a batch (if submitted) and checks every result. */
static void op_finish(fz_bytes *in)
{
    shadow_batch *s = pick_batch(in);
    gale_status st;
    if (!s->b || s->state == S_OPEN)
        return;
    st = gale_wait(s->b);
    if (s->state == S_SUBMITTED) {
        if (s->cancel_requested)
            expect_maybe("gale_wait (cancel asked)", st, M(GALE_E_CANCELED));
        else
            expect("gale_wait", st, 0);
        s->state = st == GALE_OK ? S_DONE : S_CANCELED;
    } else {
        expect("gale_wait (finished)", st, s->state == S_DONE ? 0 : M(GALE_E_CANCELED));
    }
    if (s->state == S_DONE)
        check_all(s);
    else if (s->state == S_CANCELED)
        check_all_cancelled(s);
}

enum {
    OP_CTX_CREATE, OP_CTX_DESTROY, OP_BATCH_CREATE, OP_BATCH_DESTROY, OP_SET, OP_ADD, OP_ADD2, OP_ADD3,
    OP_ADD_SEQ, OP_GROUP_GRAPH, OP_SUBMIT, OP_POLL, OP_WAIT, OP_CANCEL, OP_RESULT, OP_RANGE, OP_CIGAR,
    OP_STATS, OP_RESET, OP_COUNT, OP_STALE, OP_STATIC, OP_FINISH, OP_SET2,
    N_OPS
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_bytes in;
    int i, steps = 0;
    in.p = data;
    in.n = size;
    memset(batches, 0, sizeof batches);
    memset(ctxs, 0, sizeof ctxs);
    n_stale = 0;
    bases_added = 0;
    last_seq = NULL;
    last_len = 0;

    while (in.n > 0 && steps++ < 400) {
        switch (fz_u8(&in) % N_OPS) {
        case OP_CTX_CREATE: op_ctx_create(&in); break;
        case OP_CTX_DESTROY: op_ctx_destroy(&in); break;
        case OP_BATCH_CREATE: op_batch_create(&in); break;
        case OP_BATCH_DESTROY: op_batch_destroy(&in); break;
        case OP_SET:
        case OP_SET2: op_set(&in); break;
        case OP_ADD:
        case OP_ADD2:
        case OP_ADD3: op_add(&in); break;
        case OP_ADD_SEQ: op_add_sequence(&in); break;
        case OP_GROUP_GRAPH: op_group_graph(&in); break;
        case OP_SUBMIT: op_submit(&in); break;
        case OP_POLL: op_poll(&in, 0); break;
        case OP_WAIT: op_poll(&in, 1); break;
        case OP_CANCEL: op_cancel(&in); break;
        case OP_RESULT: op_result_get(&in); break;
        case OP_RANGE: op_result_range(&in); break;
        case OP_CIGAR: op_cigar(&in); break;
        case OP_STATS: op_stats(&in); break;
        case OP_RESET: op_reset(&in); break;
        case OP_COUNT: op_count(&in); break;
        case OP_STALE: op_stale(&in); break;
        case OP_STATIC: op_static(&in); break;
        case OP_FINISH: op_finish(&in); break;
        default: break;
        }
    }

    /* The end: every batch submitted and not cancelled must finish GALE_OK with
     * right results; then the contexts go, taking their batches with them. */
    for (i = 0; i < MAX_BATCH; i++) {
        shadow_batch *s = &batches[i];
        if (s->b && s->state == S_SUBMITTED && !s->cancel_requested) {
            expect("gale_wait (end)", gale_wait(s->b), 0);
            s->state = S_DONE;
        }
        if (s->b && s->state == S_DONE)
            check_all(s);
    }
    for (i = 0; i < MAX_CTX; i++)
        if (ctxs[i])
            expect("gale_ctx_destroy (end)", gale_ctx_destroy(ctxs[i]), 0);
    for (i = 0; i < MAX_BATCH; i++)
        shadow_drop(&batches[i]);
    free(last_seq);
    last_seq = NULL;
    return 0;
}
