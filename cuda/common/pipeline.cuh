// The chunk pipeline of every kind's GPU run: a batch streams through the device's
// slot ring (common/device.cuh) in chunks, so that while one slot's kernels run the
// host collects the slot before it and plans, packs and copies the next one. One
// copy of that loop, its streams, events and CPU rescue hand-off, for all kinds; a
// kind says only what its chunks are (ChunkFlow below).
#ifndef GALE_CUDA_PIPELINE_CUH
#define GALE_CUDA_PIPELINE_CUH

#include <algorithm>
#include <utility>
#include <vector>

#include "cuda_backend.h"
#include "device.cuh"

namespace gale {
namespace cuda {

// What the pipeline needs of a chunk; a kind's chunk type derives from it.
struct ChunkIO {
    std::vector<size_t> tasks;          // batch indices computed on the GPU
    size_t in_bytes = 0;                // slot bytes [0, in_bytes) go to the device before the kernels
    size_t out_at = 0, out_bytes = 0;   // slot bytes [out_at, out_at + out_bytes) come back after them
    bool busy = false;                  // launched, not collected yet
};

// A kind's chunks, as the pipeline drives them (Flow is duck-typed; Chunk derives
// from ChunkIO):
//   bool more()                  tasks are left to plan
//   bool plan(Chunk &, const Slot &, std::vector<size_t> &rescue)
//                                picks the next chunk's tasks for the slot; tasks that
//                                no chunk can take go to rescue; false: nothing to launch
//   void fill(Chunk &, char *host)   packs the chunk's inputs into the slot's staging
//   void launch(Chunk &, const Slot &)  enqueues its kernels on the slot's stream
//   void collect(Chunk &, const char *host, std::vector<size_t> &rescue)
//                                writes the results of a finished chunk; tasks the GPU
//                                could not finish go to rescue
// The rescue lists go to GpuJob::rescue at once, so that the CPU computes them while
// the GPU goes on.
// Cancellation (common/cancel.cuh): once the batch's cancel flag is raised the pipeline
// plans and launches nothing more (not even a chunk already packed) and collects the
// chunks in flight, whose kernels stop at their next poll of the device's cancel word.
// A kind's collect leaves a task its kernel stopped without a result (neither written
// nor rescued): the core reports it cancelled.
template <class Chunk>
class ChunkPipeline {
public:
    ChunkPipeline(Device *dev, GpuJob &job) : dev_(dev), job_(job) {
        GALE_CUDA_AT(dev_, kFaultAlloc, cudaEventCreate(&t0_));
        // Kernel spans are measured from here (kernel_span_ns).
        try {
            GALE_CUDA_AT(dev_, kFaultStream, cudaEventRecord(t0_, dev_->slots[0].stream));
        } catch (...) {
            cudaEventDestroy(t0_);
            throw;
        }
    }
    // A run that threw (a CUDA error, a chunk that failed its collect) may leave copies
    // in flight into the slots' staging: wait for them, so that the device's next batch
    // does not fill a slot that an old copy still writes.
    ~ChunkPipeline() {
        for (int i = 0; i < kSlots; ++i)
            if (chunks_[i].busy) cudaStreamSynchronize(dev_->slots[i].stream);
        cudaEventDestroy(t0_);
        cudaGetLastError();  // what failed here (a lost device) is no later call's
    }
    ChunkPipeline(const ChunkPipeline &) = delete;
    ChunkPipeline &operator=(const ChunkPipeline &) = delete;

    // Runs chunks until flow has no more tasks (or the batch is cancelled), then
    // collects every slot still in flight. May be called again with more work (a
    // second pass); the slot ring goes on where it stopped.
    template <class Flow>
    void run(Flow &flow) {
        while (flow.more() && !job_.cancel->load()) {
            Slot &s = dev_->slots[si_];
            Chunk &c = chunks_[si_];
            if (c.busy) collect(flow, si_);
            std::vector<size_t> rescue;
            const bool go = flow.plan(c, s, rescue);
            hand_off(rescue);
            if (!go) continue;
            try {
                host_mirror(dev_, s, std::max(c.in_bytes, c.out_at + c.out_bytes));
                flow.fill(c, s.host);  // the longest host step (up to tens of ms): look again after it
                if (job_.cancel->load()) break;
                GALE_CUDA_AT(dev_, kFaultStream,
                             cudaMemcpyAsync(s.dev, s.host, c.in_bytes, cudaMemcpyHostToDevice, s.stream));
                GALE_CUDA_AT(dev_, kFaultStream, cudaMemsetAsync(s.counters, 0, kSlotCounters * sizeof(int), s.stream));
                GALE_CUDA_AT(dev_, kFaultStream, cudaEventRecord(s.start, s.stream));
                fault_point(dev_, kFaultLaunch, "the kernel launches of a chunk");
                flow.launch(c, s);
                GALE_CUDA_AT(dev_, kFaultStream, cudaEventRecord(s.stop, s.stream));
                GALE_CUDA_AT(dev_, kFaultStream, cudaMemcpyAsync(s.host + c.out_at, s.dev + c.out_at, c.out_bytes,
                                                                  cudaMemcpyDeviceToHost, s.stream));
            } catch (const DeviceFault &f) {
                // Out of memory (pinned staging, or a kernel's module at its launch): the
                // chunk goes to the CPU, its slot idle again once what was queued of it
                // has run; the next chunk tries the GPU again. Anything else: settle
                // throws (a lost device) or the run fails with f.
                if (!device_settle(dev_, f)) throw;
                hand_off(c.tasks);
                continue;
            }
            c.busy = true;
            si_ = (si_ + 1) % kSlots;
        }
        for (int k = 0; k < kSlots; ++k) {
            const int i = (si_ + k) % kSlots;
            if (chunks_[i].busy) collect(flow, i);
        }
    }

    // Time in kernels so far (overlapping chunks counted once).
    uint64_t kernel_ns() { return kernel_span_ns(spans_); }

private:
    template <class Flow>
    void collect(Flow &flow, int i) {
        Chunk &c = chunks_[i];
        Slot &s = dev_->slots[i];
        try {
            GALE_CUDA_AT(dev_, kFaultStream, cudaStreamSynchronize(s.stream));
        } catch (const DeviceFault &f) {  // as in run: its results are not read, the CPU computes them
            if (!device_settle(dev_, f)) throw;
            c.busy = false;
            hand_off(c.tasks);
            return;
        }
        float a = 0, b = 0;
        GALE_CUDA_CHECK(cudaEventElapsedTime(&a, t0_, s.start));
        GALE_CUDA_CHECK(cudaEventElapsedTime(&b, t0_, s.stop));
        spans_.emplace_back(a, b);
        std::vector<size_t> rescue;
        job_.gpu_results = true;
        flow.collect(c, s.host, rescue);
        hand_off(rescue);
        c.busy = false;
    }
    void hand_off(std::vector<size_t> &rescue) {
        if (!rescue.empty()) job_.rescue(std::move(rescue));
    }

    Device *dev_;
    GpuJob &job_;
    cudaEvent_t t0_ = nullptr;
    Chunk chunks_[kSlots];
    int si_ = 0;
    std::vector<std::pair<float, float>> spans_;  // kernel start/stop (ms since t0) per chunk
};

}  // namespace cuda
}  // namespace gale

#endif
