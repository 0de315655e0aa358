// The CUDA side of a context: one device, its memory pool, streams and pinned
// staging buffers (cuda/device.cu creates it, the kernels' dispatchers use it).
#ifndef GALE_CUDA_DEVICE_CUH
#define GALE_CUDA_DEVICE_CUH

#include <cuda_runtime.h>

#include <cstdint>

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

}  // namespace cuda
}  // namespace gale

#endif
