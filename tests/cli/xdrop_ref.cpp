// xdrop_ref - independent reference for `gale xdrop`, computed with SeqAn 2.4.
//
//   xdrop_ref [-k K] [-x X] [--match M] [--mismatch MM] [--gap G] [--n-mismatch | --bytes] [--wide] FILE
//
// (--wide forces the Wide score type described below, for a self-check.)
//
// Reads LOGAN's demo format (plain text: seqV TAB posV TAB seqH TAB posH TAB
// strand) and prints, per pair, the line `gale xdrop` must print:
//   index score_left score_right score begH endH begV endV
//
// Everything here is SeqAn: sequences are Dna5String (case folded, other
// codes read as N; with --bytes CharString, bytes compared exactly, strand `c`
// complemented byte by byte as doc/cli.md says), strand `c` is done with
// seqan::reverseComplement and
// posH -> len(H) - posH - k (BELLA's transform), the seed is a Seed<Simple>,
// and the two directions are computed exactly as seqan::extendSeed
// [GappedXDrop] calls them: _extendSeedGappedXDropOneDirection on
// (queryPrefix = prefix(V), databasePrefix = prefix(H), EXTEND_LEFT), then on
// the suffixes with EXTEND_RIGHT; the return values are the per-direction
// scores (extendSeed itself drops them).
//
// Score types and the SeqAn calls are those of the oracle suite's reference,
// tests/oracle/seqan_xdrop_ref.hpp (read it for why a wide 64-bit score type
// is a faithful reference where SeqAn's int instantiation would wrap or clamp).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "seqan_xdrop_ref.hpp"

using namespace seqan;

namespace {

struct Opts {
    long long k = 17, x = 100, match = 1, mismatch = -1, gap = -1;
    bool n_mismatch = false;
    bool bytes = false;       // --bytes: CharString, bytes compared exactly (gale's GALE_N_BYTES)
    bool force_wide = false;  // --wide: use Wide64 even where int is sound (self-check)
    const char *file = nullptr;
};

[[noreturn]] void die(const std::string &m) { cli_die("xdrop_ref", 1, m); }

long long to_ll(const std::string &s, const std::string &what) { return cli_to_ll("xdrop_ref", 1, s, what); }

// One pair, both directions, in score type T.
template <typename T, typename TStr>
galeref::RefResult run_pair(Opts const &o, TStr const &h, TStr const &v, long long posH, long long posV)
{
    const int m = (int)o.match, mm = (int)o.mismatch, g = (int)o.gap;
    if (o.n_mismatch && !o.bytes)
        return galeref::extend(h, v, posH, posH + o.k, posV, posV + o.k, galeref::DIR_BOTH,
                               galeref::matrix_score<T>(m, mm, g, mm), T(o.x));
    return galeref::extend(h, v, posH, posH + o.k, posV, posV + o.k, galeref::DIR_BOTH,
                           galeref::simple_score<T>(m, mm, g), T(o.x));
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
        else if (a == "--bytes") o.bytes = true;
        else if (a == "--wide") o.force_wide = true;
        else if (!a.empty() && a[0] == '-') die("unknown option " + a);
        else if (!o.file) o.file = argv[i];
        else die("more than one FILE");
    }
    if (!o.file)
        die("usage: xdrop_ref [-k K] [-x X] [--match M] [--mismatch MM] [--gap G] [--n-mismatch] FILE");
    if (o.k < 1 || o.gap >= 0)
        die("need k >= 1 and gap < 0");

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
        long long posV = to_ll(f[1], "posV"), posH = to_ll(f[3], "posH");
        if (posV < 0 || posH < 0 || posV + o.k > (long long)f[0].size() || posH + o.k > (long long)f[2].size())
            die("line " + std::to_string(lineno) + ": seed outside the sequences");
        if (f[4] != "c" && f[4] != "n")
            die("line " + std::to_string(lineno) + ": bad strand");
        if (f[4] == "c") posH = (long long)f[2].size() - posH - o.k;
        // int as BELLA where SeqAn's int arithmetic is sound, Wide64 elsewhere
        const bool wide = o.force_wide || !galeref::int_sound((int)o.match, (int)o.mismatch, (int)o.gap, o.x,
                                                              (long long)f[2].size(), (long long)f[0].size());
        galeref::RefResult r;
        if (o.bytes) {
            // doc/cli.md: strand c complements every accepted byte, case kept (R <-> Y, ...)
            CharString v = f[0], h = f[2];
            if (f[4] == "c") {
                static const std::string from = "ACGTUNRYSWKMBDHVacgtunryswkmbdhv",
                                         to = "TGCAANYRSWMKVHDBtgcaanyrswmkvhdb";
                std::string rc(f[2].rbegin(), f[2].rend());
                for (char &c : rc) {
                    size_t at = from.find(c);
                    if (at == std::string::npos) die("line " + std::to_string(lineno) + ": bad byte in seqH");
                    c = to[at];
                }
                h = rc;
            }
            r = wide ? run_pair<galeref::Wide64>(o, h, v, posH, posV) : run_pair<int>(o, h, v, posH, posV);
        } else {
            Dna5String v = f[0], h = f[2];
            if (f[4] == "c") reverseComplement(h);
            r = wide ? run_pair<galeref::Wide64>(o, h, v, posH, posV) : run_pair<int>(o, h, v, posH, posV);
        }
        std::printf("%llu\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\n", index, r.score_left, r.score_right,
                    r.score_left + r.score_right + o.k, r.h_begin, r.h_end, r.v_begin, r.v_end);
        ++index;
    }
    if (in.bad())
        die("read error");
    return std::fflush(stdout) == 0 ? 0 : 1;
}
