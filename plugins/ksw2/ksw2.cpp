// The "ksw2" plugin: minimap2 2.24's ksw_extz2_sse, ksw_extd2_sse and ksw_exts2_sse on
// gale's public C API (the Z-drop kinds), and gale_ksw2_extend, many such calls in gale
// batches. Semantics, CIGAR memory and errors: gale_ksw2.h. Only gale_plugin_entry, the
// three ksw2 functions and gale_ksw2_{extend,last_status,last_error} are exported
// (ksw2.map).
//
// Unloading (doc/plugins.md): no thread_local with a destructor, no thread of the
// plugin's own, and the contexts kept between calls are destroyed by handlers that
// dlclose runs (plugins/common/plugin_contexts.hpp).
#include <algorithm>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "gale.h"
#include "gale_ksw2.h"
#include "gale_plugin.h"
#include "../common/plugin_errors.hpp"
#include "../common/plugin_contexts.hpp"

#ifndef GALE_KSW2_VERSION
#error "GALE_KSW2_VERSION must be defined by the build"
#endif

// The caller's kalloc (kalloc.h: void *krealloc(void *km, void *ptr, size_t size)), which
// ksw2 built with HAVE_KALLOC calls to grow the CIGAR. Weak: a program without one gets
// realloc, as ksw2 built without HAVE_KALLOC.
extern "C" __attribute__((weak)) void *krealloc(void *km, void *ptr, size_t size);

namespace {

#if defined(__LP64__)
static_assert(sizeof(ksw_extz_t) == 56 && offsetof(ksw_extz_t, max_q) == 4 && offsetof(ksw_extz_t, m_cigar) == 32 &&
                  offsetof(ksw_extz_t, reach_end) == 40 && offsetof(ksw_extz_t, cigar) == 48,
              "ksw_extz_t has ksw2.h's layout");
#endif

thread_local gale_status tls_status = GALE_OK;

const char *fn_name(int fn) {
    return fn == GALE_KSW2_EXTZ2 ? "ksw_extz2_sse" : fn == GALE_KSW2_EXTD2 ? "ksw_extd2_sse" : "ksw_exts2_sse";
}

// ---- Contexts kept between calls -------------------------------------------------
// plugins/common/plugin_contexts.hpp: one per (backend, threads), made on first use,
// destroyed by a handler registered on this module's __dso_handle (run by dlclose of the
// module, or at exit).
gale_ctx *kept_context(ContextLease &lease, int backend, int threads) {
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.threads = threads;
    return lease.get(o, 0, backend == GALE_BACKEND_CUDA ? "CUDA context" : "gale context");
}

// ---- One call's arguments -------------------------------------------------------------

// What a gale batch is configured with: the arguments but the sequences, those the
// function does not take zeroed, so that equal calls compare equal byte for byte.
struct Key {
    int32_t fn, w, zdrop, end_bonus, flag;
    int8_t gapo, gape, gapo2, gape2, noncan, junc_bonus, pad0, pad1;
    int8_t mat[25];
    int8_t pad2[3];
    bool operator<(const Key &o) const { return std::memcmp(this, &o, sizeof *this) < 0; }
};

// ksw_exts2_sse reads junc only to add junc_bonus where a junction of the strands the
// flags ask for is marked (bits 1 and 2: forward donor and acceptor; 4 and 8: reverse),
// in junc[0, tlen). minimap2 always passes an array, all zeros without --junc-bed: then,
// or with junc_bonus 0, the result is that of junc = NULL, and the job goes to gale
// without one (and with junc_bonus 0 in its key, so that such jobs share batches).
bool junc_matters(const gale_ksw2_job &j) {
    if (!j.junc || j.junc_bonus == 0) return false;
    const uint8_t bits = (uint8_t)((j.flag & KSW_EZ_SPLICE_FOR ? 1 | 2 : 0) | (j.flag & KSW_EZ_SPLICE_REV ? 4 | 8 : 0));
    if (!bits) return false;
    for (int i = 0; i < j.tlen; ++i)
        if (j.junc[i] & bits) return true;
    return false;
}

// The arguments of job j (index for messages) as a Key; fails where gale cannot take
// them. Jobs ksw2 returns from at once (qlen, tlen or m too small) are not checked.
Key key_of(const gale_ksw2_job &j, size_t index) {
    if (j.fn < GALE_KSW2_EXTZ2 || j.fn > GALE_KSW2_EXTS2)
        fail(GALE_E_RANGE, "job %zu: fn is %d: must be GALE_KSW2_EXTZ2 (0), _EXTD2 (1) or _EXTS2 (2)", index, j.fn);
    if (j.m != 5)
        fail(GALE_E_UNSUPPORTED, "job %zu: %s with m = %d: gale takes m = 5 (A C G T N, minimap2's alphabet)", index,
             fn_name(j.fn), (int)j.m);
    if (!j.mat) fail(GALE_E_INVALID, "job %zu: mat is NULL", index);
    if (!j.query || !j.target) fail(GALE_E_INVALID, "job %zu: %s is NULL", index, j.query ? "target" : "query");
    Key k;
    std::memset(&k, 0, sizeof k);
    k.fn = j.fn;
    k.zdrop = j.zdrop;
    k.flag = j.flag;
    k.gapo = j.gapo;
    k.gape = j.gape;
    if (j.fn != GALE_KSW2_EXTS2) {
        k.w = j.w;
        k.end_bonus = j.end_bonus;
    }
    if (j.fn != GALE_KSW2_EXTZ2) k.gapo2 = j.gapo2;
    if (j.fn == GALE_KSW2_EXTD2) k.gape2 = j.gape2;
    if (j.fn == GALE_KSW2_EXTS2) k.noncan = j.noncan;
    if (j.fn == GALE_KSW2_EXTS2 && junc_matters(j)) k.junc_bonus = j.junc_bonus;
    std::memcpy(k.mat, j.mat, 25);
    return k;
}

// ksw2 resets ez and returns at once for these (ksw2_ext*2_sse.c's first lines).
bool returns_at_once(const gale_ksw2_job &j) {
    return j.qlen <= 0 || j.tlen <= 0 || j.m <= (j.fn == GALE_KSW2_EXTZ2 ? 0 : 1);
}

const int kKind[3] = {GALE_ZDROP_EXTZ2, GALE_ZDROP_EXTD2, GALE_ZDROP_EXTS2};

// A batch of the key's kind, configured. Returns it; the caller destroys it.
gale_batch *make_batch(gale_ctx *ctx, const Key &k) {
    gale_batch *b = nullptr;
    check(gale_batch_create(ctx, kKind[k.fn], &b), "gale_batch_create");
    try {
        char what[160];
        auto set = [&](int id, int64_t v, const char *name) {
            gale_status st = gale_batch_set(b, id, v);
            if (st != GALE_OK) {
                snprintf(what, sizeof what, "%s: %s = %lld", fn_name(k.fn), name, (long long)v);
                check(st, what);
            }
        };
        set(GALE_P_PENALTY_GAP_OPEN, k.gapo, k.fn == GALE_KSW2_EXTZ2 ? "q" : "gapo");
        set(GALE_P_PENALTY_GAP_EXTEND, k.gape, k.fn == GALE_KSW2_EXTZ2 ? "e" : "gape");
        if (k.fn != GALE_KSW2_EXTZ2) set(GALE_P_PENALTY_GAP_OPEN2, k.gapo2, "gapo2");
        if (k.fn == GALE_KSW2_EXTD2) set(GALE_P_PENALTY_GAP_EXTEND2, k.gape2, "gape2");
        if (k.fn != GALE_KSW2_EXTS2) {
            set(GALE_P_BAND, k.w < 0 ? -1 : k.w, "w");  // any negative w: no band, as ksw2
            set(GALE_P_END_BONUS, k.end_bonus, "end_bonus");
        } else {
            set(GALE_P_NONCAN, k.noncan, "noncan");
            set(GALE_P_JUNC_BONUS, k.junc_bonus, "junc_bonus");
        }
        set(GALE_P_ZDROP, k.zdrop < 0 ? -1 : k.zdrop, "zdrop");  // any negative: no Z-drop
        set(GALE_P_ZDROP_FLAGS, k.flag, "flag");
        set(GALE_P_ZDROP_MATRIX, 1, "matrix");
        for (int i = 0; i < 25; ++i) set(GALE_P_ZDROP_MAT(i / 5, i % 5), k.mat[i], "mat[]");
    } catch (...) {
        gale_batch_destroy(b);
        throw;
    }
    return b;
}

// Codes to gale's letters: 0..3 the bases, anything else N (minimap2 sends 0..4).
void letters(const uint8_t *s, int n, std::string &out) {
    static const char kLetter[5] = {'A', 'C', 'G', 'T', 'N'};
    out.resize((size_t)n);
    for (int i = 0; i < n; ++i) out[(size_t)i] = kLetter[s[i] < 4 ? s[i] : 4];
}

// The job's junction array as gale takes it (gale_task.junc), or nullptr when it changes
// nothing (junc_matters). ksw2 reads only the bits 0x0f of each byte; gale refuses the
// others, so they are cleared in the copy (js), which gives ksw2's result.
const uint8_t *junc_of(const gale_ksw2_job &j, std::vector<uint8_t> &js) {
    if (j.fn != GALE_KSW2_EXTS2 || !junc_matters(j)) return nullptr;
    js.resize((size_t)j.tlen);
    for (int i = 0; i < j.tlen; ++i) js[(size_t)i] = (uint8_t)(j.junc[i] & GALE_ZD_JUNC_MASK);
    return js.data();
}

void add_job(gale_batch *b, const gale_ksw2_job &j, size_t index, std::string &qs, std::string &ts,
             std::vector<uint8_t> &js) {
    letters(j.query, j.qlen, qs);
    letters(j.target, j.tlen, ts);
    gale_task t;
    gale_task_init(&t);
    t.v = qs.data();
    t.v_len = j.qlen;
    t.h = ts.data();
    t.h_len = j.tlen;
    t.user = index;
    t.junc = junc_of(j, js);
    gale_status st = gale_batch_add(b, &t);
    if (st != GALE_OK) {
        char what[96];
        snprintf(what, sizeof what, "job %zu (%s, qlen %d, tlen %d)", index, fn_name(j.fn), j.qlen, j.tlen);
        check(st, what);
    }
}

// ksw_reset_extz.
void reset_ez(ksw_extz_t *ez) {
    ez->max_q = ez->max_t = ez->mqe_t = ez->mte_q = -1;
    ez->max = 0, ez->score = ez->mqe = ez->mte = KSW_NEG_INF;
    ez->n_cigar = 0, ez->zdropped = 0, ez->reach_end = 0;
}

// One job's result as read from its batch, before ez is written.
struct Out {
    gale_zdrop_result r;
    const uint32_t *cigar;
    size_t n_ops;
};

void read_result(gale_batch *b, size_t i, Out &o) {
    std::memset(&o.r, 0, sizeof o.r);
    o.r.size = sizeof o.r;
    check(gale_result_zdrop(b, i, &o.r), "gale_result_zdrop");
    check(gale_result_cigar(b, i, &o.cigar, &o.n_ops), "gale_result_cigar");
}

// The memory ksw_push_cigar would reach for n ops, grown the same way (doubling m_cigar,
// 4 when 0, one krealloc per step). Fails with the caller's buffer untouched when the
// allocator gives NULL (ksw2 would crash there; kalloc aborts first).
void grow_cigar(void *km, ksw_extz_t *ez, size_t n) {
    int m = ez->m_cigar;
    uint32_t *c = ez->cigar;
    while ((size_t)m < n) {
        const int next = m ? m << 1 : 4;
        void *p = krealloc ? krealloc(km, c, (size_t)next << 2) : std::realloc(c, (size_t)next << 2);
        if (!p) {
            ez->cigar = c;  // what was reallocated so far stays the caller's
            ez->m_cigar = m;
            fail(GALE_E_NOMEM, "krealloc of the CIGAR to %d ops failed", next);
        }
        c = static_cast<uint32_t *>(p);
        m = next;
    }
    ez->cigar = c;
    ez->m_cigar = m;
}

void write_ez(const gale_ksw2_job &j, const Out &o) {
    ksw_extz_t *ez = j.ez;
    ez->max = (uint32_t)o.r.max;
    ez->zdropped = o.r.zdropped ? 1 : 0;
    ez->max_q = o.r.max_q, ez->max_t = o.r.max_t;
    ez->mqe = o.r.mqe, ez->mqe_t = o.r.mqe_t;
    ez->mte = o.r.mte, ez->mte_q = o.r.mte_q;
    ez->score = o.r.score;
    ez->reach_end = o.r.reach_end;
    ez->n_cigar = 0;
    if (o.n_ops > 0) {
        grow_cigar(j.km, ez, o.n_ops);
        std::memcpy(ez->cigar, o.cigar, o.n_ops * sizeof(uint32_t));
        ez->n_cigar = (int)o.n_ops;
    }
}

// A single ksw2 call: one task on the kept CPU context.
void run_one(const gale_ksw2_job &j) {
    if (!j.ez) fail(GALE_E_INVALID, "ez is NULL");
    if (returns_at_once(j)) {
        reset_ez(j.ez);
        return;
    }
    const Key k = key_of(j, 0);
    ContextLease lease;
    gale_batch *b = make_batch(kept_context(lease, GALE_BACKEND_CPU, 0), k);
    try {
        std::string qs, ts;
        std::vector<uint8_t> js;
        add_job(b, j, 0, qs, ts, js);
        check(gale_submit(b), "gale_submit");
        check(gale_wait(b), "gale_wait");
        Out o;
        read_result(b, 0, o);
        write_ez(j, o);
    } catch (...) {
        gale_batch_destroy(b);
        throw;
    }
    gale_batch_destroy(b);
}

// After a failed single call: ksw_reset_extz's state, zdropped set (gale_ksw2.h).
void failed_ez(ksw_extz_t *ez) {
    if (!ez) return;
    reset_ez(ez);
    ez->zdropped = 1;
}

template <class F>
gale_status guarded(F &&f, ksw_extz_t *ez_on_failure) noexcept {
    tls_status = guard("ksw2", f, [](gale_status, const char *message) { set_error("%s", message); });
    if (tls_status != GALE_OK) failed_ez(ez_on_failure);
    return tls_status;
}

// ---- gale_ksw2_extend -------------------------------------------------------------

void extend(const gale_ksw2_job *jobs, size_t n, int backend, int n_threads) {
    if (backend != GALE_BACKEND_AUTO && backend != GALE_BACKEND_CPU && backend != GALE_BACKEND_CUDA)
        fail(GALE_E_RANGE, "backend is %d: must be GALE_BACKEND_AUTO (0), _CPU (1) or _CUDA (2)", backend);
    if (n_threads < 0 || n_threads > GALE_THREADS_MAX)
        fail(GALE_E_RANGE, "n_threads is %d: must be in [0, %d] (0: one per core)", n_threads, GALE_THREADS_MAX);
    if (n == 0) return;
    if (!jobs) fail(GALE_E_INVALID, "jobs is NULL");

    // Group the jobs that gale computes by their arguments (stable: job order within a
    // group), one batch per group.
    std::map<Key, size_t> group_of;
    std::vector<Key> keys;
    std::vector<std::vector<size_t>> groups;
    for (size_t i = 0; i < n; ++i) {
        const gale_ksw2_job &j = jobs[i];
        if (!j.ez) fail(GALE_E_INVALID, "job %zu: ez is NULL", i);
        if (returns_at_once(j)) continue;
        const Key k = key_of(j, i);
        auto it = group_of.find(k);
        if (it == group_of.end()) {
            it = group_of.emplace(k, groups.size()).first;
            keys.push_back(k);
            groups.emplace_back();
        }
        groups[it->second].push_back(i);
    }

    ContextLease lease;
    gale_ctx *const ctx = kept_context(lease, backend, n_threads);
    std::vector<gale_batch *> batches;
    batches.reserve(groups.size());
    std::vector<Out> outs(n);
    try {
        std::string qs, ts;
        std::vector<uint8_t> js;
        for (size_t g = 0; g < groups.size(); ++g) {
            batches.push_back(make_batch(ctx, keys[g]));
            for (size_t i : groups[g]) add_job(batches.back(), jobs[i], i, qs, ts, js);
            check(gale_submit(batches.back()), "gale_submit");
        }
        for (size_t g = 0; g < groups.size(); ++g) {
            check(gale_wait(batches[g]), "batch");
            for (size_t k = 0; k < groups[g].size(); ++k) read_result(batches[g], k, outs[groups[g][k]]);
        }
        // Every job computed: now write the ez's (the only step with side effects).
        for (size_t i = 0; i < n; ++i) {
            if (returns_at_once(jobs[i])) reset_ez(jobs[i].ez);
            else write_ez(jobs[i], outs[i]);
        }
    } catch (...) {
        for (gale_batch *b : batches) gale_batch_destroy(b);
        throw;
    }
    for (gale_batch *b : batches) gale_batch_destroy(b);
}

// The table points to the module's own definitions (internal, not the exported names:
// a program that also defines ksw_extz2_sse and exports it would otherwise interpose).
void extz2_impl(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                const int8_t *mat, int8_t q, int8_t e, int w, int zdrop, int end_bonus, int flag, ksw_extz_t *ez) {
    gale_ksw2_job j;
    std::memset(&j, 0, sizeof j);
    j.fn = GALE_KSW2_EXTZ2;
    j.qlen = qlen, j.query = query, j.tlen = tlen, j.target = target, j.m = m, j.mat = mat;
    j.gapo = q, j.gape = e, j.w = w, j.zdrop = zdrop, j.end_bonus = end_bonus, j.flag = flag;
    j.km = km, j.ez = ez;
    guarded([&] { run_one(j); }, ez);
}

void extd2_impl(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                const int8_t *mat, int8_t gapo, int8_t gape, int8_t gapo2, int8_t gape2, int w, int zdrop,
                int end_bonus, int flag, ksw_extz_t *ez) {
    gale_ksw2_job j;
    std::memset(&j, 0, sizeof j);
    j.fn = GALE_KSW2_EXTD2;
    j.qlen = qlen, j.query = query, j.tlen = tlen, j.target = target, j.m = m, j.mat = mat;
    j.gapo = gapo, j.gape = gape, j.gapo2 = gapo2, j.gape2 = gape2;
    j.w = w, j.zdrop = zdrop, j.end_bonus = end_bonus, j.flag = flag;
    j.km = km, j.ez = ez;
    guarded([&] { run_one(j); }, ez);
}

void exts2_impl(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                const int8_t *mat, int8_t gapo, int8_t gape, int8_t gapo2, int8_t noncan, int zdrop,
                int8_t junc_bonus, int flag, const uint8_t *junc, ksw_extz_t *ez) {
    gale_ksw2_job j;
    std::memset(&j, 0, sizeof j);
    j.fn = GALE_KSW2_EXTS2;
    j.qlen = qlen, j.query = query, j.tlen = tlen, j.target = target, j.m = m, j.mat = mat;
    j.gapo = gapo, j.gape = gape, j.gapo2 = gapo2, j.noncan = noncan, j.zdrop = zdrop;
    j.junc_bonus = junc_bonus, j.flag = flag, j.junc = junc;
    j.km = km, j.ez = ez;
    guarded([&] { run_one(j); }, ez);
}

gale_status extend_impl(const gale_ksw2_job *jobs, size_t n, int backend, int n_threads) {
    return guarded([&] { extend(jobs, n, backend, n_threads); }, nullptr);
}
gale_status last_status_impl(void) { return tls_status; }
const char *last_error_impl(void) { return tls_error; }

const gale_ksw2_api kApi = {
    sizeof(gale_ksw2_api), GALE_KSW2_API_VERSION, extz2_impl,       extd2_impl,
    exts2_impl,            extend_impl,           last_status_impl, last_error_impl,
};

const gale_plugin_info kInfo = {
    GALE_PLUGIN_ABI,
    sizeof(gale_plugin_info),
    "ksw2",
    GALE_KSW2_VERSION,
    "minimap2 2.24's ksw2 extension (ksw_extz2_sse, ksw_extd2_sse, ksw_exts2_sse) on gale, bit for bit, and batches "
    "of such calls on the GPU or CPU",
    &kApi,
};

}  // namespace

extern "C" {

GALE_PLUGIN_EXPORT const gale_plugin_info *gale_plugin_entry(void) { return &kInfo; }

GALE_KSW2_FN void ksw_extz2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                                const int8_t *mat, int8_t q, int8_t e, int w, int zdrop, int end_bonus, int flag,
                                ksw_extz_t *ez) {
    extz2_impl(km, qlen, query, tlen, target, m, mat, q, e, w, zdrop, end_bonus, flag, ez);
}

GALE_KSW2_FN void ksw_extd2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                                const int8_t *mat, int8_t gapo, int8_t gape, int8_t gapo2, int8_t gape2, int w,
                                int zdrop, int end_bonus, int flag, ksw_extz_t *ez) {
    extd2_impl(km, qlen, query, tlen, target, m, mat, gapo, gape, gapo2, gape2, w, zdrop, end_bonus, flag, ez);
}

GALE_KSW2_FN void ksw_exts2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                                const int8_t *mat, int8_t gapo, int8_t gape, int8_t gapo2, int8_t noncan, int zdrop,
                                int8_t junc_bonus, int flag, const uint8_t *junc, ksw_extz_t *ez) {
    exts2_impl(km, qlen, query, tlen, target, m, mat, gapo, gape, gapo2, noncan, zdrop, junc_bonus, flag, junc, ez);
}

GALE_KSW2_FN gale_status gale_ksw2_extend(const gale_ksw2_job *jobs, size_t n, int backend, int n_threads) {
    return extend_impl(jobs, n, backend, n_threads);
}

GALE_KSW2_FN gale_status gale_ksw2_last_status(void) { return last_status_impl(); }

GALE_KSW2_FN const char *gale_ksw2_last_error(void) { return last_error_impl(); }

}  // extern "C"
