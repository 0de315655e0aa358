// gale compare's CPU kernel (lib/compare.h): GPUGECKO-style words, hits and ungapped
// X-drop fragments. The rules are doc/compare.md's; each is restated where it is applied.
//
// Shape of the computation (none of it changes the result, only memory and speed):
//   1. A's words: (key, position) pairs, 12 bytes each, counted then written straight into
//      buckets of the key's top 16 bits (per thread part, so each bucket holds its words in
//      increasing position), each bucket sorted by (key, position).
//   2. Per strand, B's (or its reverse complement's) word positions a window at a time
//      (chunk_words): each position's range of equal keys in A's table.
//   3. The window cut into runs of positions holding at most chunk_hits hits; each run's
//      hits (diagonal, i) dealt into diagonal buckets and sorted by (diagonal, i).
//   4. Each diagonal bucket walked on one thread: a diagonal's hits in increasing i, its
//      `covered` carried from earlier runs (a sorted list of the diagonals met so far).
// A diagonal's hits in increasing i are its hits in increasing j, so taking B's positions
// run by run in order and carrying each diagonal's `covered` gives exactly what one pass
// over all hits would: the result is the same for any chunk sizes and thread counts.
#include "compare.h"

#include "parallel.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace gale {

namespace {

// compare_base_code (lib/compare.h) as a table: A C G T (either case) 0..3, any other byte 4.
struct BaseCode {
    uint8_t v[256];
    BaseCode() {
        for (int c = 0; c < 256; ++c) v[c] = compare_base_code((uint8_t)c);
    }
};
const BaseCode kCode;

// Calls f(pos, key) for every word starting in [lo, hi): k bases with no non-base, packed
// two bits a base, the first base in the highest bits.
template <class F>
void for_each_word(const uint8_t *s, uint64_t len, uint64_t lo, uint64_t hi, int k, F f) {
    if (len < (uint64_t)k) return;
    hi = std::min<uint64_t>(hi, len - k + 1);
    if (lo >= hi) return;
    const uint64_t mask = k == 32 ? ~(uint64_t)0 : (((uint64_t)1 << (2 * k)) - 1);
    uint64_t key = 0;
    int run = 0;
    for (uint64_t p = lo; p < hi + k - 1; ++p) {
        const uint8_t c = kCode.v[s[p]];
        if (c > 3) {
            run = 0;
            key = 0;
            continue;
        }
        key = ((key << 2) | c) & mask;
        if (run < k) ++run;
        if (run == k) f(p + 1 - k, key);
    }
}

#pragma pack(push, 1)
struct Word {  // 12 bytes: A's word table
    uint64_t key;
    uint32_t pos;
};
#pragma pack(pop)
static_assert(sizeof(Word) == 12, "A's word table: 12 bytes a word");

constexpr int kBucketBits = 16;

struct WordTable {
    std::vector<Word> words;
    std::vector<uint64_t> start;  // bucket b: words [start[b], start[b + 1])
    int shift = 0;                // bucket = key >> shift
};

// The ranges of parts of [0, n) parallel_for gives T threads, as T explicit parts.
inline uint64_t part_lo(uint64_t n, int T, int t) { return n * (uint64_t)t / (uint64_t)T; }

void build_table(WordTable &tb, const uint8_t *a, uint64_t la, int k, int T) {
    const size_t nb = (size_t)1 << kBucketBits;
    tb.shift = 2 * k - kBucketBits;  // k >= 12: 2k >= 24 > 16
    std::vector<uint64_t> counts((size_t)T * nb, 0);
    parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
        for (size_t t = lo; t < hi; ++t) {
            uint64_t *c = &counts[t * nb];
            for_each_word(a, la, part_lo(la, T, (int)t), part_lo(la, T, (int)t + 1), k,
                          [&](uint64_t, uint64_t key) { ++c[key >> tb.shift]; });
        }
    });
    tb.start.assign(nb + 1, 0);
    std::vector<uint64_t> at((size_t)T * nb);
    uint64_t x = 0;
    for (size_t b = 0; b < nb; ++b) {
        tb.start[b] = x;
        for (int t = 0; t < T; ++t) {
            at[(size_t)t * nb + b] = x;
            x += counts[(size_t)t * nb + b];
        }
    }
    tb.start[nb] = x;
    tb.words.resize(x);
    parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
        for (size_t t = lo; t < hi; ++t) {
            uint64_t *w = &at[t * nb];
            for_each_word(a, la, part_lo(la, T, (int)t), part_lo(la, T, (int)t + 1), k, [&](uint64_t pos, uint64_t key) {
                Word &d = tb.words[w[key >> tb.shift]++];
                d.key = key;
                d.pos = (uint32_t)pos;
            });
        }
    });
    parallel_for(nb, T, 1, [&](size_t lo, size_t hi) {
        for (size_t b = lo; b < hi; ++b)
            std::sort(tb.words.begin() + (ptrdiff_t)tb.start[b], tb.words.begin() + (ptrdiff_t)tb.start[b + 1],
                      [](const Word &x, const Word &y) { return x.key != y.key ? x.key < y.key : x.pos < y.pos; });
    });
}

// The words of A equal to key: [*lo, *lo + return).
uint64_t lookup(const WordTable &tb, uint64_t key, uint64_t *lo) {
    const size_t b = (size_t)(key >> tb.shift);
    const Word *first = tb.words.data() + tb.start[b], *last = tb.words.data() + tb.start[b + 1];
    const Word *l = std::lower_bound(first, last, key, [](const Word &w, uint64_t k) { return w.key < k; });
    const Word *h = l;
    while (h != last && h->key == key) ++h;
    *lo = (uint64_t)(l - tb.words.data());
    return (uint64_t)(h - l);
}

struct Hit {
    uint64_t dk;  // diagonal i - j + lb (>= 1)
    uint64_t i;
};

using DiagState = std::vector<std::pair<uint64_t, uint64_t>>;  // (dk, covered), by dk

void run_strand(const WordTable &tb, const CompareStrand &S, uint64_t max_occ, int T, uint64_t chunk_words,
                uint64_t chunk_hits, std::vector<CompareFragment> &out) {
    const int k = S.k;
    if (S.ls < (uint64_t)k || S.la < (uint64_t)k) return;
    const uint64_t npos = S.ls - k + 1;
    const uint64_t ndiag = S.la + S.ls + 1;
    const size_t nbuckets = (size_t)T * 16;
    auto dbucket = [&](uint64_t dk) { return (size_t)((unsigned __int128)dk * nbuckets / ndiag); };
    std::vector<uint64_t> rlo;
    std::vector<uint32_t> rn;
    DiagState state, merged;
    std::vector<Hit> hits;
    std::vector<DiagState> fresh(nbuckets);
    std::vector<std::vector<CompareFragment>> frags(nbuckets);
    std::vector<uint64_t> counts, at, bstart(nbuckets + 1);
    const size_t first_out = out.size();
    for (uint64_t w0 = 0; w0 < npos; w0 += chunk_words) {
        const uint64_t w1 = std::min(npos, w0 + chunk_words), wn = w1 - w0;
        // 2. each position's range of A's words with its key (0 hits: no word there, or a
        // word of more than max_occ occurrences in A)
        rlo.assign(wn, 0);
        rn.assign(wn, 0);
        parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
            for (size_t t = lo; t < hi; ++t)
                for_each_word(S.s, S.ls, w0 + part_lo(wn, T, (int)t), w0 + part_lo(wn, T, (int)t + 1), k,
                              [&](uint64_t pos, uint64_t key) {
                                  uint64_t l;
                                  const uint64_t n = lookup(tb, key, &l);
                                  if (n == 0 || (max_occ != 0 && n > max_occ)) return;
                                  rlo[pos - w0] = l;
                                  rn[pos - w0] = (uint32_t)n;
                              });
        });
        // 3. runs of positions of at most chunk_hits hits (a position alone past it)
        for (uint64_t r0 = 0; r0 < wn;) {
            uint64_t r1 = r0, nh = 0;
            while (r1 < wn && (r1 == r0 || nh + rn[r1] <= chunk_hits)) nh += rn[r1++];
            if (nh == 0) {
                r0 = r1;
                continue;
            }
            counts.assign((size_t)T * nbuckets, 0);
            const uint64_t rl = r1 - r0;
            auto each_hit = [&](int t, auto f) {
                for (uint64_t x = r0 + part_lo(rl, T, t); x < r0 + part_lo(rl, T, t + 1); ++x) {
                    const uint64_t j = w0 + x;
                    for (uint64_t e = rlo[x]; e < rlo[x] + rn[x]; ++e) {
                        const uint64_t i = tb.words[e].pos;
                        f(i - j + S.ls, i);
                    }
                }
            };
            parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
                for (size_t t = lo; t < hi; ++t) {
                    uint64_t *c = &counts[t * nbuckets];
                    each_hit((int)t, [&](uint64_t dk, uint64_t) { ++c[dbucket(dk)]; });
                }
            });
            at.resize((size_t)T * nbuckets);
            uint64_t x = 0;
            for (size_t b = 0; b < nbuckets; ++b) {
                bstart[b] = x;
                for (int t = 0; t < T; ++t) {
                    at[(size_t)t * nbuckets + b] = x;
                    x += counts[(size_t)t * nbuckets + b];
                }
            }
            bstart[nbuckets] = x;
            hits.resize(x);
            parallel_for((size_t)T, T, 1, [&](size_t lo, size_t hi) {
                for (size_t t = lo; t < hi; ++t) {
                    uint64_t *w = &at[t * nbuckets];
                    each_hit((int)t, [&](uint64_t dk, uint64_t i) { hits[w[dbucket(dk)]++] = Hit{dk, i}; });
                }
            });
            // 4. each diagonal bucket: its hits by (diagonal, i), each diagonal walked in turn
            parallel_for(nbuckets, T, 1, [&](size_t lo, size_t hi) {
                for (size_t b = lo; b < hi; ++b) {
                    Hit *h0 = hits.data() + bstart[b], *h1 = hits.data() + bstart[b + 1];
                    std::sort(h0, h1, [](const Hit &u, const Hit &v) { return u.dk != v.dk ? u.dk < v.dk : u.i < v.i; });
                    DiagState &nf = fresh[b];
                    nf.clear();
                    for (Hit *h = h0; h < h1;) {
                        const uint64_t dk = h->dk;
                        // `covered`: the end (exclusive, on A) of the diagonal's last rightward
                        // search; 0 (nothing yet) bounds nothing, as positions start at 0
                        auto it = std::lower_bound(state.begin(), state.end(), std::make_pair(dk, (uint64_t)0));
                        uint64_t covered = it != state.end() && it->first == dk ? it->second : 0;
                        const uint64_t before = covered;
                        for (; h < h1 && h->dk == dk; ++h) {
                            if (h->i < covered) continue;  // passed by the last rightward search
                            CompareFragment f;
                            covered = S.extend(h->i, h->i + S.ls - dk, covered, &f);
                            if (S.kept(f)) frags[b].push_back(f);
                        }
                        if (covered != before) nf.emplace_back(dk, covered);
                    }
                }
            });
            // the diagonals' `covered`, merged (the run's values replace the earlier ones)
            merged.clear();
            merged.reserve(state.size());
            size_t si = 0;
            for (size_t b = 0; b < nbuckets; ++b)
                for (const auto &e : fresh[b]) {
                    while (si < state.size() && state[si].first < e.first) merged.push_back(state[si++]);
                    if (si < state.size() && state[si].first == e.first) ++si;
                    merged.push_back(e);
                }
            merged.insert(merged.end(), state.begin() + (ptrdiff_t)si, state.end());
            state.swap(merged);
            for (auto &f : frags) {
                out.insert(out.end(), f.begin(), f.end());
                f.clear();
            }
            r0 = r1;
        }
    }
    // by diagonal then start (a diagonal's fragments have increasing starts: a hit's
    // leftward search stops at the diagonal's `covered`, past the previous fragment)
    std::sort(out.begin() + (ptrdiff_t)first_out, out.end(), compare_fragment_before);
}

}  // namespace

std::vector<CompareFragment> compare(const uint8_t *a, uint64_t la, const uint8_t *b, uint64_t lb,
                                     const CompareParams &p, int threads, uint64_t chunk_words, uint64_t chunk_hits) {
    const int T = std::max(threads, 1);
    chunk_words = std::max<uint64_t>(chunk_words, 1);
    chunk_hits = std::max<uint64_t>(chunk_hits, 1);
    std::vector<CompareFragment> out;
    if (la < (uint64_t)p.word || lb < (uint64_t)p.word) return out;
    WordTable tb;
    build_table(tb, a, la, p.word, T);
    // (the one rule of extension, lib/compare.h, with the CPU's table of base codes)
    const CompareStrand plus{a,     b,          la,           lb,       kCode.v, p.word, p.match, p.mismatch,
                             p.xdrop, p.min_length, p.min_identity, '+'};
    if (p.plus) run_strand(tb, plus, p.max_occ, T, chunk_words, chunk_hits, out);
    if (p.minus) {
        // B's reverse complement: A<->T, C<->G in either case (kept), other bytes as they are
        std::vector<uint8_t> rc(lb);
        uint8_t comp[256];
        for (int c = 0; c < 256; ++c) comp[c] = compare_complement((uint8_t)c);
        parallel_for(lb, T, 1 << 20, [&](size_t lo, size_t hi) {
            for (size_t x = lo; x < hi; ++x) rc[x] = comp[b[lb - 1 - x]];
        });
        CompareStrand minus = plus;
        minus.s = rc.data();
        minus.strand = '-';
        run_strand(tb, minus, p.max_occ, T, chunk_words, chunk_hits, out);
    }
    return out;
}

}  // namespace gale
