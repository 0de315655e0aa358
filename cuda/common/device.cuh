// The CUDA side of a context: one device, its memory pool, streams and pinned
// staging buffers (cuda/device.cu creates it, the kernels' dispatchers use it).
#ifndef GALE_CUDA_DEVICE_CUH
#define GALE_CUDA_DEVICE_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cancel.cuh"
#include "cuda_backend.h"
#include "errors.h"
#include "fault.cuh"

// A failed CUDA call throws cuda::DeviceFault (lib/cuda_backend.h): GALE_E_NOMEM when
// memory ran out, else GALE_E_DEVICE, its message naming the call and the error.
#define GALE_CUDA_CHECK(call)                                                                              \
    do {                                                                                                   \
        const cudaError_t e_ = (call);                                                                     \
        if (e_ != cudaSuccess) ::gale::cuda::cuda_fail(e_, #call, __FILE__, __LINE__, nullptr);            \
    } while (0)

// The same for a call at a fault point (common/fault.cuh) of Device *dev: when the
// context's plan says so, the call is not made and the injected error is its result.
#define GALE_CUDA_AT(dev, point, call)                                                                     \
    do {                                                                                                   \
        ::gale::cuda::FaultPlan *const f_ = (dev)->fault.get();                                            \
        cudaError_t e_ = f_ ? f_->hit(point, (dev)->index) : cudaSuccess;                                  \
        const bool injected_ = e_ != cudaSuccess;                                                          \
        if (!injected_) e_ = (call);                                                                       \
        if (e_ != cudaSuccess) ::gale::cuda::cuda_fail(e_, #call, __FILE__, __LINE__, injected_ ? f_ : nullptr); \
    } while (0)

namespace gale {
namespace cuda {

// Throws the DeviceFault of a failed call (GALE_CUDA_CHECK, GALE_CUDA_AT); `injected`:
// the plan that made it fail, named in the message. A real error is also cleared from
// the thread's last-error state (cudaGetLastError), where it would otherwise fail the
// next launch's check long after it was handled.
[[noreturn]] void cuda_fail(cudaError_t e, const char *call, const char *file, int line, const FaultPlan *injected);

constexpr int kSlots = 2;  // double buffering: one chunk computes while the next is packed and copied
constexpr int kSlotCounters = 16;  // ints of device memory per slot, cleared before each chunk

// One chunk's place in the pool: staging for its inputs and outputs (dev, with a
// pinned mirror that grows to what the chunks use: host_mirror), counters for its
// kernels, its stream and the events around its kernels, and the slot's half of the
// pool's work memory.
struct Slot {
    char *dev = nullptr;   // device part of the pool
    size_t bytes = 0;      // of dev: what a chunk may stage
    char *host = nullptr;  // pinned mirror of dev's first host_bytes (nullptr until a chunk needs it)
    size_t host_bytes = 0;
    int *counters = nullptr;  // kSlotCounters ints: work queues and overflow list lengths
    char *work = nullptr;     // what the kinds' kernels keep per task or per group (WorkArea)
    size_t work_bytes = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
};

class Device {
public:
    int index = 0;                 // the CUDA device; a context may open one twice
    cudaDeviceProp prop{};
    char *pool = nullptr;          // the one allocation of this entry of the context
    Slot slots[kSlots];
    // The cancel word of this entry (common/cancel.cuh): pinned host memory mapped into
    // the device; the host writes cancel_host (device_cancel), the kernels read it through
    // cancel_dev, with its mirror in the pool (cleared at each part: device_cancel_clear).
    int *cancel_host = nullptr;
    CancelWord cancel_dev;
    std::shared_ptr<FaultPlan> fault;  // GALE_FAULT_INJECT's plan (testing only); null: none
    std::string lost;              // why the device is lost (a sticky error); empty while it works
};

// A fault point with no CUDA call of its own (a chunk's launch, before its kernels):
// throws the injected error, if the plan has one for this call.
inline void fault_point(Device *dev, FaultPoint p, const char *what) {
    FaultPlan *const f = dev->fault.get();
    const cudaError_t e = f ? f->hit(p, dev->index) : cudaSuccess;
    if (e != cudaSuccess) cuda_fail(e, what, __FILE__, __LINE__, f);
}

// The pool's two-phase memory query, as CUB's temp storage: a kind first states how
// much work memory one slot's kernels need for a run (GpuKind::work_bytes: from its
// parameters and the device, per task or per group of threads; SIZE_MAX when every
// byte helps, as for the wavefront units), then takes it here and sizes its units
// from what it got. The pool is not carved in any kind's shape: the work memory is
// what the slots' staging leaves, and a kind that asks for less leaves the rest
// unused for its run.
struct WorkArea {
    char *ptr;
    size_t bytes;
};
inline WorkArea slot_work(const Device *dev, int slot, size_t want) {
    const Slot &s = dev->slots[slot];
    return WorkArea{s.work, std::min(want, s.work_bytes)};
}

// The pinned mirror of a slot, grown to hold `need` bytes before a chunk is packed
// into it. Pinned memory is slow to take (page-locking) and counts in the process's
// resident memory, so a context takes none until its first chunk, and then what its
// chunks use, grown by doubling (from 1 MiB) so that a context that keeps running
// batches grows it a few times at most; never beyond the device staging. Called only
// for a slot with nothing in flight (the pipeline collects a slot before reusing it).
// When the allocation fails (DeviceFault, memory) the slot is left without a mirror:
// the pipeline hands that chunk to the CPU, and the next chunk asks again.
inline void host_mirror(Device *dev, Slot &s, size_t need) {
    if (need <= s.host_bytes) return;
    size_t want = std::max<size_t>(s.host_bytes * 2, (size_t)1 << 20);
    want = std::min(std::max(want, need), s.bytes);
    if (s.host) {
        cudaFreeHost(s.host);
        s.host = nullptr;
        s.host_bytes = 0;
    }
    char *p = nullptr;
    GALE_CUDA_AT(dev, kFaultHost, cudaMallocHost(&p, want));
    s.host = p;
    s.host_bytes = want;
}

// The blocks of `threads` that cover n threads of a one-dimensional launch.
inline unsigned blocks_of(uint64_t n, unsigned threads) { return (unsigned)((n + threads - 1) / threads); }

// A device buffer outside the pool, for the kinds that take their memory per call
// (LASTZ's seeding, gale compare): it grows, its contents not kept; a cudaMalloc that
// fails throws DeviceFault (memory), at the fault point kFaultAlloc.
struct DevBuf {
    void *p = nullptr;
    size_t bytes = 0;
    void reserve(Device *dev, size_t want) {
        if (want <= bytes) return;
        if (p) cudaFree(p);
        p = nullptr;
        bytes = 0;
        GALE_CUDA_AT(dev, kFaultAlloc, cudaMalloc(&p, want));
        bytes = want;
    }
    void release() noexcept {
        if (p) cudaFree(p);
        p = nullptr;
        bytes = 0;
    }
    template <class T>
    T *as() const {
        return static_cast<T *>(p);
    }
};

// X-drop's DPX kernel (cuda/xdrop.cu), for dpx_in_use (cuda/device.cu).
const void *xdrop_dpx_kernel() noexcept;

// Kernel time of a run: the union of its chunks' kernel spans (start, stop in ms
// since a common event), since chunks on two streams may overlap.
inline uint64_t kernel_span_ns(std::vector<std::pair<float, float>> &spans) {
    std::sort(spans.begin(), spans.end());
    double total = 0, cur_a = -1, cur_b = -1;
    for (auto &sp : spans) {
        if (sp.first > cur_b) {
            if (cur_b > cur_a) total += cur_b - cur_a;
            cur_a = sp.first;
            cur_b = sp.second;
        } else {
            cur_b = std::max<double>(cur_b, sp.second);
        }
    }
    if (cur_b > cur_a) total += cur_b - cur_a;
    return (uint64_t)(total * 1e6);
}

}  // namespace cuda
}  // namespace gale

#endif
