// Contexts, the CPU worker pool, the GPU dispatcher and the scheduling of batches.
#include "context.h"

#include <unistd.h>

#include <algorithm>
#include <unordered_set>

#include "errors.h"
#include "gale_config.h"
#if GALE_HAVE_CUDA
#include "cuda_backend.h"
#endif

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
    threads_.reserve(threads);
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
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

// ---- batch completion -----------------------------------------------------------

namespace {

// Records a failure of part of a batch (the first one wins).
void batch_fail(gale_batch *b, gale_status st, const std::string &msg) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->fail_status == GALE_OK) {
        b->fail_status = st;
        b->fail_message = msg;
    }
}

// One part of a running batch has finished; the last one completes the batch.
void part_done(gale_batch *b) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (--b->pending > 0) return;
    gale_stats &s = b->stats;
    s = gale_stats{};
    s.size = sizeof(gale_stats);
    s.tasks = b->tasks.size();
    auto count = [&s](const auto &results) {
        for (const auto &r : results) {
            s.cells += r.cells;
            s.rescued += (r.flags & GALE_RF_RESCUED) ? 1 : 0;
        }
    };
    count(b->results);
    count(b->wfa_results);
    s.kernel_ns = b->kernel_ns.load();
    s.elapsed_ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - b->t_submit).count();
    if (b->fail_status != GALE_OK) b->state = BatchState::Failed;
    else if (b->cancel.load()) b->state = BatchState::Canceled;
    else b->state = BatchState::Done;
    b->cv.notify_all();
}

// Scratch of the CPU kernels, one per thread, kept between tasks and batches.
struct Workspace {
    std::vector<int32_t> xdrop;
    std::vector<uint32_t> cigar;
    WfaWorkspace *wfa = nullptr;
    ~Workspace() { wfa_workspace_free(wfa); }
};
thread_local Workspace tls_workspace;

// Computes tasks on the calling CPU thread; a failure is recorded on the batch.
void compute_tasks(gale_batch *b, const size_t *idx, size_t n, uint32_t flags) {
    try {
        for (size_t k = 0; k < n && !b->cancel.load(std::memory_order_relaxed); ++k) {
            size_t i = idx[k];
            if (b->is_wfa()) {
                WfaResult &r = b->wfa_results[i];
                wfa_task_cpu(b->tasks[i], b->wfa, r, tls_workspace.cigar, tls_workspace.wfa);
                r.cigar = b->var.put(tls_workspace.cigar.data(), tls_workspace.cigar.size());
                r.flags |= flags;
            } else {
                xdrop_task_cpu(b->tasks[i], b->params, b->results[i], tls_workspace.xdrop);
                b->results[i].flags |= flags;
            }
        }
    } catch (const Error &e) {
        batch_fail(b, e.status, e.message);
    } catch (const std::bad_alloc &) {
        batch_fail(b, GALE_E_NOMEM, "out of host memory in a CPU worker");
    } catch (...) {
        batch_fail(b, GALE_E_INTERNAL, "unexpected exception in a CPU worker");
    }
}

// A CPU worker: takes tasks off the batch's shared counter until none is left.
void cpu_worker(gale_batch *b) {
    const size_t n = b->tasks.size();
    for (;;) {
        if (b->cancel.load(std::memory_order_relaxed)) break;
        size_t i = b->next.fetch_add(1, std::memory_order_relaxed);
        if (i >= n) break;
        compute_tasks(b, &i, 1, 0);
    }
    part_done(b);
}

#if GALE_HAVE_CUDA
void gpu_run(gale_ctx *ctx, gale_batch *b) {
    if (!b->cancel.load()) {
        // Tasks the GPU cannot take are computed by the pool while the GPU goes on.
        // A list is shared by up to one job per worker, each taking the next task, so
        // that one long list (a chunk the GPU cannot take) is not left to one thread.
        auto rescue = [ctx, b](std::vector<size_t> &&idx) {
            struct List {
                std::vector<size_t> idx;
                std::atomic<size_t> next{0};
            };
            auto list = std::make_shared<List>();
            list->idx = std::move(idx);
            const int jobs = (int)std::min<size_t>((size_t)ctx->pool->size(), list->idx.size());
            if (jobs == 0) return;
            {
                std::lock_guard<std::mutex> lock(b->mu);
                b->pending += jobs;
            }
            int posted = 0;
            try {
                for (; posted < jobs; ++posted)
                    ctx->pool->post([b, list] {
                        for (size_t i; (i = list->next.fetch_add(1)) < list->idx.size();)
                            compute_tasks(b, &list->idx[i], 1, GALE_RF_RESCUED);
                        part_done(b);
                    });
            } catch (...) {  // the jobs posted compute the whole list; the batch fails anyway
                batch_fail(b, GALE_E_NOMEM, "out of host memory while handing tasks to the CPU");
                std::lock_guard<std::mutex> lock(b->mu);
                b->pending -= jobs - posted;
                throw;
            }
        };
        cuda::GpuJob job;
        job.pack_threads = ctx->pool->size();
        job.tasks = b->tasks.data();
        job.n = b->tasks.size();
        job.params = b->is_wfa() ? (const void *)&b->wfa : (const void *)&b->params;
        job.results = b->is_wfa() ? (void *)b->wfa_results.data() : (void *)b->results.data();
        job.var = &b->var;
        job.cancel = &b->cancel;
        job.rescue = rescue;
        try {
            (b->is_wfa() ? cuda::kWfaGpu : cuda::kXdropGpu).run(ctx->gpu, job);
        } catch (const Error &e) {
            batch_fail(b, e.status, e.message);
        } catch (const std::bad_alloc &) {
            batch_fail(b, GALE_E_NOMEM, "out of host memory in the GPU dispatcher");
        } catch (...) {
            batch_fail(b, GALE_E_INTERNAL, "unexpected exception in the GPU dispatcher");
        }
        b->kernel_ns.store(job.kernel_ns);
    }
    part_done(b);
}

void gpu_loop(gale_ctx *ctx) {
    for (;;) {
        gale_batch *b;
        {
            std::unique_lock<std::mutex> lock(ctx->gpu_mu);
            ctx->gpu_cv.wait(lock, [ctx] { return ctx->gpu_stop || !ctx->gpu_queue.empty(); });
            if (ctx->gpu_queue.empty()) return;
            b = ctx->gpu_queue.front();
            ctx->gpu_queue.pop_front();
        }
        gpu_run(ctx, b);
    }
}
#endif

}  // namespace

// Starts a batch whose state was just set to Running.
void schedule(gale_batch *b) {
    gale_ctx *ctx = b->ctx;
    const size_t n = b->tasks.size();
#if GALE_HAVE_CUDA
    if (ctx->backend == GALE_BACKEND_CUDA && n > 0) {
        {
            std::lock_guard<std::mutex> lock(b->mu);
            b->pending = 1;
        }
        {
            std::lock_guard<std::mutex> lock(ctx->gpu_mu);
            ctx->gpu_queue.push_back(b);
        }
        ctx->gpu_cv.notify_one();
        return;
    }
#endif
    int workers = (int)std::min<size_t>((size_t)ctx->pool->size(), n);
    if (workers == 0) {  // empty batch: done at once
        {
            std::lock_guard<std::mutex> lock(b->mu);
            b->pending = 1;
        }
        part_done(b);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(b->mu);
        b->pending = workers;
    }
    int posted = 0;
    try {
        for (; posted < workers; ++posted) ctx->pool->post([b] { cpu_worker(b); });
    } catch (...) {  // out of memory while posting: the posted workers finish the batch, which fails
        batch_fail(b, GALE_E_NOMEM, "out of host memory while starting the batch");
        {
            std::lock_guard<std::mutex> lock(b->mu);
            b->pending -= workers - posted - 1;
        }
        part_done(b);
    }
}

// ---- contexts -----------------------------------------------------------------

gale_ctx *ctx_create(const gale_ctx_opts &o) {
    if (o.backend != GALE_BACKEND_AUTO && o.backend != GALE_BACKEND_CPU && o.backend != GALE_BACKEND_CUDA)
        fail(GALE_E_RANGE, "unknown backend %d", o.backend);
    if (o.threads < 0 || o.threads > 4096) fail(GALE_E_RANGE, "threads must be 0..4096 (got %d)", o.threads);
    if (o.device < 0) fail(GALE_E_RANGE, "device index must be >= 0 (got %d)", o.device);

    std::unique_ptr<gale_ctx> ctx(new gale_ctx);
    int threads = o.threads;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)std::min<long>(n, 4096) : 1;
    }
    ctx->backend = GALE_BACKEND_CPU;
    ctx->device = o.device;

    int ndev = 0;
#if GALE_HAVE_CUDA
    ndev = cuda::device_count();
#endif
    bool want_cuda = o.backend == GALE_BACKEND_CUDA || (o.backend == GALE_BACKEND_AUTO && ndev > 0);
    if (want_cuda) {
#if GALE_HAVE_CUDA
        if (ndev == 0) fail(GALE_E_UNSUPPORTED, "CUDA backend requested but no usable CUDA device was found");
        if (o.device >= ndev) fail(GALE_E_RANGE, "CUDA device %d requested but only %d present", o.device, ndev);
        ctx->gpu = cuda::device_open(o.device, o.device_memory);
        ctx->backend = GALE_BACKEND_CUDA;
#else
        fail(GALE_E_UNSUPPORTED, "CUDA backend requested but this libgale was built without CUDA");
#endif
    }
    try {
        ctx->pool.reset(new WorkerPool(threads));
#if GALE_HAVE_CUDA
        if (ctx->gpu) {
            gale_ctx *raw = ctx.get();
            ctx->gpu_thread = std::thread([raw] { gpu_loop(raw); });
        }
#endif
    } catch (...) {
#if GALE_HAVE_CUDA
        if (ctx->gpu) cuda::device_close(ctx->gpu);
#endif
        throw;
    }
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
#if GALE_HAVE_CUDA
    if (ctx->gpu_thread.joinable()) {
        {
            std::lock_guard<std::mutex> lock(ctx->gpu_mu);
            ctx->gpu_stop = true;
        }
        ctx->gpu_cv.notify_all();
        ctx->gpu_thread.join();
    }
#endif
    ctx->pool.reset();
#if GALE_HAVE_CUDA
    if (ctx->gpu) cuda::device_close(ctx->gpu);
#endif
    delete ctx;
}

}  // namespace gale
