#include "sequence.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gale {

namespace {

struct Table {
    uint8_t code[256];
    Table() {
        for (int i = 0; i < 256; ++i) code[i] = kBaseInvalid;
        const char *n = "NRYSWKMBDHV";
        for (const char *c = n; *c; ++c) {
            code[(unsigned char)*c] = 4;
            code[(unsigned char)(*c - 'A' + 'a')] = 4;
        }
        const char *acgtu = "ACGTU";
        const uint8_t v[] = {0, 1, 2, 3, 3};
        for (int i = 0; i < 5; ++i) {
            code[(unsigned char)acgtu[i]] = v[i];
            code[(unsigned char)(acgtu[i] - 'A' + 'a')] = v[i];
        }
    }
};

const Table table;

// GALE_N_BYTES: A C G T N as in Table, then every other byte Table accepts, in this order.
struct ByteTable {
    uint8_t code[256];
    ByteTable() {
        for (int i = 0; i < 256; ++i) code[i] = kBaseInvalid;
        const char *order = "ACGTNURYSWKMBDHVacgtunryswkmbdhv";
        for (int i = 0; order[i]; ++i) code[(unsigned char)order[i]] = (uint8_t)i;
        static_assert(sizeof "ACGTNURYSWKMBDHVacgtunryswkmbdhv" - 1 == kByteCodes, "one code per valid byte");
    }
};

const ByteTable byte_table;

}  // namespace

int64_t encode_bytes(const char *in, int64_t n, uint8_t *out) {
    for (int64_t i = 0; i < n; ++i) {
        const uint8_t c = byte_table.code[(unsigned char)in[i]];
        if (c == kBaseInvalid) return i;
        out[i] = c;
    }
    return -1;
}

uint8_t encode_base(unsigned char c) { return table.code[c]; }

int64_t encode_bases(const char *in, int64_t n, uint8_t *out) {
    // Branch-free pass (valid codes are < 0x80, kBaseInvalid has the top bit set),
    // then a search only when something was invalid.
    uint8_t any = 0;
    int64_t i = 0;
#if defined(__SSE2__)
    // 16 bases at a time while they are all A, C, G or T (either case), the
    // common case: their codes 0, 1, 2, 3 are ((c >> 1) & 3) ^ ((c >> 2) & 1).
    // A block with anything else goes through the table below.
    const __m128i fold = _mm_set1_epi8((char)0xDF), three = _mm_set1_epi8(3), one = _mm_set1_epi8(1);
    for (; i + 16 <= n; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(in + i));
        const __m128i u = _mm_and_si128(x, fold);
        const __m128i ac = _mm_or_si128(_mm_cmpeq_epi8(u, _mm_set1_epi8('A')), _mm_cmpeq_epi8(u, _mm_set1_epi8('C')));
        const __m128i gt = _mm_or_si128(_mm_cmpeq_epi8(u, _mm_set1_epi8('G')), _mm_cmpeq_epi8(u, _mm_set1_epi8('T')));
        const __m128i ok = _mm_or_si128(ac, gt);
        if (_mm_movemask_epi8(ok) != 0xFFFF) {
            for (int j = 0; j < 16; ++j) {
                uint8_t c = table.code[(unsigned char)in[i + j]];
                out[i + j] = c;
                any |= c;
            }
            continue;
        }
        // 16-bit shifts: the bits a byte takes from its neighbour are masked off.
        const __m128i code =
            _mm_xor_si128(_mm_and_si128(_mm_srli_epi16(x, 1), three), _mm_and_si128(_mm_srli_epi16(x, 2), one));
        _mm_storeu_si128((__m128i *)(out + i), code);
    }
#endif
    for (; i < n; ++i) {
        uint8_t c = table.code[(unsigned char)in[i]];
        out[i] = c;
        any |= c;
    }
    if (!(any & 0x80)) return -1;
    for (int64_t j = 0; j < n; ++j)
        if (out[j] == kBaseInvalid) return j;
    return -1;
}

}  // namespace gale
