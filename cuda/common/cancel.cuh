// Prompt cancellation of the GPU kernels (gale_cancel): one word per device entry in
// pinned host memory mapped into the device (Device::cancel_host / cancel_dev,
// common/device.cuh; taken by device_open), which the host raises and the kernels poll.
//
// Host side. The core's CUDA backend (lib/backend_cuda.cpp) clears the word when a
// device entry starts a part of a batch and raises it (device_cancel, cuda/device.cu)
// when that batch is cancelled while the part runs: a plain store to host memory, so
// gale_cancel neither waits nor calls into the CUDA runtime. The chunk pipeline
// (common/pipeline.cuh) then launches nothing more, collects what is in flight and
// leaves the tasks whose kernels stopped without a result (never rescued, never
// collected): the core reports them cancelled (lib/kind.h, kResultDone).
//
// Device side. A group of threads (common/group.cuh) keeps a CancelPoll across the
// tasks it takes. It counts the work it has done (cells, plus a fixed amount per
// step and per task fetched) and every kCancelPollWork of it, thread 0 reads the word
// (one PCIe read, a few microseconds, for some milliseconds of the group's work) and
// broadcasts it to the group, so that every thread of the group takes the same
// branch. Once it has seen the word raised, the group computes nothing more: the task
// in hand ends with the kind's "cancelled" status, and each task it takes after that
// too, at once. Every call of stop() must be made by the whole group with the same
// work (it synchronises the group), where the group is converged: after a reduction,
// or right after a task is fetched.
//
// This header compiles on the host too (tests/unit/wfa_core_host.cpp runs the
// wavefront kernel's code with a one-thread group: word nullptr, never raised).
#ifndef GALE_CUDA_CANCEL_CUH
#define GALE_CUDA_CANCEL_CUH

#include <cstdint>

#if defined(__CUDACC__)
#define GALE_CANCEL_DEV __device__ __forceinline__
#else
#define GALE_CANCEL_DEV inline
#endif

namespace gale {
namespace cuda {

// Work between two reads of the word: about 1-5 ms of a warp's cells in both kinds
// (X-drop and wavefront), so that the reads cost nothing measurable while a cancel stops
// the kernels well within gale.h's 100 ms.
constexpr int32_t kCancelPollWork = 1 << 17;
// The work a step and a task fetch count for besides their cells, so that narrow
// bands and tiny tasks poll too.
constexpr int32_t kCancelStepWork = 32;
constexpr int32_t kCancelFetchWork = 256;

struct CancelPoll {
    const int *word = nullptr;  // the device pointer of the mapped word; nullptr: never raised
    int32_t left = kCancelPollWork;
    bool hit = false;           // the word was seen raised (the same on every thread of the group)

    // Counts `work` and, when it is time, reads the word. True once the batch is cancelled.
    template <class G>
    GALE_CANCEL_DEV bool stop(G &g, int32_t work) {
        if (hit) return true;
        left -= work;
        if (left > 0) return false;
        left = kCancelPollWork;
        int32_t raised = 0;
        if (g.tid() == 0 && word) raised = *(const volatile int *)word;
        hit = g.bcast(raised) != 0;
        return hit;
    }
};

}  // namespace cuda
}  // namespace gale

#endif
