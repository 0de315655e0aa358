// Context and batch internals. The C API (lib/api.cpp) is the only caller of the
// functions below; backends (lib/backend*.cpp) and lib/run.cpp read the structs.
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

#include "arena.h"
#include "backend.h"
#include "gale.h"
#include "kind.h"
#include "sequence.h"

namespace gale {

// Host memory a context keeps from its finished batches for the next ones (BlockCache).
constexpr size_t kBlockCacheBytes = (size_t)256 << 20;

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

// A sequence registered with a batch (gale_batch_add_sequence): encoded once.
struct SeqRef {
    const uint8_t *data;
    int64_t len;
};

// One device entry's contiguous part of a batch (gale_device_stats).
struct DevicePart {
    int device = 0;
    size_t first = 0, n = 0;
    uint64_t kernel_ns = 0, elapsed_ns = 0;  // written by the entry's thread when the part ends
    uint64_t cells = 0, rescued = 0;         // batch_part_done, once every part has ended
};

}  // namespace gale

struct gale_batch {
    gale_ctx *ctx = nullptr;
    const gale::KindDef *kind = nullptr;
    std::vector<int64_t> values;           // parameter values, in kind->params order
    alignas(16) unsigned char params[gale::kParamsBytes] = {};  // kind->configure(values)

    mutable std::mutex mu;
    std::condition_variable cv;
    gale::BatchState state = gale::BatchState::Open;
    gale_status fail_status = GALE_OK;
    std::string fail_message;

    gale::Arena arena;                     // encoded bases of inline sequences
    std::vector<gale::SeqRef> seqs;        // registered sequences, id i + 1
    std::vector<gale::PairTask> tasks;
    std::vector<uint64_t> results;         // tasks.size() results of kind->result_bytes each
    gale::ResultArena var;                 // variable-size results (CIGARs)

    void *result(size_t i) { return reinterpret_cast<char *>(results.data()) + i * kind->result_bytes; }
    const void *result(size_t i) const {
        return reinterpret_cast<const char *>(results.data()) + i * kind->result_bytes;
    }

    // Scheduling (valid while Running)
    std::atomic<bool> cancel{false};
    std::atomic<size_t> next{0};
    int pending = 0;                       // parts still running; guarded by mu
    std::atomic<uint64_t> kernel_ns{0};    // GPU kernel time of the run
    // The device parts of the run (gale_batch_device_stats): set by the CUDA backend
    // before it queues them, each part's own fields written only by its entry's thread,
    // tasks' cells and rescued counted at the end (batch_part_done).
    std::vector<gale::DevicePart> parts;
    std::chrono::steady_clock::time_point t_submit;
    gale_stats stats{};
    size_t canceled = 0;                   // Canceled: the tasks without a result (kResultDone); guarded by mu
};

struct gale_ctx {
    std::unique_ptr<gale::WorkerPool> pool;
    std::unique_ptr<gale::Backend> backend;
    // The memory of finished batches (inputs, CIGARs), kept for the next ones: at most
    // kBlockCacheBytes (gale.h, gale_ctx_create). ctx_destroy destroys the batches
    // first, so their arenas give their blocks back to a live cache.
    gale::BlockCache blocks{gale::kBlockCacheBytes};

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
// n tasks, each `stride` bytes after the last (a full gale_task each), all or none.
void batch_add_tasks(gale_batch *b, const gale_task *tasks, size_t n, size_t stride);
uint32_t batch_add_sequence(gale_batch *b, const char *seq, int64_t len);
void batch_add_group(gale_batch *b, const gale_group &g);
uint32_t batch_add_graph(gale_batch *b, const gale_graph &g);
size_t batch_count(const gale_batch *b);
void batch_submit(gale_batch *b);
gale_status batch_poll(gale_batch *b, int timeout_ms);
void batch_cancel(gale_batch *b);
void batch_results(const gale_batch *b, size_t first, size_t n, gale_result *out, size_t out_size);
void batch_cigar(const gale_batch *b, size_t i, const uint32_t **cigar, size_t *n_ops);
// gale_result_zdrop: *out's size is the caller's, at least sizeof(gale_zdrop_result).
void batch_result_zdrop(const gale_batch *b, size_t i, gale_zdrop_result *out);
void batch_stats(const gale_batch *b, gale_stats *out);
// Writes min(cap, parts) device parts to out, `stride` bytes apart (>= sizeof(gale_device_stats));
// returns the number of parts.
size_t batch_device_stats(const gale_batch *b, gale_device_stats *out, size_t cap, size_t stride);
void batch_poa_result(const gale_batch *b, size_t i, gale_poa_result *out);  // fills up to out->size

}  // namespace gale

#endif
