// LASTZ 1.04.22's seeding and gap-free extension stages, as Debian's lastz runs them with
// its simple hit processor (`lastz T Q --nogapped`, and before its gapped stage): the CPU
// kernel lib/cpu/lastz_seed.cpp. doc/lastz-seed.md lists the rules it reproduces and
// where they are in LASTZ's sources; tests/cli/lastz_seed.sh compares it with the Debian
// binary.
//
// One call covers one target and one query strand (LASTZ's seed_hit_search): a table of
// the target's seed words, then the query's words in order, each hit extended along its
// diagonal unless an earlier extension on its hashed diagonal already passed it. The HSPs
// come out in the order LASTZ finds (and, with --nogapped, writes) them.
#ifndef GALE_LASTZ_SEED_H
#define GALE_LASTZ_SEED_H

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hd.h"

namespace gale {

struct YdropScoring;

// A spaced seed as LASTZ's parse_one_seed implements it (seeds.c): its pattern's 1s
// (match) and Ts (match or transition) as two bits and one bit of a packed word, gathered
// by masked shifts found greedily; the transition flips in the pattern's order from its
// right end.
struct LastzSeed {
    int length = 0, weight = 0;  // positions; the index's bits
    int parts = 0;
    int shift[64] = {};
    uint32_t mask[64] = {};
    std::vector<uint32_t> flips;  // one packed bit each
    bool halfweight = false;      // Ts and 0s only: one bit a base (its purine/pyrimidine bit)
    uint32_t resolve_mask = 0;    // an overweight seed's resolved bits, over the word's last 16 bases
};
// LASTZ's maxIndexBits (lastz.c's default; gale takes no --word): a seed heavier than this
// indexes its first bits only and resolves the rest against the bases at each hit.
constexpr int kLastzMaxIndexBits = 28;
// pattern: 1, 0 (or x, X: don't care), T (or t) and blanks, leading and trailing don't
// cares dropped (seeds.c's parse_one_seed). Returns false with *err set when LASTZ would
// refuse it.
bool lastz_seed_parse(const char *pattern, LastzSeed &seed, std::string *err);
// LASTZ's apply_seed: the seed's bits of the last `length` bases (two bits each, A C G T
// as 0 1 2 3, the newest in the lowest bits; a half-weight seed's one bit each, the low one).
inline uint32_t lastz_seed_apply(const LastzSeed &s, uint64_t word) {
    uint32_t packed = 0;
    for (int k = 0; k < s.parts; ++k) packed |= (uint32_t)(word >> s.shift[k]) & s.mask[k];
    return packed;
}

struct LastzSeedParams {
    int transitions = 1;      // --transition: seed hits with up to this many transitions (0, 1, 2)
    uint32_t step = 1;        // --step: the target's words whose end is a multiple of it
    int32_t xdrop = 910;      // --xdrop
    int32_t hsp_thresh = 3000;  // --hspthresh (a score)
    bool entropy = true;      // --entropy: scores up to 3 x hsp_thresh scaled by the match's entropy
};

struct LastzHsp {
    uint32_t pos1, pos2, length;  // 0-based starts on the target and the query strand
    int32_t score;
};

// The target's seed words (pos_table.c: LASTZ keeps, per packed word, a list of the
// window ends, newest first). Here the lists laid out one after another (a counting sort
// by word), each still highest first, so that a lookup yields LASTZ's order; words of more
// than 24 bits are bucketed by their low 24 bits, each bucket sorted by word, stably.
struct LastzWordTable {
    int bucket_bits = 0;  // lastz_table_bucket_bits (0: the target has no word)
    std::vector<uint32_t> start;  // bucket b: entries [start[b], start[b + 1])
    std::vector<uint32_t> pos;    // window ends
    std::vector<uint32_t> word;   // their words (only for words wider than the buckets)
};
// The table's buckets: 2^min(weight, 24) (words wider than that keep their word beside
// each entry), for the CPU's table and the GPU's alike.
inline int lastz_table_bucket_bits(const LastzSeed &s) { return s.weight < 24 ? s.weight : 24; }
// One extension the device found worth an HSP before LASTZ's entropy scaling (its
// similarity reaches hsp_thresh; the scaling can only lower it), with what the scaling
// needs: its matched upper-case A C G T, counted exactly on the device, so that the host
// computes the doubles as lastz_seed.cpp does (the device's log need not round as the C
// library's does). lastz_hsp_decide turns it into an HSP or not.
struct LastzCandidate {
    uint32_t pos1, pos2, length;  // as LastzHsp
    int32_t similarity;
    uint32_t matched[4];          // A C G T matched (entropy: its fractions of length)
};
// Whether LASTZ scales an extension's similarity by its entropy (xdrop_extend_seed_hit:
// from the threshold, or 0, up to three times the threshold).
GALE_HD bool lastz_entropy_scales(bool entropy, int32_t hsp_thresh, int32_t similarity) {
    const int32_t zero = hsp_thresh > 0 ? hsp_thresh : 0;
    return entropy && similarity >= zero && (int64_t)similarity <= 3 * (int64_t)hsp_thresh;
}
// upper_nuc_to_bits: A C G T as 0 1 2 3 (A, G and C, T differ in bit 1: a transition
// flips it); everything else, lower case included, -1.
GALE_HD int lastz_upper_bits(uint8_t c) {
    return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : -1;
}
// compute_entropy's counts (dna_utilities.c, lowerOk false): the upper-case A C G T of s
// matched by t, added to matched.
GALE_HD void lastz_count_matched(const uint8_t *s, const uint8_t *t, uint32_t len, uint32_t matched[4]) {
    for (uint32_t i = 0; i < len; ++i)
        if (s[i] == t[i]) {
            const int b = lastz_upper_bits(s[i]);
            if (b >= 0) ++matched[b];
        }
}
// The two halves of xdrop_extend_seed_hit for a hit ending at (pos1, pos2) (exclusive), as
// LASTZ runs them; written once for the CPU kernel (lib/cpu/lastz_seed.cpp) and the GPU's
// (cuda/lastz_seed.cu, which also speculates them with a step cap). sub: 256 x 256 scores,
// row-major (the target's byte picks the row). Each returns false when it would take more
// than max_steps steps (nothing set then).
struct LastzHalf {
    int32_t score;  // the best running score (0: no position raised it)
    uint32_t best;  // left: where the best starts (pos1 if none); right: where it ends (pos1 if none)
    uint32_t end;   // the target position the search stopped at (left: its last; right: one past)
};
// Left, from the hit's end (its own bases included) down to stop (LASTZ's max(diagEnd + diag, 0)).
GALE_HD bool lastz_extend_left(const uint8_t *seq1, const uint8_t *seq2, const int32_t *sub, int32_t xdrop,
                               uint32_t pos1, uint32_t pos2, int64_t stop, int max_steps, LastzHalf *h) {
    int64_t s1 = pos1, s2 = pos2, start = pos1;
    int32_t run = 0, best = 0;
    int steps = 0;
    while (s1 > stop && run >= best - xdrop) {
        if (steps++ == max_steps) return false;
        run += sub[(uint32_t)seq1[--s1] * 256 + seq2[--s2]];
        if (run > best) {
            start = s1;
            best = run;
        }
    }
    h->score = best;
    h->best = (uint32_t)start;
    h->end = (uint32_t)s1;
    return true;
}
// Right, from the hit's end to the end of either sequence.
GALE_HD bool lastz_extend_right(const uint8_t *seq1, const uint8_t *seq2, uint32_t len1, uint32_t len2,
                                const int32_t *sub, int32_t xdrop, uint32_t pos1, uint32_t pos2, int max_steps,
                                LastzHalf *h) {
    const int64_t diag = (int64_t)pos1 - (int64_t)pos2;
    const int64_t rstop = (int64_t)len1 <= (int64_t)len2 + diag ? (int64_t)len1 : (int64_t)len2 + diag;
    int64_t s1 = pos1, s2 = pos2, stop_at = pos1;
    int32_t run = 0, best = 0;
    int steps = 0;
    while (s1 < rstop && run >= best - xdrop) {
        if (steps++ == max_steps) return false;
        run += sub[(uint32_t)seq1[s1++] * 256 + seq2[s2++]];
        if (run > best) {
            stop_at = s1;
            best = run;
        }
    }
    h->score = best;
    h->best = (uint32_t)stop_at;
    h->end = (uint32_t)s1;
    return true;
}
// LASTZ's decision on an extension (seed_search.c's reporter with the entropy adjustment of
// xdrop_extend_seed_hit): the HSP it makes, if any.
bool lastz_hsp_decide(const LastzSeedParams &params, const LastzCandidate &c, LastzHsp *hsp);

// What a seeder's device side reads (the seeder's own fields; valid while it lives).
struct LastzSeedView {
    const uint8_t *target;
    uint32_t target_len;
    const LastzSeed *seed;  // (the device builds the target's table itself)
    const YdropScoring *masked;
    const LastzSeedParams *params;
    uint32_t window;  // the query positions a CPU find takes at once (below kSeedWindow only
                      // when a test set it, GALE_LASTZ_SEED_WINDOW: the GPU's windows too)
};
// Counts of a seeder's finds (gale_lastz_seed_stats), added to by finds running at once.
struct LastzSeedStats {
    uint64_t finds = 0, finds_device = 0, finds_device_failed = 0, hits = 0, hsps = 0;
    double device_seconds = 0, seconds = 0;
};
// A seeder's finds on a GPU (the CUDA backend's: lib/backend.h, lastz_seed_device; the
// kernels in cuda/lastz_seed.cu). find appends one query strand's candidates, in LASTZ's
// order, and the number of seed hits; returns false when the device could not take the
// query (its memory ran out: the seeder then finds on the CPU). Throws gale::Error when the
// device failed otherwise.
class LastzSeedDevice {
public:
    virtual ~LastzSeedDevice() = default;
    virtual bool find(const uint8_t *query, uint32_t query_len, std::vector<LastzCandidate> &out, uint64_t *hits,
                      double *device_seconds) = 0;
};

// The query positions a find on several threads takes at once (their hits are held:
// 12 bytes a hit, some 10 hits a position with 12of19 and transitions on a generated
// mammal-like pair).
constexpr uint32_t kSeedWindow = 1u << 20;

// One target's table, built once, searched by any number of query strands (find is const:
// calls may run at once). The target's bytes are read in place, as LASTZ holds them
// (soft-masked lower case never seeds; any byte but A C G T breaks a word).
class LastzSeeder {
public:
    // masked: LASTZ's masked score set (lastz_masked_scoring); threads: find's (0 or 1:
    // LASTZ's loop on the calling thread); window: the query positions a find on several
    // threads takes at once
    LastzSeeder(const uint8_t *target, uint32_t target_len, const LastzSeed &seed, const YdropScoring &masked,
                const LastzSeedParams &params, int threads = 1, uint32_t window = kSeedWindow);
    // The HSPs of one query strand against the target, in LASTZ's order (on several
    // threads a window of the query at a time: lastz_seed.cpp says how).
    std::vector<LastzHsp> find(const uint8_t *query, uint32_t query_len) const;

    // The view a device side is made from, and the device side itself: from then on each
    // find runs there, and on the CPU only when the device could not take its query.
    LastzSeedView view() const {
        return LastzSeedView{target_, target_len_, &seed_, masked_.get(), &params_, window_};
    }
    void attach_device(std::unique_ptr<LastzSeedDevice> device) { device_ = std::move(device); }
    LastzSeedStats stats() const;

private:
    // The target's table, built at the first find on the CPU (a seeder whose finds all run
    // on a GPU never needs it: the device builds its own).
    const LastzWordTable &table() const;
    std::vector<LastzHsp> find_cpu(const uint8_t *query, uint32_t query_len, uint64_t *hits) const;

    const uint8_t *target_;
    uint32_t target_len_;
    LastzSeed seed_;
    std::unique_ptr<YdropScoring> masked_;
    LastzSeedParams params_;
    int threads_;
    uint32_t window_;
    mutable std::once_flag table_once_;
    mutable LastzWordTable table_;
    std::unique_ptr<LastzSeedDevice> device_;
    mutable std::mutex stats_mu_;
    mutable LastzSeedStats stats_;
};
// LASTZ's masked_score_set (dna_utilities.c) of new_dna_score_set's scores or of a scoring
// file's (read_score_set: its labels, each upper-case one with its lower case added; a
// DNA alphabet, A C G T with N, a c g t or both): every row and column of a c g t, n, X
// and N scores the bad score, sub['A']['X'], against every byte but 0; but N's row
// (n_row) or column (n_col) keeps its scores when N is one of the file's row (column)
// labels.
void lastz_masked_scoring(YdropScoring &s, bool n_row = false, bool n_col = false);

}  // namespace gale

#endif
