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
// step and per task fetched) and every kCancelPollWork of it, thread 0 looks at the
// device's mirror of the word (CancelShared, in device memory: an L2 read) and
// broadcasts what it saw to the group, so that every thread of the group takes the
// same branch. Only one group of the whole device reads the host word itself (one
// PCIe read) per kCancelHostReadNs, and raises the mirror when it finds the word
// raised. Every group reading the host word at each poll cost the X-drop kernels 3.6x
// at X = 1000 on an H100 (bench/RESULTS.md, "The cancel word's reads"): about a
// thousand resident blocks, each polling every few tens of microseconds, queue their
// reads behind each other on the bus. Once a group has seen the word raised, it
// computes nothing more: the task in hand ends with the kind's "cancelled" status, and
// each task it takes after that too, at once. Every call of stop() must be made by the
// whole group with the same work (it synchronises the group), where the group is
// converged: after a reduction, or right after a task is fetched. The mirror is
// cleared when a part of a batch starts (device_cancel_clear, cuda/device.cu), before
// its first kernel.
//
// This header compiles on the host too (tests/unit/wfa_core_host.cpp runs the
// wavefront kernel's code with a one-thread group and a host word, no mirror).
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

// Work between two looks at the mirror: about 1-5 ms of a warp's cells in both kinds
// (X-drop and wavefront), so that they cost nothing measurable while a cancel stops
// the kernels well within gale.h's 100 ms.
constexpr int32_t kCancelPollWork = 1 << 17;
// The work a step and a task fetch count for besides their cells, so that narrow
// bands and tiny tasks poll too.
constexpr int32_t kCancelStepWork = 32;
constexpr int32_t kCancelFetchWork = 256;
// At most one read of the host word per device per this many nanoseconds (globaltimer).
constexpr unsigned long long kCancelHostReadNs = 50000;

// The device's mirror of the host word, in device memory (16 bytes of the pool).
struct CancelShared {
    int raised;                         // the host word was seen raised during this part
    int unused;
    unsigned long long last_read_ns;    // globaltimer of the last read of the host word
};

// What a kernel is given: the host word (mapped) and the device's mirror of it.
struct CancelWord {
    const int *host = nullptr;      // nullptr: never raised
    CancelShared *shared = nullptr; // nullptr: read the host word at every poll (the host test)
};

// Whether the word is raised, for thread 0 of a group at its poll.
GALE_CANCEL_DEV bool cancel_raised(const CancelWord &w) {
#if defined(__CUDA_ARCH__)
    if (w.shared) {
        CancelShared *sh = w.shared;
        if (*(volatile int *)&sh->raised) return true;
        unsigned long long now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        const unsigned long long last = *(volatile unsigned long long *)&sh->last_read_ns;
        if (now - last < kCancelHostReadNs || atomicCAS(&sh->last_read_ns, last, now) != last)
            return false;  // read recently, or another group reads it now
        if (*(const volatile int *)w.host == 0) return false;
        atomicExch(&sh->raised, 1);
        return true;
    }
#endif
    return *(const volatile int *)w.host != 0;
}

struct CancelPoll {
    CancelWord word;
    int32_t left = kCancelPollWork;
    bool hit = false;           // the word was seen raised (the same on every thread of the group)

    // Counts `work` and, when it is time, looks at the word. True once the batch is cancelled.
    template <class G>
    GALE_CANCEL_DEV bool stop(G &g, int32_t work) {
        if (hit) return true;
        left -= work;
        if (left > 0) return false;
        left = kCancelPollWork;
        int32_t raised = 0;
        if (g.tid() == 0 && word.host) raised = cancel_raised(word) ? 1 : 0;
        hit = g.bcast(raised) != 0;
        return hit;
    }
};

}  // namespace cuda
}  // namespace gale

#endif
