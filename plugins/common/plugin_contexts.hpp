// plugin_contexts.hpp - the gale contexts a plugin module keeps between calls
// (plugins/bella, plugins/ksw2). Include after plugin_errors.hpp (it fails through
// check and fail), once per module: everything is in an unnamed namespace, so each
// module has its own cache, and its own __dso_handle.
//
// A gale context costs a device memory pool, pinned buffers and a thread pool to
// create, and the plugins' callers call them many times (BELLA once per ~30,000 x
// numGPU pairs, minimap2 once per extension). So a context is made on first use for
// each (backend, index, threads) - index: what else tells contexts apart, such as
// bella's number of GPUs or the slot of its CPU split (0 where nothing does) - and kept
// until the module is unloaded. gale contexts may be shared by any number of threads
// (gale.h), so concurrent calls share them; the lock only guards the list and creation.
//
// Each context is destroyed by a handler registered with __cxa_atexit on this
// module's __dso_handle right after the context was made:
//   - dlclose of the module runs this module's handlers (__cxa_finalize), so
//     gale_plugin_close leaves no context, thread or device memory behind;
//   - at process exit (the module still loaded, as gale_bella.hpp keeps it) handlers
//     run newest first, so each runs before whatever was registered while its
//     context was made (such as a CUDA runtime teardown registered at its first use)
//     and finds gale and CUDA still working; a cache object made at load time would
//     be destroyed after those.
// The list itself is trivially destructible, so no other destructor of this module
// races with those handlers.
#ifndef GALE_PLUGIN_CONTEXTS_HPP
#define GALE_PLUGIN_CONTEXTS_HPP

#include <cxxabi.h>

#include <mutex>
#include <new>
#include <vector>

#include "gale.h"

// The handle of this module, for destructors that dlclose of this module runs (crtbegin
// defines it, one per shared object).
extern "C" void *__dso_handle;

namespace {

struct CachedContext {
    int backend, index, threads;
    gale_ctx *ctx;
    int users;  // calls using it now; guarded by context_cache_mu
    CachedContext *next;
};
std::mutex context_cache_mu;
CachedContext *context_cache_head = nullptr;

void release_cached_context(void *p) {
    CachedContext *e = static_cast<CachedContext *>(p);
    {
        std::lock_guard<std::mutex> lock(context_cache_mu);
        for (CachedContext **q = &context_cache_head; *q; q = &(*q)->next)
            if (*q == e) {
                *q = e->next;
                break;
            }
        // A call still running on it (a thread left inside the plugin at exit): leave
        // the context to the exiting process rather than pull it from under the call.
        if (e->users > 0) return;
    }
    gale_ctx_destroy(e->ctx);
    delete e;
}

// The contexts of one call, handed back (not destroyed) when the call ends.
class ContextLease {
public:
    ContextLease() = default;
    ContextLease(const ContextLease &) = delete;
    ContextLease &operator=(const ContextLease &) = delete;
    ~ContextLease() {
        std::lock_guard<std::mutex> lock(context_cache_mu);
        for (CachedContext *e : held_) --e->users;
    }

    // The context for (o.backend, index, o.threads), made now from o if it is the first
    // use; what names it in a failure's message.
    gale_ctx *get(const gale_ctx_opts &o, int index, const char *what) {
        held_.reserve(held_.size() + 1);  // so that push_back below cannot throw
        std::lock_guard<std::mutex> lock(context_cache_mu);
        CachedContext *e = context_cache_head;
        while (e && !(e->backend == o.backend && e->index == index && e->threads == o.threads)) e = e->next;
        if (!e) {
            // Made under the lock: two first calls at once must not both size a device
            // memory pool on one GPU (the second could find too little memory free).
            gale_ctx *c = nullptr;
            check(gale_ctx_create(&c, &o), what);
            e = new (std::nothrow) CachedContext{o.backend, index, o.threads, c, 0, nullptr};
            if (!e || abi::__cxa_atexit(release_cached_context, e, &__dso_handle) != 0) {
                delete e;
                gale_ctx_destroy(c);
                fail(GALE_E_NOMEM, "%s: out of host memory", what);
            }
            e->next = context_cache_head;
            context_cache_head = e;
        }
        ++e->users;
        held_.push_back(e);
        return e->ctx;
    }

private:
    std::vector<CachedContext *> held_;
};

}  // namespace

#endif
