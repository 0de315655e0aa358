// Contexts, the handle registry and the CPU worker pool. Running batches is the
// backend's (lib/backend*.cpp) and lib/run.cpp's.
#include "context.h"

#include <unistd.h>

#include <algorithm>
#include <unordered_set>

#include "errors.h"

namespace gale {

// ---- handle registry ----------------------------------------------------------

namespace {
std::mutex registry_mu;
std::unordered_set<const void *> &registry() {
    static auto *set = new std::unordered_set<const void *>();  // never destroyed: safe at exit
    return *set;
}
}  // namespace

void handle_add(const void *h) {
    std::lock_guard<std::mutex> lock(registry_mu);
    registry().insert(h);
}
void handle_remove(const void *h) {
    std::lock_guard<std::mutex> lock(registry_mu);
    registry().erase(h);
}
bool handle_live(const void *h) {
    if (!h) return false;
    std::lock_guard<std::mutex> lock(registry_mu);
    return registry().count(h) != 0;
}

// ---- worker pool --------------------------------------------------------------

WorkerPool::WorkerPool(int threads) {
    try {
        threads_.reserve(threads);
        for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
    } catch (...) {  // a thread that would not start: stop those that did (a joinable thread must not be destroyed)
        const size_t started = threads_.size();
        {
            std::lock_guard<std::mutex> lock(mu_);
            stop_ = true;
        }
        cv_.notify_all();
        for (auto &t : threads_) t.join();
        fail(GALE_E_NOMEM, "could start only %zu of %d CPU worker threads", started, threads);
    }
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    for (auto &t : threads_) t.join();
}

void WorkerPool::post(std::function<void()> job) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        queue_.push_back(std::move(job));
    }
    cv_.notify_one();
}

void WorkerPool::loop() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock<std::mutex> lock(mu_);
            cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping and drained
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job();
    }
}

// ---- contexts -----------------------------------------------------------------

gale_ctx *ctx_create(const gale_ctx_opts &o) {
    if (o.threads < 0 || o.threads > GALE_THREADS_MAX)
        fail(GALE_E_RANGE, "threads must be 0..%d (got %d)", GALE_THREADS_MAX, o.threads);
    std::unique_ptr<gale_ctx> ctx(new gale_ctx);
    int threads = o.threads;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)std::min<long>(n, GALE_THREADS_MAX) : 1;
    }
    ctx->pool.reset(new WorkerPool(threads));
    ctx->backend = backend_open(o, *ctx->pool);
    handle_add(ctx.get());
    return ctx.release();
}

void ctx_destroy(gale_ctx *ctx) {
    handle_remove(ctx);
    std::vector<gale_batch *> batches;
    {
        std::lock_guard<std::mutex> lock(ctx->mu);
        batches.assign(ctx->batches.begin(), ctx->batches.end());
    }
    for (gale_batch *b : batches) batch_cancel(b);  // all at once: none waits behind another
    for (gale_batch *b : batches) batch_destroy(b);
    ctx->backend->stop();
    ctx->backend.reset();
    ctx->pool.reset();
    delete ctx;
}

}  // namespace gale
