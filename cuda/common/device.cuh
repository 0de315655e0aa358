// The CUDA side of a context: one device, its memory pool, streams and pinned
// staging buffers (cuda/device.cu creates it, the kernels' dispatchers use it).
#ifndef GALE_CUDA_DEVICE_CUH
#define GALE_CUDA_DEVICE_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "errors.h"

#define GALE_CUDA_CHECK(call)                                                                              \
    do {                                                                                                   \
        cudaError_t e_ = (call);                                                                           \
        if (e_ != cudaSuccess)                                                                             \
            ::gale::fail(GALE_E_DEVICE, "CUDA error %s (%s) in %s at %s:%d", cudaGetErrorName(e_),         \
                         cudaGetErrorString(e_), #call, __FILE__, __LINE__);                               \
    } while (0)

namespace gale {
namespace cuda {

constexpr int kSlots = 2;  // double buffering: one chunk computes while the next is packed and copied

struct Slot {
    char *dev = nullptr;   // device part of the pool
    char *host = nullptr;  // pinned staging, same size
    size_t bytes = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
};

class Device {
public:
    int index = 0;
    cudaDeviceProp prop{};
    char *pool = nullptr;          // the one allocation of the context
    size_t pool_bytes = 0;
    Slot slots[kSlots];
    int32_t *scratch = nullptr;    // anti-diagonal buffers of the wide kernel
    size_t scratch_bytes = 0;
    int *counters = nullptr;       // 16 ints per slot: work queues and overflow list length
};

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
