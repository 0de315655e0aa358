// xdrop_ref - independent reference for `gale xdrop`, computed with SeqAn 2.4.
//
//   xdrop_ref [-k K] [-x X] [--match M] [--mismatch MM] [--gap G] [--n-mismatch] [--wide] FILE
//
// (--wide forces the Wide score type described below, for a self-check.)
//
// Reads LOGAN's demo format (plain text: seqV TAB posV TAB seqH TAB posH TAB
// strand) and prints, per pair, the line `gale xdrop` must print:
//   index score_left score_right score begH endH begV endV
//
// Everything here is SeqAn: sequences are Dna5String (case folded, other
// codes read as N), strand `c` is done with seqan::reverseComplement and
// posH -> len(H) - posH - k (BELLA's transform), the seed is a Seed<Simple>,
// and the two directions are computed exactly as seqan::extendSeed
// [GappedXDrop] calls them: _extendSeedGappedXDropOneDirection on
// (queryPrefix = prefix(V), databasePrefix = prefix(H), EXTEND_LEFT), then on
// the suffixes with EXTEND_RIGHT; the return values are the per-direction
// scores (extendSeed itself drops them).
//
// Score type: Score<int, Simple>(match, mismatch, gap) as BELLA uses it when
// min(match, mismatch) >= gap. Otherwise SeqAn's DP wraps: it marks dropped
// cells with undefined = numeric_limits<T>::min() - gap and adds substitution
// scores to it, so a score below the gap overflows -- whatever the width of T
// (an int64_t instantiation wraps just the same, to ~ +2^63). There the same
// SeqAn code is instantiated with Wide, a 64-bit integer class whose
// numeric_limits::min() is -2^62: undefined + any score stays far below every
// kept cell, so a value derived from a dropped cell is dropped again, which is
// what the algorithm means (and what SeqAn computes wherever it does not wrap).
// When no end cell is found SeqAn returns its undefined marker; the reference
// then prints the int instantiation's marker, INT_MIN - gap, as BELLA would see.
// --n-mismatch (N mismatches everything, N included) uses a ScoreMatrix<Dna5>
// with the same values.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <type_traits>
#include <iostream>
#include <string>
#include <vector>

#include <seqan/basic.h>
#include <seqan/score.h>
#include <seqan/seeds.h>
#include <seqan/sequence.h>

using namespace seqan;

// A 64-bit score value for SeqAn whose "minimum" leaves room below it (see above).
struct Wide {
    int64_t v;
    Wide() : v(0) {}
    template <typename T, typename = typename std::enable_if<std::is_integral<T>::value>::type>
    Wide(T x) : v((int64_t)x) {}
    explicit operator long long() const { return (long long)v; }
    Wide operator-() const { return Wide(-v); }
    Wide &operator+=(Wide o) { v += o.v; return *this; }
    Wide &operator-=(Wide o) { v -= o.v; return *this; }
    friend Wide operator+(Wide a, Wide b) { return Wide(a.v + b.v); }
    friend Wide operator-(Wide a, Wide b) { return Wide(a.v - b.v); }
    friend Wide operator*(Wide a, Wide b) { return Wide(a.v * b.v); }
    friend Wide operator/(Wide a, Wide b) { return Wide(a.v / b.v); }
    friend bool operator<(Wide a, Wide b) { return a.v < b.v; }
    friend bool operator>(Wide a, Wide b) { return a.v > b.v; }
    friend bool operator<=(Wide a, Wide b) { return a.v <= b.v; }
    friend bool operator>=(Wide a, Wide b) { return a.v >= b.v; }
    friend bool operator==(Wide a, Wide b) { return a.v == b.v; }
    friend bool operator!=(Wide a, Wide b) { return a.v != b.v; }
    friend std::ostream &operator<<(std::ostream &os, Wide a) { return os << a.v; }
};


namespace std {
template <>
struct numeric_limits<Wide> {
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = true;
    static Wide min() { return Wide(-(INT64_C(1) << 62)); }
    static Wide max() { return Wide(INT64_C(1) << 62); }
    static Wide lowest() { return min(); }
};
}  // namespace std

namespace {

struct Opts {
    long long k = 17, x = 100, match = 1, mismatch = -1, gap = -1;
    bool n_mismatch = false;
    bool force_wide = false;  // --wide: use Wide even where int is sound (self-check)
    const char *file = nullptr;
};

[[noreturn]] void die(const std::string &m)
{
    std::cerr << "xdrop_ref: " << m << "\n";
    std::exit(1);
}

long long to_ll(const std::string &s, const std::string &what)
{
    if (s.empty())
        die("bad " + what + ": empty");
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno || *end)
        die("bad " + what + ": '" + s + "'");
    return v;
}

// A returned score as BELLA's int instantiation would print it: SeqAn's
// "no end cell" marker, numeric_limits<T>::min() - gap, becomes INT_MIN - gap.
template <typename TScoreValue, typename TScoreSpec>
long long report(TScoreValue s, Score<TScoreValue, TScoreSpec> const &sc)
{
    if (s == std::numeric_limits<TScoreValue>::min() - scoreGap(sc))
        return (long long)INT32_MIN - (long long)scoreGap(sc);
    return (long long)s;
}

// One pair, both directions, as extendSeed [GappedXDrop] does it, keeping the
// two returned scores.
template <typename TScoreValue, typename TScoreSpec>
void extend_pair(Dna5String const &database, Dna5String const &query, size_t posH, size_t posV, size_t k,
                 Score<TScoreValue, TScoreSpec> const &scoringScheme, TScoreValue scoreDropOff,
                 long long out[7])
{
    Seed<Simple> seed(posH, posV, posH + k, posV + k);

    typedef typename Prefix<Dna5String const>::Type TPrefix;
    typedef typename Suffix<Dna5String const>::Type TSuffix;

    TPrefix databasePrefix = prefix(database, beginPositionH(seed));
    TPrefix queryPrefix = prefix(query, beginPositionV(seed));
    TScoreValue left = _extendSeedGappedXDropOneDirection(seed, queryPrefix, databasePrefix, EXTEND_LEFT,
                                                          scoringScheme, scoreDropOff);

    TSuffix databaseSuffix = suffix(database, endPositionH(seed));
    TSuffix querySuffix = suffix(query, endPositionV(seed));
    TScoreValue right = _extendSeedGappedXDropOneDirection(seed, querySuffix, databaseSuffix, EXTEND_RIGHT,
                                                           scoringScheme, scoreDropOff);

    out[0] = report(left, scoringScheme);
    out[1] = report(right, scoringScheme);
    out[2] = out[0] + out[1] + (long long)k;
    out[3] = (long long)beginPositionH(seed);
    out[4] = (long long)endPositionH(seed);
    out[5] = (long long)beginPositionV(seed);
    out[6] = (long long)endPositionV(seed);
}

template <typename TScoreValue>
void run_pair(Opts const &o, Dna5String const &h, Dna5String const &v, size_t posH, size_t posV, long long out[7])
{
    size_t k = (size_t)o.k;
    TScoreValue X = (TScoreValue)o.x;
    if (!o.n_mismatch) {
        Score<TScoreValue, Simple> sc((TScoreValue)o.match, (TScoreValue)o.mismatch, (TScoreValue)o.gap);
        extend_pair(h, v, posH, posV, k, sc, X, out);
    } else {
        Score<TScoreValue, ScoreMatrix<Dna5, Default> > sc((TScoreValue)o.gap);
        for (unsigned a = 0; a < 5; ++a)
            for (unsigned b = 0; b < 5; ++b)
                setScore(sc, Dna5(a), Dna5(b),
                         (TScoreValue)((a == b && a != 4) ? o.match : o.mismatch));
        extend_pair(h, v, posH, posV, k, sc, X, out);
    }
}

std::vector<std::string> split_tabs(const std::string &s)
{
    std::vector<std::string> f;
    size_t start = 0;
    for (;;) {
        size_t t = s.find('\t', start);
        if (t == std::string::npos) {
            f.push_back(s.substr(start));
            return f;
        }
        f.push_back(s.substr(start, t - start));
        start = t + 1;
    }
}

}  // namespace

int main(int argc, char **argv)
{
    Opts o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&](void) -> long long {
            if (i + 1 >= argc)
                die("missing value for " + a);
            return to_ll(argv[++i], a);
        };
        if (a == "-k") o.k = val();
        else if (a == "-x") o.x = val();
        else if (a == "--match") o.match = val();
        else if (a == "--mismatch") o.mismatch = val();
        else if (a == "--gap") o.gap = val();
        else if (a == "--n-mismatch") o.n_mismatch = true;
        else if (a == "--wide") o.force_wide = true;
        else if (!a.empty() && a[0] == '-') die("unknown option " + a);
        else if (!o.file) o.file = argv[i];
        else die("more than one FILE");
    }
    if (!o.file)
        die("usage: xdrop_ref [-k K] [-x X] [--match M] [--mismatch MM] [--gap G] [--n-mismatch] FILE");
    if (o.k < 1 || o.gap >= 0)
        die("need k >= 1 and gap < 0");

    // int as BELLA, unless a substitution score below the gap would overflow it
    bool wide = o.force_wide || std::min(o.match, o.mismatch) < o.gap;

    std::ifstream in(o.file);
    if (!in)
        die(std::string("cannot open ") + o.file);
    std::string line;
    unsigned long long index = 0, lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::vector<std::string> f = split_tabs(line);
        if (f.size() != 5)
            die("line " + std::to_string(lineno) + ": expected 5 fields");
        Dna5String v = f[0];
        Dna5String h = f[2];
        long long posV = to_ll(f[1], "posV"), posH = to_ll(f[3], "posH");
        if (posV < 0 || posH < 0 || posV + o.k > (long long)length(v) || posH + o.k > (long long)length(h))
            die("line " + std::to_string(lineno) + ": seed outside the sequences");
        if (f[4] == "c") {
            reverseComplement(h);
            posH = (long long)length(h) - posH - o.k;
        } else if (f[4] != "n") {
            die("line " + std::to_string(lineno) + ": bad strand");
        }
        long long out[7];
        if (wide)
            run_pair<Wide>(o, h, v, (size_t)posH, (size_t)posV, out);
        else
            run_pair<int>(o, h, v, (size_t)posH, (size_t)posV, out);
        std::printf("%llu\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\n", index, out[0], out[1], out[2], out[3],
                    out[4], out[5], out[6]);
        ++index;
    }
    if (in.bad())
        die("read error");
    return std::fflush(stdout) == 0 ? 0 : 1;
}
