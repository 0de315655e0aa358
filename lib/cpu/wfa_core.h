// The CPU wavefront kernel's private header: the types and calls that its stages
// share. The stages, one file each:
//   lib/cpu/wfa_wavefront.cpp  the cell loops (compute a score), the match
//                              extension and the score loop (Dir, run_to_end)
//   lib/cpu/wfa_backtrace.cpp  the backtrace through the codes and the CIGAR replay
//   lib/cpu/wfa_biwfa.cpp      the low-memory mode (BiWFA, class Bi)
//   lib/cpu/wfa.cpp            the entry point: one task, its modes and its workspace
// What both backends share (the recurrence, the codes, the replay's rule) is in
// lib/wfa.h; this header is the CPU's alone. The hot loops (cell loops and
// extension) stay in one file with the score step that calls them, so that their
// inlining and the AVX2 clones are what they were in one file; a call between the
// files happens at most once per score.
//
// Layout. Each score s has up to five components (M, D1, I1, D2, I2), each a
// diagonal range and an int32 offset per diagonal. Only the last R scores are
// kept, in a ring (R = max(x, o+e, o2+e2) + 1; edit: 2): that is all the
// recurrence reads. A component's buffer is written over M's range (cells of a
// gap component outside its own range come out null, because its sources are
// null there) and is padded with nulls lazily, when a later score reads it over
// a wider window; so every cell loop is a branch-free pass over contiguous
// arrays that the compiler vectorizes (at -O3, which meson.build sets for the
// library; AVX2 and baseline clones, picked at load time). The loops run over
// the width rounded up to whole vectors, so no row ends in a scalar remainder.
// The match extension runs on copies of the sequences that end in sentinels,
// so it checks no bound.
//
// Memory of one alignment (the bound, with a worked example, is in lib/wfa.h):
//  - the ring: R scores x the components in use x one int32 array each, plus a
//    row of nulls. An array covers at most the diagonals [-m - 1, n + kCellPad]
//    that the cell loops touch (Dir::buffer_span), whatever slack it is given.
//  - full-memory scope ALIGNMENT: one backtrace byte per cell of M's range per
//    score (the cells of lib/wfa.h), in 1 MiB blocks (CodeBuf), plus 16 bytes per
//    score (CodeRow). The row that would take the codes past GALE_P_MEMORY_LIMIT
//    MiB is not stored: the computation stops there and starts again in
//    low-memory mode (flag GALE_RF_LOWMEM). So the codes never exceed the limit,
//    and an alignment runs in full memory iff its cells are at most the limit.
//  - low-memory mode (BiWFA): score-only wavefronts from both ends (two rings of
//    R + max(o, o2) + 2 scores) until they meet, which gives a breakpoint on an
//    optimal path; both halves are solved the same way, recursively, until a
//    half's codes are provably small (cells <= (s+1) * (2 s / min(e, e2) + 1)
//    below the limit, capped at 8 MiB) and it is solved in full memory, or one
//    of its sequences is empty (one gap: score only, no codes). The memory is
//    then the two rings plus the base case plus the CIGAR; a recursion level
//    holds nothing but its breakpoint. (Extreme penalties can make a base case
//    of score <= 2 x the meeting margin exceed the limit: those are solved in
//    full memory anyway.)
//  - scope SCORE: the ring only.
//  - both scopes: the sentinel copies of the sequences (Padded; none for tasks
//    over 16 Mbases).
// A thread's workspace keeps all this for its next task, except codes or rings
// over 64 MiB (trim()).
#ifndef GALE_CPU_WFA_CORE_H
#define GALE_CPU_WFA_CORE_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "wfa.h"
#include "wfa_heuristic.h"

namespace gale {
namespace wfacpu {

enum Comp : int { cM = 0, cD1 = 1, cI1 = 2, cD2 = 3, cI2 = 4, kComps = 5 };

// One component at one score.
struct Wave {
    bool has = false;
    int32_t lo = 0, hi = -1;   // its diagonal range (when has)
    int64_t base = 0;          // buf[k - base] is diagonal k
    int64_t ilo = 0, ihi = -1; // diagonals whose buf cells hold a value or a null
    std::vector<int32_t> buf;
    int32_t *at(int64_t k) { return buf.data() + (k - base); }
};

// Where the backtrace codes of one score start, and M's range there.
struct CodeRow {
    uint64_t off;
    int32_t lo, hi;  // lo > hi: no range
};

// The backtrace codes of one alignment, row after row, in blocks of 1 MiB.
// Blocks rather than one array that doubles: growing an array copies it, and
// while it copies, the old and the new array are both held (with doubling, up to
// three times the codes). Blocks are never moved, so the codes take
// ceil(size / 1 MiB) blocks; GALE_P_MEMORY_LIMIT is a whole number of MiB, so
// codes within the limit take blocks within it. A row is written once, so no
// block is zero-filled, and memory that is reserved but never written is not
// touched either. The cell loops write a little past a row's end (they round its
// width up to whole vectors): a row that fits in its block with that padding is
// written there directly; any other row (one that reaches past its block) is
// written to `spill` and copied into the blocks by commit().
struct CodeBuf {
    static constexpr unsigned kBlockShift = 20;
    static constexpr uint64_t kBlock = (uint64_t)1 << kBlockShift;
    static_assert(kBlock <= ((uint64_t)1 << 20), "a block must divide every memory limit (whole MiB)");
    std::vector<std::unique_ptr<uint8_t[]>> blocks;
    std::vector<uint8_t> spill;  // one padded row
    uint64_t size = 0;           // bytes of codes
    uint64_t limit = UINT64_MAX; // most bytes of codes allowed (run_to_end sets it)
    bool over = false;           // a row did not fit under limit (and was not stored)
    uint64_t spill_off = 0;      // where the row in spill goes (spill_w bytes of it)
    size_t spill_w = 0;

    void clear(uint64_t max_bytes) {
        size = 0;
        limit = max_bytes;
        over = false;
        spill_w = 0;
    }
    // May a row of w codes be stored? If not, notes that the codes ran over. The
    // check comes before the row is stored, so the codes never exceed the limit.
    bool room(uint64_t w) {
        if (w > limit || size > limit - w) {
            over = true;
            return false;
        }
        return true;
    }
    // A row of w codes (room(w) said yes), with room to write wpad >= w bytes
    // there; commit() after writing it.
    uint8_t *append(size_t w, size_t wpad) {
        const uint64_t off = size;
        size += w;
        while ((uint64_t)blocks.size() << kBlockShift < size) blocks.emplace_back(new uint8_t[kBlock]);
        const uint64_t in = off & (kBlock - 1);
        if (w > 0 && in + wpad <= kBlock) return blocks[(size_t)(off >> kBlockShift)].get() + in;
        if (spill.size() < wpad) spill.resize(wpad);
        spill_off = off;
        spill_w = w;
        return spill.data();
    }
    // Stores the row written to spill, if any, across its blocks.
    void commit() {
        uint64_t off = spill_off;
        const uint8_t *p = spill.data();
        size_t left = spill_w;
        while (left) {
            const uint64_t in = off & (kBlock - 1);
            const size_t n = (size_t)std::min<uint64_t>(left, kBlock - in);
            std::memcpy(blocks[(size_t)(off >> kBlockShift)].get() + in, p, n);
            off += n;
            p += n;
            left -= n;
        }
        spill_w = 0;
    }
    uint8_t at(uint64_t off) const { return blocks[(size_t)(off >> kBlockShift)][off & (kBlock - 1)]; }
    uint64_t reserved() const { return ((uint64_t)blocks.size() << kBlockShift) + spill.capacity(); }
    void release() {
        blocks.clear();
        blocks.shrink_to_fit();
        std::vector<uint8_t>().swap(spill);
        clear(UINT64_MAX);
    }
};

// Width of the cell loops: a range's width rounded up to whole vectors (16 codes:
// one SSE register of bytes), so that no row ends in a scalar remainder loop.
// The extra cells read nulls (src() pads every source that far) and come out
// null; they lie outside the range, which is what the bookkeeping claims.
constexpr int64_t kCellPad = 16;
inline int64_t padded_width(int64_t w) { return (w + kCellPad - 1) & ~(kCellPad - 1); }

inline uint64_t load8(const uint8_t *p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    return x;
}

// Greedy extension of the matches from (h, v): the h where they stop.
template <bool NMIS>
inline int32_t extend_run(const uint8_t *P, const uint8_t *T, int32_t h, int32_t v, int32_t n, int32_t m) {
    constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
    while (n - h >= 8 && m - v >= 8) {
        const uint64_t a = load8(P + v), b = load8(T + h);
        uint64_t diff = a ^ b;
        if (NMIS) {
            // N (code 4) never matches: its bytes count as differences. Exact for
            // the lowest zero byte of y, which is all that is used.
            const uint64_t y = a ^ (kOnes * kBaseN);
            diff |= (y - kOnes) & ~y & kHigh;
        }
        if (diff) return h + (int32_t)(__builtin_ctzll(diff) >> 3);
        h += 8;
        v += 8;
    }
    while (h < n && v < m && P[v] == T[h] && (!NMIS || P[v] != kBaseN)) {
        ++h;
        ++v;
    }
    return h;
}

// extend_run on sequences that end in sentinels (see Padded): P[m] and T[n] are
// two different non-base bytes, readable with 7 more bytes after them, so the
// first difference can never lie past either end and no bound is checked.
template <bool NMIS>
inline int32_t extend_run_padded(const uint8_t *P, const uint8_t *T, int32_t h, int32_t v) {
    constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
    for (;;) {
        const uint64_t a = load8(P + v), b = load8(T + h);
        uint64_t diff = a ^ b;
        if (NMIS) {
            const uint64_t y = a ^ (kOnes * kBaseN);
            diff |= (y - kOnes) & ~y & kHigh;
        }
        if (diff) return h + (int32_t)(__builtin_ctzll(diff) >> 3);
        h += 8;
        v += 8;
    }
}

// Copies of one task's sequences that end in sentinels, for extend_run_padded:
// a copy costs far less than a bound check on every step of every extension.
constexpr uint8_t kSentinelP = 0xF0, kSentinelT = 0xF1;
struct Padded {
    std::vector<uint8_t> buf;
    const uint8_t *P = nullptr, *T = nullptr;
    void set(const uint8_t *p, int64_t m, const uint8_t *t, int64_t n) {
        const size_t need = (size_t)m + (size_t)n + 32;
        if (buf.size() < need) buf.resize(need);  // zeros: the bytes after a sentinel only need to be readable
        uint8_t *b = buf.data();
        if (m) std::memcpy(b, p, (size_t)m);
        b[m] = kSentinelP;
        uint8_t *tb = b + m + 16;
        if (n) std::memcpy(tb, t, (size_t)n);
        tb[n] = kSentinelT;
        P = b;
        T = tb;
    }
};

// Thrown by Dir::step when the batch's cancel flag is raised; wfa_task_cpu catches it
// (and returns false): it unwinds the score loops and the low-memory recursion alike.
struct Stopped {};

struct Penalties {
    int metric;
    int32_t x, o, e, o2, e2;
    int32_t a;      // -match: begin-free diagonal j starts at s = a j (0: all at s = 0; lib/wfa.h)
    bool split_x;   // indel: an X of the backtrace is written as a D and an I (lib/wfa.h)
    bool linear = false;  // gap-linear or indel: WFA2-lib has no gap components (heuristic mode)
};

// WFA2-lib 2.3.3's heuristic (gale/wfa.h, GALE_P_WFA_HEURISTIC): its parameters and state,
// shared with the CUDA kernel (lib/wfa_heuristic.h).
using Heuristic = WfaHeuristic;

// The wavefronts of one direction over one (sub)problem: pattern P (length m),
// text T (length n), already in the direction's reading order.
class Dir {
public:
    const uint8_t *P = nullptr, *T = nullptr;
    int32_t m = 0, n = 0;
    bool nmis = false;
    bool padded = false;       // P and T end in sentinels (Padded)
    Penalties pen{};
    int R = 2;                 // ring length in scores
    int cs = cM;               // start component (BiWFA halves may start inside a gap)
    bool start_m = true;       // with cs != cM: may the path also leave the start in M?
    int64_t pb = 0, tb = 0;    // begin-free lengths (s = 0)
    int64_t s = -1;            // last score computed
    uint64_t cells = 0;
    std::vector<Wave> ring;
    std::vector<int32_t> nullbuf;
    const std::atomic<bool> *cancel = nullptr;  // the batch's cancel flag, polled every score (or none)
    Heuristic heur;            // strategy 0: none (setup() turns it off)
    bool exact_prune = false;  // heuristic mode, edit end-to-end: WFA2-lib's exact prune (step)
    int64_t null_steps = 0;    // consecutive scores computed from no source at all (heuristics only)
    bool unfeasible = false;   // every path was cut (heuristics only; run_to_end stops)
    bool inputs_null = false;  // the last step had no source at all (WFA2-lib's null step)

    void setup(const uint8_t *P_, const uint8_t *T_, int32_t m_, int32_t n_, bool nmis_, const Penalties &pen_,
               int ring_len, int cs_, int64_t pb_, int64_t tb_, bool start_m_ = true) {
        P = P_;
        T = T_;
        m = m_;
        n = n_;
        nmis = nmis_;
        pen = pen_;
        R = ring_len;
        cs = cs_;
        start_m = start_m_ || cs_ == cM;
        pb = pb_;
        tb = tb_;
        padded = false;
        s = -1;
        cells = 0;
        heur.strategy = 0;
        exact_prune = false;
        null_steps = 0;
        unfeasible = false;
        if ((int)ring.size() < R * kComps) ring.resize((size_t)R * kComps);
        for (int i = 0; i < R * kComps; ++i) ring[i].has = false;
    }

    // Bytes held by the buffers of the ring and of the null row.
    uint64_t held() const {
        uint64_t b = nullbuf.capacity();
        for (const Wave &w : ring) b += w.buf.capacity();
        return b * sizeof(int32_t);
    }
    void release() {
        for (Wave &w : ring) {
            std::vector<int32_t>().swap(w.buf);
            w.has = false;
            w.base = 0;
            w.ilo = 0;
            w.ihi = -1;
        }
        std::vector<int32_t>().swap(nullbuf);
    }

    Wave &slot(int64_t sc, int c) { return ring[(size_t)(sc % R) * kComps + c]; }
    Wave *get(int64_t sc, int c) {
        if (sc < 0 || sc > s || sc <= s - R) return nullptr;
        Wave &w = slot(sc, c);
        return w.has ? &w : nullptr;
    }

    // Diagonal range of M at the last score (false if none).
    bool m_range(int32_t &lo, int32_t &hi) {
        Wave *w = get(s, cM);
        if (!w) return false;
        lo = w->lo;
        hi = w->hi;
        return true;
    }

    // Score 0. codes: one zero byte per cell of M's range (or null).
    void init(CodeBuf *codes, std::vector<CodeRow> *rows);

    // Computes score s + 1 (extended). Returns false if M has no range there.
    // Throws Stopped when the cancel flag is raised: one relaxed load per score,
    // nothing next to a score's cells and extensions.
    bool step(CodeBuf *codes, std::vector<CodeRow> *rows);

    // WFA2-lib's heuristic cut-off of the last score (lib/cpu/wfa_heuristic.cpp), after
    // its extension, when it has not reached the end.
    void cutoff();
    // Heuristic mode: the last score's components trimmed to their non-null ends.
    void trim_ends();

    // Offset of component c on diagonal k at score sc, or kNull.
    int32_t value(int64_t sc, int c, int64_t k) {
        Wave *w = get(sc, c);
        if (!w || k < w->lo || k > w->hi) return kNull;
        return *w->at(k);
    }

private:
    // lib/cpu/wfa_wavefront.cpp says what each does.
    void buffer_span(int64_t lo, int64_t hi, int64_t &blo, int64_t &bhi) const;
    int32_t *dst(Wave &w, int32_t lo, int32_t hi, int64_t top);
    void ensure_nullbuf(int64_t width);
    const int32_t *src(Wave *w, int64_t wlo, int64_t whi);
    bool range_from(Wave *a, Wave *b, int d, int32_t &lo, int32_t &hi);
    void no_range(CodeBuf *codes, std::vector<CodeRow> *rows);
    template <bool TWO>
    bool step_affine(CodeBuf *codes, std::vector<CodeRow> *rows);
    bool step_edit(CodeBuf *codes, std::vector<CodeRow> *rows);
    void extend_m(Wave &M);
    void cut_to(int32_t lo, int32_t hi);
    template <bool NMIS, bool PADDED>
    void extend_all(Wave &M);
};

inline Penalties penalties_of(const WfaParams &p) {
    Penalties q{p.metric, p.x, p.o, p.e, p.o2, p.e2, -p.match, p.kind_metric == kKindIndel,
                p.kind_metric == kKindLinear || p.kind_metric == kKindIndel};
    if (p.metric == kMetricEdit) {
        q.x = 1;
        q.o = 0;
        q.e = 1;
    }
    return q;
}

inline int ring_len(const Penalties &q) {
    if (q.metric == kMetricEdit) return 2;
    int32_t r = std::max(q.x, q.o + q.e);
    if (q.metric == kMetricAffine2p) r = std::max(r, q.o2 + q.e2);
    return r + 1;
}

inline bool has_n(const uint8_t *s, int64_t len) {
    return len > 0 && std::memchr(s, kBaseN, (size_t)len) != nullptr;
}

// Appends op (len << 4 | code) to the CIGAR, merging with an equal last op.
inline void push_op(std::vector<uint32_t> &cigar, uint32_t code, uint64_t len) {
    if (len == 0) return;
    if (!cigar.empty() && GALE_CIGAR_OP(cigar.back()) == code) cigar.back() += (uint32_t)(len << GALE_CIGAR_SHIFT);
    else cigar.push_back((uint32_t)(len << GALE_CIGAR_SHIFT) | code);
}

// wfa_replay with the problem given directly; extend_first is false for a half
// that begins inside a gap (the gap continues before any match). padded: P and
// T end in sentinels (Padded).
// split_x: Penalties::split_x.
bool replay(const uint8_t *P, const uint8_t *T, int64_t m, int64_t n, bool nmis, bool split_x, int64_t h, int64_t v,
            bool extend_first, const WfaOp *ops, size_t n_ops, int64_t *h_end, int64_t *v_end,
            std::vector<uint32_t> &cigar, bool padded = false);

}  // namespace wfacpu

// Tasks longer than this (both sequences together) are not copied (Padded).
constexpr int64_t kMaxPadded = (int64_t)1 << 24;

struct WfaWorkspace {
    wfacpu::Dir fwd, rev;
    wfacpu::CodeBuf codes;
    std::vector<wfacpu::CodeRow> rows;
    wfacpu::Padded pad;  // the task's sequences with sentinels
    std::vector<WfaOp> ops;
    std::vector<uint8_t> prev, trev;  // reversed sequences (low-memory mode)
};

namespace wfacpu {

// A workspace lives as long as its worker thread and serves all its tasks, so
// what one large task allocated would stay held; past this many bytes the codes
// and the rings are given back after the task instead (the next large task
// allocates them again, at a cost small next to its alignment).
constexpr uint64_t kKeepBytes = (uint64_t)64 << 20;
void trim(WfaWorkspace &ws);

// Runs d (already set up) to the end. With codes (cleared here), gives up
// (returns false) at the first score whose row would take them over max_codes
// bytes; that score is computed (without codes) first, so d.s and d.cells include
// it. So an alignment runs in full memory iff its cells (the sum of M's widths
// over scores 0 .. its score, lib/wfa.h) are at most max_codes. ce: end component
// (end-to-end only).
bool run_to_end(Dir &d, int ce, int64_t pe, int64_t te, CodeBuf *codes, std::vector<CodeRow> *rows,
                uint64_t max_codes, int32_t &k_end, int32_t &h_end);

// Backtrace from (s_end, k_end, ce) through the codes to score 0; fills ops in
// path order and returns the start diagonal.
int32_t backtrace(const Dir &d, const CodeBuf &codes, const std::vector<CodeRow> &rows, int ce,
                  int64_t s_end, int32_t k_end, std::vector<WfaOp> &ops);

// Low-memory (BiWFA) solver of one task (lib/cpu/wfa_biwfa.cpp). The constructor
// builds the reversed sequences in the workspace (ws.prev, ws.trev).
class Bi {
public:
    Bi(WfaWorkspace &ws, const PairTask &t, const Penalties &q, bool nmis, uint64_t limit_bytes);

    uint64_t cells = 0;

    // Aligns [h0, h1) x [v0, v1) from component cs to component ce; appends its CIGAR.
    // est: an upper bound of its score (or -1: unknown). Returns its score.
    int64_t solve(int64_t h0, int64_t v0, int64_t h1, int64_t v1, int cs, int ce, int64_t est,
                  std::vector<uint32_t> &cigar);

private:
    WfaWorkspace &ws_;
    const PairTask &t_;
    Penalties q_;
    bool nmis_;
    int64_t m_, n_;
    int R_, omax_, maxstep_, margin_;
    int32_t emin_;
    uint64_t cap_;
    int64_t best_ = INT64_MAX, bp_a_ = 0, bp_b_ = 0;
    int32_t bp_k_ = 0, bp_h_ = 0;
    int bp_c_ = cM;

    int64_t gap_open(int c) const;
    bool fits(int64_t S, int64_t n, int64_t m) const;
    void compare(Dir &F, Dir &Rv, int64_t a, int64_t b, int64_t C, int ce);
    int64_t base(int64_t h0, int64_t v0, int64_t h1, int64_t v1, int cs, int ce, std::vector<uint32_t> &cigar);
};

}  // namespace wfacpu
}  // namespace gale

#endif
