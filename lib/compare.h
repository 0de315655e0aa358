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

#include "hd.h"

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

// A C G T (either case) as 0..3; every other byte (N, IUPAC, 0) 4: a non-base (rule 2). The
// kernels look it up in a 256-byte table made from this (the CPU's static one, the GPU's in
// shared memory), so that the rule is written once.
GALE_HD uint8_t compare_base_code(uint8_t c) {
    const uint8_t l = (uint8_t)(c | 0x20);  // (only 'A' and 'a' give 'a', and so on)
    return l == 'a' ? 0 : l == 'c' ? 1 : l == 'g' ? 2 : l == 't' ? 3 : 4;
}

// Rule 3's complement for B' (B'[x] = compare_complement(B[lb - 1 - x])): A<->T, C<->G in
// either case (the case kept), every other byte as it is.
GALE_HD uint8_t compare_complement(uint8_t c) {
    switch (c) {
    case 'A': return 'T';
    case 'T': return 'A';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'a': return 't';
    case 't': return 'a';
    case 'c': return 'g';
    case 'g': return 'c';
    default: return c;
    }
}

// One strand's extension rule (doc/compare.md, rules 5 and 6), shared by the CPU kernel
// (lib/cpu/compare.cpp) and the GPU's (cuda/compare.cu): A against s (B, or B's reverse
// complement, ls bytes), code a compare_base_code table.
struct CompareStrand {
    const uint8_t *a, *s;
    uint64_t la, ls;
    const uint8_t *code;
    int k;
    int64_t match, mismatch, xdrop;
    uint64_t min_length;
    uint32_t min_identity;
    char strand;

    // The extension of the hit (i, j) on a diagonal whose `covered` is `covered` (<= i):
    // returns the new `covered`, and the fragment in *f.
    GALE_HD uint64_t extend(uint64_t i, uint64_t j, uint64_t covered, CompareFragment *f) const {
        // rightward from i + k: a sequence's end or a byte 0 stops the search before that
        // position; otherwise the position is scored, and the search stops after it once
        // running < best - xdrop. `stop` is the end (exclusive) of the positions scored.
        int64_t run = 0, best_r = 0;
        uint32_t m = 0, best_mr = 0;
        uint64_t pa = i + k, pb = j + k, best_end = i + k;
        for (;;) {
            if (pa >= la || pb >= ls || a[pa] == 0 || s[pb] == 0) break;
            const uint8_t ca = code[a[pa]], cb = code[s[pb]];
            if (ca < 4 && ca == cb) {
                run += match;
                ++m;
            } else {
                run -= mismatch;
            }
            ++pa;
            ++pb;
            if (run > best_r) {  // the first position reaching the best
                best_r = run;
                best_end = pa;
                best_mr = m;
            }
            if (run < best_r - xdrop) break;
        }
        const uint64_t stop = pa;
        // leftward from i - 1, never below `covered` (nor below 0), same scoring
        run = 0;
        m = 0;
        int64_t best_l = 0;
        uint32_t best_ml = 0;
        uint64_t best_start = i;
        pa = i;
        pb = j;
        for (;;) {
            if (pa == 0 || pb == 0 || pa - 1 < covered) break;
            const uint8_t xa = a[pa - 1], xb = s[pb - 1];
            if (xa == 0 || xb == 0) break;
            const uint8_t ca = code[xa], cb = code[xb];
            if (ca < 4 && ca == cb) {
                run += match;
                ++m;
            } else {
                run -= mismatch;
            }
            --pa;
            --pb;
            if (run > best_l) {
                best_l = run;
                best_start = pa;
                best_ml = m;
            }
            if (run < best_l - xdrop) break;
        }
        f->a_start = best_start;
        f->b_start = best_start - i + j;
        f->length = best_end - best_start;
        f->score = best_l + (int64_t)k * match + best_r;
        f->matches = (uint32_t)k + best_ml + best_mr;
        f->strand = strand;
        return stop;
    }

    GALE_HD bool kept(const CompareFragment &f) const {
        return f.length >= min_length && 100 * (uint64_t)f.matches >= (uint64_t)min_identity * f.length;
    }
};

// Rule 7's order within a strand: by diagonal (a_start - b_start), then a_start (a
// diagonal's fragments have strictly increasing starts, so no two are equal).
inline bool compare_fragment_before(const CompareFragment &u, const CompareFragment &v) {
    const int64_t du = (int64_t)u.a_start - (int64_t)u.b_start, dv = (int64_t)v.a_start - (int64_t)v.b_start;
    return du != dv ? du < dv : u.a_start < v.a_start;
}

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

// The same on a GPU (the CUDA backend's: lib/backend.h, compare_device; the kernels in
// cuda/compare.cu): one call of gale_compare, the same fragments in the same order.
// run returns false when the device could not take it (its memory ran out: gale_compare
// then computes on the CPU); throws gale::Error when the device failed otherwise.
struct CompareInput {
    const uint8_t *a;
    uint64_t la;
    const uint8_t *b;
    uint64_t lb;
    const CompareParams *params;
    uint64_t chunk_words, chunk_hits;  // B's positions a window, a run's hits at most (as the CPU's)
};

}  // namespace gale

#endif
