// Device discovery and the memory pool of one device of a context: one cudaMalloc
// sized once, split into the two chunk slots' staging (their pinned mirrors grow
// with use: common/device.cuh, host_mirror) and their work memory, which each kind
// asks for through its query (common/device.cuh, slot_work).
#include <algorithm>

#include "common/device.cuh"
#include "cuda_backend.h"

namespace gale {
namespace cuda {

int device_count() noexcept {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky "no device / no driver" error
        return 0;
    }
    return n;
}

namespace {
void release(Device *d) noexcept {
    for (auto &s : d->slots) {
        if (s.host) cudaFreeHost(s.host);
        if (s.stream) cudaStreamDestroy(s.stream);
        if (s.start) cudaEventDestroy(s.start);
        if (s.stop) cudaEventDestroy(s.stop);
    }
    if (d->pool) cudaFree(d->pool);
    if (d->cancel_host) cudaFreeHost(d->cancel_host);
    delete d;
}
}  // namespace

uint64_t device_default_budget(int index) {
    GALE_CUDA_CHECK(cudaSetDevice(index));
    size_t free_b = 0, total_b = 0;
    GALE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return std::min<uint64_t>(free_b / 2, 8ull << 30);
}

Device *device_open(int index, uint64_t budget) {
    Device *d = new Device;
    try {
        d->index = index;
        GALE_CUDA_CHECK(cudaSetDevice(index));
        GALE_CUDA_CHECK(cudaGetDeviceProperties(&d->prop, index));
        size_t free_b = 0, total_b = 0;
        GALE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (budget == 0) budget = std::min<uint64_t>(free_b / 2, 8ull << 30);  // as device_default_budget
        if (budget < (1u << 20)) fail(GALE_E_RANGE, "device memory budget must be at least 1 MiB (got %llu bytes)",
                                      (unsigned long long)budget);
        if (budget > free_b)
            fail(GALE_E_NOMEM, "device memory budget of %llu bytes exceeds the %llu bytes free on device %d",
                 (unsigned long long)budget, (unsigned long long)free_b, index);
        // Staging takes at most three quarters, and at most 1 GiB a slot (the pinned
        // mirrors may grow as large, and cost host memory; more buys no overlap); the
        // rest is the slots' work memory, half each. [counters | slot 0 | slot 1 | work 0 | work 1]
        GALE_CUDA_CHECK(cudaMalloc(&d->pool, budget));
        const size_t align = 256, counters = 256;  // kSlots x kSlotCounters ints
        static_assert(kSlots * kSlotCounters * sizeof(int) <= counters, "slot counters");
        size_t slot_bytes = (budget - counters - budget / 4) / kSlots / align * align;
        slot_bytes = std::min<size_t>(slot_bytes, 1ull << 30);
        const size_t work_at = counters + kSlots * slot_bytes;
        const size_t work_bytes = (budget - work_at) / kSlots / align * align;
        for (int i = 0; i < kSlots; ++i) {
            Slot &s = d->slots[i];
            s.counters = reinterpret_cast<int *>(d->pool) + i * kSlotCounters;
            s.bytes = slot_bytes;
            s.dev = d->pool + counters + i * slot_bytes;
            s.work = d->pool + work_at + i * work_bytes;
            s.work_bytes = work_bytes;
            // (its pinned mirror is taken when a chunk first needs it: host_mirror)
            GALE_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
            GALE_CUDA_CHECK(cudaEventCreate(&s.start));
            GALE_CUDA_CHECK(cudaEventCreate(&s.stop));
        }
        // The cancel word (common/cancel.cuh): mapped, so the kernels read the host's
        // store without any CUDA call on the cancelling thread.
        GALE_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&d->cancel_host), sizeof(int), cudaHostAllocMapped));
        __atomic_store_n(d->cancel_host, 0, __ATOMIC_RELAXED);
        int *mapped = nullptr;
        GALE_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&mapped), d->cancel_host, 0));
        d->cancel_dev = mapped;
    } catch (...) {
        release(d);
        throw;
    }
    return d;
}

void device_cancel(Device *d, bool raised) noexcept {
    // A plain store (release: it follows the cancel flag's store): the kernels' next poll
    // reads it through the mapping; no CUDA call, from any thread.
    __atomic_store_n(d->cancel_host, raised ? 1 : 0, __ATOMIC_RELEASE);
}

void device_close(Device *d) noexcept {
    if (!d) return;
    cudaSetDevice(d->index);
    for (auto &s : d->slots)
        if (s.stream) cudaStreamSynchronize(s.stream);
    release(d);
}

// True when some device present has compute capability 9.0 or more and the library
// holds machine code of the X-drop kernel (its cell update is viaddmax) that runs
// there as sm_90 or later code: then DPX is native, not emulated. A device of
// compute capability 8.x would run the PTX with emulated DPX; one where the kernel
// cannot load at all counts as none. Leaves the calling thread's device as it was.
// Asked once per process (it initialises every device's context): the devices and
// the library do not change while it runs.
namespace {
bool probe_dpx() noexcept {
    const int n = device_count();
    int saved = -1;
    if (n == 0 || cudaGetDevice(&saved) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    bool native = false;
    for (int i = 0; i < n && !native; ++i) {
        int major = 0;
        if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, i) != cudaSuccess || major < 9) continue;
        cudaFuncAttributes a{};
        native = cudaSetDevice(i) == cudaSuccess && cudaFuncGetAttributes(&a, xdrop_dpx_kernel()) == cudaSuccess &&
                 a.binaryVersion >= 90;
    }
    cudaGetLastError();  // leave no sticky error from a device that could not load the kernel
    cudaSetDevice(saved);
    return native;
}
}  // namespace

bool dpx_in_use() noexcept {
    static const bool in_use = probe_dpx();  // thread-safe once (C++11 statics)
    return in_use;
}

}  // namespace cuda
}  // namespace gale
