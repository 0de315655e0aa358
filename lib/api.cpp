// The only extern "C" file: checks handles and arguments, calls into the core,
// and turns every exception into a status plus the thread's last-error text.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>
#include <new>

#include <algorithm>
#include <cstddef>

#include "backend.h"
#include "context.h"
#include "errors.h"
#include "kind.h"
#include "plugin.h"
#include "poa.h"
#include "compare.h"
#include "lastz_seed.h"
#include "ydrop.h"

using namespace gale;

namespace {

// Runs f; maps exceptions to statuses and records the message. Every status other
// than GALE_OK leaves a message about this call (gale.h, gale_last_error), never an
// earlier call's: a status returned without one (a gap in lib/, not the caller's
// doing) still gets a generic one.
template <class F>
gale_status guarded(F &&f) noexcept {
    try {
        const uint64_t serial = last_error_serial();
        const gale_status s = f();
        if (s != GALE_OK && last_error_serial() == serial)
            set_last_error(std::string(gale_status_string(s)) + " (no further detail: please report it as a gale bug)");
        return s;
    } catch (const Error &e) {
        set_last_error(e.message);
        return e.status;
    } catch (const std::bad_alloc &) {
        set_last_error("out of host memory");
        return GALE_E_NOMEM;
    } catch (const std::exception &e) {
        set_last_error(std::string("internal error: ") + e.what());
        return GALE_E_INTERNAL;
    } catch (...) {
        set_last_error("internal error: unknown exception");
        return GALE_E_INTERNAL;
    }
}

template <class T>
T *live(T *h, const char *what) {
    if (!h) fail(GALE_E_HANDLE, "%s handle is NULL", what);
    if (!handle_live(h)) fail(GALE_E_HANDLE, "%s handle is not live (destroyed or never created)", what);
    return h;
}

template <class T>
void need(const T *p, const char *what) {
    if (!p) fail(GALE_E_INVALID, "%s is NULL", what);
}

// The names of the size-prefixed structs, for messages (gale.h, "Struct sizes").
template <class T> constexpr const char *struct_name();
template <> constexpr const char *struct_name<gale_ctx_opts>() { return "gale_ctx_opts"; }
template <> constexpr const char *struct_name<gale_task>() { return "gale_task"; }
template <> constexpr const char *struct_name<gale_group>() { return "gale_group"; }
template <> constexpr const char *struct_name<gale_graph>() { return "gale_graph"; }
template <> constexpr const char *struct_name<gale_poa_result>() { return "gale_poa_result"; }
template <> constexpr const char *struct_name<gale_result>() { return "gale_result"; }
template <> constexpr const char *struct_name<gale_stats>() { return "gale_stats"; }
template <> constexpr const char *struct_name<gale_device_stats>() { return "gale_device_stats"; }
template <> constexpr const char *struct_name<gale_bounds>() { return "gale_bounds"; }
template <> constexpr const char *struct_name<gale_zdrop_result>() { return "gale_zdrop_result"; }

// A size no struct will ever reach is a `size` left unset: refused before any byte
// past the library's struct is read or written.
template <class T>
void need_plausible_size(const T *p) {
    if (p->size > GALE_STRUCT_SIZE_MAX)
        fail(GALE_E_INVALID, "%s.size is %zu, more than GALE_STRUCT_SIZE_MAX (%d): set it to sizeof(%s) (%zu)",
             struct_name<T>(), p->size, GALE_STRUCT_SIZE_MAX, struct_name<T>(), sizeof(T));
}

// A struct the caller fills and the library reads, as this library's full struct.
// `oldest` is the size of the first release that had it; a struct that grew since
// then is copied over the defaults the caller put in *full (so that the fields its
// release lacked keep their defaults), and only the sizes of releases are accepted: a
// size between two of them is no struct any release had (a caller's mistake). A
// larger struct comes from a newer gale.h: the bytes past ours are fields this library
// does not know, so they must be zero (their default), or the caller's option would be
// silently ignored. Returns p itself when it holds at least this library's struct.
// `older`, when not 0, is the size of a later release's struct (older_release), also
// accepted (gale_task: the 0.2 size and the 0.3-0.6 one).
template <class T>
const T *read_struct(const T *p, T *full, const char *what, size_t oldest = sizeof(T), const char *oldest_release = "0.2",
                     size_t older = 0, const char *older_release = nullptr) {
    need(p, what);
    const size_t size = p->size;
    if (size == sizeof(T)) return p;  // the common case: nothing to check or copy
    need_plausible_size(p);
    if (size > sizeof(T)) {
        const unsigned char *bytes = reinterpret_cast<const unsigned char *>(p);
        for (size_t i = sizeof(T); i < size; ++i)
            if (bytes[i] != 0)
                fail(GALE_E_INVALID,
                     "%s.size is %zu, larger than this library's %s (%zu bytes, gale %s), and byte %zu is not "
                     "zero: the caller sets a field this library does not know",
                     struct_name<T>(), size, struct_name<T>(), sizeof(T), GALE_VERSION_STRING, i);
        return p;
    }
    if (size != oldest && (older == 0 || size != older)) {
        if (older != 0)
            fail(GALE_E_INVALID, "%s.size is %zu: expected sizeof(%s) (%zu), the %s size (%zu) or the %s size (%zu)",
                 struct_name<T>(), size, struct_name<T>(), sizeof(T), older_release, older, oldest_release, oldest);
        if (oldest == sizeof(T))
            fail(GALE_E_INVALID, "%s.size is %zu, expected sizeof(%s) (%zu)", struct_name<T>(), size,
                 struct_name<T>(), sizeof(T));
        fail(GALE_E_INVALID, "%s.size is %zu: expected sizeof(%s) (%zu) or the %s size (%zu)", struct_name<T>(),
             size, struct_name<T>(), sizeof(T), oldest_release, oldest);
    }
    std::memcpy(static_cast<void *>(full), static_cast<const void *>(p), size);
    full->size = sizeof(T);
    return full;
}

// A struct the library fills: at least this library's struct (none has grown yet, so
// that is the oldest layout too), at most GALE_STRUCT_SIZE_MAX.
template <class T>
void need_out_struct(const T *p, const char *what) {
    need(p, what);
    need_plausible_size(p);
    if (p->size < sizeof(T))
        fail(GALE_E_INVALID, "%s.size is %zu, expected at least sizeof(%s) (%zu)", struct_name<T>(), p->size,
             struct_name<T>(), sizeof(T));
}

// After the library has written its fields: the bytes a newer caller's struct has past
// ours read 0 (gale.h, "Struct sizes"); `size` stays what the caller set.
template <class T>
void zero_tail(T *p, size_t size) {
    if (size > sizeof(T)) std::memset(reinterpret_cast<unsigned char *>(p) + sizeof(T), 0, size - sizeof(T));
}

// The sizes of the 0.2 structs (before the 0.3 fields).
constexpr size_t kCtxOpts02 = offsetof(gale_ctx_opts, n_devices);
constexpr size_t kTask02 = offsetof(gale_task, h_seq);
// gale_task of 0.3 to 0.6 (before junc, 0.7); the smallest size gale_batch_add_tasks takes.
constexpr size_t kTask06 = offsetof(gale_task, junc);

}  // namespace

extern "C" {

GALE_API unsigned gale_version(void) { return GALE_VERSION_NUMBER; }
GALE_API const char *gale_version_string(void) { return GALE_VERSION_STRING; }

GALE_API unsigned gale_features(void) { return backend_features(); }

GALE_API int gale_cuda_device_count(void) { return backend_cuda_device_count(); }

GALE_API const char *gale_status_string(gale_status s) {
    switch (s) {
    case GALE_OK: return "success";
    case GALE_E_AGAIN: return "not finished yet";
    case GALE_E_INVALID: return "invalid argument";
    case GALE_E_HANDLE: return "invalid handle";
    case GALE_E_RANGE: return "value out of range";
    case GALE_E_STATE: return "not allowed in the current state";
    case GALE_E_INPUT: return "invalid input sequence or seed";
    case GALE_E_NOMEM: return "out of memory";
    case GALE_E_UNSUPPORTED: return "not supported by this build or machine";
    case GALE_E_DEVICE: return "CUDA device error";
    case GALE_E_CANCELED: return "cancelled";
    case GALE_E_LIMIT: return "task exceeds a limit of the library";
    case GALE_E_INTERNAL: return "internal error";
    case GALE_E_NOT_FOUND: return "plugin not found";
    case GALE_E_ABI: return "plugin needs a newer plugin ABI";
    default: return "unknown status";
    }
}

GALE_API const char *gale_last_error(void) { return last_error(); }

GALE_API void gale_ctx_opts_init(gale_ctx_opts *o) {
    if (!o) return;
    std::memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->backend = GALE_BACKEND_AUTO;
}

GALE_API gale_status gale_ctx_create(gale_ctx **out, const gale_ctx_opts *opts) {
    return guarded([&] {
        need(out, "out");
        *out = nullptr;
        gale_ctx_opts defaults;
        gale_ctx_opts_init(&defaults);
        *out = ctx_create(opts ? *read_struct(opts, &defaults, "opts", kCtxOpts02) : defaults);
        return GALE_OK;
    });
}

GALE_API gale_status gale_ctx_destroy(gale_ctx *ctx) {
    return guarded([&] {
        if (!ctx) return GALE_OK;
        ctx_destroy(live(ctx, "context"));
        return GALE_OK;
    });
}

GALE_API gale_status gale_ctx_backend(const gale_ctx *ctx, int *backend) {
    return guarded([&] {
        need(backend, "backend");
        *backend = live(ctx, "context")->backend->id();
        return GALE_OK;
    });
}

GALE_API gale_status gale_ctx_devices(const gale_ctx *ctx, int *devices, size_t cap, size_t *n) {
    return guarded([&] {
        need(n, "n");
        if (cap > 0) need(devices, "devices");
        const std::vector<int> d = live(ctx, "context")->backend->devices();
        std::copy(d.begin(), d.begin() + std::min(cap, d.size()), devices);
        *n = d.size();
        return GALE_OK;
    });
}

GALE_API gale_status gale_ctx_threads(const gale_ctx *ctx, int *threads) {
    return guarded([&] {
        need(threads, "threads");
        *threads = live(ctx, "context")->pool->size();
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_create(gale_ctx *ctx, int kind, gale_batch **out) {
    return guarded([&] {
        need(out, "out");
        *out = nullptr;
        *out = batch_create(live(ctx, "context"), kind);
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_destroy(gale_batch *b) {
    return guarded([&] {
        if (!b) return GALE_OK;
        batch_destroy(live(b, "batch"));
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_reset(gale_batch *b) {
    return guarded([&] {
        batch_reset(live(b, "batch"));
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_set(gale_batch *b, int param, int64_t value) {
    return guarded([&] {
        batch_set(live(b, "batch"), param, value);
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_get(const gale_batch *b, int param, int64_t *value) {
    return guarded([&] {
        need(value, "value");
        *value = batch_get(live(b, "batch"), param);
        return GALE_OK;
    });
}

GALE_API void gale_task_init(gale_task *t) {
    if (!t) return;
    std::memset(t, 0, sizeof *t);
    t->size = sizeof *t;
}

GALE_API gale_status gale_batch_add(gale_batch *b, const gale_task *t) {
    return guarded([&] {
        live(b, "batch");
        gale_task defaults;
        if (t && t->size != sizeof(gale_task)) gale_task_init(&defaults);  // not in the common case
        batch_add(b, *read_struct(t, &defaults, "task", kTask02, "0.2", kTask06, "0.3 to 0.6"));
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_add_tasks(gale_batch *b, const gale_task *tasks, size_t n) {
    return guarded([&] {
        live(b, "batch");
        if (n == 0) {
            batch_add_tasks(b, tasks, 0, sizeof(gale_task));  // only the state and shape checks
            return GALE_OK;
        }
        need(tasks, "tasks");
        // tasks[0].size is every element's size, as gale_result_get_range's out[0].size.
        const size_t stride = tasks[0].size;
        need_plausible_size(&tasks[0]);
        // The bulk call came with 0.4: it takes the 0.3-0.6 struct (kTask06, without junc)
        // and later ones, no other size below ours.
        if (stride < sizeof(gale_task) && stride != kTask06)
            fail(GALE_E_INVALID, "tasks[0].size is %zu: gale_batch_add_tasks takes tasks of sizeof(gale_task) = "
                 "%zu bytes (gale_task_init sets it), the 0.4 to 0.6 size (%zu) or larger", stride,
                 sizeof(gale_task), kTask06);
        const char *base = reinterpret_cast<const char *>(tasks);
        for (size_t i = 0; i < n; ++i) {
            const gale_task *t = reinterpret_cast<const gale_task *>(base + i * stride);
            if (t->size != stride)
                fail(GALE_E_INVALID, "tasks[%zu].size is %zu but tasks[0].size is %zu: every task has the same size",
                     i, t->size, stride);
            // As read_struct: bytes past the struct this library knows come from a newer
            // caller and must be zero (gale.h, "Struct sizes").
            for (size_t k = sizeof(gale_task); k < stride; ++k)
                if (base[i * stride + k] != 0)
                    fail(GALE_E_INVALID, "tasks[%zu]: byte %zu is not zero, past the %zu bytes of gale_task this "
                         "library knows", i, k, sizeof(gale_task));
        }
        batch_add_tasks(b, tasks, n, stride);
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_add_sequence(gale_batch *b, const char *seq, int64_t len, uint32_t *id) {
    return guarded([&] {
        live(b, "batch");
        need(id, "id");
        *id = batch_add_sequence(b, seq, len);
        return GALE_OK;
    });
}

GALE_API void gale_group_init(gale_group *g) {
    if (!g) return;
    std::memset(g, 0, sizeof *g);
    g->size = sizeof *g;
}

GALE_API gale_status gale_batch_add_group(gale_batch *b, const gale_group *g) {
    return guarded([&] {
        live(b, "batch");
        gale_group full{};  // a 0.3 group (no quals) is read into this one, quals NULL
        batch_add_group(b, *read_struct(g, &full, "group", offsetof(gale_group, quals), "0.3"));
        return GALE_OK;
    });
}

GALE_API void gale_graph_init(gale_graph *g) {
    if (!g) return;
    std::memset(g, 0, sizeof *g);
    g->size = sizeof *g;
}

GALE_API gale_status gale_batch_add_graph(gale_batch *b, const gale_graph *g, uint32_t *id) {
    return guarded([&] {
        live(b, "batch");
        gale_graph unused;  // no older layout to fill in
        const gale_graph &graph = *read_struct(g, &unused, "graph");
        need(id, "id");
        *id = batch_add_graph(b, graph);
        return GALE_OK;
    });
}

GALE_API gale_status gale_param_bounds(int kind, int param, gale_bounds *out) {
    return guarded([&] {
        need_out_struct(out, "out");
        const KindDef *k = kind_find(kind);
        if (!k) fail(GALE_E_RANGE, "unknown task kind %d", kind);
        const ParamSpec *p = k->param(param);
        if (!p) fail(GALE_E_RANGE, "unknown parameter id %d for kind %s", param, k->name);
        out->lower = p->lo;
        out->upper = p->hi;
        out->default_value = p->def;
        out->name = p->name;
        zero_tail(out, out->size);
        return GALE_OK;
    });
}

GALE_API gale_status gale_kind_params(int kind, int *ids, size_t cap, size_t *n) {
    return guarded([&] {
        need(n, "n");
        if (cap > 0) need(ids, "ids");
        const KindDef *k = kind_find(kind);
        if (!k) fail(GALE_E_RANGE, "unknown task kind %d", kind);
        size_t count = 0;
        for (size_t i = 0; i < k->n_params; ++i) {
            if (k->params[i].id >= kFirstExperimentalParam) continue;  // not listed (gale/experimental.h)
            if (count < cap) ids[count] = k->params[i].id;
            ++count;
        }
        *n = count;
        return GALE_OK;
    });
}

GALE_API const char *gale_kind_name(int kind) {
    const KindDef *k = kind_find(kind);
    return k ? k->name : nullptr;
}

GALE_API gale_status gale_batch_count(const gale_batch *b, size_t *count) {
    return guarded([&] {
        need(count, "count");
        *count = batch_count(live(b, "batch"));
        return GALE_OK;
    });
}

GALE_API gale_status gale_submit(gale_batch *b) {
    return guarded([&] {
        batch_submit(live(b, "batch"));
        return GALE_OK;
    });
}

GALE_API gale_status gale_poll(gale_batch *b, int timeout_ms) {
    return guarded([&] { return batch_poll(live(b, "batch"), timeout_ms); });
}

GALE_API gale_status gale_wait(gale_batch *b) { return gale_poll(b, -1); }

GALE_API gale_status gale_cancel(gale_batch *b) {
    return guarded([&] {
        batch_cancel(live(b, "batch"));
        return GALE_OK;
    });
}

GALE_API gale_status gale_result_get(const gale_batch *b, size_t i, gale_result *out) {
    return guarded([&] {
        live(b, "batch");
        need_out_struct(out, "result");
        batch_results(b, i, 1, out, out->size);
        return GALE_OK;
    });
}

GALE_API gale_status gale_result_get_range(const gale_batch *b, size_t first, size_t n, gale_result *out) {
    return guarded([&] {
        live(b, "batch");
        if (n > 0) need_out_struct(out, "out");
        batch_results(b, first, n, out, n > 0 ? out->size : sizeof(gale_result));  // n = 0: only the checks
        return GALE_OK;
    });
}

GALE_API gale_status gale_result_cigar(const gale_batch *b, size_t i, const uint32_t **cigar, size_t *n_ops) {
    return guarded([&] {
        live(b, "batch");
        need(cigar, "cigar");
        need(n_ops, "n_ops");
        batch_cigar(b, i, cigar, n_ops);
        return GALE_OK;
    });
}

GALE_API gale_status gale_result_zdrop(const gale_batch *b, size_t i, gale_zdrop_result *out) {
    return guarded([&] {
        live(b, "batch");
        need_out_struct(out, "result");
        batch_result_zdrop(b, i, out);
        return GALE_OK;
    });
}

GALE_API gale_status gale_result_poa(const gale_batch *b, size_t i, gale_poa_result *out) {
    return guarded([&] {
        live(b, "batch");
        // 0.6's struct ended at `user`; its callers get the fields they know (gale/poa.h).
        need(out, "poa result");
        need_plausible_size(out);
        constexpr size_t kPoaResult06 = offsetof(gale_poa_result, user) + sizeof(uint64_t);
        if (out->size < kPoaResult06)
            fail(GALE_E_INVALID, "gale_poa_result.size is %zu, expected at least %zu (0.6's struct)", out->size,
                 kPoaResult06);
        try {
            batch_poa_result(b, i, out);  // keeps out->size
        } catch (const Error &e) {
            if (e.status == GALE_E_CANCELED) zero_tail(out, out->size);  // written as a cancelled task
            throw;
        }
        zero_tail(out, out->size);
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_stats(const gale_batch *b, gale_stats *out) {
    return guarded([&] {
        live(b, "batch");
        need_out_struct(out, "stats");
        batch_stats(b, out);  // keeps out->size
        zero_tail(out, out->size);
        return GALE_OK;
    });
}

GALE_API gale_status gale_batch_device_stats(const gale_batch *b, gale_device_stats *out, size_t cap, size_t *n) {
    return guarded([&] {
        live(b, "batch");
        need(n, "n");
        if (cap > 0) need_out_struct(out, "out");
        *n = batch_device_stats(b, out, cap, cap > 0 ? out->size : sizeof(gale_device_stats));
        return GALE_OK;
    });
}

/* Plugins (gale_plugin.h; the loader is lib/plugin.cpp). */

GALE_API gale_status gale_plugin_open(const char *name, gale_plugin **out) {
    return guarded([&] {
        need(out, "out");
        *out = nullptr;
        *out = plugin_open(name);
        return GALE_OK;
    });
}

GALE_API gale_status gale_plugin_get_info(const gale_plugin *p, const gale_plugin_info **info) {
    return guarded([&] {
        need(info, "info");
        *info = live(p, "plugin")->info;
        return GALE_OK;
    });
}

GALE_API gale_status gale_plugin_get_path(const gale_plugin *p, const char **path) {
    return guarded([&] {
        need(path, "path");
        *path = live(p, "plugin")->path.c_str();
        return GALE_OK;
    });
}

GALE_API gale_status gale_plugin_close(gale_plugin *p) {
    return guarded([&] {
        if (!p) return GALE_OK;
        plugin_close(live(p, "plugin"));
        return GALE_OK;
    });
}

GALE_API const char *gale_plugin_dir(void) { return plugin_dir(); }

}  // extern "C"

// ---- GALE_LASTZ: LASTZ's gapped extension (since 0.6; lib/ydrop.h) ---------------------

struct gale_lastz_result {
    std::vector<gale::YdropAlignment> aligns;
    std::vector<std::vector<uint32_t>> cigars;  // gale's CIGAR codes, one op per LASTZ edit op
    uint64_t truncations = 0;
    gale::YdropWorkspace::Stats stats;
};

namespace {
template <> constexpr const char *struct_name<gale_lastz_params>() { return "gale_lastz_params"; }
template <> constexpr const char *struct_name<gale_lastz_alignment>() { return "gale_lastz_alignment"; }
template <> constexpr const char *struct_name<gale_lastz_stats>() { return "gale_lastz_stats"; }
template <> constexpr const char *struct_name<gale_lastz_seed_params>() { return "gale_lastz_seed_params"; }
template <> constexpr const char *struct_name<gale_lastz_seed_stats>() { return "gale_lastz_seed_stats"; }

// LASTZ's maxSequenceLen in its 31-bit build: 2^31 - (maxSequenceOverrun + 1).
constexpr int64_t kLastzMaxLen = ((int64_t)1 << 31) - 11;

// zero_ok: byte 0 is taken (a separator: the seeder's target and query)
void lastz_need_seq(const char *s, int64_t len, const char *what, bool zero_ok = false) {
    if (len < 0) fail(GALE_E_INVALID, "%s length %lld is negative", what, (long long)len);
    if (len >= kLastzMaxLen)
        fail(GALE_E_LIMIT, "%s length %lld: LASTZ's positions are 31-bit (at most %lld bases)", what, (long long)len,
             (long long)kLastzMaxLen - 1);
    if (len > 0) need(s, what);
    const void *zero = len > 0 && !zero_ok ? std::memchr(s, 0, (size_t)len) : nullptr;
    if (zero)
        fail(GALE_E_INPUT, "%s: byte 0 at position %lld (LASTZ reads it as a separator)", what,
             (long long)((const char *)zero - s));
}
// The checks of gale_lastz_params' scoring fields (both entry points take them).
void lastz_check_scoring(const gale_lastz_params &p) {
    if (p.gap_open < 0 || p.gap_extend < 0 || p.gap_open > (1 << 24) || p.gap_extend > (1 << 24))
        fail(GALE_E_RANGE, "gap penalties %d, %d: each must be in [0, 2^24]", p.gap_open, p.gap_extend);
    if (p.ydrop < 0 || p.ydrop > (1 << 28)) fail(GALE_E_RANGE, "ydrop %d: must be in [0, 2^28]", p.ydrop);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            if (p.matrix[r][c] < -(1 << 20) || p.matrix[r][c] > (1 << 20))
                fail(GALE_E_RANGE, "matrix[%d][%d] = %d: scores must be in [-2^20, 2^20]", r, c, p.matrix[r][c]);
    if (p.x_score < -(1 << 20) || p.x_score > (1 << 20) || p.fill_score < -(1 << 20) || p.fill_score > (1 << 20))
        fail(GALE_E_RANGE, "x_score %d, fill_score %d: must be in [-2^20, 2^20]", p.x_score, p.fill_score);
    if ((p.flags & (GALE_LASTZ_AMBIGUOUS_N | GALE_LASTZ_AMBIGUOUS_IUPAC)) &&
        (p.ambi_n_n < -(1 << 20) || p.ambi_n_n > (1 << 20) || p.ambi_n_other < -(1 << 20) || p.ambi_n_other > (1 << 20)))
        fail(GALE_E_RANGE, "ambi_n_n %d, ambi_n_other %d: must be in [-2^20, 2^20]", p.ambi_n_n, p.ambi_n_other);
    if (p.flags & ~(GALE_LASTZ_NOYTRIM | GALE_LASTZ_ALLBOUNDS | GALE_LASTZ_NOTRIVIAL | GALE_LASTZ_MINUS |
                    GALE_LASTZ_SCORES_FILE | GALE_LASTZ_AMBIGUOUS_N | GALE_LASTZ_AMBIGUOUS_IUPAC |
                    GALE_LASTZ_SCORES_TABLE | GALE_LASTZ_SCORES_N_ROW | GALE_LASTZ_SCORES_N_COL))
        fail(GALE_E_RANGE, "flags 0x%x: unknown bits", p.flags);
    const bool table = (p.flags & GALE_LASTZ_SCORES_TABLE) != 0;
    if (table) {
        if ((p.flags & GALE_LASTZ_SCORES_FILE) != 0)
            fail(GALE_E_INVALID, "flags: GALE_LASTZ_SCORES_TABLE and GALE_LASTZ_SCORES_FILE together");
        need(p.scores_table, "params->scores_table");
        for (int r = 1; r < 256; ++r)
            for (int c = 1; c < 256; ++c)
                if (p.scores_table[r * 256 + c] < -(1 << 20) || p.scores_table[r * 256 + c] > (1 << 20))
                    fail(GALE_E_RANGE, "scores_table[%d][%d] = %d: scores must be in [-2^20, 2^20]", r, c,
                         p.scores_table[r * 256 + c]);
    }
}

// LASTZ's score set from the params (lib/ydrop.h: new_dna_score_set or a file's), then with
// masked its masked set (the seeding's: lastz_masked_scoring), then --ambiguous (lastz.c
// ambiguates both sets after masking: an N masked bad scores as ambiguous again).
std::unique_ptr<gale::YdropScoring> lastz_scoring(const gale_lastz_params &p, bool masked = false) {
    auto sc = std::make_unique<gale::YdropScoring>();
    if (p.flags & GALE_LASTZ_SCORES_TABLE)
        gale::ydrop_scoring_table(*sc, p.scores_table, p.gap_open, p.gap_extend);
    else
        gale::ydrop_scoring(*sc, p.matrix, p.x_score, p.fill_score, p.gap_open, p.gap_extend,
                            (p.flags & GALE_LASTZ_SCORES_FILE) != 0);
    if (masked)
        gale::lastz_masked_scoring(*sc, (p.flags & GALE_LASTZ_SCORES_TABLE) && (p.flags & GALE_LASTZ_SCORES_N_ROW),
                                   (p.flags & GALE_LASTZ_SCORES_TABLE) && (p.flags & GALE_LASTZ_SCORES_N_COL));
    if (p.flags & GALE_LASTZ_AMBIGUOUS_IUPAC) gale::ydrop_ambiguate_iupac(*sc, p.ambi_n_n, p.ambi_n_other);
    if (p.flags & (GALE_LASTZ_AMBIGUOUS_N | GALE_LASTZ_AMBIGUOUS_IUPAC))
        gale::ydrop_ambiguate_n(*sc, p.ambi_n_n, p.ambi_n_other);
    return sc;
}
}  // namespace

extern "C" {

GALE_API void gale_lastz_params_init(gale_lastz_params *p) {
    if (!p) return;
    std::memset(p, 0, sizeof *p);
    p->size = sizeof *p;
    std::memcpy(p->matrix, gale::kHoxd70, sizeof p->matrix);
    p->x_score = gale::kHoxd70X;
    p->fill_score = gale::kHoxd70Fill;
    p->gap_open = gale::kHoxd70Open;
    p->gap_extend = gale::kHoxd70Extend;
    p->ydrop = gale::kHoxd70Open + 300 * gale::kHoxd70Extend;
    p->gapped_thresh = 3000;
    p->traceback_bytes = gale::kYdropTracebackBytes;
}

GALE_API gale_status gale_lastz_extend(gale_ctx *ctx, const char *target, int64_t target_len, const char *query,
                                       int64_t query_len, const gale_lastz_anchor *anchors, size_t n_anchors,
                                       const gale_lastz_params *params, gale_lastz_result **out) {
    return guarded([&] {
        need(out, "out");
        *out = nullptr;
        live(ctx, "context");
        gale_lastz_params defaults;
        gale_lastz_params_init(&defaults);
        const gale_lastz_params &p =
            params ? *read_struct(params, &defaults, "params", offsetof(gale_lastz_params, ambi_n_n), "0.6") : defaults;
        lastz_check_scoring(p);
        if (p.traceback_bytes != 0 && p.traceback_bytes < 16)
            fail(GALE_E_RANGE, "traceback_bytes %llu: 0 (unlimited) or at least 16", (unsigned long long)p.traceback_bytes);
        lastz_need_seq(target, target_len, "target");
        lastz_need_seq(query, query_len, "query");
        if (n_anchors > 0) need(anchors, "anchors");
        std::vector<gale::YdropAnchor> an(n_anchors);
        for (size_t i = 0; i < n_anchors; ++i) {
            const gale_lastz_anchor &a = anchors[i];
            if ((int64_t)a.pos1 + a.length > target_len || (int64_t)a.pos2 + a.length > query_len)
                fail(GALE_E_INPUT, "anchor %zu (%u, %u, length %u) runs past the target (%lld) or the query (%lld)", i,
                     a.pos1, a.pos2, a.length, (long long)target_len, (long long)query_len);
            an[i] = gale::YdropAnchor{a.pos1, a.pos2, a.length, a.score, 0, (uint32_t)i};
        }
        auto sc = lastz_scoring(p);
        gale::YdropParams yp;
        yp.ydrop = p.ydrop;
        yp.gapped_thresh = p.gapped_thresh;
        yp.trim_to_peak = !(p.flags & GALE_LASTZ_NOYTRIM);
        yp.all_bounds = (p.flags & GALE_LASTZ_ALLBOUNDS) != 0;
        yp.inhibit_trivial = (p.flags & GALE_LASTZ_NOTRIVIAL) != 0;
        yp.same_strand = !(p.flags & GALE_LASTZ_MINUS);
        yp.traceback_bytes = p.traceback_bytes;
        // phase 1 of the parallel scheme (doc/ydrop.md) on as many threads as the context has
        yp.threads = live(ctx, "context")->pool->size();
        // A CUDA context: phase 1 on its GPU (cuda/ydrop.cu)
        yp.device = ctx->backend->ydrop_device();
        // One CPU thread: LASTZ's walk alone. The two-phase path pays for itself only in
        // parallel (on one thread it cost 1.2x the walk's time and twice its memory on a
        // 2 Mbp pair: bench/RESULTS.md, doc/ydrop.md "Parallel extension").
        yp.serial = yp.threads <= 1 && !yp.device;
        gale::YdropWorkspace ws;
        auto r = std::make_unique<gale_lastz_result>();
        r->aligns = gale::ydrop_gapped_extend((const uint8_t *)target, (uint32_t)target_len, (const uint8_t *)query,
                                              (uint32_t)query_len, std::move(an), *sc, yp, ws);
        r->truncations = ws.truncations;
        r->stats = ws.stats;
        r->cigars.resize(r->aligns.size());
        for (size_t i = 0; i < r->aligns.size(); ++i)
            for (uint32_t e : r->aligns[i].script) {
                const uint32_t op = e & 3, len = e >> 2;
                const uint32_t code = op == gale::kYdropSub   ? GALE_CIGAR_MATCH
                                      : op == gale::kYdropIns ? GALE_CIGAR_INS
                                                              : GALE_CIGAR_DEL;
                r->cigars[i].push_back((len << GALE_CIGAR_SHIFT) | code);
            }
        *out = r.release();
        return GALE_OK;
    });
}

GALE_API size_t gale_lastz_result_count(const gale_lastz_result *r) { return r ? r->aligns.size() : 0; }

GALE_API gale_status gale_lastz_result_get(const gale_lastz_result *r, size_t i, gale_lastz_alignment *out) {
    return guarded([&] {
        need(r, "result");
        // 0.6's struct ended at `cigar`; its callers get the fields they know (gale/lastz.h).
        need(out, "out");
        need_plausible_size(out);
        constexpr size_t kLastzAlignment06 = offsetof(gale_lastz_alignment, cigar) + sizeof(const uint32_t *);
        if (out->size < kLastzAlignment06)
            fail(GALE_E_INVALID, "gale_lastz_alignment.size is %zu, expected at least %zu (0.6's struct)", out->size,
                 kLastzAlignment06);
        if (i >= r->aligns.size()) fail(GALE_E_RANGE, "alignment %zu of %zu", i, r->aligns.size());
        const gale::YdropAlignment &a = r->aligns[i];
        out->beg1 = a.beg1;
        out->end1 = a.end1;
        out->beg2 = a.beg2;
        out->end2 = a.end2;
        out->score = a.score;
        out->n_ops = (uint32_t)r->cigars[i].size();
        out->cigar = r->cigars[i].data();
        if (out->size >= sizeof(gale_lastz_alignment)) out->anchor = a.anchor;
        zero_tail(out, out->size);
        return GALE_OK;
    });
}

GALE_API uint64_t gale_lastz_result_truncations(const gale_lastz_result *r) { return r ? r->truncations : 0; }

GALE_API gale_status gale_lastz_result_stats(const gale_lastz_result *r, gale_lastz_stats *out) {
    return guarded([&] {
        need(r, "result");
        need_out_struct(out, "out");
        const gale::YdropWorkspace::Stats &s = r->stats;
        out->sides_phase1 = s.sides_phase1;
        out->sides_device = s.sides_device;
        out->sides_device_failed = s.sides_device_failed;
        out->sides_walked = s.sides_walked;
        out->sides_redone = s.sides_redone;
        out->serial_reruns = s.serial_reruns;
        out->cells_phase1 = s.cells_phase1;
        out->phase1_seconds = s.phase1_s;
        out->phase2_seconds = s.phase2_s;
        out->kernel_seconds = s.phase1_kernel_s;
        zero_tail(out, out->size);
        return GALE_OK;
    });
}

GALE_API void gale_lastz_result_free(gale_lastz_result *r) { delete r; }

// ---- LASTZ's seeding and gap-free extension (since 0.7; lib/lastz_seed.h) ---------------
}  // extern "C"

struct gale_lastz_seeder {
    std::unique_ptr<gale::LastzSeeder> seeder;
};

extern "C" {

GALE_API void gale_lastz_seed_params_init(gale_lastz_seed_params *p) {
    if (!p) return;
    std::memset(p, 0, sizeof *p);
    p->size = sizeof *p;
    p->transitions = 1;
    p->step = 1;
    p->xdrop = 10 * gale::kHoxd70[0][0];
    p->hsp_thresh = 3000;
}

GALE_API gale_status gale_lastz_seeder_create(gale_ctx *ctx, const char *target, int64_t target_len,
                                              const gale_lastz_params *scoring, const gale_lastz_seed_params *params,
                                              gale_lastz_seeder **out) {
    return guarded([&] {
        need(out, "out");
        *out = nullptr;
        live(ctx, "context");
        gale_lastz_params sdefaults;
        gale_lastz_params_init(&sdefaults);
        const gale_lastz_params &p =
            scoring ? *read_struct(scoring, &sdefaults, "scoring", offsetof(gale_lastz_params, ambi_n_n), "0.6")
                    : sdefaults;
        lastz_check_scoring(p);
        gale_lastz_seed_params defaults;
        gale_lastz_seed_params_init(&defaults);
        const gale_lastz_seed_params &sp = params ? *read_struct(params, &defaults, "params") : defaults;
        if (sp.transitions < 0 || sp.transitions > 2)
            fail(GALE_E_RANGE, "transitions %d: must be 0, 1 or 2", sp.transitions);
        if (sp.step < 1) fail(GALE_E_RANGE, "step %u: must be at least 1", sp.step);
        if (sp.xdrop < 0) fail(GALE_E_RANGE, "xdrop %d: must be at least 0", sp.xdrop);
        if (sp.flags & ~GALE_LASTZ_SEED_NOENTROPY) fail(GALE_E_RANGE, "flags 0x%x: unknown bits", sp.flags);
        if (sp.reserved0 != 0) fail(GALE_E_RANGE, "reserved0 is %u: must be 0", sp.reserved0);
        gale::LastzSeed seed;
        std::string err;
        if (!gale::lastz_seed_parse(sp.seed ? sp.seed : "1110100110010101111", seed, &err))
            fail(GALE_E_INVALID, "%s", err.c_str());
        // lastz.c: a seed with no 1 to flip (half-weight) takes no transitions (lastz sets
        // them to 0 for a half-weight seed unless --transition is given, then refuses)
        if (seed.flips.empty() && sp.transitions != 0)
            fail(GALE_E_INVALID, "--transition can only be used with strict seeds (1s and 0s): seed %s has no 1 to flip, "
                 "so transitions must be 0 (it is %d)", sp.seed, sp.transitions);
        // (byte 0 is taken: it separates the records of a target seeded as one, as LASTZ
        // seeds a [multiple] target; no word spans it and it stops every extension)
        lastz_need_seq(target, target_len, "target", true);
        auto sc = lastz_scoring(p, true);
        gale::LastzSeedParams lp;
        lp.transitions = sp.transitions;
        lp.step = sp.step;
        lp.xdrop = sp.xdrop;
        lp.hsp_thresh = sp.hsp_thresh;
        lp.entropy = !(sp.flags & GALE_LASTZ_SEED_NOENTROPY);
        auto s = std::make_unique<gale_lastz_seeder>();
        // find runs on as many threads as the context has (one: LASTZ's own loop), a window
        // of the query at a time; GALE_LASTZ_SEED_WINDOW (a test hook, doc/testing.md) sets
        // the window, so that a test's short queries cross several
        uint32_t window = gale::kSeedWindow;
        if (const char *w = std::getenv("GALE_LASTZ_SEED_WINDOW")) {
            const long v = std::strtol(w, nullptr, 10);
            if (v > 0 && v <= (long)gale::kSeedWindow) window = (uint32_t)v;
        }
        s->seeder = std::make_unique<gale::LastzSeeder>((const uint8_t *)target, (uint32_t)target_len, seed, *sc, lp,
                                                        (int)live(ctx, "context")->pool->size(), window);
        // A CUDA context: the finds on its GPUs (cuda/lastz_seed.cu), on the CPU where one
        // cannot take its query; half-weight and overweight seeds on the CPU (the kernels
        // read two bits a base and resolve nothing yet)
        if (!seed.halfweight && seed.resolve_mask == 0)
            if (auto dev = ctx->backend->lastz_seed_device(s->seeder->view())) s->seeder->attach_device(std::move(dev));
        *out = s.release();
        return GALE_OK;
    });
}

GALE_API gale_status gale_lastz_seeder_find(const gale_lastz_seeder *seeder, const char *query, int64_t query_len,
                                            gale_lastz_anchor **hsps, size_t *n_hsps) {
    return guarded([&] {
        need(hsps, "hsps");
        need(n_hsps, "n_hsps");
        *hsps = nullptr;
        *n_hsps = 0;
        need(seeder, "seeder");
        // (byte 0 is taken: it separates the records of a query seeded as one, as LASTZ
        // seeds a [multiple] query; no word spans it and it stops every extension)
        lastz_need_seq(query, query_len, "query", true);
        const std::vector<gale::LastzHsp> found = seeder->seeder->find((const uint8_t *)query, (uint32_t)query_len);
        if (found.empty()) return GALE_OK;
        gale_lastz_anchor *arr = (gale_lastz_anchor *)std::malloc(found.size() * sizeof *arr);
        if (!arr) fail(GALE_E_NOMEM, "%zu HSPs", found.size());
        for (size_t i = 0; i < found.size(); ++i)
            arr[i] = gale_lastz_anchor{found[i].pos1, found[i].pos2, found[i].length, found[i].score};
        *hsps = arr;
        *n_hsps = found.size();
        return GALE_OK;
    });
}

GALE_API gale_status gale_lastz_seeder_stats(const gale_lastz_seeder *seeder, gale_lastz_seed_stats *out) {
    return guarded([&] {
        need(seeder, "seeder");
        need_out_struct(out, "out");
        const gale::LastzSeedStats s = seeder->seeder->stats();
        out->finds = s.finds;
        out->finds_device = s.finds_device;
        out->finds_device_failed = s.finds_device_failed;
        out->hits = s.hits;
        out->hsps = s.hsps;
        out->device_seconds = s.device_seconds;
        out->seconds = s.seconds;
        zero_tail(out, out->size);
        return GALE_OK;
    });
}

GALE_API void gale_lastz_seeder_free(gale_lastz_seeder *seeder) { delete seeder; }

GALE_API void gale_lastz_hsps_free(gale_lastz_anchor *hsps) { std::free(hsps); }

}  // extern "C"

// ---- whole-genome comparison (since 0.7; lib/compare.h, doc/compare.md) -----------------

namespace {
template <> constexpr const char *struct_name<gale_compare_params>() { return "gale_compare_params"; }

void compare_need_seq(const char *s, int64_t len, const char *what) {
    if (len < 0) fail(GALE_E_INVALID, "%s_len %lld is negative", what, (long long)len);
    if ((uint64_t)len >= ((uint64_t)1 << 32))
        fail(GALE_E_LIMIT, "%s_len %lld: gale_compare's positions are 32-bit (less than 2^32 bytes)", what,
             (long long)len);
    if (len > 0) need(s, what);
}
}  // namespace

extern "C" {

GALE_API void gale_compare_params_init(gale_compare_params *p) {
    if (!p) return;
    std::memset(p, 0, sizeof *p);
    p->size = sizeof *p;
    const gale::CompareParams d;
    p->word = d.word;
    p->match = d.match;
    p->mismatch = d.mismatch;
    p->xdrop = d.xdrop;
    p->min_length = d.min_length;
    p->min_identity = d.min_identity;
    p->max_occ = d.max_occ;
}

GALE_API gale_status gale_compare(gale_ctx *ctx, const char *a, int64_t a_len, const char *b, int64_t b_len,
                                  const gale_compare_params *params, gale_fragment **frags, size_t *n) {
    return guarded([&] {
        need(frags, "frags");
        need(n, "n");
        *frags = nullptr;
        *n = 0;
        live(ctx, "context");
        gale_compare_params defaults;
        gale_compare_params_init(&defaults);
        const gale_compare_params &p = params ? *read_struct(params, &defaults, "params") : defaults;
        if (p.word < 12 || p.word > 32) fail(GALE_E_RANGE, "params->word %d: must be in [12, 32]", p.word);
        if (p.match < 1 || p.match > (1 << 20)) fail(GALE_E_RANGE, "params->match %d: must be in [1, 2^20]", p.match);
        if (p.mismatch < 0 || p.mismatch > (1 << 20))
            fail(GALE_E_RANGE, "params->mismatch %d: must be in [0, 2^20]", p.mismatch);
        if (p.xdrop < 0 || p.xdrop > (1 << 30)) fail(GALE_E_RANGE, "params->xdrop %d: must be in [0, 2^30]", p.xdrop);
        if (p.min_identity > 100)
            fail(GALE_E_RANGE, "params->min_identity %u: must be in [0, 100] (percent)", p.min_identity);
        if (p.flags & ~(GALE_COMPARE_PLUS | GALE_COMPARE_MINUS | GALE_COMPARE_GPU_ONLY))
            fail(GALE_E_RANGE, "params->flags 0x%x: unknown bits", p.flags);
        if (p.reserved0 != 0) fail(GALE_E_RANGE, "params->reserved0 is %llu: must be 0", (unsigned long long)p.reserved0);
        compare_need_seq(a, a_len, "a");
        compare_need_seq(b, b_len, "b");
        gale::CompareParams cp;
        cp.word = p.word;
        cp.match = p.match;
        cp.mismatch = p.mismatch;
        cp.xdrop = p.xdrop;
        cp.min_length = p.min_length;
        cp.min_identity = p.min_identity;
        cp.max_occ = p.max_occ;
        const uint32_t strand_bits = p.flags & (GALE_COMPARE_PLUS | GALE_COMPARE_MINUS);
        const uint32_t strands = strand_bits ? strand_bits : (GALE_COMPARE_PLUS | GALE_COMPARE_MINUS);
        cp.plus = (strands & GALE_COMPARE_PLUS) != 0;
        cp.minus = (strands & GALE_COMPARE_MINUS) != 0;
        // chunk sizes: a test hook (GALE_COMPARE_CHUNK=WORDS,HITS; doc/testing.md) makes them
        // small; the result does not depend on them
        uint64_t chunk_words = gale::kCompareChunkWords, chunk_hits = gale::kCompareChunkHits;
        if (const char *c = std::getenv("GALE_COMPARE_CHUNK")) {
            char *end = nullptr;
            const unsigned long long w = std::strtoull(c, &end, 10);
            if (end && *end == ',') {
                const unsigned long long h = std::strtoull(end + 1, nullptr, 10);
                if (w > 0 && h > 0) {
                    chunk_words = w;
                    chunk_hits = h;
                }
            }
        }
        // On a CUDA context the GPU's kernel (cuda/compare.cu; the same fragments in the same
        // order), and the CPU's when the device's memory runs out (or there is no device side)
        // unless the caller asked for the GPU only
        std::vector<gale::CompareFragment> found;
        const gale::CompareInput in{(const uint8_t *)a, (uint64_t)a_len, (const uint8_t *)b, (uint64_t)b_len,
                                    &cp,                chunk_words,     chunk_hits};
        const gale_status on_device = ctx->backend->compare_device(in, found);
        if (on_device != GALE_OK) {
            if (p.flags & GALE_COMPARE_GPU_ONLY)
                fail(on_device, "%s",
                     on_device == GALE_E_NOMEM
                                    ? "GALE_COMPARE_GPU_ONLY: the GPU's memory cannot hold the comparison"
                                    : "GALE_COMPARE_GPU_ONLY: the context has no GPU (a CPU context)");
            found = gale::compare(in.a, in.la, in.b, in.lb, cp, ctx->pool->size(), chunk_words, chunk_hits);
        }
        if (found.empty()) return GALE_OK;
        gale_fragment *arr = (gale_fragment *)std::malloc(found.size() * sizeof *arr);
        if (!arr) fail(GALE_E_NOMEM, "%zu fragments", found.size());
        for (size_t i = 0; i < found.size(); ++i) {
            std::memset(&arr[i], 0, sizeof arr[i]);
            arr[i].a_start = found[i].a_start;
            arr[i].b_start = found[i].b_start;
            arr[i].length = found[i].length;
            arr[i].score = found[i].score;
            arr[i].matches = found[i].matches;
            arr[i].strand = found[i].strand;
        }
        *frags = arr;
        *n = found.size();
        return GALE_OK;
    });
}

GALE_API void gale_fragments_free(gale_fragment *frags) { std::free(frags); }

}  // extern "C"

// ---- sequence-to-graph alignment (since 0.7; lib/poa.h, Graph::build) ------------------

struct gale_poa_graph {
    gale::poa::Graph g;
    std::vector<uint32_t> first;    // first SPOA node of each gale_graph node
    std::vector<uint32_t> seg_of;   // SPOA node -> gale_graph node
    std::vector<int64_t> seg_len;
    gale::poa::Engine engine{gale::poa::Params{}};
    gale::poa::Graph::Alignment aln;
    std::vector<uint32_t> path, cigar;
};

namespace {
template <> constexpr const char *struct_name<gale_poa_graph_alignment>() { return "gale_poa_graph_alignment"; }

void poa_graph_bytes(const char *s, int64_t len, const char *what, size_t index) {
    for (int64_t i = 0; i < len; ++i)
        if (s[i] < '!' || s[i] > '~')
            fail(GALE_E_INPUT, "%s %zu: byte 0x%02x at position %lld is not printable ASCII ('!'..'~')", what, index,
                 (unsigned char)s[i], (long long)i);
}

void push_op(std::vector<uint32_t> &c, uint32_t op) {
    if (!c.empty() && GALE_CIGAR_OP(c.back()) == op) c.back() += 1u << GALE_CIGAR_SHIFT;
    else c.push_back((1u << GALE_CIGAR_SHIFT) | op);
}
}  // namespace

extern "C" {

GALE_API gale_status gale_poa_graph_create(const gale_graph *graph, gale_poa_graph **out, size_t *bad_edge) {
    return guarded([&] {
        need(out, "out");
        *out = nullptr;
        if (bad_edge) *bad_edge = SIZE_MAX;
        gale_graph unused;
        const gale_graph &g = *read_struct(graph, &unused, "graph");
        if (g.n_nodes > 0) {
            need(g.node_seqs, "graph->node_seqs");
            need(g.node_lens, "graph->node_lens");
        }
        if (g.n_edges > 0) need(g.edges, "graph->edges");
        uint64_t total = 0;
        for (size_t i = 0; i < g.n_nodes; ++i) {
            const int64_t len = g.node_lens[i];
            if (len < 1 || len > INT32_MAX)
                fail(GALE_E_INPUT, "node %zu: length %lld (must be 1 .. 2^31 - 1)", i, (long long)len);
            need(g.node_seqs[i], "a node's bytes");
            poa_graph_bytes(g.node_seqs[i], len, "node", i);
            total += (uint64_t)len;
            if (total > INT32_MAX) fail(GALE_E_LIMIT, "the graph holds more than 2^31 - 1 bytes");
        }
        for (size_t i = 0; i < g.n_edges; ++i)
            if (g.edges[2 * i] >= g.n_nodes || g.edges[2 * i + 1] >= g.n_nodes)
                fail(GALE_E_INPUT, "edge %zu (%u -> %u): a node index past the %zu nodes", i, g.edges[2 * i],
                     g.edges[2 * i + 1], g.n_nodes);
        auto h = std::make_unique<gale_poa_graph>();
        const int64_t bad = h->g.build(g.n_nodes, g.node_seqs, g.node_lens, g.n_edges, g.edges, &h->first);
        if (bad >= 0) {
            if (bad_edge) *bad_edge = (size_t)bad;
            fail(GALE_E_INPUT, "edge %lld (%u -> %u) closes a cycle: a graph to align to must be acyclic",
                 (long long)bad, g.edges[2 * bad], g.edges[2 * bad + 1]);
        }
        h->seg_of.resize(h->g.nodes.size());
        h->seg_len.assign(g.node_lens, g.node_lens + g.n_nodes);
        for (size_t i = 0; i < g.n_nodes; ++i)
            for (int64_t j = 0; j < g.node_lens[i]; ++j) h->seg_of[h->first[i] + j] = (uint32_t)i;
        *out = h.release();
        return GALE_OK;
    });
}

GALE_API gale_status gale_poa_graph_align(gale_poa_graph *h, int algorithm, int m, int n, int go, int ge, int go2,
                                          int ge2, const char *read, int64_t len, gale_poa_graph_alignment *out) {
    return guarded([&] {
        need(h, "graph");
        need_out_struct(out, "out");
        if (algorithm < GALE_POA_LOCAL || algorithm > GALE_POA_SEMI_GLOBAL)
            fail(GALE_E_RANGE, "algorithm %d: GALE_POA_LOCAL, GALE_POA_GLOBAL or GALE_POA_SEMI_GLOBAL", algorithm);
        if (m < -128 || m > 127 || n < -128 || n > 127)
            fail(GALE_E_RANGE, "match %d, mismatch %d: each must be in [-128, 127]", m, n);
        const int gaps[4] = {go, ge, go2, ge2};
        for (int x : gaps)
            if (x < -128 || x > 0) fail(GALE_E_RANGE, "gap penalty %d: each must be in [-128, 0]", x);
        if (len < 0 || len > INT32_MAX) fail(GALE_E_INVALID, "read length %lld: must be in [0, 2^31 - 1]", (long long)len);
        if (len > 0) need(read, "read");
        for (int64_t i = 0; i < len; ++i)
            if (read[i] < '!' || read[i] > '~')
                fail(GALE_E_INPUT, "read: byte 0x%02x at position %lld is not printable ASCII ('!'..'~')",
                     (unsigned char)read[i], (long long)i);
        gale::poa::Params p;
        const char *why = nullptr;
        if (!gale::poa::make_params(algorithm, (int8_t)m, (int8_t)n, (int8_t)go, (int8_t)ge, (int8_t)go2, (int8_t)ge2, &p,
                                    &why))
            fail(GALE_E_RANGE, "scores refused: %s", why ? why : "as SPOA's AlignmentEngine::Create");
        h->engine.set_params(p);
        const uint64_t cells0 = h->engine.cells();
        int32_t score = 0;
        h->aln.clear();
        if (!h->engine.align(read, (uint32_t)len, h->g, &score, &h->aln))
            fail(h->engine.overflowed() ? GALE_E_LIMIT : GALE_E_INTERNAL, "%s",
                 h->engine.overflowed() ? "the read's worst-case score overflows 32 bits (SPOA refuses it)"
                                        : "the backtrack found no predecessor (SPOA would loop)");
        h->path.clear();
        h->cigar.clear();
        int64_t qs = -1, qe = -1, matches = 0, path_len = 0, path_start = 0, path_end = 0;
        int64_t prev = -1;
        for (const auto &pr : h->aln) {
            if (pr.second >= 0) {
                if (qs < 0) qs = pr.second;
                qe = pr.second + 1;
            }
            if (pr.first < 0) {
                push_op(h->cigar, GALE_CIGAR_INS);
                continue;
            }
            const uint32_t node = (uint32_t)pr.first, seg = h->seg_of[node];
            const int64_t off = (int64_t)(node - h->first[seg]);
            // A new path step unless this is the next byte of the segment just visited.
            if (prev < 0 || !(h->seg_of[(uint32_t)prev] == seg && (uint32_t)prev + 1 == node)) {
                if (prev < 0) path_start = off;
                h->path.push_back(seg);
                path_len += h->seg_len[seg];
            }
            path_end = path_len - h->seg_len[seg] + off + 1;
            prev = node;
            if (pr.second < 0) {
                push_op(h->cigar, GALE_CIGAR_DEL);
            } else if (h->g.decoder[h->g.nodes[node].code] == (unsigned char)read[pr.second]) {
                push_op(h->cigar, GALE_CIGAR_EQUAL);
                ++matches;
            } else {
                push_op(h->cigar, GALE_CIGAR_DIFF);
            }
        }
        out->score = score;
        out->n_path = (uint32_t)h->path.size();
        out->path = h->path.data();
        out->path_len = path_len;
        out->path_start = path_start;
        out->path_end = path_end;
        out->query_start = qs < 0 ? 0 : qs;
        out->query_end = qe < 0 ? 0 : qe;
        out->matches = matches;
        out->block_len = (int64_t)h->aln.size();
        out->n_ops = (uint32_t)h->cigar.size();
        out->reserved0 = 0;
        out->cigar = h->cigar.data();
        out->cells = h->engine.cells() - cells0;
        zero_tail(out, out->size);
        return GALE_OK;
    });
}

GALE_API void gale_poa_graph_free(gale_poa_graph *h) { delete h; }

}  // extern "C"
