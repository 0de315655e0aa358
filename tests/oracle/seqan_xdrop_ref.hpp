// SeqAn 2.4 reference for gale's X-drop (shared by tests/oracle/xdrop_seqan.cpp and
// tools/bench/xdrop_cpu_vs_seqan.cpp). Compile with -DSEQAN_ENABLE_DEBUG=0: SeqAn's debug
// assertions abort on valid input (e.g. scoring schemes with a zero match score).
//
// What the reference is, exactly
// ------------------------------
// Per direction, the return value of seqan::_extendSeedGappedXDropOneDirection called the
// way seqan::extendSeed(seed, database = h, query = v, dir, score, X, GappedXDrop()) calls
// it: left on queryPrefix = prefix(v, beginPositionV(seed)) and
// databasePrefix = prefix(h, beginPositionH(seed)) with EXTEND_LEFT, then right on the
// suffixes from the seed's end positions with EXTEND_RIGHT. The extended seed positions
// are read from the Seed after those calls. Sequences are seqan::Dna5String built from
// the very bytes gale is given.
//
// Why a wide score type (Wide64) is needed, and why it is a faithful reference
// ------------------------------------------------------------------------------
// SeqAn marks a dropped cell with undefined = numeric_limits<T>::min() - gap and keeps
// doing arithmetic on it (undefined + mismatch on the next-but-one anti-diagonal). With
// T = int and mismatch < gap (e.g. +1/-3/-1) that sum is below INT_MIN and wraps to about
// +2^31: SeqAn<int> then returns garbage. Score<int64_t, Simple> does not help: its
// undefined is INT64_MIN - gap and wraps the same way. Wide64 is an int64_t wrapper whose
// numeric_limits<>::min() is -2^62, so undefined is -2^62 - gap and undefined +/- any score
// gale accepts (|s| <= 2^20) stays more than 2^61 away from the wrap point. SeqAn's
// algorithm is a template over T and runs unchanged; the only things that depend on
// min() are (a) the undefined marker, which is only compared for equality and never
// survives as a live cell, since every live cell is >= best - X >= -2^29, and (b) the
// clamps gap = max(gap, min()/len) and mismatch = max(mismatch, min()/len), which are
// no-ops for every scheme gale accepts (|s| <= 2^20, min()/len <= -2^62/2^33). Where
// SeqAn<int> is sound (min(match, mismatch) >= gap, no clamp, no overflow) both
// instantiations must agree; the oracle test checks that on a sample of cases.
//
// The "undefined" end score
// -------------------------
// When no cell of the last anti-diagonals is alive, SeqAn returns its undefined marker as
// the side's score and leaves the seed where it was. gale reports INT32_MIN - gap (what
// SeqAn<int> returns there). With Wide64 the marker is -2^62 - gap; it is mapped to
// INT32_MIN - gap (and flagged) before comparing.
//
// GALE_N_BYTES
// ------------
// Bytes compared exactly: the sequences are seqan::CharString (String<char>) built from
// the same bytes, with the Simple score, whose score(a, b) is match exactly when the two
// chars are equal. That is SeqAn's char alphabet, what LOGAN's kernel compares.
//
// GALE_N_MISMATCH
// ---------------
// SeqAn's Dna5 Simple score says N == N is a match (Dna5 equality). For "N mismatches
// everything" the reference uses SeqAn's own Score<T, ScoreMatrix<Dna5, Default>>: a 5x5
// table filled with match on A-A, C-C, G-G, T-T and mismatch everywhere else (N-N
// included), run through the same _extendSeedGappedXDropOneDirection. Replacing N's by
// distinct letters would not work (Dna5 has only A, C, G, T, N, so an N would match some
// base). The oracle test also runs the matrix with N-N = match on a sample of GALE_N_DNA5
// cases and checks that it agrees with the Simple score, which shows that going through
// the matrix changes nothing but the N-N entry.
#ifndef GALE_TESTS_SEQAN_XDROP_REF_HPP
#define GALE_TESTS_SEQAN_XDROP_REF_HPP

#ifndef SEQAN_ENABLE_DEBUG
#define SEQAN_ENABLE_DEBUG 0
#endif

#include <climits>
#include <cstdint>
#include <limits>
#include <string>

#include <seqan/basic.h>
#include <seqan/score.h>
#include <seqan/seeds.h>
#include <seqan/sequence.h>

namespace galeref {

// 64-bit score whose numeric_limits<>::min() is -2^62 (see above). Implicit conversion
// from integers only (no conversion out, so mixed expressions such as
// size_t * Wide64 inside SeqAn resolve to Wide64 arithmetic without ambiguity).
struct Wide64 {
    long long v;
    Wide64() : v(0) {}
    Wide64(int x) : v(x) {}
    Wide64(long x) : v(x) {}
    Wide64(long long x) : v(x) {}
    Wide64(unsigned x) : v((long long)x) {}
    Wide64(unsigned long x) : v((long long)x) {}
    Wide64(unsigned long long x) : v((long long)x) {}
    friend Wide64 operator+(Wide64 a, Wide64 b) { return Wide64(a.v + b.v); }
    friend Wide64 operator-(Wide64 a, Wide64 b) { return Wide64(a.v - b.v); }
    friend Wide64 operator*(Wide64 a, Wide64 b) { return Wide64(a.v * b.v); }
    friend Wide64 operator/(Wide64 a, Wide64 b) { return Wide64(a.v / b.v); }
    Wide64 operator-() const { return Wide64(-v); }
    Wide64 &operator+=(Wide64 o) { v += o.v; return *this; }
    Wide64 &operator-=(Wide64 o) { v -= o.v; return *this; }
    friend bool operator<(Wide64 a, Wide64 b) { return a.v < b.v; }
    friend bool operator>(Wide64 a, Wide64 b) { return a.v > b.v; }
    friend bool operator<=(Wide64 a, Wide64 b) { return a.v <= b.v; }
    friend bool operator>=(Wide64 a, Wide64 b) { return a.v >= b.v; }
    friend bool operator==(Wide64 a, Wide64 b) { return a.v == b.v; }
    friend bool operator!=(Wide64 a, Wide64 b) { return a.v != b.v; }
};

inline long long to_ll(int x) { return x; }
inline long long to_ll(Wide64 x) { return x.v; }

}  // namespace galeref

namespace std {
template <>
struct numeric_limits<galeref::Wide64> : numeric_limits<long long> {
    static galeref::Wide64 min() noexcept { return galeref::Wide64(-(1LL << 62)); }
    static galeref::Wide64 max() noexcept { return galeref::Wide64(1LL << 62); }
    static galeref::Wide64 lowest() noexcept { return min(); }
};
}  // namespace std

namespace galeref {

enum { DIR_LEFT = 1, DIR_RIGHT = 2, DIR_BOTH = 3 };

// One reference result in gale's terms.
struct RefResult {
    long long score_left = 0, score_right = 0;  // undefined marker mapped to INT32_MIN - gap
    bool left_undef = false, right_undef = false;
    long long h_begin = 0, h_end = 0, v_begin = 0, v_end = 0;
};

inline bool same(const RefResult &a, const RefResult &b) {
    return a.score_left == b.score_left && a.score_right == b.score_right && a.h_begin == b.h_begin &&
           a.h_end == b.h_end && a.v_begin == b.v_begin && a.v_end == b.v_end;
}

// Score schemes. T is int or Wide64.
template <typename T>
using SimpleScore = seqan::Score<T, seqan::Simple>;
template <typename T>
using MatrixScore = seqan::Score<T, seqan::ScoreMatrix<seqan::Dna5, seqan::Default>>;

template <typename T>
SimpleScore<T> simple_score(int match, int mismatch, int gap) {
    return SimpleScore<T>(T(match), T(mismatch), T(gap));
}

// 5x5 Dna5 matrix: match on the diagonal for A, C, G, T; n_n for N-N; mismatch elsewhere.
template <typename T>
MatrixScore<T> matrix_score(int match, int mismatch, int gap, int n_n) {
    MatrixScore<T> sc{T(gap)};  // gap open = gap extend = gap (linear)
    for (unsigned i = 0; i < 5; ++i)
        for (unsigned j = 0; j < 5; ++j)
            seqan::setScore(sc, seqan::Dna5(i), seqan::Dna5(j), T(i == j ? (i == 4 ? n_n : match) : mismatch));
    return sc;
}

// The per-direction calls of seqan::extendSeed [GappedXDrop], spelled out (same types: the
// sequences are taken as const references, as extendSeed's TDatabase const & / TQuery const &).
// TStr: seqan::Dna5String (GALE_N_DNA5, GALE_N_MISMATCH) or seqan::CharString (GALE_N_BYTES).
template <typename TStr, typename TScore, typename T>
RefResult extend(TStr const &h, TStr const &v, long long h_begin, long long h_end,
                 long long v_begin, long long v_end, int dir, TScore const &sc, T X) {
    using namespace seqan;
    typedef TStr const TSeq;
    Seed<Simple> seed((size_t)h_begin, (size_t)v_begin, (size_t)h_end, (size_t)v_end);
    RefResult r;
    const T undefined = std::numeric_limits<T>::min() - scoreGap(sc);
    const long long gale_undef = (long long)INT32_MIN - to_ll(scoreGap(sc));
    if (dir & DIR_LEFT) {
        typename Prefix<TSeq>::Type databasePrefix = prefix(h, beginPositionH(seed));
        typename Prefix<TSeq>::Type queryPrefix = prefix(v, beginPositionV(seed));
        T s = _extendSeedGappedXDropOneDirection(seed, queryPrefix, databasePrefix, EXTEND_LEFT, sc, X);
        r.left_undef = (s == undefined);
        r.score_left = r.left_undef ? gale_undef : to_ll(s);
    }
    if (dir & DIR_RIGHT) {
        typename Suffix<TSeq>::Type databaseSuffix = suffix(h, endPositionH(seed));
        typename Suffix<TSeq>::Type querySuffix = suffix(v, endPositionV(seed));
        T s = _extendSeedGappedXDropOneDirection(seed, querySuffix, databaseSuffix, EXTEND_RIGHT, sc, X);
        r.right_undef = (s == undefined);
        r.score_right = r.right_undef ? gale_undef : to_ll(s);
    }
    r.h_begin = (long long)beginPositionH(seed);
    r.h_end = (long long)endPositionH(seed);
    r.v_begin = (long long)beginPositionV(seed);
    r.v_end = (long long)endPositionV(seed);
    return r;
}

// The seed positions after SeqAn's public extendSeed(..., GappedXDrop()) (it returns no
// scores). Used to check that extend() above calls SeqAn the way extendSeed does.
template <typename TStr, typename TScore, typename T>
void public_extend_seed(TStr const &h, TStr const &v, long long h_begin,
                        long long h_end, long long v_begin, long long v_end, int dir, TScore const &sc, T X,
                        long long out[4]) {
    using namespace seqan;
    Seed<Simple> seed((size_t)h_begin, (size_t)v_begin, (size_t)h_end, (size_t)v_end);
    ExtensionDirection d = dir == DIR_LEFT ? EXTEND_LEFT : dir == DIR_RIGHT ? EXTEND_RIGHT : EXTEND_BOTH;
    extendSeed(seed, h, v, d, sc, X, GappedXDrop());
    out[0] = (long long)beginPositionH(seed);
    out[1] = (long long)endPositionH(seed);
    out[2] = (long long)beginPositionV(seed);
    out[3] = (long long)endPositionV(seed);
}

// Reverse complement of A C G T (either case), as BELLA applies it to an
// opposite-strand read; other bytes (N, IUPAC) are kept, reversed.
inline std::string revcomp(const std::string &s) {
    std::string r(s.rbegin(), s.rend());
    for (auto &c : r) {
        switch (c) {
        case 'A': c = 'T'; break;
        case 'C': c = 'G'; break;
        case 'G': c = 'C'; break;
        case 'T': c = 'A'; break;
        case 'a': c = 't'; break;
        case 'c': c = 'g'; break;
        case 'g': c = 'c'; break;
        case 't': c = 'a'; break;
        default: break;
        }
    }
    return r;
}

// True where SeqAn's int instantiation is sound for this task: no value derived from
// the undefined marker can wrap (every substitution score >= gap), SeqAn's clamps of
// gap and mismatch to INT_MIN / (2 * max(cols, rows)) do not fire, and no live score or
// best - X can leave int. Elsewhere the reference is the Wide64 instantiation.
inline bool int_sound(int match, int mismatch, int gap, long long X, long long h_len, long long v_len) {
    long long lo = match < mismatch ? match : mismatch;
    if (lo < gap) return false;
    long long len = 2 * ((h_len > v_len ? h_len : v_len) + 1);
    long long min_err = (long long)INT_MIN / len;
    if (gap < min_err || mismatch < min_err) return false;
    long long top = (long long)(match > 0 ? match : 0) * (h_len < v_len ? h_len : v_len);
    // SeqAn computes antiDiagNo * gap on every anti-diagonal (border cells, antiDiagBest).
    long long bottom = (long long)(-gap) * (h_len + v_len + 2);
    return top + X < (1LL << 30) && bottom < (1LL << 30);
}

}  // namespace galeref

#endif
