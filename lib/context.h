// Context and batch internals. The C API (lib/api.cpp) is the only caller.
#ifndef GALE_CONTEXT_H
#define GALE_CONTEXT_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gale.h"
#include "arena.h"
#include "sequence.h"
#include "wfa.h"
#include "xdrop.h"
#include "gale_config.h"

namespace gale {

namespace cuda { class Device; }

// A fixed set of CPU threads running posted jobs in FIFO order. Jobs must not throw.
class WorkerPool {
public:
    explicit WorkerPool(int threads);
    ~WorkerPool();
    void post(std::function<void()> job);
    int size() const { return (int)threads_.size(); }

private:
    void loop();
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

enum class BatchState { Open, Running, Done, Canceled, Failed };

}  // namespace gale

struct gale_batch {
    gale_ctx *ctx = nullptr;
    int kind = 0;
    gale::XdropParams params;              // GALE_XDROP
    gale::WfaParams wfa;                   // GALE_WFA, GALE_EDIT

    mutable std::mutex mu;
    std::condition_variable cv;
    gale::BatchState state = gale::BatchState::Open;
    gale_status fail_status = GALE_OK;
    std::string fail_message;

    gale::Arena arena;                     // encoded bases of every task
    gale::ResultArena var;                 // variable-size results (CIGARs)
    std::vector<gale::PairTask> tasks;
    std::vector<gale::XdropResult> results;     // GALE_XDROP
    std::vector<gale::WfaResult> wfa_results;   // GALE_WFA, GALE_EDIT

    bool is_wfa() const { return kind == GALE_WFA || kind == GALE_EDIT; }

    // Scheduling (valid while Running)
    std::atomic<bool> cancel{false};
    std::atomic<size_t> next{0};
    int pending = 0;                       // parts still running; guarded by mu
    std::atomic<uint64_t> kernel_ns{0};    // GPU kernel time of the run
    std::chrono::steady_clock::time_point t_submit;
    gale_stats stats{};
};

namespace gale { void schedule(gale_batch *b); }

struct gale_ctx {
    int backend = GALE_BACKEND_CPU;
    int device = 0;
    std::unique_ptr<gale::WorkerPool> pool;

    gale::cuda::Device *gpu = nullptr;
    std::thread gpu_thread;                // runs GPU batches one after the other
    std::mutex gpu_mu;
    std::condition_variable gpu_cv;
    std::deque<gale_batch *> gpu_queue;
    bool gpu_stop = false;

    std::mutex mu;
    std::set<gale_batch *> batches;        // every live batch of this context
};

namespace gale {

// Handle registry: lets the API tell live handles from NULL, destroyed or foreign ones.
void handle_add(const void *h);
void handle_remove(const void *h);
bool handle_live(const void *h);

gale_ctx *ctx_create(const gale_ctx_opts &opts);
void ctx_destroy(gale_ctx *ctx);

gale_batch *batch_create(gale_ctx *ctx, int kind);
void batch_destroy(gale_batch *b);          // cancels and waits first
void batch_reset(gale_batch *b);
void batch_set(gale_batch *b, int param, int64_t value);
int64_t batch_get(const gale_batch *b, int param);
void batch_add(gale_batch *b, const gale_task &t);
size_t batch_count(const gale_batch *b);
void batch_submit(gale_batch *b);
gale_status batch_poll(gale_batch *b, int timeout_ms);
void batch_cancel(gale_batch *b);
void batch_result(const gale_batch *b, size_t i, gale_result *out);
void batch_cigar(const gale_batch *b, size_t i, const uint32_t **cigar, size_t *n_ops);
void batch_stats(const gale_batch *b, gale_stats *out);

}  // namespace gale

#endif
