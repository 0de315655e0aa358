// The interface between the C++ core and the CUDA backend (cuda/*.cu). Only
// compiled in when GALE_HAVE_CUDA; no CUDA header leaks into lib/.
#ifndef GALE_CUDA_BACKEND_H
#define GALE_CUDA_BACKEND_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "wfa.h"
#include "xdrop.h"

namespace gale {
namespace cuda {

// Number of usable devices; 0 when no driver or device (never throws).
int device_count() noexcept;

// One device of one context: its memory pool (allocated once), streams and
// pinned staging buffers. Errors are reported by throwing gale::Error.
class Device;

Device *device_open(int index, uint64_t budget_bytes);  // throws gale::Error
void device_close(Device *dev) noexcept;

// Everything the X-drop GPU run needs from a batch.
struct XdropJob {
    const XdropTask *tasks;        // sequences encoded as in lib/sequence.h
    size_t n;
    XdropParams params;
    XdropResult *results;          // n results, written for every task not rescued
    const std::atomic<bool> *cancel;
    // Called (from the GPU thread) with tasks the GPU cannot take; the callee
    // computes them on the CPU. Called as soon as they are known so that the
    // CPU works while the GPU goes on.
    std::function<void(std::vector<size_t> &&)> rescue;
    int pack_threads = 1;          // host threads that may pack chunks
    uint64_t kernel_ns = 0;        // out: time in kernels
};

// Runs a batch on the device, streaming it through the pool. Throws gale::Error.
void xdrop_run(Device *dev, XdropJob &job);

// Everything the wavefront GPU run needs from a batch (GALE_WFA, GALE_EDIT).
struct WfaJob {
    const PairTask *tasks;         // sequences encoded as in lib/sequence.h
    size_t n;
    WfaParams params;
    WfaResult *results;            // n results, written for every task not rescued
    ResultArena *var;              // where the CIGARs go
    const std::atomic<bool> *cancel;
    std::function<void(std::vector<size_t> &&)> rescue;  // as XdropJob::rescue
    int pack_threads = 1;
    uint64_t kernel_ns = 0;        // out: time in kernels
};

void wfa_run(Device *dev, WfaJob &job);

// ---- the interface the core's CUDA backend (lib/backend_cuda.cpp) calls ----------
// One batch (or, on a context of several devices, one contiguous part of it) for
// one device. The kind's table entry (lib/kinds.cpp) names its GpuKind.
struct GpuJob {
    const PairTask *tasks;         // sequences encoded as in lib/sequence.h
    size_t n;
    const void *params;            // the kind's parameter struct (XdropParams, WfaParams)
    void *results;                 // n of the kind's result struct, written for every task not rescued
    ResultArena *var;              // the batch's variable-size results (CIGARs)
    const std::atomic<bool> *cancel;
    // Called (from the calling thread) with indices into tasks[0, n) the GPU cannot
    // take; the callee computes them on the CPU while the GPU goes on.
    std::function<void(std::vector<size_t> &&)> rescue;
    int pack_threads = 1;          // host threads that may pack and collect chunks
    uint64_t kernel_ns = 0;        // out: time in kernels
};

// A kind's GPU side. run() selects dev's device on the calling thread itself
// (each device of a context has its own thread). Throws gale::Error.
struct GpuKind {
    const char *name;
    void (*run)(Device *dev, GpuJob &job);
};

extern const GpuKind kXdropGpu;   // cuda/xdrop.cu
extern const GpuKind kWfaGpu;     // cuda/wfa.cu (GALE_WFA and GALE_EDIT)

// True when a kernel that uses Hopper's DPX instructions natively runs on one of
// the devices present (GALE_FEATURE_DPX). Never throws.
bool dpx_in_use() noexcept;

}  // namespace cuda
}  // namespace gale

#endif
