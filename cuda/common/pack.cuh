// 2-bit packed bases with a 1-bit N mask: 16 bases per 32-bit code word and
// 32 per mask word. A base reads back as 0..3 (A C G T) or 4 (N), the codes
// of lib/sequence.h. Sequences start on a 32-base boundary. (GALE_N_BYTES: one
// byte per base, below.)
#ifndef GALE_CUDA_PACK_CUH
#define GALE_CUDA_PACK_CUH

#include <cstdint>
#include <cstring>

namespace gale {

constexpr int64_t kPackAlign = 32;  // bases

// (Also compiled by the host compiler alone: tests/unit/wfa_core_host.cpp.)
#if defined(__CUDACC__)
#define GALE_PACK_HD __host__ __device__ __forceinline__
#else
#define GALE_PACK_HD inline
#endif
GALE_PACK_HD int64_t pack_round(int64_t n) { return (n + kPackAlign - 1) / kPackAlign * kPackAlign; }

// 8 encoded bases (bytes 0..4, little-endian in x) -> their 16 code bits (N packs as
// A, code 0) and 8 N bits.
inline uint32_t gather_codes8(uint64_t x) {
    uint64_t t = x & 0x0303030303030303ull;  // N (4) has low bits 00
    t = (t | (t >> 6)) & 0x000F000F000F000Full;
    t = (t | (t >> 12)) & 0x000000FF000000FFull;
    return (uint32_t)((t | (t >> 24)) & 0xFFFFu);
}
inline uint32_t gather_n8(uint64_t x) {
    uint64_t t = (x >> 2) & 0x0101010101010101ull;
    t = (t | (t >> 7)) & 0x0003000300030003ull;
    t = (t | (t >> 14)) & 0x0000000F0000000Full;
    return (uint32_t)((t | (t >> 28)) & 0xFFu);
}

// Packs n encoded bases (0..4) at base index `at` (a multiple of 32) of the arrays,
// eight bases per 64-bit word read. Packing is the dispatchers' one per-base host
// cost (hundreds of megabases per batch), on the critical path between two chunks:
// this is about 3x the speed of a loop over single bases (40 Mbases in 10 kbp
// sequences, one core, gcc -O3: 90-104 ms against 263-296 ms; the same words).
inline void pack_bases(const uint8_t *in, int64_t n, int64_t at, uint32_t *code, uint32_t *mask) {
    uint32_t *cw = code + at / 16, *mw = mask + at / 32;
    uint8_t tail[32];
    for (int64_t i = 0; i < n; i += 32) {
        const uint8_t *b = in + i;
        if (n - i < 32) {  // last, partial group: pad with A
            memset(tail, 0, sizeof tail);
            memcpy(tail, b, (size_t)(n - i));
            b = tail;
        }
        uint64_t x[4];
        memcpy(x, b, 32);
        *cw++ = gather_codes8(x[0]) | gather_codes8(x[1]) << 16;
        *cw++ = gather_codes8(x[2]) | gather_codes8(x[3]) << 16;
        *mw++ = gather_n8(x[0]) | gather_n8(x[1]) << 8 | gather_n8(x[2]) << 16 | gather_n8(x[3]) << 24;
    }
}

// Under GALE_N_BYTES a base's code is one of lib/sequence.h's kByteCodes, more than
// 2 bits and an N bit hold: a chunk then keeps one byte per base in its code array
// and has no mask (nullptr), and base_at reads the byte. Sizes of the two arrays
// for `bases` bases (a multiple of kPackAlign):
inline int64_t code_array_bytes(int64_t bases, bool bytes) { return bytes ? bases : bases / 4; }
inline int64_t mask_array_bytes(int64_t bases, bool bytes) { return bytes ? 0 : bases / 8; }
// pack_bases, or with mask == nullptr the codes as they are.
inline void store_bases(const uint8_t *in, int64_t n, int64_t at, uint32_t *code, uint32_t *mask) {
    if (!mask) {
        if (n > 0) memcpy(reinterpret_cast<uint8_t *>(code) + at, in, (size_t)n);  // an empty one may be NULL
        return;
    }
    pack_bases(in, n, at, code, mask);
}

#if defined(__CUDACC__)
__device__ __forceinline__ uint8_t base_at(const uint32_t *__restrict__ code, const uint32_t *__restrict__ mask,
                                           int32_t i) {
    if (!mask) return __ldg(reinterpret_cast<const uint8_t *>(code) + i);  // GALE_N_BYTES
    uint32_t n = (__ldg(mask + (i >> 5)) >> (i & 31)) & 1u;
    uint32_t c = (__ldg(code + (i >> 4)) >> ((i & 15) * 2)) & 3u;
    return n ? 4 : (uint8_t)c;
}
#endif

}  // namespace gale

#endif
