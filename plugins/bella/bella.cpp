// The "bella" plugin: LOGAN's extendSeedL (BELLA's call) on gale's public C API.
// Semantics, batching and errors: gale_bella.h. Only gale_plugin_entry,
// gale_bella_extend and gale_bella_last_error are exported (bella.map).
//
// Unloading: dlclose must really unmap the module (gale_plugin_close promises it), so
// nothing here may pin it: no thread_local with a destructor (glibc keeps a module
// loaded while any thread still owes it such a destructor), no thread of its own
// left running, and the contexts kept between calls are destroyed by handlers that
// dlclose runs (see "Contexts kept between calls").
#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gale.h"
#include "gale_bella.h"
#include "gale_plugin.h"
#include "../common/plugin_errors.hpp"
#include "../common/plugin_contexts.hpp"

#ifndef GALE_BELLA_VERSION
#error "GALE_BELLA_VERSION must be defined by the build"
#endif

namespace {

int64_t batch_budget() {
    const char *e = getenv("GALE_BELLA_BATCH_BASES");
    if (e && *e) {
        char *end = nullptr;
        long long v = strtoll(e, &end, 10);
        if (end && *end == '\0' && v > 0) return v;
    }
    return GALE_BELLA_BATCH_BASES;
}

// GALE_BELLA_CPU_CONTEXTS: the CPU path split over that many CPU contexts, as the GPU
// path is over GPUs (default 1). Exercises the multi-context drivers on any machine.
size_t cpu_contexts() {
    const char *e = getenv("GALE_BELLA_CPU_CONTEXTS");
    if (e && *e) {
        char *end = nullptr;
        long v = strtol(e, &end, 10);
        if (end && *end == '\0' && v >= 1 && v <= 64) return (size_t)v;
    }
    return 1;
}

// Pairs [begin, end) of `order`, all with one scoring scheme.
struct Chunk {
    size_t begin, end;
    gale_bella_scoring sc;
};

// Everything the driver threads share for one call.
struct Job {
    // inputs
    const gale_bella_seed *seeds;
    int direction;
    const char *const *target, *const *query;
    std::vector<int64_t> tlen, qlen;
    int32_t xdrop, kmer_length;
    std::vector<size_t> order;  // pair indices, grouped by scheme
    std::vector<Chunk> chunks;
    // outputs, copied to the caller's arrays only when every pair succeeded
    std::vector<int32_t> res;
    std::vector<gale_bella_seed> out_seeds;
    // scheduling and the first failure
    std::atomic<size_t> next_chunk{0};
    std::atomic<bool> stop{false};
    std::mutex mu;
    bool failed = false;
    gale_status fail_status = GALE_OK;
    char fail_message[1024] = "";

    // Keeps the first failure. Allocates nothing, so that a driver thread out of
    // memory can still report and never lets an exception escape (std::terminate).
    __attribute__((format(printf, 3, 4))) void record(gale_status st, const char *fmt, ...) noexcept {
        std::lock_guard<std::mutex> lock(mu);
        if (!failed) {
            failed = true;
            fail_status = st;
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(fail_message, sizeof fail_message, fmt, ap);
            va_end(ap);
        }
        stop = true;
    }
};

int32_t clamp32(int64_t v) {
    if (v < std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::min();
    if (v > std::numeric_limits<int32_t>::max()) return std::numeric_limits<int32_t>::max();
    return (int32_t)v;
}

// gale names a bad task by its index in the batch ("task 12: ..."); the caller knows
// only its own alignment index, which the message gives instead.
const char *without_task_index(const char *msg) {
    if (std::strncmp(msg, "task ", 5) != 0) return msg;
    const char *p = msg + 5;
    if (*p < '0' || *p > '9') return msg;
    while (*p >= '0' && *p <= '9') ++p;
    return p[0] == ':' && p[1] == ' ' ? p + 2 : msg;
}

gale_batch *start_chunk(gale_ctx *ctx, Job &job, const Chunk &c) {
    gale_batch *b = nullptr;
    check(gale_batch_create(ctx, GALE_XDROP, &b), "gale_batch_create");
    try {
        char what[96];
        snprintf(what, sizeof what, "scoring scheme (match %d, mismatch %d, gap %d)", (int)c.sc.match,
                 (int)c.sc.mismatch, (int)c.sc.gap);
        check(gale_batch_set(b, GALE_P_MATCH, c.sc.match), what);
        check(gale_batch_set(b, GALE_P_MISMATCH, c.sc.mismatch), what);
        check(gale_batch_set(b, GALE_P_GAP, c.sc.gap), what);
        check(gale_batch_set(b, GALE_P_XDROP, job.xdrop), "X-drop");
        check(gale_batch_set(b, GALE_P_DIRECTION, job.direction), "direction");
        check(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_DNA5), "N policy");
        gale_task t;
        gale_task_init(&t);
        for (size_t k = c.begin; k < c.end; ++k) {
            const size_t i = job.order[k];
            const gale_bella_seed &s = job.seeds[i];
            t.h = job.target[i];
            t.h_len = job.tlen[i];
            t.v = job.query[i];
            t.v_len = job.qlen[i];
            t.h_begin = s.begin_h;
            t.h_end = s.end_h;
            t.v_begin = s.begin_v;
            t.v_end = s.end_v;
            t.user = i;
            gale_status st = gale_batch_add(b, &t);
            if (st != GALE_OK)
                fail(st, "alignment %zu (seed H [%d, %d) of %lld, V [%d, %d) of %lld): %s", i, (int)s.begin_h,
                     (int)s.end_h, (long long)t.h_len, (int)s.begin_v, (int)s.end_v, (long long)t.v_len,
                     without_task_index(gale_last_error()));
        }
        check(gale_submit(b), "gale_submit");
    } catch (...) {
        gale_batch_destroy(b);
        throw;
    }
    return b;
}

void finish_chunk(gale_batch *b, Job &job, const Chunk &c) {
    check(gale_wait(b), "batch");
    gale_result r;
    for (size_t k = 0; k < c.end - c.begin; ++k) {
        std::memset(&r, 0, sizeof r);
        r.size = sizeof r;
        check(gale_result_get(b, k, &r), "gale_result_get");
        const size_t i = (size_t)r.user;
        job.res[i] = clamp32((int64_t)r.score_left + (int64_t)r.score_right + (int64_t)job.kmer_length);
        // Positions stay within the sequences, whose lengths the seeds' int32 already bound.
        job.out_seeds[i].begin_h = (int32_t)r.h_begin;
        job.out_seeds[i].begin_v = (int32_t)r.v_begin;
        job.out_seeds[i].end_h = (int32_t)r.h_end;
        job.out_seeds[i].end_v = (int32_t)r.v_end;
    }
}

// One per context: takes chunks until none is left, keeping two batches in flight
// (the next one is filled while the previous one runs).
void drive(gale_ctx *ctx, Job &job) {
    gale_batch *prev = nullptr;
    const Chunk *prev_chunk = nullptr;
    // (drive runs on its own thread, where an escaping exception would be std::terminate)
    guard("bella", [&] {
        while (!job.stop) {
            const size_t c = job.next_chunk.fetch_add(1);
            if (c >= job.chunks.size()) break;
            gale_batch *b = start_chunk(ctx, job, job.chunks[c]);
            if (prev) {
                gale_batch *done = prev;
                prev = nullptr;
                try {
                    finish_chunk(done, job, *prev_chunk);
                } catch (...) {
                    gale_batch_destroy(done);
                    gale_batch_destroy(b);
                    throw;
                }
                gale_batch_destroy(done);
            }
            prev = b;
            prev_chunk = &job.chunks[c];
        }
        if (prev) {
            gale_batch *done = prev;
            prev = nullptr;
            if (!job.stop) {
                try {
                    finish_chunk(done, job, *prev_chunk);
                } catch (...) {
                    gale_batch_destroy(done);
                    throw;
                }
            }
            gale_batch_destroy(done);  // cancels it when another driver failed
        }
    }, [&](gale_status st, const char *message) { job.record(st, "%s", message); });
    if (prev) gale_batch_destroy(prev);
}

// ---- Contexts kept between calls ------------------------------------------------
// plugins/common/plugin_contexts.hpp: one per (backend, index, threads) - index: the
// number of GPUs of the CUDA context, or the slot of the CPU path's
// GALE_BELLA_CPU_CONTEXTS split - made on first use and kept until the module is
// unloaded, destroyed by handlers that dlclose runs.

void extend(gale_bella_seed *seeds, int direction, const char *const *target, const int64_t *target_len,
            const char *const *query, const int64_t *query_len, const gale_bella_scoring *scoring, size_t n_scoring,
            int32_t xdrop, int32_t kmer_length, int32_t *res, size_t n, int ngpus, int n_threads) {
    if (direction != GALE_DIR_LEFT && direction != GALE_DIR_RIGHT && direction != GALE_DIR_BOTH)
        fail(GALE_E_RANGE, "direction is %d: must be LEFT (1), RIGHT (2) or BOTH (3)", direction);
    if (ngpus < 0) fail(GALE_E_INVALID, "ngpus is %d: must be >= 0", ngpus);
    if (n_threads < 0) fail(GALE_E_INVALID, "n_threads is %d: must be >= 0 (0: one per core)", n_threads);
    if (n == 0) return;
    if (!seeds) fail(GALE_E_INVALID, "seeds is NULL");
    if (!target) fail(GALE_E_INVALID, "target is NULL");
    if (!query) fail(GALE_E_INVALID, "query is NULL");
    if (!res) fail(GALE_E_INVALID, "res is NULL");
    if (!scoring) fail(GALE_E_INVALID, "scoring is NULL");
    if (n_scoring != 1 && n_scoring < n)
        fail(GALE_E_INVALID, "%zu scoring schemes for %zu alignments: give 1 (for all) or one per alignment",
             n_scoring, n);

    Job job;
    job.seeds = seeds;
    job.direction = direction;
    job.target = target;
    job.query = query;
    job.xdrop = xdrop;
    job.kmer_length = kmer_length;
    job.tlen.resize(n);
    job.qlen.resize(n);
    for (size_t i = 0; i < n; ++i) {
        if (target_len) {
            job.tlen[i] = target_len[i];
        } else {
            if (!target[i]) fail(GALE_E_INVALID, "alignment %zu: target is NULL (and no lengths given)", i);
            job.tlen[i] = (int64_t)strlen(target[i]);
        }
        if (query_len) {
            job.qlen[i] = query_len[i];
        } else {
            if (!query[i]) fail(GALE_E_INVALID, "alignment %zu: query is NULL (and no lengths given)", i);
            job.qlen[i] = (int64_t)strlen(query[i]);
        }
    }

    // Where to run.
    const int devices = ngpus > 0 ? gale_cuda_device_count() : 0;
    const int n_gpus = std::min(ngpus, devices);
    const size_t n_ctx = n_gpus > 0 ? 1 : cpu_contexts();
    const size_t n_devices = n_gpus > 0 ? (size_t)n_gpus : n_ctx;  // where chunks spread

    // Group by scheme (stable: pairs keep their order within a scheme), then cut
    // into chunks within the base budget, small enough to spread over the contexts
    // and to keep two batches in flight per context.
    job.order.resize(n);
    for (size_t i = 0; i < n; ++i) job.order[i] = i;
    auto sc_of = [&](size_t i) { return n_scoring == 1 ? scoring[0] : scoring[i]; };
    auto key = [&](size_t i) {
        gale_bella_scoring s = sc_of(i);
        return std::make_tuple(s.match, s.mismatch, s.gap);
    };
    if (n_scoring != 1)
        std::stable_sort(job.order.begin(), job.order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    const int64_t budget = batch_budget();
    const size_t spread = std::max<size_t>(1024, (n + 4 * n_devices - 1) / (4 * n_devices));
    const size_t max_pairs = std::min<size_t>(spread, (size_t)1 << 20);
    for (size_t k = 0; k < n;) {
        Chunk c;
        c.begin = k;
        c.sc = sc_of(job.order[k]);
        int64_t bases = 0;
        while (k < n && k - c.begin < max_pairs && key(job.order[k]) == key(job.order[c.begin])) {
            const size_t i = job.order[k];
            const int64_t b = std::max<int64_t>(job.tlen[i], 0) + std::max<int64_t>(job.qlen[i], 0);
            if (k > c.begin && bases + b > budget) break;
            bases += b;
            ++k;
        }
        c.end = k;
        job.chunks.push_back(c);
    }
    job.res.assign(n, 0);
    job.out_seeds.assign(seeds, seeds + n);

    // Contexts (kept between calls, see ContextLease): one CUDA context over the first n_gpus
    // devices, which splits every batch across them by work (gale.h, n_devices), or
    // n_ctx CPU contexts.
    ContextLease lease;
    std::vector<gale_ctx *> ctxs;
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    if (n_gpus > 0) {
        std::vector<int> list((size_t)n_gpus);
        for (int d = 0; d < n_gpus; ++d) list[(size_t)d] = d;
        o.backend = GALE_BACKEND_CUDA;
        o.n_devices = n_gpus;
        o.devices = list.data();
        o.threads = n_threads;  // CPU workers for tasks rescued from the GPUs (0: one per core)
        char what[64];
        snprintf(what, sizeof what, "CUDA context on devices 0..%d", n_gpus - 1);
        ctxs.push_back(lease.get(o, n_gpus, what));
    } else {
        o.backend = GALE_BACKEND_CPU;
        o.threads = n_ctx > 1 && n_threads > 0 ? std::max(1, n_threads / (int)n_ctx) : n_threads;
        for (size_t k = 0; k < n_ctx; ++k) ctxs.push_back(lease.get(o, (int)k, "CPU context"));
    }

    std::vector<std::thread> threads;
    try {
        for (size_t t = 1; t < ctxs.size(); ++t) threads.emplace_back(drive, ctxs[t], std::ref(job));
    } catch (...) {
        job.record(GALE_E_NOMEM, "cannot start a driver thread");
    }
    drive(ctxs[0], job);
    for (auto &t : threads) t.join();
    if (job.failed) throw Failure{job.fail_status, job.fail_message};

    std::copy(job.res.begin(), job.res.end(), res);
    std::copy(job.out_seeds.begin(), job.out_seeds.end(), seeds);
}

const gale_bella_api kApi = {
    sizeof(gale_bella_api),
    GALE_BELLA_API_VERSION,
    gale_bella_extend,
    gale_bella_last_error,
};

const gale_plugin_info kInfo = {
    GALE_PLUGIN_ABI,
    sizeof(gale_plugin_info),
    "bella",
    GALE_BELLA_VERSION,
    "LOGAN's extendSeedL (BELLA's seed extension) on gale: batched gapped X-drop, SeqAn 2.4 semantics, GPU or CPU",
    &kApi,
};

}  // namespace

extern "C" {

GALE_PLUGIN_EXPORT const gale_plugin_info *gale_plugin_entry(void) { return &kInfo; }

GALE_BELLA_FN gale_status gale_bella_extend(gale_bella_seed *seeds, int direction, const char *const *target,
                                            const int64_t *target_len, const char *const *query,
                                            const int64_t *query_len, const gale_bella_scoring *scoring,
                                            size_t n_scoring, int32_t xdrop, int32_t kmer_length, int32_t *res,
                                            size_t n, int ngpus, int n_threads) {
    return guard(
        "bella",
        [&] {
            extend(seeds, direction, target, target_len, query, query_len, scoring, n_scoring, xdrop, kmer_length,
                   res, n, ngpus, n_threads);
        },
        [](gale_status, const char *message) { set_error("%s", message); });
}

GALE_BELLA_FN const char *gale_bella_last_error(void) { return tls_error; }

}  // extern "C"
