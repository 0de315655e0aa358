// Device discovery and the per-context memory pool: one cudaMalloc sized once,
// split into the wide kernel's scratch and two chunk slots with pinned mirrors.
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
    delete d;
}
}  // namespace

Device *device_open(int index, uint64_t budget) {
    Device *d = new Device;
    try {
        d->index = index;
        GALE_CUDA_CHECK(cudaSetDevice(index));
        GALE_CUDA_CHECK(cudaGetDeviceProperties(&d->prop, index));
        size_t free_b = 0, total_b = 0;
        GALE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (budget == 0) budget = std::min<uint64_t>(free_b / 2, 8ull << 30);
        if (budget < (1u << 20)) fail(GALE_E_RANGE, "device memory budget must be at least 1 MiB (got %llu bytes)",
                                      (unsigned long long)budget);
        if (budget > free_b)
            fail(GALE_E_NOMEM, "device memory budget of %llu bytes exceeds the %llu bytes free on device %d",
                 (unsigned long long)budget, (unsigned long long)free_b, index);
        // A quarter for the wide kernel's anti-diagonals, the rest for two chunk slots.
        d->pool_bytes = budget;
        GALE_CUDA_CHECK(cudaMalloc(&d->pool, d->pool_bytes));
        const size_t align = 256, counters = 256;  // kSlots groups of 16 ints
        d->counters = reinterpret_cast<int *>(d->pool);
        d->scratch_bytes = (budget / 4) / align * align;
        d->scratch = reinterpret_cast<int32_t *>(d->pool + counters);
        size_t slot_bytes = (budget - counters - d->scratch_bytes) / kSlots / align * align;
        // Pinned mirrors cost host memory: more than 1 GiB per slot buys no overlap.
        slot_bytes = std::min<size_t>(slot_bytes, 1ull << 30);
        for (int i = 0; i < kSlots; ++i) {
            Slot &s = d->slots[i];
            s.bytes = slot_bytes;
            s.dev = d->pool + counters + d->scratch_bytes + i * slot_bytes;
            GALE_CUDA_CHECK(cudaMallocHost(&s.host, slot_bytes));
            GALE_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
            GALE_CUDA_CHECK(cudaEventCreate(&s.start));
            GALE_CUDA_CHECK(cudaEventCreate(&s.stop));
        }
    } catch (...) {
        release(d);
        throw;
    }
    return d;
}

void device_close(Device *d) noexcept {
    if (!d) return;
    cudaSetDevice(d->index);
    for (auto &s : d->slots)
        if (s.stream) cudaStreamSynchronize(s.stream);
    release(d);
}

}  // namespace cuda
}  // namespace gale
