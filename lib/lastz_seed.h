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
#include <string>
#include <vector>

namespace gale {

struct YdropScoring;

// A spaced seed as LASTZ's parse_one_seed implements it (seeds.c): its pattern's 1s
// (match) and Ts (match or transition) as two bits and one bit of a packed word, gathered
// by masked shifts found greedily; the transition flips in the pattern's order from its
// right end.
struct LastzSeed {
    int length = 0, weight = 0;  // positions; bits
    int parts = 0;
    int shift[64] = {};
    uint32_t mask[64] = {};
    std::vector<uint32_t> flips;  // one packed bit each
};
// pattern: 1, 0 (or x, X: don't care), T (or t) and blanks, leading and trailing don't
// cares dropped. Returns false with *err set when LASTZ would refuse it, or when gale does
// not reproduce its kind yet (half-weight seeds of Ts only; weights over 28 bits, which
// LASTZ resolves by comparing bases).
bool lastz_seed_parse(const char *pattern, LastzSeed &seed, std::string *err);
// LASTZ's apply_seed: the seed's bits of the last `length` bases (two bits each, A C G T
// as 0 1 2 3, the newest in the lowest bits).
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
    int bucket_bits = 0;
    std::vector<uint32_t> start;  // bucket b: entries [start[b], start[b + 1])
    std::vector<uint32_t> pos;    // window ends
    std::vector<uint32_t> word;   // their words (only for words wider than the buckets)
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

private:
    const uint8_t *target_;
    uint32_t target_len_;
    LastzSeed seed_;
    std::unique_ptr<YdropScoring> masked_;
    LastzSeedParams params_;
    int threads_;
    uint32_t window_;
    LastzWordTable table_;
};
// LASTZ's masked_score_set (dna_utilities.c) of new_dna_score_set's scores (rows and
// columns A C G T a c g t): every row and column of a c g t, N, n and X scores the bad score,
// sub['A']['X'], against every byte but 0.
void lastz_masked_scoring(YdropScoring &s);

}  // namespace gale

#endif
