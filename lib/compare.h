// gale compare: GPUGECKO-style exhaustive seed-and-extend of two genomes (the CPU kernel
// lib/cpu/compare.cpp; the rules, which a GPU kernel must reproduce exactly, are in
// doc/compare.md and repeated where they are implemented).
//
// In short: every k-mer (k <= 32, A C G T in either case) of A equal to one of B (plus
// strand) or of B's reverse complement (minus strand) is a hit; per diagonal d = i - j,
// in increasing i, a hit not already passed by the diagonal's last rightward search is
// extended without gaps by X-drop both ways; fragments long and identical enough are kept.
#ifndef GALE_COMPARE_H
#define GALE_COMPARE_H

#include <cstdint>
#include <vector>

namespace gale {

struct CompareParams {
    int word = 32;               // k, 12..32
    int32_t match = 1;           // + a matching base pair
    int32_t mismatch = 1;        // - any other pair (a non-base included)
    int32_t xdrop = 10;          // stop when running < best - xdrop
    uint64_t min_length = 40;    // kept: length >= min_length
    uint32_t min_identity = 60;  // ... and 100 * matches >= min_identity * length
    uint64_t max_occ = 0;        // words of more than max_occ occurrences in A are skipped (0: none)
    bool plus = true, minus = true;
};

struct CompareFragment {
    uint64_t a_start, b_start, length;  // b_start: on B (+) or on B's reverse complement (-)
    int64_t score;
    uint32_t matches;
    char strand;  // '+' or '-'
};

// B's word positions taken at once (their A ranges held: 12 bytes each) and the most hits
// extended at once (16 bytes each; a single word with more hits in A is taken alone). The
// result never depends on them (doc/compare.md, "Memory"); GALE_COMPARE_CHUNK (a test hook,
// "WORDS,HITS") makes them small so that short tests cross many chunks.
constexpr uint64_t kCompareChunkWords = (uint64_t)1 << 22;
constexpr uint64_t kCompareChunkHits = (uint64_t)1 << 24;

// Every kept fragment of A (a[0..la)) against B (b[0..lb)), each shorter than 2^32 bytes,
// a byte 0 separating records: the + strand's then the - strand's, each by diagonal
// (a_start - b_start, ascending) then a_start. The same for any threads (>= 1) and chunks.
std::vector<CompareFragment> compare(const uint8_t *a, uint64_t la, const uint8_t *b, uint64_t lb,
                                     const CompareParams &p, int threads, uint64_t chunk_words = kCompareChunkWords,
                                     uint64_t chunk_hits = kCompareChunkHits);

}  // namespace gale

#endif
