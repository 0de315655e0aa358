// The interface between the C++ core and the CUDA backend (cuda/*.cu). Only
// compiled in when GALE_HAVE_CUDA; no CUDA header leaks into lib/.
#ifndef GALE_CUDA_BACKEND_H
#define GALE_CUDA_BACKEND_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kind.h"  // kResultDone
#include "wfa.h"
#include "xdrop.h"

namespace gale {
namespace cuda {

// Number of usable devices; 0 when no driver or device (never throws).
int device_count() noexcept;

// One device of one context: its memory pool (allocated once), streams and
// pinned staging buffers. Errors are reported by throwing gale::Error.
class Device;

// The same index may be opened more than once (two entries of one context on one
// GPU): each Device has its own pool, streams and staging. budget_bytes 0: half the
// device's free memory, at most 8 GiB.
Device *device_open(int index, uint64_t budget_bytes);  // throws gale::Error
// The default budget of a device: half its free memory, at most 8 GiB (gale.h,
// gale_ctx_opts.device_memory). Throws gale::Error.
uint64_t device_default_budget(int index);
void device_close(Device *dev) noexcept;
// Raises (or clears) dev's cancel word (cuda/common/cancel.cuh): the kernels running on
// dev stop at their next poll, within milliseconds. A store to pinned host memory, no
// CUDA call: callable from any thread, at any time while dev is open.
void device_cancel(Device *dev, bool raised) noexcept;

// ---- the interface the core's CUDA backend (lib/backend_cuda.cpp) calls ----------
// One batch (or, on a context of several devices, one contiguous part of it) for
// one device. The kind's table entry (lib/kinds.cpp) names its GpuKind.
struct GpuJob {
    const PairTask *tasks;         // sequences encoded as in lib/sequence.h
    size_t n;
    const void *params;            // the kind's parameter struct (XdropParams, WfaParams)
    void *results;                 // n of the kind's result struct, written for every task not rescued
                                   // (the collect sets kResultDone in the flags of each it writes)
    ResultArena *var;              // the batch's variable-size results (CIGARs)
    // The batch's cancel flag. Once it is raised the run launches nothing more and
    // returns as soon as its chunks in flight are collected (their kernels stop at once:
    // the backend raises the device's cancel word too, device_cancel); a task it did
    // not finish is left without a result (lib/kind.h, kResultDone).
    const std::atomic<bool> *cancel;
    // Called (from the calling thread) with indices into tasks[0, n) the GPU cannot
    // take; the callee computes them on the CPU while the GPU goes on.
    std::function<void(std::vector<size_t> &&)> rescue;
    int pack_threads = 1;          // host threads that may pack and collect chunks
    uint64_t kernel_ns = 0;        // out: time in kernels
};

// A kind's GPU side. run() selects dev's device on the calling thread itself
// (each device of a context has its own thread), streams the job through dev's
// pool in chunks (common/pipeline.cuh) and returns when every task has a result or
// went to job.rescue. It takes its work memory through the pool's two-phase query
// (common/device.cuh, slot_work: the kind states what it wants per slot for these
// parameters, then sizes its units from what it got). Throws gale::Error.
struct GpuKind {
    void (*run)(Device *dev, GpuJob &job);
    // Loads the kind's kernels into dev (selected on the calling thread). CUDA loads a module lazily, at its first kernel's first use: for the WFA
    // kernels about 30 ms on an H100 (bench/RESULTS.md, "First batch"). Each device
    // entry's thread calls this once right after the context starts, so that a first
    // batch that comes later does not wait for it. Best effort: an error is cleared and
    // shows again, with its message, where the kernel is used.
    void (*preload)(Device *dev) noexcept;
};

extern const GpuKind kXdropGpu;   // cuda/xdrop.cu
extern const GpuKind kWfaGpu;     // cuda/wfa.cu (GALE_WFA and GALE_EDIT)

// True when a kernel that uses Hopper's DPX instructions natively runs on one of
// the devices present (GALE_FEATURE_DPX). Never throws.
bool dpx_in_use() noexcept;

}  // namespace cuda
}  // namespace gale

#endif
