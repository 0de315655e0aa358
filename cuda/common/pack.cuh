// 2-bit packed bases with a 1-bit N mask: 16 bases per 32-bit code word and
// 32 per mask word. A base reads back as 0..3 (A C G T) or 4 (N), the codes
// of lib/sequence.h. Sequences start on a 32-base boundary.
#ifndef GALE_CUDA_PACK_CUH
#define GALE_CUDA_PACK_CUH

#include <cstdint>

namespace gale {

constexpr int64_t kPackAlign = 32;  // bases

__host__ __device__ __forceinline__ int64_t pack_round(int64_t n) { return (n + kPackAlign - 1) / kPackAlign * kPackAlign; }

// Packs n encoded bases (0..4) at base index `at` (a multiple of 32) of the arrays.
inline void pack_bases(const uint8_t *in, int64_t n, int64_t at, uint32_t *code, uint32_t *mask) {
    for (int64_t i = 0; i < n; i += 32) {
        uint32_t c0 = 0, c1 = 0, m = 0;
        int64_t k = n - i < 32 ? n - i : 32;
        for (int64_t j = 0; j < k; ++j) {
            uint32_t b = in[i + j];
            uint32_t isn = b >> 2;  // 4 -> 1
            m |= isn << j;
            uint32_t c = b & 3u & (isn - 1u);
            if (j < 16) c0 |= c << (2 * j);
            else c1 |= c << (2 * (j - 16));
        }
        code[(at + i) / 16] = c0;
        code[(at + i) / 16 + 1] = c1;
        mask[(at + i) / 32] = m;
    }
}

#if defined(__CUDACC__)
__device__ __forceinline__ uint8_t base_at(const uint32_t *__restrict__ code, const uint32_t *__restrict__ mask,
                                           int32_t i) {
    uint32_t n = (__ldg(mask + (i >> 5)) >> (i & 31)) & 1u;
    uint32_t c = (__ldg(code + (i >> 4)) >> ((i & 15) * 2)) & 3u;
    return n ? 4 : (uint8_t)c;
}
#endif

}  // namespace gale

#endif
