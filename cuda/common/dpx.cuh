// Small wrappers over the Hopper DPX instructions. On sm_90 each is one
// instruction; on older GPUs the CUDA headers emulate them, and on the host
// these plain versions run, so code written with them is testable on a CPU.
#ifndef GALE_CUDA_DPX_CUH
#define GALE_CUDA_DPX_CUH

#include <cstdint>

namespace gale {
namespace dpx {

// max(a + b, c)
__host__ __device__ __forceinline__ int32_t add_max(int32_t a, int32_t b, int32_t c) {
#if defined(__CUDA_ARCH__)
    return __viaddmax_s32(a, b, c);
#else
    return a + b > c ? a + b : c;
#endif
}

// max(a, b, c)
__host__ __device__ __forceinline__ int32_t max3(int32_t a, int32_t b, int32_t c) {
#if defined(__CUDA_ARCH__)
    return __vimax3_s32(a, b, c);
#else
    int32_t m = a > b ? a : b;
    return m > c ? m : c;
#endif
}

}  // namespace dpx
}  // namespace gale

#endif
