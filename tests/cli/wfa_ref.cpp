// wfa_ref - independent reference for `gale wfa`, computed with WFA2-lib 2.3.3.
//
//   wfa_ref [--edit] [--mismatch X] [--gap-open O] [--gap-extend E]
//           [--gap-open2 O2 --gap-extend2 E2] [--ends-free PB,PE,TB,TE]
//           [--n-mismatch | --bytes] [--score-only] [--wfa-heuristic S[,S..] --wfa-xdrop N ...]
//           --check GALE_TSV  PATTERNS TEXTS | PAIRS.seq
//
// Reads the same pairs as gale (plain text only: two FASTA/FASTQ files, record i
// with record i, or WFA2-lib's .seq format), aligns each with WFA2-lib (default
// attributes, heuristic.strategy = wf_heuristic_none, so the result is exact) and
// checks gale's output GALE_TSV, written by `gale wfa --coords` (index score cigar
// pattern_begin pattern_end text_begin text_end), line by line:
//   - one line per pair, index 0, 1, 2, ... in input order;
//   - score equal to WFA2-lib's cigar->score;
//   - unless --score-only: the CIGAR uses = X I D only, walks from (pattern_begin,
//     text_begin) to (pattern_end, text_end) with '=' on equal and 'X' on unequal
//     bases, leaves unaligned only what the ends-free span allows (as WFA2-lib
//     defines it: the alignment starts on row 0 or column 0 within the begin-free
//     lengths and ends on the last row or column within the end-free lengths), and
//     rescores to exactly the printed score.
// With --wfa-heuristic and gale's heuristic parameter options (named as gale's; not
// --wfa-heuristic-parameters) WFA2-lib runs with the same heuristic (memory mode med);
// a pair it finds unfeasible must be printed as '*' '*', and a CIGAR may rescore above
// the printed score (two gaps back to back show as one).
// Prints one line per problem (at most 20) and a summary; exit 0 only when all
// pairs agree. gale's options that never change a result (--memory-limit,
// --batch-size, --batch-bases, --threads, --backend) are accepted and ignored,
// so that a test can hand both programs the same options.
//
// Alphabet: gale folds case, reads U as T and the IUPAC codes as N; WFA2-lib
// compares bytes. The sequences are mapped the same way before WFA2-lib sees
// them; with --n-mismatch an N of the text becomes a byte no pattern base has,
// so N mismatches everything, N included; with --bytes (gale's GALE_N_BYTES) they
// go to WFA2-lib as they are.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "wfa2_attr.hpp"

namespace {

struct Opts {
    bool edit = false, n_mismatch = false, bytes = false, score_only = false;
    long long x = 4, o = 6, e = 2, o2 = 0, e2 = 0;
    bool two_piece = false;
    long long free_len[4] = {0, 0, 0, 0};
    bool ends_free = false;
    const char *check = nullptr;
    std::vector<std::string> inputs;
    // --wfa-heuristic (WFA2-lib's strategy bits, as gale reads the names) and its
    // parameters, given to WFA2-lib as they are: gale must print WFA2-lib's scores,
    // '*' where WFA2-lib finds every path cut (WF_STATUS_UNFEASIBLE).
    int heuristic = 0;
    int hp[7] = {10, 50, 1, 100, 100, -100, 100};  // gale/wfa.h's defaults
};

[[noreturn]] void die(const std::string &m) { cli_die("wfa_ref", 2, m); }

long long to_ll(const std::string &s, const std::string &what) { return cli_to_ll("wfa_ref", 2, s, what); }

struct Pair {
    std::string pattern, text;
};

void strip_cr(std::string &l)
{
    if (!l.empty() && l.back() == '\r')
        l.pop_back();
}

std::vector<Pair> read_seq_file(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        die("cannot open " + path);
    std::vector<Pair> v;
    std::string a, b;
    while (std::getline(in, a)) {
        strip_cr(a);
        if (!std::getline(in, b))
            die(path + ": odd number of lines");
        strip_cr(b);
        if (a.empty() || a[0] != '>' || b.empty() || b[0] != '<')
            die(path + ": not a .seq pair: " + a.substr(0, 20) + " / " + b.substr(0, 20));
        v.push_back({a.substr(1), b.substr(1)});
    }
    return v;
}

// FASTA (multi-line) or FASTQ (sequence lines up to '+', then as many quality
// characters as bases).
std::vector<std::string> read_fastx(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        die("cannot open " + path);
    std::vector<std::string> seqs;
    std::string l;
    bool have = false;
    while (have || std::getline(in, l)) {
        have = false;
        strip_cr(l);
        if (l.empty())
            continue;
        if (l[0] == '>') {
            std::string s;
            while (std::getline(in, l)) {
                strip_cr(l);
                if (!l.empty() && l[0] == '>') {
                    have = true;
                    break;
                }
                s += l;
            }
            seqs.push_back(s);
        } else if (l[0] == '@') {
            std::string s, q;
            for (;;) {
                if (!std::getline(in, l))
                    die(path + ": truncated FASTQ");
                strip_cr(l);
                if (!l.empty() && l[0] == '+')
                    break;
                s += l;
            }
            while (q.size() < s.size()) {
                if (!std::getline(in, l))
                    die(path + ": truncated FASTQ quality");
                strip_cr(l);
                q += l;
            }
            seqs.push_back(s);
        } else {
            die(path + ": not FASTA/FASTQ: " + l.substr(0, 20));
        }
    }
    return seqs;
}

// gale's alphabet: case folded, U = T, IUPAC codes = N. side 1 = text.
std::string map_seq(const std::string &s, bool text, bool n_mismatch)
{
    std::string r(s.size(), 'N');
    for (size_t i = 0; i < s.size(); ++i) {
        char c = (char)std::toupper((unsigned char)s[i]);
        if (c == 'U')
            c = 'T';
        if (std::strchr("ACGT", c) && c != '\0')
            r[i] = c;
        else if (std::strchr("NRYSWKMBDHV", c) && c != '\0')
            r[i] = (text && n_mismatch) ? 'Z' : 'N';
        else
            die(std::string("unexpected byte '") + s[i] + "' in the input");
    }
    return r;
}

constexpr long long kUnfeasible = LLONG_MIN;  // every path cut (heuristics)

struct Ref {
    wavefront_aligner_t *wf = nullptr;
    explicit Ref(const Opts &o)
    {
        wavefront_aligner_attr_t a = wfa2_attr(o.edit, o.two_piece, o.x, o.o, o.e, o.o2, o.e2);
        a.alignment_scope = compute_score;
        a.heuristic.strategy = (wf_heuristic_strategy)o.heuristic;
        a.heuristic.min_wavefront_length = o.hp[0];
        a.heuristic.max_distance_threshold = o.hp[1];
        a.heuristic.steps_between_cutoffs = o.hp[2];
        a.heuristic.xdrop = o.hp[3];
        a.heuristic.zdrop = o.hp[4];
        a.heuristic.min_k = o.hp[5];
        a.heuristic.max_k = o.hp[6];
        if (o.heuristic) a.memory_mode = wavefront_memory_med;  // high may run out of wavefronts when pruned
        a.alignment_form.span = alignment_end2end;
        wf = wavefront_aligner_new(&a);
        if (!wf)
            die("wavefront_aligner_new failed");
    }
    ~Ref() { wavefront_aligner_delete(wf); }

    long long score(const Opts &o, const std::string &p, const std::string &t)
    {
        if (o.ends_free) {
            // gale clamps the free lengths to each sequence's length
            auto c = [](long long v, size_t n) { return (int)std::min<long long>(v, (long long)n); };
            wavefront_aligner_set_alignment_free_ends(wf, c(o.free_len[0], p.size()), c(o.free_len[1], p.size()),
                                                      c(o.free_len[2], t.size()), c(o.free_len[3], t.size()));
        }
        int st = wavefront_align(wf, p.data(), (int)p.size(), t.data(), (int)t.size());
        if (st == WF_STATUS_UNFEASIBLE && o.heuristic)
            return kUnfeasible;
        if (st != WF_STATUS_SUCCESSFUL)
            die("wavefront_align failed with status " + std::to_string(st));
        return wf->cigar->score;
    }
};

struct Op {
    long long len;
    char code;
};

bool parse_cigar(const std::string &s, std::vector<Op> &ops)
{
    ops.clear();
    if (s == "*")
        return true;
    size_t i = 0;
    while (i < s.size()) {
        long long len = 0;
        size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            len = len * 10 + (s[i++] - '0');
        if (i == start || i >= s.size() || len <= 0)
            return false;
        char c = s[i++];
        if (c != '=' && c != 'X' && c != 'I' && c != 'D')
            return false;
        ops.push_back({len, c});
    }
    return true;
}

// Returns "" when the CIGAR is a valid alignment of the pair that rescores to
// `score`, else what is wrong.
std::string check_alignment(const Opts &o, const std::string &p, const std::string &t, const std::string &cigar,
                            long long score, long long pb, long long pe, long long tb, long long te)
{
    const long long m = (long long)p.size(), n = (long long)t.size();
    std::vector<Op> ops;
    if (!parse_cigar(cigar, ops))
        return "malformed CIGAR '" + cigar + "'";
    for (size_t i = 1; i < ops.size(); ++i)
        if (ops[i].code == ops[i - 1].code)
            return "CIGAR has two neighbouring " + std::string(1, ops[i].code) + " runs";
    if (pb < 0 || pb > pe || pe > m || tb < 0 || tb > te || te > n)
        return "coordinates out of range";
    // where the alignment may start and end (WFA2-lib's ends-free definition)
    auto c = [](long long v, long long len) { return std::min(v, len); };
    const long long PB = o.ends_free ? c(o.free_len[0], m) : 0, PE = o.ends_free ? c(o.free_len[1], m) : 0;
    const long long TB = o.ends_free ? c(o.free_len[2], n) : 0, TE = o.ends_free ? c(o.free_len[3], n) : 0;
    if (!((pb == 0 && tb <= TB) || (tb == 0 && pb <= PB)))
        return "begin (" + std::to_string(pb) + ", " + std::to_string(tb) + ") outside the begin-free span";
    if (!((pe == m && n - te <= TE) || (te == n && m - pe <= PE)))
        return "end (" + std::to_string(pe) + ", " + std::to_string(te) + ") outside the end-free span";
    long long v = pb, h = tb, penalty = 0;
    for (const Op &op : ops) {
        if (op.code == '=' || op.code == 'X') {
            if (v + op.len > m || h + op.len > n)
                return "CIGAR runs past a sequence end";
            for (long long i = 0; i < op.len; ++i) {
                bool eq = p[v + i] == t[h + i];
                if (eq != (op.code == '='))
                    return std::string("'") + op.code + "' at pattern " + std::to_string(v + i) + ", text " +
                           std::to_string(h + i) + " where the bases " + (eq ? "match" : "differ");
            }
            if (op.code == 'X')
                penalty += o.edit ? op.len : op.len * o.x;
            v += op.len;
            h += op.len;
        } else {
            if (op.code == 'I')
                v += op.len;  // consumes the pattern only (SAM's I: the read has extra bases)
            else
                h += op.len;  // consumes the text only
            if (v > m || h > n)
                return "CIGAR runs past a sequence end";
            if (o.edit) {
                penalty += op.len;
            } else {
                long long g = o.o + op.len * o.e;
                if (o.two_piece)
                    g = std::min(g, o.o2 + op.len * o.e2);
                penalty += g;
            }
        }
    }
    if (v != pe || h != te)
        return "CIGAR ends at (" + std::to_string(v) + ", " + std::to_string(h) + "), not at the printed end (" +
               std::to_string(pe) + ", " + std::to_string(te) + ")";
    const long long rescored = o.edit ? penalty : -penalty;
    // Under a heuristic a pruned path may take two gaps of one kind back to back, which a
    // CIGAR shows as one gap: it then rescores above the path's score, never below.
    if (o.heuristic ? rescored < score : rescored != score)
        return "CIGAR rescores to " + std::to_string(rescored) + ", printed score " + std::to_string(score);
    return "";
}

std::vector<std::string> split_tabs(const std::string &s)
{
    std::vector<std::string> f;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, '\t'))
        f.push_back(cur);
    if (!s.empty() && s.back() == '\t')
        f.push_back("");
    return f;
}

}  // namespace

int main(int argc, char **argv)
{
    Opts o;
    bool have_o2 = false, have_e2 = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc)
                die("missing value for " + a);
            return argv[++i];
        };
        if (a == "--edit") o.edit = true;
        else if (a == "--n-mismatch") o.n_mismatch = true;
        else if (a == "--bytes") o.bytes = true;
        else if (a == "--score-only") o.score_only = true;
        else if (a == "--mismatch") o.x = to_ll(val(), a);
        else if (a == "--gap-open") o.o = to_ll(val(), a);
        else if (a == "--gap-extend") o.e = to_ll(val(), a);
        else if (a == "--gap-open2") { o.o2 = to_ll(val(), a); have_o2 = true; }
        else if (a == "--gap-extend2") { o.e2 = to_ll(val(), a); have_e2 = true; }
        else if (a == "--ends-free") {
            std::string s = val();
            std::istringstream in(s);
            std::string f;
            int k = 0;
            while (std::getline(in, f, ',')) {
                if (k >= 4)
                    die("--ends-free takes 4 values");
                o.free_len[k++] = to_ll(f, "--ends-free");
            }
            if (k != 4)
                die("--ends-free takes 4 values");
            o.ends_free = true;
        } else if (a == "--check") o.check = argv[i + 1 < argc ? ++i : i];
        else if (a == "--wfa-heuristic") {
            std::istringstream in(val());
            std::string f;
            while (std::getline(in, f, ',')) {
                if (f == "wfa-adaptive") o.heuristic |= wf_heuristic_wfadaptive;
                else if (f == "wfmash") o.heuristic |= wf_heuristic_wfmash;
                else if (f == "xdrop") o.heuristic |= wf_heuristic_xdrop;
                else if (f == "zdrop") o.heuristic |= wf_heuristic_zdrop;
                else if (f == "banded-static") o.heuristic |= wf_heuristic_banded_static;
                else if (f == "banded-adaptive") o.heuristic |= wf_heuristic_banded_adaptive;
                else if (f != "none") die("unknown heuristic " + f);
            }
        } else if (a == "--wfa-min-wavefront-length") o.hp[0] = (int)to_ll(val(), a);
        else if (a == "--wfa-max-distance-threshold") o.hp[1] = (int)to_ll(val(), a);
        else if (a == "--wfa-steps-between-cutoffs") o.hp[2] = (int)to_ll(val(), a);
        else if (a == "--wfa-xdrop") o.hp[3] = (int)to_ll(val(), a);
        else if (a == "--wfa-zdrop") o.hp[4] = (int)to_ll(val(), a);
        else if (a == "--wfa-band-min-k") o.hp[5] = (int)to_ll(val(), a);
        else if (a == "--wfa-band-max-k") o.hp[6] = (int)to_ll(val(), a);
        else if (a == "--memory-limit" || a == "--batch-size" || a == "--batch-bases" || a == "--threads" ||
                 a == "--backend") val();  // gale options that never change a result
        else if (!a.empty() && a[0] == '-') die("unknown option " + a);
        else o.inputs.push_back(a);
    }
    if (have_o2 != have_e2)
        die("--gap-open2 and --gap-extend2 go together");
    o.two_piece = have_e2 && o.e2 > 0;
    if (!o.check || o.inputs.empty() || o.inputs.size() > 2)
        die("usage: wfa_ref [options] --check GALE_TSV PATTERNS TEXTS | PAIRS.seq");

    std::vector<Pair> pairs;
    if (o.inputs.size() == 1) {
        pairs = read_seq_file(o.inputs[0]);
    } else {
        std::vector<std::string> ps = read_fastx(o.inputs[0]), ts = read_fastx(o.inputs[1]);
        if (ps.size() != ts.size())
            die("the two files hold different numbers of records");
        for (size_t i = 0; i < ps.size(); ++i)
            pairs.push_back({ps[i], ts[i]});
    }

    std::ifstream gin(o.check);
    if (!gin)
        die(std::string("cannot open ") + o.check);
    Ref ref(o);
    size_t problems = 0, lineno = 0;
    long long free_ends_used = 0, unfeasible = 0;
    auto problem = [&](size_t i, const std::string &m) {
        if (++problems <= 20)
            std::printf("pair %zu: %s\n", i, m.c_str());
    };
    std::string line;
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (!std::getline(gin, line)) {
            problem(i, "missing from gale's output");
            break;
        }
        ++lineno;
        // --bytes: WFA2-lib gets the bytes as they are (map_seq only checks them)
        const std::string p = o.bytes ? (map_seq(pairs[i].pattern, false, false), pairs[i].pattern)
                                      : map_seq(pairs[i].pattern, false, o.n_mismatch);
        const std::string t = o.bytes ? (map_seq(pairs[i].text, true, false), pairs[i].text)
                                      : map_seq(pairs[i].text, true, o.n_mismatch);
        std::vector<std::string> f = split_tabs(line);
        if (f.size() != 7) {
            problem(i, "gale's line has " + std::to_string(f.size()) + " fields, expected 7 (run gale with --coords)");
            continue;
        }
        if (f[0] != std::to_string(i)) {
            problem(i, "index field '" + f[0] + "'");
            continue;
        }
        const long long want = ref.score(o, p, t);
        if (want == kUnfeasible || f[1] == "*") {
            if (want != kUnfeasible)
                problem(i, "gale printed no alignment ('*'), WFA2-lib scored " + std::to_string(want));
            else if (f[1] != "*" || f[2] != "*")
                problem(i, "WFA2-lib found every path cut, gale printed '" + f[1] + "'");
            else
                ++unfeasible;
            continue;
        }
        const long long got = to_ll(f[1], "score");
        if (got != want) {
            problem(i, "score " + std::to_string(got) + ", WFA2-lib " + std::to_string(want) + " (lengths " +
                           std::to_string(p.size()) + ", " + std::to_string(t.size()) + ")");
            continue;
        }
        if (o.score_only) {
            if (f[2] != "*")
                problem(i, "--score-only but a CIGAR '" + f[2] + "'");
            continue;
        }
        const long long pb = to_ll(f[3], "pattern_begin"), pe = to_ll(f[4], "pattern_end");
        const long long tb = to_ll(f[5], "text_begin"), te = to_ll(f[6], "text_end");
        std::string why = check_alignment(o, p, t, f[2], got, pb, pe, tb, te);
        if (!why.empty())
            problem(i, why);
        if (pb > 0 || tb > 0 || pe < (long long)p.size() || te < (long long)t.size())
            ++free_ends_used;
    }
    if (problems == 0 && std::getline(gin, line))
        problem(pairs.size(), "gale printed more lines than there are pairs");
    std::printf("wfa_ref: %zu pairs, %zu problems%s", pairs.size(), problems,
                o.score_only ? " (scores only)\n" : "");
    if (!o.score_only)
        std::printf(", %lld alignments leave an end unaligned\n", free_ends_used);
    if (o.heuristic)
        std::printf("wfa_ref: heuristic 0x%x, %lld pairs without an alignment (every path cut)\n", o.heuristic,
                    unfeasible);
    return problems == 0 ? 0 : 1;
}
