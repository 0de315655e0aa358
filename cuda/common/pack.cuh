// 2-bit packed bases with a 1-bit N mask: 16 bases per 32-bit code word and
// 32 per mask word. A base reads back as 0..3 (A C G T) or 4 (N), the codes
// of lib/sequence.h. Sequences start on a 32-base boundary.
#ifndef GALE_CUDA_PACK_CUH
#define GALE_CUDA_PACK_CUH

#include <cstdint>

namespace gale {

constexpr int64_t kPackAlign = 32;  // bases

// (Also compiled by the host compiler alone: tests/unit/wfa_core_host.cpp.)
#if defined(__CUDACC__)
#define GALE_PACK_HD __host__ __device__ __forceinline__
#else
#define GALE_PACK_HD inline
#endif
GALE_PACK_HD int64_t pack_round(int64_t n) { return (n + kPackAlign - 1) / kPackAlign * kPackAlign; }

// Packs n encoded bases (0..4) at base index `at` (a multiple of 32) of the arrays.
inline void pack_bases(const uint8_t *in, int64_t n, int64_t at, uint32_t *code, uint32_t *mask) {
    uint32_t *cw = code + at / 16, *mw = mask + at / 32;
    uint8_t tail[32];
    for (int64_t i = 0; i < n; i += 32) {
        const uint8_t *b = in + i;
        if (n - i < 32) {  // last, partial group: pad with A
            for (int64_t j = 0; j < 32; ++j) tail[j] = j < n - i ? b[j] : 0;
            b = tail;
        }
        uint32_t c0 = 0, c1 = 0, m = 0;
        for (int j = 0; j < 16; ++j) {
            c0 |= (uint32_t)(b[j] & 3u & ((b[j] >> 2) - 1u)) << (2 * j);
            c1 |= (uint32_t)(b[16 + j] & 3u & ((b[16 + j] >> 2) - 1u)) << (2 * j);
        }
        for (int j = 0; j < 32; ++j) m |= (uint32_t)(b[j] >> 2) << j;
        *cw++ = c0;
        *cw++ = c1;
        *mw++ = m;
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
