// wfa_core_host.cpp - the CUDA WFA kernel's per-alignment code run on the host,
// against the CPU backend, bit for bit. No GPU and no nvcc: the kernel's align()
// (cuda/common/wfa_core.cuh) is written against a group of threads, and here it
// runs with a group of one thread (HostGroup). Each task is set up as the
// dispatcher (cuda/wfa.cu) does it: the pen (make_pen), the score budget
// (score_budget), the exact diagonal window and cells (simulate_ranges), the unit's
// shape (shape_layout), 2-bit packed sequences with an N mask (pack_bases: 32-base
// aligned starts among other sequences, 4 zero padding words after the last); then
// Out and the backtrace become a result as wfa_run's collect makes it, the CIGAR
// rebuilt by this test's own replay of lib/wfa.h's rule from the backtrace
// codes, which the kernel walks itself (a code byte per cell; Out::k0 and the ops,
// the last first).
//
// Every region of a unit is its own heap block of exactly its size, filled with a
// random byte first (a GPU unit is reused without clearing), so ASan catches a
// kernel access outside a region and a read of a stale value changes the result.
//
// Compared with the CPU backend (public API): score, h/v begin and end, cells and
// the CIGAR; the CPU result must carry no flag. Cases:
//   edge    fixed pairs (empty, length 1, identical, all N, lowercase, IUPAC, U,
//           16/32-base word boundaries) on a grid of settings (4 penalty kinds x 2
//           scopes x 2 N policies x 3 spans), each with int16 and int32 offsets
//           (alignment scope: the codes);
//   reach   pairs where a diagonal that is not the last reaches the end of the text
//           or the pattern scores before the alignment ends (nearly a prefix of the
//           other, then a tail of 1 .. 200 bases; a few bases against hundreds), both
//           ways, for 6 penalty sets (some with x < e) x 2 scopes x 6 spans (none,
//           text end, pattern end, both, small, all four), int16 and int32 offsets;
//   random  >= 3,000 pairs (GALE_TEST_SCALE scales them) in batches of random
//           settings: GALE_WFA one- and two-piece with random penalties, GALE_EDIT,
//           both scopes, both N policies, end-to-end or random free lengths (some
//           beyond the lengths), lengths 0..2,000, divergence 0..40%, pairs cut or
//           unrelated, lowercase, N and IUPAC runs; per pair int16 or int32
//           offsets (int32 on short pairs too), U = 2 or 4 cells per thread, the
//           window padded as in a chunk of larger tasks, the pair among other
//           sequences or last. Budgets from an expected error of 1000 per mille: a
//           task over its budget (Out status 1) is skipped and counted, and more
//           than 5% fails. One pair in 20 gets a tight budget (1..100 per mille) to
//           run the overflow exit: there status 1 is allowed (counted apart).
//   heuristic >= 1,200 pairs as the random ones, each batch with a random WFA2-lib
//           heuristic (strategies combined, small parameters so that they cut): the
//           kernel's heuristic mode (align_heuristic, int32 offsets) against the CPU's,
//           an unfeasible alignment (GALE_RF_UNFEASIBLE) included; then edit end-to-end
//           pairs of 1,500-3,000 bases far apart under wf-adaptive or wfmash, where
//           WFA2-lib's exact prune of wide wavefronts decides what the cut-offs see.
//   Status 2 (a broken backtrace) is always a failure.
// The seed is printed; GALE_TEST_SEED reproduces a run.
#include "testutil.h"
#include "wfa_check.h"

#include "cuda/common/pack.cuh"
#include "cuda/common/wfa_core.cuh"
#include "cuda/common/wfa_heuristic.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace gale;
using namespace gale::wfag;

namespace {

// The one-thread group: the minimum of one value is the value (the GPU's is also
// the barrier), and so is thread 0's value broadcast.
struct HostGroup {
    static constexpr int size = 1;
    int tid() const { return 0; }
    int32_t min(int32_t v) { return v; }
    int32_t bcast(int32_t v) { return v; }
};

// The cancel word every emulated alignment polls (cuda/common/cancel.cuh): 0 but in
// cancel_cases.
int g_cancel_word = 0;

// ---- settings and pairs ------------------------------------------------------

struct Setting {
    int kind = GALE_WFA;  // GALE_WFA or GALE_EDIT
    int scope = GALE_SCOPE_ALIGNMENT;
    int npol = GALE_N_DNA5;
    int64_t x = 4, o = 6, e = 2, o2 = 0, e2 = 0;
    int64_t pb = 0, pe = 0, tb = 0, te = 0;
    // WFA2-lib's heuristic (GALE_P_WFA_HEURISTIC; 0: none) and its parameters: the kernel
    // then runs align_heuristic (int32 offsets).
    int32_t heur = 0;
    int32_t h_minwf = 10, h_maxd = 50, h_steps = 1, h_xdrop = 100, h_zdrop = 100, h_bmin = -100, h_bmax = 100;
};

std::string setting_text(const Setting &s) {
    char b[256];
    if (s.kind == GALE_EDIT)
        snprintf(b, sizeof b, "edit");
    else if (s.e2 > 0)
        snprintf(b, sizeof b, "affine2p x %lld o %lld e %lld o2 %lld e2 %lld", (long long)s.x, (long long)s.o,
                 (long long)s.e, (long long)s.o2, (long long)s.e2);
    else
        snprintf(b, sizeof b, "affine x %lld o %lld e %lld", (long long)s.x, (long long)s.o, (long long)s.e);
    std::string t = b;
    snprintf(b, sizeof b, ", scope %s, N %s, free pb %lld pe %lld tb %lld te %lld",
             s.scope == GALE_SCOPE_ALIGNMENT ? "alignment" : "score", s.npol == GALE_N_DNA5 ? "dna5" : s.npol == GALE_N_MISMATCH ? "mismatch" : "bytes",
             (long long)s.pb, (long long)s.pe, (long long)s.tb, (long long)s.te);
    t += b;
    if (s.heur) {
        snprintf(b, sizeof b, ", heuristic 0x%x (%d %d %d x %d z %d band %d..%d)", (unsigned)s.heur, s.h_minwf,
                 s.h_maxd, s.h_steps, s.h_xdrop, s.h_zdrop, s.h_bmin, s.h_bmax);
        t += b;
    }
    return t;
}

// How one pair is laid out for the kernel (what a chunk may do to a task).
struct Layout {
    bool off16 = true;      // int16 offsets (both lengths < kOff16Limit)
    int32_t err = 1000;     // per mille, for score_budget
    int u = 4;              // cells per thread in flight (align's U): 2 or 4
    int32_t cap_slack = 0;  // diagonals added to the window (a chunk's shape is its largest task's)
    uint64_t code_slack = 0;  // codes backtrace: code bytes and headers added
    int32_t hdr_slack = 0;
    int64_t before = 0, after = 0;  // bases of other sequences before the pair / after it (0: last)
    bool text_first = false;        // the text packed before the pattern
    uint8_t junk = 0xA5;            // fill of the unit's memory
};

std::string layout_text(const Layout &l) {
    char b[320];
    snprintf(b, sizeof b,
             "off%d U %d err %d cap+%d codes+%llu hdr+%d before %lld after %lld%s "
             "junk 0x%02x",
             l.off16 ? 16 : 32, l.u, l.err, l.cap_slack, (unsigned long long)l.code_slack, l.hdr_slack,
             (long long)l.before, (long long)l.after, l.text_first ? " text-first" : "", l.junk);
    return b;
}

std::vector<uint8_t> raw(const std::string &s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// The encoding of gale (sequence.h): case folded, U as T, N and IUPAC as 4.
std::vector<uint8_t> encode(const std::string &s) {
    std::vector<uint8_t> out(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        const int c = wc_code(s[i]);
        if (c > 4) {
            tu_fail_at(__FILE__, __LINE__, "byte 0x%02x is no base", (unsigned char)s[i]);
            exit(1);
        }
        out[i] = (uint8_t)c;
    }
    return out;
}

// ---- the emulated result -------------------------------------------------------

struct Emu {
    int status = 0;  // Out::status, or -1: the dispatcher would not run it (budget)
    int64_t score = 0, h_begin = 0, h_end = 0, v_begin = 0, v_end = 0;
    uint64_t cells = 0;
    int32_t s_limit = 0;
    std::vector<uint32_t> cigar;
    std::string error;  // a broken result, said in words
};

void push_op(std::vector<uint32_t> &cig, uint32_t op, uint64_t len) {
    if (len == 0) return;
    if (!cig.empty() && (cig.back() & 15u) == op)
        cig.back() += (uint32_t)(len << 4);
    else
        cig.push_back((uint32_t)(len << 4) | op);
}

bool base_match(uint8_t a, uint8_t b, int npol) { return a == b && (a != 4 || npol != GALE_N_MISMATCH); }

// lib/wfa.h's replay: from (max(k0, 0), max(-k0, 0)) extend matches greedily,
// then per op (in path order) apply it and extend again. False if an op does not
// fit the sequences.
bool replay(const uint8_t *P, int64_t m, const uint8_t *T, int64_t n, int npol, int64_t k0,
            const std::vector<uint32_t> &path, int64_t *h_end, int64_t *v_end, std::vector<uint32_t> &cig,
            std::string &why) {
    int64_t h = k0 > 0 ? k0 : 0, v = k0 < 0 ? -k0 : 0;
    if (h > n || v > m) {
        why = "k0 " + std::to_string(k0) + " outside the sequences";
        return false;
    }
    auto ext = [&]() {
        int64_t l = 0;
        while (h < n && v < m && base_match(P[v], T[h], npol)) ++h, ++v, ++l;
        push_op(cig, 7, (uint64_t)l);
    };
    ext();
    for (size_t i = 0; i < path.size(); ++i) {
        const uint32_t op = path[i] & 15u, len = path[i] >> 4;
        char b[160];
        snprintf(b, sizeof b, "op %zu of %zu (%u, len %u) at h %lld v %lld does not fit", i, path.size(), op, len,
                 (long long)h, (long long)v);
        if (op == 8) {
            if (len != 1 || h >= n || v >= m || base_match(P[v], T[h], npol)) return why = b, false;
            ++h, ++v;
        } else if (op == 2) {
            if (len == 0 || (int64_t)len > n - h) return why = b, false;
            h += len;
        } else if (op == 1) {
            if (len == 0 || (int64_t)len > m - v) return why = b, false;
            v += len;
        } else {
            return why = b, false;
        }
        push_op(cig, op, len);
        ext();
    }
    *h_end = h;
    *v_end = v;
    return true;
}

// A heap block of exactly n bytes (at least 1) filled with junk: ASan sees any
// access outside it.
struct Block {
    std::vector<char *> blocks;
    char *get(uint64_t n, uint8_t junk, uint64_t fill_max = UINT64_MAX) {
        char *p = static_cast<char *>(malloc(n ? n : 1));
        REQUIRE(p != nullptr);
        memset(p, junk, std::min<uint64_t>(n ? n : 1, fill_max));
        blocks.push_back(p);
        return p;
    }
    ~Block() {
        for (char *p : blocks) free(p);
    }
};

typedef void (*AlignFn)(const Pen &, const Task &, const Seqs &, const Shape &, const Unit &, Out *, uint32_t *,
                        Plan *);

// The heuristic of the task being emulated (align_heuristic's HeurArgs).
HeurArgs g_heur{};

template <int METRIC, int BT>
void align_heuristic_host(const Pen &q, const Task &t, const Seqs &sq, const Shape &sh, const Unit &u, Out *out,
                          uint32_t *ops, Plan *) {
    HostGroup g;
    cuda::CancelPoll cancel{{&g_cancel_word, nullptr}};
    align_heuristic<METRIC, BT>(g, q, g_heur, t, sq, sh, u, out, ops, cancel);
}
AlignFn pick_heuristic(int metric, int bt) {
    const bool c = bt == kBtCodes;
    if (metric == kMetricAffine) return c ? align_heuristic_host<kMetricAffine, kBtCodes> : align_heuristic_host<kMetricAffine, kBtNone>;
    if (metric == kMetricAffine2p)
        return c ? align_heuristic_host<kMetricAffine2p, kBtCodes> : align_heuristic_host<kMetricAffine2p, kBtNone>;
    return c ? align_heuristic_host<kMetricEdit, kBtCodes> : align_heuristic_host<kMetricEdit, kBtNone>;
}

template <int METRIC, int BT, class OFF, int U>
void align_host(const Pen &q, const Task &t, const Seqs &sq, const Shape &sh, const Unit &u, Out *out,
                uint32_t *ops, Plan *plans) {
    HostGroup g;
    cuda::CancelPoll cancel{{&g_cancel_word, nullptr}};
    align<METRIC, BT, OFF, U>(g, q, t, sq, sh, u, out, ops, plans, cancel);
}

// U (cells per thread in flight): run_group picks 4 or 2 by metric and backtrace; the
// values must not depend on it, and both are run for every kind.
template <int METRIC, int BT>
AlignFn pick_off(bool off16, int u) {
    if (off16) return u == 2 ? align_host<METRIC, BT, int16_t, 2> : align_host<METRIC, BT, int16_t, 4>;
    return u == 2 ? align_host<METRIC, BT, int32_t, 2> : align_host<METRIC, BT, int32_t, 4>;
}
template <int METRIC>
AlignFn pick_bt(int bt, bool off16, int u) {
    return bt == kBtCodes ? pick_off<METRIC, kBtCodes>(off16, u) : pick_off<METRIC, kBtNone>(off16, u);
}
AlignFn pick(int metric, int bt, bool off16, int u) {
    if (metric == kMetricAffine) return pick_bt<kMetricAffine>(bt, off16, u);
    if (metric == kMetricAffine2p) return pick_bt<kMetricAffine2p>(bt, off16, u);
    return pick_bt<kMetricEdit>(bt, off16, u);
}

WfaParams params_of(const Setting &s) {
    WfaParams p;
    if (s.kind == GALE_EDIT) {
        p.metric = kMetricEdit;
    } else {
        p.metric = s.e2 > 0 ? kMetricAffine2p : kMetricAffine;
        p.x = (int32_t)s.x;
        p.o = (int32_t)s.o;
        p.e = (int32_t)s.e;
        p.o2 = (int32_t)s.o2;
        p.e2 = (int32_t)s.e2;
    }
    p.scope = s.scope;
    p.n_policy = s.npol;
    p.pattern_begin_free = s.pb;
    p.pattern_end_free = s.pe;
    p.text_begin_free = s.tb;
    p.text_end_free = s.te;
    p.kind_metric = s.kind == GALE_EDIT ? kKindEdit : s.e2 > 0 ? kKindAffine2p : kKindAffine;
    p.heuristic = s.heur;
    p.h_min_wavefront_length = s.h_minwf;
    p.h_max_distance_threshold = s.h_maxd;
    p.h_steps_between_cutoffs = s.h_steps;
    p.h_xdrop = s.h_xdrop;
    p.h_zdrop = s.h_zdrop;
    p.h_band_min_k = s.h_bmin;
    p.h_band_max_k = s.h_bmax;
    return p;
}

// Random bases (some N) for the neighbouring sequences of a chunk.
std::vector<uint8_t> filler(tu_rng *r, int64_t n) {
    std::vector<uint8_t> f((size_t)n);
    for (auto &b : f) b = tu_range(r, 0, 9) == 0 ? 4 : (uint8_t)(tu_next(r) & 3);
    return f;
}

// The offsets part of a unit: rr and the rings, one block each.
void offsets_unit(Block &mem, Unit &u, const Pen &q, uint64_t ring_row, uint8_t junk) {
    u.rr = reinterpret_cast<int32_t *>(mem.get((uint64_t)q.rm * kComps * 8, junk));
    u.M = mem.get((uint64_t)q.rm * ring_row, junk);
    u.D1 = mem.get((uint64_t)q.rd * ring_row, junk);
    u.I1 = mem.get((uint64_t)q.rd * ring_row, junk);
    u.D2 = mem.get((uint64_t)q.rd2 * ring_row, junk);
    u.I2 = mem.get((uint64_t)q.rd2 * ring_row, junk);
}

// The layout's offsets regions in order, each large enough (the GPU's unit_at).
void check_layout(const Shape &sh, const Pen &q, uint64_t ring_row) {
    CHECK(sh.off_m >= sh.off_rr + (uint64_t)q.rm * kComps * 8);
    CHECK(sh.off_d1 >= sh.off_m + (uint64_t)q.rm * ring_row);
    CHECK(sh.off_i1 >= sh.off_d1 + (uint64_t)q.rd * ring_row);
    CHECK(sh.off_d2 >= sh.off_i1 + (uint64_t)q.rd * ring_row);
    CHECK(sh.off_i2 >= sh.off_d2 + (uint64_t)q.rd2 * ring_row);
}

// One task as the dispatcher sets it up and the kernel computes it, into e.
void emulate(const Setting &st, const std::vector<uint8_t> &P, const std::vector<uint8_t> &T, const Layout &lo_in,
               tu_rng *r, Emu &e) {
    Layout lo = lo_in;
    if (st.heur) lo.off16 = false;  // heuristic mode keeps int32 offsets (cuda/wfa.cu)
    const int64_t m = (int64_t)P.size(), n = (int64_t)T.size();
    const WfaParams p = params_of(st);
    const Pen q = make_pen(p);
    const bool codes = p.scope == GALE_SCOPE_ALIGNMENT;  // a backtrace
    const int bt = codes ? kBtCodes : kBtNone;
    const bool edit = q.metric == kMetricEdit;
    const WfaFree f = wfa_free(p, m, n);
    const int64_t S = score_budget(q, lo.err, m, n);
    REQUIRE(S < ((int64_t)1 << 26));
    std::vector<Range> ring((size_t)q.rm * kComps);
    // The cells stop at the memory limit (the default 256 MiB, as on the CPU).
    const Need nd = simulate_ranges(q, (int32_t)m, (int32_t)n, (int32_t)f.pb, (int32_t)f.tb, S, (uint64_t)256 << 20,
                                    codes, ring.data());
    e = Emu{};
    if (nd.s_reached < 0) {
        e.status = -1;
        return;
    }
    e.s_limit = (int32_t)nd.s_reached;

    // The packed sequences: [before][pattern][text][after] (or text first), each on
    // a 32-base boundary, then the 4 zero padding words.
    const std::vector<uint8_t> pre = filler(r, lo.before), post = filler(r, lo.after);
    int64_t at = 0;
    const int64_t a_pre = at;
    at += pack_round(lo.before);
    const int64_t a_first = at;
    at += pack_round(lo.text_first ? n : m);
    const int64_t a_second = at;
    at += pack_round(lo.text_first ? m : n);
    const int64_t a_post = at;
    at += pack_round(lo.after);
    // GALE_N_BYTES: one byte per base and no mask (cuda/common/pack.cuh), then 64 zero bytes.
    const bool bytes = p.n_policy == GALE_N_BYTES;
    std::vector<uint32_t> code(bytes ? (size_t)(at / 4 + 16) : (size_t)(at / 16 + 4), 0xdeadbeefu),
        mask(bytes ? 0 : (size_t)(at / 32 + 4), 0xdeadbeefu);
    uint32_t *mk = bytes ? nullptr : mask.data();
    store_bases(pre.data(), lo.before, a_pre, code.data(), mk);
    const int64_t p0 = lo.text_first ? a_second : a_first, t0 = lo.text_first ? a_first : a_second;
    store_bases(P.data(), m, p0, code.data(), mk);
    store_bases(T.data(), n, t0, code.data(), mk);
    store_bases(post.data(), lo.after, a_post, code.data(), mk);
    uint32_t any = 0;
    if (bytes) {
        memset(reinterpret_cast<char *>(code.data()) + at, 0, 64);
    } else {
        for (int w = 0; w < 4; ++w) code[(size_t)(at / 16) + w] = 0, mask[(size_t)(at / 32) + w] = 0;
        for (int64_t w = a_first / 32; w < (a_second + pack_round(lo.text_first ? m : n)) / 32; ++w)
            any |= mask[(size_t)w];
    }

    Task t{};
    t.p0 = (uint32_t)p0;
    t.t0 = (uint32_t)t0;
    t.m = (int32_t)m;
    t.n = (int32_t)n;
    t.pb = (int32_t)f.pb;
    t.pe = (int32_t)f.pe;
    t.tb = (int32_t)f.tb;
    t.te = (int32_t)f.te;
    t.s_limit = e.s_limit;
    t.kbase = nd.klo;
    t.ops_at = 0;
    t.has_n = any != 0;
    t.pad = 0;
    const Seqs sq{code.data(), mk, t.p0, t.t0, t.has_n, p.n_policy};

    Shape sh{};
    sh.cap = nd.khi - nd.klo + 1 + lo.cap_slack;
    sh.off_bytes = lo.off16 ? 2 : 4;
    const uint64_t ring_row = (uint64_t)sh.cap * (uint64_t)sh.off_bytes;
    const AlignFn fn = p.heuristic ? pick_heuristic(q.metric, bt) : pick(q.metric, bt, lo.off16, lo.u);
    g_heur = wfa_heur_args(p);
    Out out;
    std::vector<uint32_t> path;  // the ops in path order, (len << 4) | op
    int64_t k0 = 0;
    std::string why;

    // The backtrace as the dispatcher sizes it (cuda/wfa.cu: max_ops, hdr_scores,
    // code_cap).
    t.max_ops = bt == kBtCodes ? codes_max_ops(q, e.s_limit) : 0;
    sh.hdr_scores = e.s_limit + 1 + lo.hdr_slack;
    sh.code_cap = codes ? nd.cells + lo.code_slack : 0;
    shape_layout(sh, q, bt);
    check_layout(sh, q, ring_row);
    CHECK(sh.off_hdr >= sh.off_i2 + (uint64_t)q.rd2 * ring_row);
    CHECK(sh.off_codes >= sh.off_hdr + (uint64_t)sh.hdr_scores * 8);
    CHECK(sh.bytes >= sh.off_codes + sh.code_cap);
    Block mem;
    Unit u{};
    offsets_unit(mem, u, q, ring_row, lo.junk);
    u.hdr = reinterpret_cast<int32_t *>(mem.get((uint64_t)sh.hdr_scores * 8, lo.junk));
    // Codes: only the first MiB is filled (the rest stays untouched and costs nothing).
    u.codes = reinterpret_cast<uint8_t *>(mem.get(sh.code_cap, lo.junk, (uint64_t)1 << 20));
    uint32_t *ops = reinterpret_cast<uint32_t *>(mem.get((uint64_t)t.max_ops * 4, lo.junk));
    Plan *plans = reinterpret_cast<Plan *>(mem.get(2 * sizeof(Plan), lo.junk));
    memset(&out, lo.junk, sizeof out);
    fn(q, t, sq, sh, u, &out, ops, plans);
    e.status = out.status;
    if (out.status == kOutUnfeasible) e.cells = out.cells;
    if (out.status != kOutOk) return;
    if (codes) {
        if (out.n_ops < 0 || out.n_ops > t.max_ops) {
            e.error = "n_ops " + std::to_string(out.n_ops) + " outside [0, " + std::to_string(t.max_ops) + "]";
            return;
        }
        path.resize((size_t)out.n_ops);
        for (int32_t i = 0; i < out.n_ops; ++i) path[(size_t)i] = ops[out.n_ops - 1 - i];  // written last first
        k0 = out.k0;
    }

    // collect (cuda/wfa.cu): the result from Out and the ops.
    e.score = edit ? out.score : -(int64_t)out.score;
    e.cells = out.cells;
    e.h_end = out.h_end;
    e.v_end = (int64_t)out.h_end - out.k_end;
    if (codes) {
        int64_t he = -1, ve = -1;
        if (!replay(P.data(), m, T.data(), n, p.n_policy, k0, path, &he, &ve, e.cigar, why)) {
            e.error = "replay: " + why;
            return;
        }
        if (he != e.h_end || ve != e.v_end) {
            e.error = "replay ends at h " + std::to_string(he) + " v " + std::to_string(ve) + ", Out at h " +
                      std::to_string(e.h_end) + " v " + std::to_string(e.v_end);
            return;
        }
        e.h_begin = std::max<int64_t>(k0, 0);
        e.v_begin = std::max<int64_t>(-k0, 0);
    } else {
        const bool free_begin = f.pb > 0 || f.tb > 0;
        e.h_begin = e.v_begin = free_begin ? -1 : 0;
    }
}

// ---- cases, the CPU reference and the comparison ---------------------------------

struct Pair {
    std::string h, v;  // text, pattern
    std::vector<Layout> layouts;  // the kernel runs once per layout
    bool tight = false;           // the layouts' budgets are tight: overflow allowed
};

struct Counts {
    long emulated = 0, compared = 0, overflow = 0, tight = 0, tight_overflow = 0, differ = 0;
    long off16 = 0, off32 = 0, u2 = 0, cells_total = 0, unfeasible = 0;
    long by_metric[3][2] = {{0, 0}, {0, 0}, {0, 0}};  // [metric][codes]
};

gale_ctx *g_ctx = nullptr;

std::string cigar_text(const uint32_t *c, size_t n) {
    static const char ops[] = "MIDNSHP=X";
    std::string s;
    for (size_t i = 0; i < n; ++i) s += std::to_string(c[i] >> 4) + ((c[i] & 15) < 9 ? ops[c[i] & 15] : '?');
    return s.empty() ? "*" : s;
}

void report(const char *what, const Setting &st, const Pair &pr, const Layout &lo, size_t i, const Emu &e,
            const gale_result *r, const uint32_t *cig, size_t ncig, const char *why) {
    std::string msg = std::string(what) + ": task " + std::to_string(i) + " (" + setting_text(st) + "; " +
                      layout_text(lo) + "; v_len " + std::to_string(pr.v.size()) + " h_len " +
                      std::to_string(pr.h.size()) + ", s_limit " + std::to_string(e.s_limit) + "): " + why;
    char b[512];
    snprintf(b, sizeof b,
             "\n  kernel: status %d score %lld h [%lld,%lld) v [%lld,%lld) cells %llu%s%s", e.status,
             (long long)e.score, (long long)e.h_begin, (long long)e.h_end, (long long)e.v_begin, (long long)e.v_end,
             (unsigned long long)e.cells, e.error.empty() ? "" : " error: ", e.error.c_str());
    msg += b;
    if (r) {
        snprintf(b, sizeof b, "\n  cpu:    flags %u score %lld h [%lld,%lld) v [%lld,%lld) cells %llu", r->flags,
                 (long long)r->score, (long long)r->h_begin, (long long)r->h_end, (long long)r->v_begin,
                 (long long)r->v_end, (unsigned long long)r->cells);
        msg += b;
    }
    if (st.scope == GALE_SCOPE_ALIGNMENT && e.cigar.size() + ncig <= 200) {
        msg += "\n  kernel CIGAR " + cigar_text(e.cigar.data(), e.cigar.size());
        if (cig) msg += "\n  cpu CIGAR    " + cigar_text(cig, ncig);
    }
    if (pr.v.size() + pr.h.size() <= 600) msg += "\n  pattern '" + pr.v + "'\n  text    '" + pr.h + "'";
    tu_fail_at(__FILE__, __LINE__, "%s", msg.c_str());
}

// Runs one batch of pairs under one setting: the CPU batch is submitted first and
// computes while the kernel code runs here on each pair.
void run_batch(const Setting &st, const std::vector<Pair> &pairs, tu_rng *r, Counts &c, const char *what) {
    gale_batch *b = nullptr;
    REQUIRE_OK(gale_batch_create(g_ctx, st.kind, &b));
    tu_wfa_settings(b, st.kind, st.x, st.o, st.e, st.o2, st.e2, st.scope, st.npol,
                    st.pb, st.pe, st.tb, st.te);
    if (st.heur) {
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_HEURISTIC, st.heur));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_MIN_WAVEFRONT_LENGTH, st.h_minwf));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_MAX_DISTANCE_THRESHOLD, st.h_maxd));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_STEPS_BETWEEN_CUTOFFS, st.h_steps));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_XDROP, st.h_xdrop));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_ZDROP, st.h_zdrop));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_BAND_MIN_K, st.h_bmin));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_BAND_MAX_K, st.h_bmax));
    }
    for (const Pair &pr : pairs) {
        gale_task t;
        tu_task_seqs(&t, pr.h.data(), (int64_t)pr.h.size(), pr.v.data(), (int64_t)pr.v.size());
        REQUIRE_OK(gale_batch_add(b, &t));
    }
    REQUIRE_OK(gale_submit(b));

    const WfaParams p = params_of(st);
    const bool codes = st.scope == GALE_SCOPE_ALIGNMENT;
    std::vector<std::vector<Emu>> emus(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        // GALE_N_BYTES: the bytes themselves as codes (any one-to-one code gives the same
        // comparisons as gale's own, lib/sequence.h).
        const std::vector<uint8_t> P = st.npol == GALE_N_BYTES ? raw(pairs[i].v) : encode(pairs[i].v),
                                   T = st.npol == GALE_N_BYTES ? raw(pairs[i].h) : encode(pairs[i].h);
        emus[i].resize(pairs[i].layouts.size());
        for (size_t j = 0; j < pairs[i].layouts.size(); ++j) {
            emulate(st, P, T, pairs[i].layouts[j], r, emus[i][j]);
            ++c.emulated;
            ++(pairs[i].layouts[j].off16 ? c.off16 : c.off32);
            c.u2 += pairs[i].layouts[j].u == 2;
            ++c.by_metric[p.metric][codes ? 1 : 0];
        }
    }

    REQUIRE_OK(gale_wait(b));
    for (size_t i = 0; i < pairs.size(); ++i) {
        const Pair &pr = pairs[i];
        gale_result res;
        const uint32_t *cig = nullptr;
        size_t ncig = 0;
        REQUIRE_OK(tu_result_fetch_cigar(b, i, &res, &cig, &ncig));
        CHECK_MSG(res.flags == 0 || (st.heur && res.flags == GALE_RF_UNFEASIBLE),
                  "%s: task %zu: the CPU result has flags %u", what, i, res.flags);
        for (size_t j = 0; j < pr.layouts.size(); ++j) {
            const Emu &e = emus[i][j];
            const Layout &lo = pr.layouts[j];
            if (pr.tight) ++c.tight;
            tu_count_check();
            // Over the budget (-1: not run; 1: the score budget or window): the GPU hands
            // it to the CPU.
            if (e.status == -1 || e.status == kOutOverflow) {
                ++(pr.tight ? c.tight_overflow : c.overflow);
                continue;
            }
            const char *why = nullptr;
            if (e.status == kOutUnfeasible || res.flags == GALE_RF_UNFEASIBLE) {  // a heuristic cut every path
                ++c.compared;
                ++c.unfeasible;
                if (e.status != kOutUnfeasible) why = "the CPU found it unfeasible, the kernel did not";
                else if (res.flags != GALE_RF_UNFEASIBLE) why = "the kernel found it unfeasible, the CPU did not";
                else if (e.cells != res.cells) why = "cells differ (unfeasible)";
                if (why) {
                    ++c.differ;
                    if (c.differ <= 20) report(what, st, pr, lo, i, e, &res, cig, ncig, why);
                    else ++tu_failures;
                }
                continue;
            }
            if (e.status != kOutOk)
                why = e.status == kOutBroken ? "status 2 (broken backtrace)" : "unknown status";
            else if (!e.error.empty())
                why = "broken result";
            else if (e.score != res.score)
                why = "score differs";
            else if (e.h_begin != res.h_begin || e.h_end != res.h_end || e.v_begin != res.v_begin ||
                     e.v_end != res.v_end)
                why = "region differs";
            else if (e.cells != res.cells)
                why = "cells differ";
            else if (e.cigar.size() != ncig ||
                     (ncig && memcmp(e.cigar.data(), cig, ncig * sizeof(uint32_t)) != 0))
                why = "CIGAR differs";
            ++c.compared;
            c.cells_total += (long)e.cells;
            if (why) {
                ++c.differ;
                if (c.differ <= 20) report(what, st, pr, lo, i, e, &res, cig, ncig, why);
                else ++tu_failures;
            }
        }
    }
    REQUIRE_OK(gale_batch_destroy(b));
}

// A layout for a pair of lengths m, n: mostly plain, sometimes as a chunk would
// make it.
Layout random_layout(tu_rng *r, int64_t m, int64_t n, bool tight) {
    Layout l;
    l.off16 = m < kOff16Limit && n < kOff16Limit && (tu_next(r) & 1);
    l.u = (tu_next(r) & 1) ? 2 : 4;
    if (tight) l.err = (int32_t)tu_range(r, 1, 100);  // a small score budget
    if (tu_range(r, 0, 3) == 0) l.cap_slack = (int32_t)tu_range(r, 1, 300);
    if (tu_range(r, 0, 3) == 0) l.code_slack = (uint64_t)tu_range(r, 1, 5000);
    if (tu_range(r, 0, 3) == 0) l.hdr_slack = (int32_t)tu_range(r, 1, 100);
    if (tu_range(r, 0, 2) == 0) l.before = tu_range(r, 0, 300);
    if (tu_range(r, 0, 2) == 0) l.after = tu_range(r, 0, 300);
    l.text_first = tu_range(r, 0, 4) == 0;
    l.junk = (uint8_t)tu_next(r);
    return l;
}


// The pairs (text, pattern) of hv, each run with int16 and with int32 offsets (U and
// the junk byte drawn per run).
std::vector<Pair> both_widths(const std::vector<std::pair<std::string, std::string>> &hv, tu_rng *r) {
    std::vector<Pair> pairs;
    for (const auto &x : hv) {
        Pair pr;
        pr.h = x.first;
        pr.v = x.second;
        for (int w = 0; w < 2; ++w) {
            Layout l;
            l.off16 = w == 0;
            l.u = (tu_next(r) & 1) ? 2 : 4;
            l.junk = (uint8_t)tu_next(r);
            pr.layouts.push_back(l);
        }
        pairs.push_back(pr);
    }
    return pairs;
}

// ---- edge cases ---------------------------------------------------------------

std::string random_dna(tu_rng *r, int64_t n) { return tu::bases(r, n); }

void edge_cases(tu_rng *r, Counts &c) {
    std::vector<std::pair<std::string, std::string>> hv;  // (text, pattern)
    const std::string id100 = random_dna(r, 100), id2000 = random_dna(r, 2000), s33 = random_dna(r, 33);
    auto lower = [](std::string s) {
        for (auto &ch : s) ch = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        return s;
    };
    auto with = [](std::string s, size_t at, char ch) {
        if (at < s.size()) s[at] = ch;
        return s;
    };
    hv.push_back({"", ""});
    hv.push_back({"", "A"});
    hv.push_back({"ACGT", ""});
    hv.push_back({"", "ACGTACGTACGTACGTACGTACGTACGTACGTACGT"});
    hv.push_back({"A", "A"});
    hv.push_back({"A", "C"});
    hv.push_back({"A", "N"});
    hv.push_back({"N", "N"});
    hv.push_back({"N", "A"});
    hv.push_back({"a", "A"});
    hv.push_back({"ACGGT", "ACGT"});  // lib/wfa.h's example: 3=1D1=
    hv.push_back({"ACGT", "ACGGT"});
    hv.push_back({id100, id100});
    hv.push_back({id2000, id2000});
    hv.push_back({lower(id100), id100});
    hv.push_back({lower(id2000), lower(id2000)});
    hv.push_back({std::string(50, 'N'), std::string(50, 'N')});
    hv.push_back({std::string(40, 'N'), std::string(60, 'n')});
    hv.push_back({std::string(33, 'N'), s33});
    hv.push_back({"RYSWKMBDHVN", "NNNNNNNNNNN"});
    hv.push_back({"ryswkmbdhvn", "RYSWKMBDHVN"});
    hv.push_back({"ACGUacgu", "ACGTACGT"});
    hv.push_back({with(s33, 15, 'N'), s33});
    hv.push_back({with(s33, 16, 'n'), with(s33, 16, 'N')});
    hv.push_back({with(id100, 31, s33[0] == 'A' ? 'C' : 'A'), id100});
    hv.push_back({with(id100, 32, 'N'), with(id100, 33, 'R')});
    hv.push_back({id100.substr(0, 16), id100.substr(0, 17)});
    hv.push_back({id100.substr(0, 32), id100.substr(1, 32)});
    hv.push_back({id100.substr(0, 64) + id100.substr(70), id100});
    hv.push_back({id100, id100.substr(0, 50) + "GATTACA" + id100.substr(50)});
    hv.push_back({id100.substr(0, 1), id100});
    hv.push_back({id2000.substr(0, 700), id2000.substr(1300)});  // disjoint halves
    hv.push_back({random_dna(r, 300), random_dna(r, 5)});

    // The settings grid: 4 metrics x 2 scopes x 2 N policies x 3 spans.
    std::vector<Setting> grid;
    for (int metric = 0; metric < 4; ++metric)
        for (int scope = 0; scope < 2; ++scope)
            for (int npol = 0; npol < 2; ++npol)
                for (int span = 0; span < 3; ++span) {
                    Setting s;
                    s.kind = metric == 3 ? GALE_EDIT : GALE_WFA;
                    if (metric == 1) s.x = 1, s.o = 0, s.e = 1;
                    if (metric == 2) s.o2 = 24, s.e2 = 1;
                    s.scope = scope ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
                    s.npol = npol ? GALE_N_MISMATCH : GALE_N_DNA5;
                    if (span == 1) s.pb = s.pe = s.tb = s.te = 5;
                    if (span == 2) s.pb = s.pe = s.tb = s.te = 100000;
                    grid.push_back(s);
                }
    for (const Setting &st : grid) {
        run_batch(st, both_widths(hv, r), r, c, "edge");
    }
}

// ---- a diagonal at a sequence end long before the alignment's ------------------

// Pairs where some diagonal that is not the last reaches the end of the text or of
// the pattern several scores before the alignment ends: the text a prefix of the
// pattern (or the reverse), or nearly so, then a long divergent tail; lengths far
// apart (a few bases against hundreds). From then on the interior cells must test
// the bounds again (align's clear): a candidate past the matrix (h = n + 1 or
// v = m + 1) must never be stored, nor end the alignment (is_end).
std::string mutated(tu_rng *r, const std::string &s, double rate) { return tu::mutate(r, s, tu_mut_rate(rate)); }

// Substitutions only (each base with probability rate, at least one where the
// sequence is long enough): the path keeps its diagonal and gathers score, so the
// diagonals around it are inside the wavefront's interior when it reaches an end.
std::string substituted(tu_rng *r, std::string s, double rate) {
    auto sub = [&](size_t i) { s[i] = "ACGT"[(std::string("ACGT").find(s[i]) + (size_t)tu_range(r, 1, 3)) & 3]; };
    for (size_t i = 0; i < s.size(); ++i)
        if (tu_unif(r) < rate) sub(i);
    if (s.size() >= 8) sub((size_t)tu_range(r, 0, (int64_t)s.size() / 2));
    return s;
}

std::vector<std::pair<std::string, std::string>> reach_pairs(tu_rng *r) {
    std::vector<std::pair<std::string, std::string>> hv;  // (text, pattern)
    auto both = [&](const std::string &a, const std::string &b) {  // (a, b) and (b, a)
        hv.push_back({a, b});
        hv.push_back({b, a});
    };
    for (int64_t len : {3, 20, 120}) {
        const std::string x = random_dna(r, len);
        // Nearly a prefix (substitutions), then a tail of 1, 2, 5 or many bases: the end
        // of the shorter one is reached a gap before the alignment's end.
        for (int64_t tail : {1, 2, 5, len < 20 ? 40 : 200}) both(substituted(r, x, 0.08), x + random_dna(r, tail));
        both(x, x + random_dna(r, len < 20 ? 40 : 200));            // a prefix, then a long tail
        both(mutated(r, x, 0.1), x + random_dna(r, 120));           // nearly a prefix (indels too)
        both(x + random_dna(r, 8), x + random_dna(r, 200));         // a short and a long divergent tail
        both(random_dna(r, 60) + substituted(r, x, 0.05), x);       // nearly a suffix
    }
    both(random_dna(r, 4), random_dna(r, 400));  // lengths far apart, unrelated
    both(random_dna(r, 1), random_dna(r, 150));
    return hv;
}

void reach_cases(tu_rng *r, Counts &c) {
    const auto hv = reach_pairs(r);
    // Penalties where a step past the matrix is cheap against a gap base (x < e), and
    // the usual ones; each for both scopes and these free ends (end to end, the text
    // end, the pattern end, both, small ones, and all four).
    struct Pen5 { int kind; int64_t x, o, e, o2, e2; };
    const Pen5 pens[] = {{GALE_WFA, 4, 6, 2, 0, 0},  {GALE_WFA, 1, 0, 1, 0, 0},  {GALE_WFA, 1, 1, 4, 0, 0},
                         {GALE_WFA, 4, 6, 2, 24, 1}, {GALE_WFA, 1, 1, 5, 8, 3},  {GALE_EDIT, 0, 0, 0, 0, 0}};
    const int64_t spans[][4] = {{0, 0, 0, 0},   {0, 0, 0, 100000}, {0, 100000, 0, 0},  {0, 100000, 0, 100000},
                                {0, 3, 0, 7},   {100000, 100000, 100000, 100000}};  // pb pe tb te
    for (const Pen5 &pn : pens)
        for (int scope = 0; scope < 2; ++scope)
            for (const auto &sp : spans) {
                Setting st;
                st.kind = pn.kind;
                st.x = pn.x, st.o = pn.o, st.e = pn.e, st.o2 = pn.o2, st.e2 = pn.e2;
                st.scope = scope ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
                st.npol = (int)tu_range(r, 0, 2);
                st.pb = sp[0], st.pe = sp[1], st.tb = sp[2], st.te = sp[3];
                run_batch(st, both_widths(hv, r), r, c, "reach");
            }
}

// ---- random cases ------------------------------------------------------------

Setting random_setting(tu_rng *r) {
    Setting s;
    const int64_t u = tu_range(r, 0, 99);
    s.kind = u < 80 ? GALE_WFA : GALE_EDIT;
    if (s.kind == GALE_WFA) {
        s.x = tu_range(r, 1, 8);
        s.o = tu_range(r, 0, 10);
        s.e = tu_range(r, 1, 5);
        if (u >= 45) {  // two pieces: mostly a dearer opening and a cheaper extension
            if (tu_range(r, 0, 9) < 7) {
                s.o2 = s.o + tu_range(r, 1, 20);
                s.e2 = s.e > 1 ? tu_range(r, 1, s.e - 1) : 1;
            } else {
                s.o2 = tu_range(r, 0, 20);
                s.e2 = tu_range(r, 1, 6);
            }
        }
    }
    s.scope = (tu_next(r) & 1) ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
    s.npol = (int)tu_range(r, 0, 2);  // GALE_N_DNA5, GALE_N_MISMATCH, GALE_N_BYTES
    if (tu_range(r, 0, 2) == 0) {  // ends-free: each length 0, small, or up to past the longest sequence
        int64_t *f[4] = {&s.pb, &s.pe, &s.tb, &s.te};
        for (int64_t *x : f) {
            const int64_t k = tu_range(r, 0, 3);
            *x = k == 0 ? 0 : k == 1 ? tu_range(r, 1, 20) : k == 2 ? tu_range(r, 1, 2500) : tu_range(r, 2000, 100000);
        }
    }
    return s;
}

// A pair: an ancestor mutated twice (divergence 0..40% in all), sometimes cut to
// a window on one side or unrelated, sometimes with lowercase, N and IUPAC runs.
Pair random_pair(tu_rng *r, int npol) {
    Pair pr;
    const int64_t len = tu_range(r, 0, 19) == 0 ? tu_range(r, 0, 3) : tu_logrange(r, 1, 2000);
    const double rate = tu_unif(r) * 0.4;
    const std::string anc = random_dna(r, len);
    std::string h = mutated(r, anc, rate / 2), v = mutated(r, anc, rate / 2);
    const int64_t shape = tu_range(r, 0, 19);
    if (shape < 3 && !h.empty()) {  // the text cut to a window
        const size_t x = (size_t)tu_range(r, 0, (int64_t)h.size()), y = (size_t)tu_range(r, (int64_t)x, (int64_t)h.size());
        h = h.substr(x, y - x);
    } else if (shape < 6 && !v.empty()) {  // the pattern cut
        const size_t x = (size_t)tu_range(r, 0, (int64_t)v.size()), y = (size_t)tu_range(r, (int64_t)x, (int64_t)v.size());
        v = v.substr(x, y - x);
    } else if (shape == 6) {  // unrelated
        v = random_dna(r, tu_range(r, 0, 2000) / (tu_range(r, 0, 1) ? 1 : 10));
    }
    if (h.size() > 2000) h.resize(2000);
    if (v.size() > 2000) v.resize(2000);
    if (npol == GALE_N_BYTES) {  // mostly decorated, which it reads differently; lower case on both alike
        if (tu_range(r, 0, 3) != 0) tu_lower_both(r, &h[0], (int64_t)h.size(), &v[0], (int64_t)v.size());
        if (tu_next(r) & 1) {
            tu_decorate(r, &h[0], (int64_t)h.size(), 0, 0, TU_NRUNS);
            tu_decorate(r, &v[0], (int64_t)v.size(), 0, 0, TU_NRUNS);
        }
    } else if (tu_range(r, 0, 3) == 0) {
        const int opts = (tu_next(r) & 1 ? TU_LOWER : 0) | (tu_next(r) & 1 ? TU_NRUNS : 0);
        tu_decorate(r, &h[0], (int64_t)h.size(), 0, 0, opts);
        tu_decorate(r, &v[0], (int64_t)v.size(), 0, 0, opts);
    }
    pr.h = h;
    pr.v = v;
    pr.tight = tu_range(r, 0, 19) == 0;
    pr.layouts.push_back(random_layout(r, (int64_t)v.size(), (int64_t)h.size(), pr.tight));
    return pr;
}

// A heuristic for s (WFA2-lib's strategies, combined at random as the library combines
// them; no drop on edit, which refuses it), with parameters small enough to cut.
void random_heuristic(tu_rng *r, Setting &s) {
    int32_t h = 0;
    const int64_t a = tu_range(r, 0, 3), d = tu_range(r, 0, 3), b = tu_range(r, 0, 3);
    h |= a == 1 ? GALE_WFA_H_WFADAPTIVE : a == 2 ? GALE_WFA_H_WFMASH : a == 3 ? GALE_WFA_H_WFADAPTIVE | GALE_WFA_H_WFMASH : 0;
    if (s.kind != GALE_EDIT)
        h |= d == 1 ? GALE_WFA_H_XDROP : d == 2 ? GALE_WFA_H_ZDROP : d == 3 ? GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP : 0;
    h |= b == 1   ? GALE_WFA_H_BANDED_STATIC
         : b == 2 ? GALE_WFA_H_BANDED_ADAPTIVE
         : b == 3 ? GALE_WFA_H_BANDED_STATIC | GALE_WFA_H_BANDED_ADAPTIVE
                  : 0;
    s.heur = h != 0 ? h : GALE_WFA_H_WFADAPTIVE;
    s.h_minwf = tu_range(r, 0, 3) == 0 ? 10 : (int32_t)tu_range(r, 0, 40);
    s.h_maxd = tu_range(r, 0, 3) == 0 ? 50 : (int32_t)tu_range(r, 0, 120);
    s.h_steps = tu_range(r, 0, 2) == 0 ? 1 : (int32_t)tu_range(r, 0, 12);
    s.h_xdrop = (int32_t)tu_range(r, 0, 250);
    s.h_zdrop = (int32_t)tu_range(r, 0, 250);
    s.h_bmin = -(int32_t)tu_range(r, 0, 150);
    s.h_bmax = (int32_t)tu_range(r, -20, 150);
}

// Edit end-to-end under wf-adaptive or wfmash with wavefronts of 1,000 diagonals and more,
// where WFA2-lib prunes exactly before the cut-offs (wfa_edit_exact_prune): long pairs far
// apart, of alike or different lengths; min_wavefront_length near the fronts' widths, so
// that the prune decides whether a cut-off runs.
void edit_prune_cases(tu_rng *r, Counts &c) {
    for (int b = 0; b < (int)tu_scaled(40, 4); ++b) {
        Setting st;
        st.kind = GALE_EDIT;
        st.scope = (tu_next(r) & 1) ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
        st.npol = GALE_N_DNA5;
        st.heur = tu_range(r, 0, 9) < 7 ? GALE_WFA_H_WFADAPTIVE : GALE_WFA_H_WFMASH;
        st.h_minwf = (int32_t)tu_range(r, 1000, 2200);
        st.h_maxd = (int32_t)tu_range(r, 5, 100);
        st.h_steps = (int32_t)tu_range(r, 1, 3);
        std::vector<Pair> pairs;
        for (int i = 0; i < 5; ++i) {
            const int64_t len = tu_range(r, 1500, 3000);
            const std::string anc = random_dna(r, len);
            Pair pr;
            pr.h = mutated(r, anc, 0.25 + 0.25 * tu_unif(r));
            pr.v = mutated(r, anc, 0.25 + 0.25 * tu_unif(r));
            if (tu_range(r, 0, 9) < 3) pr.h.insert((size_t)tu_range(r, 0, (int64_t)pr.h.size()), random_dna(r, tu_range(r, len / 4, len)));
            if (tu_next(r) & 1) std::swap(pr.h, pr.v);
            Layout l;
            l.off16 = false;
            l.junk = (uint8_t)tu_next(r);
            pr.layouts.push_back(l);
            pairs.push_back(pr);
        }
        run_batch(st, pairs, r, c, "edit prune");
    }
}

}  // namespace

// The kernel's cancel exit (cuda/common/cancel.cuh), on the host: with the word raised,
// an alignment of more cells than kCancelPollWork ends with status kOutCanceled at its
// first poll (and without one, the results above are those of a word never raised);
// one smaller than that never polls and ends as ever.
void cancel_cases(tu_rng *r) {
    Setting st;  // GALE_WFA, default penalties, alignment scope, end-to-end
    Layout lo;
    lo.off16 = true;
    std::vector<uint8_t> P(1500), T(1500), p(12), t(12);
    for (auto &b : P) b = (uint8_t)(tu_next(r) & 3);  // unrelated: ~1500 scores of ~1,000 cells
    for (auto &b : T) b = (uint8_t)(tu_next(r) & 3);
    for (size_t i = 0; i < p.size(); ++i) p[i] = t[i] = (uint8_t)(tu_next(r) & 3);
    Emu big, small;
    g_cancel_word = 1;
    emulate(st, P, T, lo, r, big);
    emulate(st, p, t, lo, r, small);
    g_cancel_word = 0;
    CHECK_MSG(big.status == kOutCanceled, "1500 bp unrelated pair with the cancel word raised: status %d, expected %d",
              big.status, (int)kOutCanceled);
    CHECK_MSG(small.status == kOutOk, "12 bp pair with the cancel word raised: status %d, expected 0", small.status);
    Emu again;
    emulate(st, P, T, lo, r, again);
    CHECK_MSG(again.status == kOutOk || again.status == kOutOverflow,
              "1500 bp unrelated pair, word cleared again: status %d", again.status);
}

int main() {
    const uint64_t seed = tu_seed("wfa_core_host");
    tu_rng rng;
    tu_rng_init(&rng, seed);
    const double t0 = tu_now();

    // one worker thread: the kernel code runs on this thread meanwhile
    REQUIRE_OK(tu_ctx_new(&g_ctx, GALE_BACKEND_CPU, 1));

    Counts edge, reach, rnd;
    cancel_cases(&rng);
    edge_cases(&rng, edge);
    const double ta = tu_now();
    reach_cases(&rng, reach);
    const double t1 = tu_now();

    const long want = tu_scaled(3000, 100);
    long made = 0;
    while (made < want) {
        const Setting st = random_setting(&rng);
        std::vector<Pair> pairs;
        const long nb = std::min<long>(want - made, tu_range(&rng, 8, 48));
        for (long i = 0; i < nb; ++i) pairs.push_back(random_pair(&rng, st.npol));
        made += nb;
        run_batch(st, pairs, &rng, rnd, "random");
    }
    const double t2 = tu_now();
    // Heuristic mode (align_heuristic): random settings and pairs with a random heuristic.
    Counts heur;
    const long want_h = tu_scaled(1200, 60);
    long made_h = 0;
    while (made_h < want_h) {
        Setting st = random_setting(&rng);
        random_heuristic(&rng, st);
        std::vector<Pair> pairs;
        const long nb = std::min<long>(want_h - made_h, tu_range(&rng, 8, 48));
        for (long i = 0; i < nb; ++i) pairs.push_back(random_pair(&rng, st.npol));
        made_h += nb;
        run_batch(st, pairs, &rng, heur, "heuristic");
    }
    edit_prune_cases(&rng, heur);
    const double t3 = tu_now();
    REQUIRE_OK(gale_ctx_destroy(g_ctx));

    printf("edge:   %ld kernel runs, %ld compared, %ld overflowed, %ld differ (%.1f s)\n", edge.emulated,
           edge.compared, edge.overflow, edge.differ, ta - t0);
    printf("reach:  %ld kernel runs, %ld compared, %ld overflowed, %ld differ (%.1f s)\n", reach.emulated,
           reach.compared, reach.overflow, reach.differ, t1 - ta);
    printf("random: %ld pairs, %ld kernel runs (int16 %ld, int32 %ld; U 2 %ld, U 4 %ld), %ld compared, %ld differ, "
           "%ld cells; overflow %ld of %ld generous budgets, %ld of %ld tight ones (%.1f s)\n",
           made, rnd.emulated, rnd.off16, rnd.off32, rnd.u2, rnd.emulated - rnd.u2, rnd.compared, rnd.differ,
           rnd.cells_total, rnd.overflow, rnd.emulated - rnd.tight, rnd.tight_overflow, rnd.tight, t2 - t1);
    printf("random by metric (score / alignment scope): affine %ld/%ld, affine2p %ld/%ld, edit %ld/%ld\n",
           rnd.by_metric[0][0], rnd.by_metric[0][1], rnd.by_metric[1][0], rnd.by_metric[1][1], rnd.by_metric[2][0],
           rnd.by_metric[2][1]);
    printf("heuristic: %ld pairs, %ld compared (%ld unfeasible), %ld differ, overflow %ld (%.1f s)\n", made_h,
           heur.compared, heur.unfeasible, heur.differ, heur.overflow + heur.tight_overflow, t3 - t2);
    CHECK_MSG(heur.compared * 2 > made_h, "heuristic: only %ld of %ld pairs compared", heur.compared, made_h);
    CHECK_MSG(edge.overflow == 0, "edge cases overflowed their budgets: %ld", edge.overflow);
    CHECK_MSG(reach.overflow == 0, "reach cases overflowed their budgets: %ld", reach.overflow);
    const long generous = rnd.emulated - rnd.tight;
    CHECK_MSG(rnd.overflow * 20 <= generous, "%ld of %ld kernel runs overflowed their budgets (more than 5%%)",
              rnd.overflow, generous);
    CHECK_MSG(rnd.compared > 0, "no random case was compared");
    return tu_finish("wfa_core_host");
}
