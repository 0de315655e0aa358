// LASTZ 1.04.22's seeding and gap-free X-drop extension (lib/lastz_seed.h; the rules:
// doc/lastz-seed.md). Names in comments are LASTZ's: seeds.c (parse_one_seed, apply_seed),
// pos_table.c (record_seed_positions, add_word), seed_search.c (private_hit_search,
// find_table_matches, process_for_simple_hit, xdrop_extend_seed_hit), diag_hash.h and
// dna_utilities.c (entropy, masked_score_set).
#include "lastz_seed.h"

#include "parallel.h"
#include "ydrop.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

namespace gale {

namespace {

int bit_count(uint64_t v) { return __builtin_popcountll(v); }

// parse_one_seed's best_shift: the shift of the seed's remaining bits that covers the
// most uncovered bits (the first such shift).
int best_shift(uint32_t uncovered, uint64_t seedBits) {
    int best = -1, bestShift = -1;
    for (int shift = 0; seedBits != 0; seedBits >>= 1, ++shift) {
        const int coverage = bit_count(seedBits & uncovered);
        if (coverage > best) {
            best = coverage;
            bestShift = shift;
        }
    }
    return bestShift;
}

// LASTZ's diag hash (diag_hash.h): diagonals modulo 2^16, so two diagonals 65,536 apart
// share their record (LASTZ's simple hit processor lives with the collisions).
constexpr uint32_t kDiagHashSize = 65536;

// Every window of the seed's length of upper-case A C G T, in order, as (its packed word,
// its end, the bases so far: two bits each, one for a half-weight seed): LASTZ's
// record_seed_positions (the target's) and private_hit_search (the query's) read the
// bases so, a byte that is no upper-case base starting a window afresh.
template <class F>
void for_each_word(const uint8_t *seq, uint32_t len, const LastzSeed &sd, F &&f) {
    const uint32_t L = (uint32_t)sd.length;
    const int per = sd.halfweight ? 1 : 2;
    const int low = sd.halfweight ? 1 : 3;  // (the half-weight seed's bit: purine or pyrimidine)
    uint64_t w = 0;
    uint32_t have = 0;  // valid bases at the end of w
    for (uint32_t i = 0; i < len; ++i) {
        const int b = lastz_upper_bits(seq[i]);
        if (b < 0) {
            have = 0;
            w = 0;
            continue;
        }
        w = (w << per) | (uint64_t)(b & low);
        if (have < L) ++have;
        if (have == L) f(lastz_seed_apply(sd, w), i + 1, w);
    }
}

// An overweight seed's hit, resolved (find_table_matches_resolve): the high bit of each
// resolved base (fetch_resolving_bits' 16 bases before the target's end, and the query's
// last 16 as its word holds them) must agree but for up to `allowed` transitions (a base
// whose low bit matched in the index differs by a transition at most).
bool lastz_resolved(const uint8_t *target, uint32_t pos1, uint32_t unpacked2, uint32_t resolve_mask, int allowed) {
    uint32_t unpacked1 = 0;
    for (int64_t i = (int64_t)pos1 - 16; i < (int64_t)pos1; ++i)  // (a bad byte reads as 3, before 0 as 0)
        unpacked1 = (unpacked1 << 2) | (i < 0 ? 0u : (uint32_t)(lastz_upper_bits(target[i]) & 3));
    unpacked1 ^= unpacked2;
    unpacked1 &= resolve_mask;
    unpacked1 += unpacked1 >> 17;
    return bit_count(unpacked1 & 0xffff) <= allowed;
}

// The target's words: those whose end is a multiple of step (pos_table.c).
template <class F>
void for_each_target_word(const uint8_t *seq, uint32_t len, const LastzSeed &sd, uint32_t step, F &&f) {
    for_each_word(seq, len, sd, [&](uint32_t packed, uint32_t end, uint64_t) {
        if (end % step == 0) f(packed, end);
    });
}

void build_table(LastzWordTable &t, const uint8_t *seq, uint32_t len, const LastzSeed &sd, uint32_t step) {
    if (len < (uint32_t)sd.length) {  // no word: no bucket array either (2^24 of them)
        t.bucket_bits = 0;
        t.start.assign(2, 0);
        return;
    }
    t.bucket_bits = lastz_table_bucket_bits(sd);
    const uint32_t buckets = 1u << t.bucket_bits, bmask = buckets - 1;
    const bool wide = sd.weight > t.bucket_bits;
    t.start.assign((size_t)buckets + 1, 0);
    uint64_t n = 0;
    for_each_target_word(seq, len, sd, step, [&](uint32_t packed, uint32_t) {
        ++t.start[(packed & bmask) + 1];
        ++n;
    });
    for (uint32_t b = 0; b < buckets; ++b) t.start[b + 1] += t.start[b];
    t.pos.resize(n);
    if (wide) t.word.resize(n);
    // filled from the back of each bucket forwards as positions increase: highest first
    std::vector<uint32_t> fill(t.start.begin() + 1, t.start.end());
    for_each_target_word(seq, len, sd, step, [&](uint32_t packed, uint32_t end) {
        const uint32_t k = --fill[packed & bmask];
        t.pos[k] = end;
        if (wide) t.word[k] = packed;
    });
    if (wide) {
        // within a bucket: by word, each word's ends still highest first (a stable sort)
        std::vector<std::pair<uint32_t, uint32_t>> tmp;
        for (uint32_t b = 0; b < buckets; ++b) {
            const uint32_t s = t.start[b], e = t.start[b + 1];
            if (e - s < 2) continue;
            tmp.clear();
            for (uint32_t k = s; k < e; ++k) tmp.emplace_back(t.word[k], t.pos[k]);
            std::stable_sort(tmp.begin(), tmp.end(),
                             [](const std::pair<uint32_t, uint32_t> &a, const std::pair<uint32_t, uint32_t> &b2) {
                                 return a.first < b2.first;
                             });
            for (uint32_t k = s; k < e; ++k) {
                t.word[k] = tmp[k - s].first;
                t.pos[k] = tmp[k - s].second;
            }
        }
    }
}

// What a hit does: it reads and writes only its hashed diagonal's record (diagEnd), so
// the hits of different records may be processed apart, each record's in their order.
struct Search {
    const uint8_t *seq1, *seq2;
    uint32_t len1, len2;
    const YdropScoring *sc;
    const LastzSeedParams *prm;
    uint32_t seedLength;
    uint32_t *diagEnd;  // per hashed diagonal: how far (on the query) extensions reached

    // xdrop_extend_seed_hit, then the reporter: the hit ends at (pos1, pos2) (exclusive);
    // true with *hsp set when it makes an HSP
    bool extend(uint32_t pos1, uint32_t pos2, LastzHsp *hsp) const {
        const int32_t diag = (int32_t)pos1 - (int32_t)pos2;
        const uint32_t hDiag = (uint32_t)diag & (kDiagHashSize - 1);
        const int32_t xDrop = prm->xdrop;
        // left, not past the start of either sequence nor the end of an earlier extension
        // on this hashed diagonal; then right, to the end of either sequence
        const int32_t block2 = (int32_t)diagEnd[hDiag];
        const int64_t stop = block2 + diag > 0 ? (int64_t)block2 + diag : 0;
        const int32_t *sub = &sc->sub[0][0];
        LastzHalf left{}, right{};  // (no step cap: both always set)
        lastz_extend_left(seq1, seq2, sub, xDrop, pos1, pos2, stop, INT_MAX, &left);
        lastz_extend_right(seq1, seq2, len1, len2, sub, xDrop, pos1, pos2, INT_MAX, &right);
        const int32_t similarity = left.score + right.score;
        // the extent of the search on this (hashed) diagonal, as a query position
        const uint32_t extent = (uint32_t)((int64_t)right.end - diag);
        if (extent > diagEnd[hDiag]) diagEnd[hDiag] = extent;
        const uint32_t end1 = right.best, length = right.best - left.best;
        const uint32_t end2 = (uint32_t)((int64_t)end1 - diag);
        if (similarity < prm->hsp_thresh) return false;  // (the scaling can only lower it)
        LastzCandidate c{end1 - length, end2 - length, length, similarity, {0, 0, 0, 0}};
        if (lastz_entropy_scales(prm->entropy, prm->hsp_thresh, similarity))
            lastz_count_matched(seq1 + c.pos1, seq2 + c.pos2, length, c.matched);
        return lastz_hsp_decide(*prm, c, hsp);
    }

    // process_for_simple_hit: a hit that starts before the end of an earlier extension on
    // its hashed diagonal is dropped
    bool hit(uint32_t pos1, uint32_t pos2, LastzHsp *hsp) const {
        const uint32_t hDiag = (uint32_t)((int32_t)pos1 - (int32_t)pos2) & (kDiagHashSize - 1);
        if (diagEnd[hDiag] > pos2 - seedLength) return false;
        return extend(pos1, pos2, hsp);
    }
};

// find_table_matches and private_hit_search: each of the query's words (ends from..to],
// in order: the exact word's hits, then each one-transition word's, then (--transition=2)
// each pair's; f(pos1, pos2) per hit, in LASTZ's order. An overweight seed's hits are
// resolved (private_hit_search_resolve: the transitions left to the resolved bases, the
// flipped ones counted); a half-weight seed's words have no flips.
template <class F>
void for_each_hit(const LastzWordTable &table, const LastzSeed &seed, const uint8_t *target, int transitions,
                  const uint8_t *query, uint32_t from, uint32_t to, F &&f) {
    const uint32_t L = (uint32_t)seed.length, bmask = (1u << table.bucket_bits) - 1;
    const bool wide = !table.word.empty();
    const uint32_t resolve = seed.resolve_mask;
    auto matches = [&](uint32_t packed, uint32_t pos2, uint64_t w, int allowed) {
        const uint32_t b = packed & bmask;
        for (uint32_t k = table.start[b], e = table.start[b + 1]; k < e; ++k)
            if ((!wide || table.word[k] == packed) &&
                (resolve == 0 || lastz_resolved(target, table.pos[k], (uint32_t)w, resolve, allowed)))
                f(table.pos[k], pos2);
    };
    const std::vector<uint32_t> &fl = seed.flips;
    // (the bases from L - 1 before the first end: the same windows as a pass from the start;
    // a word's bases before its window only differ where no seed bit reads them)
    const uint32_t first = from >= L - 1 ? from - (L - 1) : 0;
    for_each_word(query + first, to - first, seed, [&](uint32_t packed, uint32_t end, uint64_t w) {
        const uint32_t pos2 = first + end;
        if (pos2 <= from) return;
        matches(packed, pos2, w, transitions);
        if (transitions == 1) {
            for (uint32_t f1 : fl) matches(packed ^ f1, pos2, w, 0);
        } else if (transitions >= 2) {
            for (size_t a = 0; a < fl.size(); ++a) {
                matches(packed ^ fl[a], pos2, w, 1);
                for (size_t c = a + 1; c < fl.size(); ++c) matches(packed ^ fl[a] ^ fl[c], pos2, w, 0);
            }
        }
    });
}

// compute_entropy's value from its counts: the entropy, in base 4, of the matched bases'
// fractions of the length (doubles, as LASTZ); 1 when fewer than 20 match
double entropy_of(const uint32_t matched[4], uint32_t len) {
    const uint32_t cA = matched[0], cC = matched[1], cG = matched[2], cT = matched[3];
    if (cA + cC + cG + cT < 20) return 1.0;
    const double pA = (double)cA / (double)len, pC = (double)cC / (double)len, pG = (double)cG / (double)len,
                 pT = (double)cT / (double)len;
    const double qA = cA != 0 ? std::log(pA) : 0.0, qC = cC != 0 ? std::log(pC) : 0.0,
                 qG = cG != 0 ? std::log(pG) : 0.0, qT = cT != 0 ? std::log(pT) : 0.0;
    return -(pA * qA + pC * qC + pG * qG + pT * qT) / std::log(4.0);
}

}  // namespace

bool lastz_hsp_decide(const LastzSeedParams &prm, const LastzCandidate &c, LastzHsp *hsp) {
    int32_t similarity = c.similarity;
    // a score at the threshold but below three times it is scaled by the entropy of the
    // matched bases (the product truncated to an int)
    if (lastz_entropy_scales(prm.entropy, prm.hsp_thresh, similarity))
        similarity = (int32_t)((double)similarity * entropy_of(c.matched, c.length));
    if (similarity < prm.hsp_thresh) return false;
    *hsp = LastzHsp{c.pos1, c.pos2, c.length, similarity};
    return true;
}

bool lastz_seed_parse(const char *pattern, LastzSeed &sd, std::string *err) {
    sd = LastzSeed();
    auto refuse = [&](const std::string &why) {
        if (err) *err = why;
        return false;
    };
    std::string p;
    for (const char *c = pattern; *c; ++c) {
        switch (*c) {
        case '1': case 'T': case 't': p.push_back(*c == '1' ? '1' : 'T'); break;
        case '0': case 'x': case 'X': p.push_back('0'); break;
        case ' ': case '\t': case '\n': break;
        default:
            return refuse(std::string("seed string ") + pattern + " contains illegal character " + *c);
        }
    }
    size_t b = p.find_first_not_of('0');
    if (b == std::string::npos) return refuse("seed string is empty!");
    p = p.substr(b, p.find_last_not_of('0') - b + 1);
    // parse_one_seed: strict (1s and 0s), half-weight (Ts and 0s: one bit a position, the
    // purine/pyrimidine bit) or mixed; a seed heavier than maxIndexBits is made
    // overweight: its last 1s become Ts in the index, and their other bit is resolved
    // against the bases at each hit (find_table_matches_resolve)
    int matches = 0, weight = 0;
    bool strict = true, half = true;
    for (char c : p) {
        if (c == '1') {
            half = false;
            ++matches;
            weight += 2;
        } else if (c == 'T') {
            strict = false;
            ++weight;
        }
    }
    sd.halfweight = !strict && half;
    int keep = matches;
    if (weight > kLastzMaxIndexBits) {
        const int resolve = weight - kLastzMaxIndexBits;
        if (resolve > matches)
            return refuse("seed (" + std::string(pattern) + ") requires more resolving bits (" +
                          std::to_string(resolve) + ") than it has matches (" + std::to_string(matches) + ").");
        if (resolve > 16)  // maxResolvedBits
            return refuse("seed (" + std::string(pattern) + ") requires more resolving bits (" +
                          std::to_string(resolve) + ") than are allowed (16).");
        keep -= resolve;
    }
    const int per = sd.halfweight ? 1 : 2;
    uint32_t resolveBits = 0;
    uint64_t seedBits = 0, flipBits = 0;
    int length = 0;
    weight = 0;
    matches = 0;
    for (char c : p) {
        ++length;
        if (c == '1' && matches < keep) {
            resolveBits <<= per;
            seedBits = (seedBits << per) + 3;
            flipBits = (flipBits << per) + 2;
            ++matches;
            weight += 2;
        } else if (c == '1' || c == 'T') {
            if (c == '1') {  // resolved: a T in the index, its high bit compared at the hit
                if ((uint32_t)(resolveBits << 2) < resolveBits)  // (LASTZ's overflow test, as it is)
                    return refuse("resolving bits in seed string " + std::string(pattern) + " are spread too widely");
                resolveBits = (resolveBits << per) + 2;
            } else {
                resolveBits <<= per;
            }
            seedBits = (seedBits << per) + 1;
            flipBits <<= per;
            ++weight;
        } else {
            resolveBits <<= per;
            seedBits <<= per;
            flipBits <<= per;
        }
    }
    if (sd.halfweight && length > 63)  // maxHwSeedLen: one bit a position in 64
        return refuse("half-weight seed string (" + std::string(pattern) + ") cannot have length exceeding 63 (it's " +
                      std::to_string(length) + ").");
    if (!sd.halfweight && length > 31)  // maxSeedLen: two bits a position in 64
        return refuse("seed string (" + std::string(pattern) + ") cannot have length exceeding 31 (it's " +
                      std::to_string(length) + ").");
    sd.length = length;
    sd.weight = weight;
    sd.resolve_mask = resolveBits;
    const uint32_t wBits = (uint32_t)((1ull << weight) - 1);
    uint32_t covered = (uint32_t)(seedBits & wBits);
    uint64_t remBits = seedBits - covered;
    sd.parts = 1;
    sd.shift[0] = 0;
    sd.mask[0] = covered;
    while (covered != wBits) {
        const int shift = best_shift(~covered & wBits, remBits);
        const uint32_t mask = (uint32_t)(remBits >> shift) & ~covered & wBits;
        covered += mask;
        remBits -= (uint64_t)mask << shift;
        sd.shift[sd.parts] = shift;
        sd.mask[sd.parts] = mask;
        ++sd.parts;
    }
    // the transition flips in the pattern's order from its right end (seeds.c defines
    // maintainFlippedBitOrder), each packed as apply_seed packs it; none for a half-weight
    // seed, and none for an overweight seed's resolved 1s
    while (flipBits != 0) {
        const uint64_t right = flipBits & (~flipBits + 1);
        flipBits -= right;
        sd.flips.push_back(lastz_seed_apply(sd, right));
    }
    return true;
}

void lastz_masked_scoring(YdropScoring &s, bool n_row, bool n_col) {
    // (the bad score: sub[the first row character][the bad column, X], which for every
    // set gale builds is sub['A']['X']: the whole X column holds it)
    const int32_t bad = s.sub['A']['X'];
    // the rows' characters that are not upper case (a c g t, and n with N), N unless
    // the set's own, n and X; the columns likewise
    const uint8_t masked[] = {'a', 'c', 'g', 't', 'n', 'X', 'N'};
    for (uint8_t r : masked)
        if (r != 'N' || !n_row)
            for (int c = 1; c < 256; ++c) s.sub[r][c] = bad;
    for (uint8_t c : masked)
        if (c != 'N' || !n_col)
            for (int r = 1; r < 256; ++r) s.sub[r][c] = bad;
}

LastzSeeder::LastzSeeder(const uint8_t *target, uint32_t target_len, const LastzSeed &seed, const YdropScoring &masked,
                         const LastzSeedParams &params, int threads, uint32_t window)
    : target_(target), target_len_(target_len), seed_(seed), masked_(std::make_unique<YdropScoring>(masked)),
      params_(params), threads_(threads), window_(window) {}

const LastzWordTable &LastzSeeder::table() const {
    std::call_once(table_once_, [this] { build_table(table_, target_, target_len_, seed_, params_.step); });
    return table_;
}

std::vector<LastzHsp> LastzSeeder::find(const uint8_t *query, uint32_t query_len) const {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<LastzHsp> out;
    uint64_t hits = 0;
    double device_s = 0;
    bool on_device = false, device_failed = false;
    if (device_ && query_len >= (uint32_t)seed_.length && target_len_ >= (uint32_t)seed_.length) {
        std::vector<LastzCandidate> cand;
        on_device = device_->find(query, query_len, cand, &hits, &device_s);
        if (on_device) {
            for (const LastzCandidate &c : cand) {
                LastzHsp h;
                if (lastz_hsp_decide(params_, c, &h)) out.push_back(h);
            }
        } else {
            device_failed = true;
        }
    }
    if (!on_device) out = find_cpu(query, query_len, &hits);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard<std::mutex> lock(stats_mu_);
    ++stats_.finds;
    stats_.finds_device += on_device;
    stats_.finds_device_failed += device_failed;
    stats_.hits += hits;
    stats_.hsps += out.size();
    stats_.device_seconds += device_s;
    stats_.seconds += secs;
    return out;
}

LastzSeedStats LastzSeeder::stats() const {
    std::lock_guard<std::mutex> lock(stats_mu_);
    return stats_;
}

std::vector<LastzHsp> LastzSeeder::find_cpu(const uint8_t *query, uint32_t query_len, uint64_t *hits) const {
    const uint32_t L = (uint32_t)seed_.length;
    std::vector<LastzHsp> out;
    *hits = 0;
    if (query_len < L || target_len_ < L) return out;
    const LastzWordTable &tb = table();
    std::vector<uint32_t> diagEnd(kDiagHashSize, 0);
    const Search S{target_, query, target_len_, query_len, masked_.get(), &params_, L, diagEnd.data()};
    if (threads_ <= 1) {  // LASTZ's loop as it is
        uint64_t n = 0;
        for_each_hit(tb, seed_, target_, params_.transitions, query, 0, query_len, [&](uint32_t pos1, uint32_t pos2) {
            LastzHsp h;
            ++n;
            if (S.hit(pos1, pos2, &h)) out.push_back(h);
        });
        *hits = n;
        return out;
    }
    // On several threads, window by window of the query: the window's hits enumerated in
    // parts (each part's in LASTZ's order, the parts in query order), grouped by hashed
    // diagonal keeping that order, each record's hits processed in turn on the thread
    // that owns the record (a hit depends on its record's earlier hits only), and the
    // HSPs put back in the order of their hits.
    const uint32_t window = window_;
    const int T = threads_;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> part_hits((size_t)T);
    std::vector<uint32_t> counts((size_t)T * kDiagHashSize), order;
    std::vector<std::pair<uint32_t, uint32_t>> grouped;
    std::vector<std::vector<std::pair<uint64_t, LastzHsp>>> found((size_t)T);
    for (uint32_t w0 = 0; w0 < query_len; w0 = w0 + window < query_len ? w0 + window : query_len) {
        const uint32_t w1 = query_len - w0 > window ? w0 + window : query_len;
        parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
            for (size_t t = lo; t < hi; ++t) {
                auto &v = part_hits[t];
                v.clear();
                const uint32_t a = w0 + (uint32_t)((uint64_t)(w1 - w0) * t / T),
                               b = w0 + (uint32_t)((uint64_t)(w1 - w0) * (t + 1) / T);
                for_each_hit(tb, seed_, target_, params_.transitions, query, a, b,
                             [&](uint32_t pos1, uint32_t pos2) { v.emplace_back(pos1, pos2); });
                uint32_t *c = &counts[t * kDiagHashSize];
                std::fill(c, c + kDiagHashSize, 0);
                for (const auto &hp : v) ++c[(uint32_t)((int32_t)hp.first - (int32_t)hp.second) & (kDiagHashSize - 1)];
            }
        });
        // each record's hits: part 0's, part 1's... (a stable counting sort by record)
        std::vector<uint64_t> part_base((size_t)T + 1, 0);
        for (int t = 0; t < T; ++t) part_base[t + 1] = part_base[t] + part_hits[t].size();
        const uint64_t total = part_base[T];
        *hits += total;
        std::vector<uint64_t> rec_start(kDiagHashSize + 1, 0);
        std::vector<uint64_t> at((size_t)T * kDiagHashSize);
        for (uint32_t h = 0; h < kDiagHashSize; ++h) {
            uint64_t x = rec_start[h];
            for (int t = 0; t < T; ++t) {
                at[(size_t)t * kDiagHashSize + h] = x;
                x += counts[(size_t)t * kDiagHashSize + h];
            }
            rec_start[h + 1] = x;
        }
        grouped.resize(total);
        order.resize(total);  // each grouped hit's place in the window's order (for the HSPs' order)
        parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
            for (size_t t = lo; t < hi; ++t) {
                uint64_t *pos = &at[t * kDiagHashSize];
                const auto &v = part_hits[t];
                for (size_t k = 0; k < v.size(); ++k) {
                    const uint32_t h = (uint32_t)((int32_t)v[k].first - (int32_t)v[k].second) & (kDiagHashSize - 1);
                    const uint64_t dst = pos[h]++;
                    grouped[dst] = v[k];
                    order[dst] = (uint32_t)(part_base[t] + k);
                }
            }
        });
        parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
            for (size_t t = lo; t < hi; ++t) {
                auto &f = found[t];
                f.clear();
                const uint32_t h0 = (uint32_t)((uint64_t)kDiagHashSize * t / T),
                               h1 = (uint32_t)((uint64_t)kDiagHashSize * (t + 1) / T);
                for (uint64_t k = rec_start[h0]; k < rec_start[h1]; ++k) {
                    LastzHsp h;
                    if (S.hit(grouped[k].first, grouped[k].second, &h)) f.emplace_back(order[k], h);
                }
            }
        });
        std::vector<std::pair<uint64_t, LastzHsp>> all;
        for (auto &f : found) all.insert(all.end(), f.begin(), f.end());
        std::sort(all.begin(), all.end(), [](const std::pair<uint64_t, LastzHsp> &x,
                                             const std::pair<uint64_t, LastzHsp> &y) { return x.first < y.first; });
        for (const auto &e : all) out.push_back(e.second);
    }
    return out;
}

}  // namespace gale
