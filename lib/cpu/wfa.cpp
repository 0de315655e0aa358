// CPU kernel of wavefront alignment (GALE_WFA, GALE_EDIT): the recurrence, ranges,
// tie-break and backtrace of lib/wfa.h, computed score by score.
//
// Why this file is over 1,000 lines: the full-memory alignment, the low-memory
// (BiWFA) mode and the CIGAR replay share one set of private types (the score ring
// Dir, the code rows, the sentinel-padded sequences) and the vectorized cell loops;
// split across files they would have to become an internal header that nothing
// else uses. In order: code storage, base comparison and extension, the cell loops,
// the score ring (Dir) and the end test, the CIGAR replay, the backtrace, the
// low-memory mode (Bi), and the entry point wfa_task_cpu.
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
#include "wfa.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "errors.h"
#include "target_clones.h"

namespace gale {

namespace {

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

// The cell loops are compiled twice, for AVX2 and for the baseline ISA, and the
// loader picks one per machine (GCC's target_clones, through GALE_TARGET_CLONES of
// lib/target_clones.h, which also says when there is one copy only, e.g. under
// ThreadSanitizer): AVX2's eight lanes and its native max and unsigned compares
// make them about twice as fast. The results are integers, the same either way.
#define GALE_CELL_CLONES GALE_TARGET_CLONES("avx2", "default")

// The cells of one affine score over M's range [lo, lo + W). Offsets are kNull or in
// [0, n]; unsigned arithmetic keeps h + 1 and h - k exact (lengths < 2^31) and turns
// nulls into huge values. A separate function so that restrict holds (the loop
// vectorizes) and the branches are selects.
template <bool TWO, bool CODES>
GALE_CELL_CLONES void affine_cells(int32_t W, int32_t lo, uint32_t un, uint32_t um, const int32_t *__restrict pMx,
                  const int32_t *__restrict pMo, const int32_t *__restrict pDe, const int32_t *__restrict pIe,
                  const int32_t *__restrict pMo2, const int32_t *__restrict pD2e, const int32_t *__restrict pI2e,
                  int32_t *__restrict oM, int32_t *__restrict oD1, int32_t *__restrict oI1, int32_t *__restrict oD2,
                  int32_t *__restrict oI2, uint8_t *__restrict code) {
    for (int32_t i = 0; i < W; ++i) {
        const uint32_t uk = (uint32_t)(lo + i);
        const int32_t d1s = std::max(pMo[i], pDe[i]);
        const uint32_t d1u = (uint32_t)d1s + 1u;
        const int32_t d1 = d1u <= un ? (int32_t)d1u : kNull;
        const int32_t i1s = std::max(pMo[i + 2], pIe[i]);
        const int32_t i1 = ((i1s >= 0) & ((uint32_t)i1s - uk <= um)) ? i1s : kNull;
        const uint32_t xu = (uint32_t)pMx[i] + 1u;
        const int32_t xv = ((xu <= un) & (xu - uk <= um)) ? (int32_t)xu : kNull;
        int32_t mv = std::max(xv, std::max(d1, i1));
        int32_t d2 = kNull, i2 = kNull;
        if (TWO) {
            const int32_t d2s = std::max(pMo2[i], pD2e[i]);
            const uint32_t d2u = (uint32_t)d2s + 1u;
            d2 = d2u <= un ? (int32_t)d2u : kNull;
            const int32_t i2s = std::max(pMo2[i + 2], pI2e[i]);
            i2 = ((i2s >= 0) & ((uint32_t)i2s - uk <= um)) ? i2s : kNull;
            mv = std::max(mv, std::max(d2, i2));
            oD2[i] = d2;
            oI2[i] = i2;
        }
        oM[i] = mv;
        oD1[i] = d1;
        oI1[i] = i1;
        if (CODES) {
            // M's source: the first maximum in the order X, D1, I1, D2, I2 (all
            // null: 0); a gap extends (ties included) when its extension source
            // is at least its opening source.
            uint32_t c = 0;
            if (TWO) {
                c = i2 == mv ? (uint32_t)kSrcI2 : c;
                c = d2 == mv ? (uint32_t)kSrcD2 : c;
            }
            c = i1 == mv ? (uint32_t)kSrcI1 : c;
            c = d1 == mv ? (uint32_t)kSrcD1 : c;
            c = xv == mv ? (uint32_t)kSrcX : c;
            c |= ((d1 >= 0) & (pDe[i] >= pMo[i])) ? (uint32_t)kExtD1 : 0u;
            c |= ((i1 >= 0) & (pIe[i] >= pMo[i + 2])) ? (uint32_t)kExtI1 : 0u;
            if (TWO) {
                c |= ((d2 >= 0) & (pD2e[i] >= pMo2[i])) ? (uint32_t)kExtD2 : 0u;
                c |= ((i2 >= 0) & (pI2e[i] >= pMo2[i + 2])) ? (uint32_t)kExtI2 : 0u;
            }
            code[i] = (uint8_t)c;
        }
    }
}

// Edit cells (and with CODES their backtrace codes).
template <bool CODES>
GALE_CELL_CLONES void edit_cells(int32_t W, int32_t lo, uint32_t un, uint32_t um, const int32_t *__restrict pM,
                int32_t *__restrict oM, uint8_t *__restrict code) {
    for (int32_t i = 0; i < W; ++i) {
        const uint32_t uk = (uint32_t)(lo + i);
        const uint32_t xu = (uint32_t)pM[i + 1] + 1u;
        const int32_t xv = ((xu <= un) & (xu - uk <= um)) ? (int32_t)xu : kNull;
        const uint32_t du = (uint32_t)pM[i] + 1u;
        const int32_t dv = du <= un ? (int32_t)du : kNull;
        const int32_t is = pM[i + 2];
        const int32_t iv = ((is >= 0) & ((uint32_t)is - uk <= um)) ? is : kNull;
        const int32_t mv = std::max(xv, std::max(dv, iv));
        oM[i] = mv;
        if (CODES) {
            uint32_t c = iv == mv ? (uint32_t)kSrcI1 : 0u;
            c = dv == mv ? (uint32_t)kSrcD1 : c;
            c = xv == mv ? (uint32_t)kSrcX : c;
            code[i] = (uint8_t)(mv >= 0 ? c : 0u);  // a null M has code 0
        }
    }
}

// Thrown by Dir::step when the batch's cancel flag is raised; wfa_task_cpu catches it
// (and returns false): it unwinds the score loops and the low-memory recursion alike.
struct Stopped {};

struct Penalties {
    int metric;
    int32_t x, o, e, o2, e2;
};

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
    void init(CodeBuf *codes, std::vector<CodeRow> *rows) {
        s = 0;
        for (int c = 0; c < kComps; ++c) slot(0, c).has = false;
        if (!start_m) {
            // The reverse of a half that must end inside gap cs: its first step
            // continues that gap; nothing else starts here.
            dst(slot(0, cs), 0, 0, 0)[0] = 0;
            if (codes) rows->push_back(CodeRow{codes->size, 0, -1});
            return;
        }
        int32_t lo = (int32_t)-std::min<int64_t>(pb, m), hi = (int32_t)std::min<int64_t>(tb, n);
        Wave &M = slot(0, cM);
        int32_t *pm = dst(M, lo, hi, hi);
        for (int32_t k = lo; k <= hi; ++k) pm[k - lo] = std::max(k, 0);
        if (cs != cM) {  // a half that begins inside a gap: that gap at offset 0, free
            Wave &g = slot(0, cs);
            dst(g, 0, 0, 0)[0] = 0;
        }
        cells += (uint64_t)(hi - lo + 1);
        if (codes && codes->room((uint64_t)(hi - lo + 1))) {
            rows->push_back(CodeRow{codes->size, lo, hi});
            std::memset(codes->append((size_t)(hi - lo + 1), (size_t)(hi - lo + 1)), 0, (size_t)(hi - lo + 1));
            codes->commit();
        }
        extend_m(M);
    }

    // Computes score s + 1 (extended). Returns false if M has no range there.
    // Throws Stopped when the cancel flag is raised: one relaxed load per score,
    // nothing next to a score's cells and extensions.
    bool step(CodeBuf *codes, std::vector<CodeRow> *rows) {
        if (cancel && cancel->load(std::memory_order_relaxed)) throw Stopped{};
        ++s;
        bool any;
        if (pen.metric == kMetricEdit) any = step_edit(codes, rows);
        else if (pen.metric == kMetricAffine2p) any = step_affine<true>(codes, rows);
        else any = step_affine<false>(codes, rows);
        if (any) extend_m(slot(s, cM));
        return any;
    }

    // Offset of component c on diagonal k at score sc, or kNull.
    int32_t value(int64_t sc, int c, int64_t k) {
        Wave *w = get(sc, c);
        if (!w || k < w->lo || k > w->hi) return kNull;
        return *w->at(k);
    }

private:
    // Every diagonal a cell loop reads or writes lies in [-m - 1, n + kCellPad]:
    // ranges are clamped to [-m, n], a loop writes up to kCellPad - 1 diagonals
    // past hi and reads one more on each side. A buffer gets slack beyond what a
    // score needs (so that a widening range rarely reallocates) but never beyond
    // that window, so one buffer holds at most m + n + kCellPad + 2 offsets. (A
    // request outside the window would still be covered whole.)
    void buffer_span(int64_t lo, int64_t hi, int64_t &blo, int64_t &bhi) const {
        const int64_t slack = 16 + (hi - lo + 1) / 4;
        blo = std::max<int64_t>(lo - slack, std::min<int64_t>(lo, -(int64_t)m - 1));
        bhi = std::min<int64_t>(hi + slack, std::max<int64_t>(hi, (int64_t)n + kCellPad));
    }

    // Output buffer of w over [lo, hi], writable up to diagonal top >= hi; w
    // becomes that range.
    int32_t *dst(Wave &w, int32_t lo, int32_t hi, int64_t top) {
        if (lo < w.base || top >= w.base + (int64_t)w.buf.size()) {
            int64_t blo, bhi;
            buffer_span(lo, top, blo, bhi);
            w.base = blo;
            w.buf.assign((size_t)(bhi - blo + 1), kNull);
        }
        w.has = true;
        w.lo = lo;
        w.hi = hi;
        w.ilo = lo;
        // The cell loops write [lo, top]: the cells past hi come out null (each of
        // their sources lies past its own range, or is a null, or breaks a bound).
        w.ihi = top;
        return w.at(lo);
    }

    // Width: at most m + n + kCellPad + 2 (a padded range and one diagonal on each
    // side), and so is the buffer.
    void ensure_nullbuf(int64_t width) {
        if ((int64_t)nullbuf.size() < width)
            nullbuf.assign((size_t)std::max<int64_t>(width, std::min<int64_t>(width + width / 4 + 16,
                                                                               (int64_t)m + n + kCellPad + 2)),
                           kNull);
    }

    // Pointer p with p[i] = the source's offset on diagonal wlo + i, nulls outside
    // its range. nullbuf must already be wide enough for a missing source.
    const int32_t *src(Wave *w, int64_t wlo, int64_t whi) {
        if (!w) return nullbuf.data();
        if (wlo < w->base || whi >= w->base + (int64_t)w->buf.size()) {
            // Grow: keep the range's values, nulls everywhere else.
            int64_t nbase, ntop;
            buffer_span(std::min<int64_t>(wlo, w->lo), std::max<int64_t>(whi, w->hi), nbase, ntop);
            std::vector<int32_t> nb((size_t)(ntop - nbase + 1), kNull);
            std::memcpy(nb.data() + (w->lo - nbase), w->at(w->lo), sizeof(int32_t) * (size_t)(w->hi - w->lo + 1));
            w->buf.swap(nb);
            w->base = nbase;
            w->ilo = nbase;
            w->ihi = nbase + (int64_t)w->buf.size() - 1;
        } else {
            if (wlo < w->ilo) {
                std::fill(w->at(wlo), w->at(w->ilo), kNull);
                w->ilo = wlo;
            }
            if (whi > w->ihi) {
                std::fill(w->at(w->ihi + 1), w->at(whi + 1), kNull);
                w->ihi = whi;
            }
        }
        return w->at(wlo);
    }

    // Range of a component from its sources, shifted by d, clamped to [-m, n].
    bool range_from(Wave *a, Wave *b, int d, int32_t &lo, int32_t &hi) {
        if (!a && !b) return false;
        int64_t l = INT64_MAX, h = INT64_MIN;
        if (a) { l = std::min<int64_t>(l, a->lo); h = std::max<int64_t>(h, a->hi); }
        if (b) { l = std::min<int64_t>(l, b->lo); h = std::max<int64_t>(h, b->hi); }
        l = std::max<int64_t>(l + d, -(int64_t)m);
        h = std::min<int64_t>(h + d, n);
        if (l > h) return false;
        lo = (int32_t)l;
        hi = (int32_t)h;
        return true;
    }

    void no_range(CodeBuf *codes, std::vector<CodeRow> *rows) {
        for (int c = 0; c < kComps; ++c) slot(s, c).has = false;
        if (codes) rows->push_back(CodeRow{codes->size, 0, -1});
    }

    template <bool TWO>
    bool step_affine(CodeBuf *codes, std::vector<CodeRow> *rows) {
        const int32_t x = pen.x, o = pen.o, e = pen.e, o2 = pen.o2, e2 = pen.e2;
        Wave *Mx = get(s - x, cM), *Mo = get(s - o - e, cM), *De = get(s - e, cD1), *Ie = get(s - e, cI1);
        Wave *Mo2 = nullptr, *D2e = nullptr, *I2e = nullptr;
        if (TWO) {
            Mo2 = get(s - o2 - e2, cM);
            D2e = get(s - e2, cD2);
            I2e = get(s - e2, cI2);
        }
        int32_t rl[kComps] = {0, 0, 0, 0, 0}, rh[kComps] = {0, 0, 0, 0, 0};
        bool rk[kComps] = {false, false, false, false, false};
        rk[cD1] = range_from(Mo, De, +1, rl[cD1], rh[cD1]);
        rk[cI1] = range_from(Mo, Ie, -1, rl[cI1], rh[cI1]);
        if (TWO) {
            rk[cD2] = range_from(Mo2, D2e, +1, rl[cD2], rh[cD2]);
            rk[cI2] = range_from(Mo2, I2e, -1, rl[cI2], rh[cI2]);
        }
        int32_t lo = INT32_MAX, hi = INT32_MIN;
        bool any = false;
        if (Mx) { lo = Mx->lo; hi = Mx->hi; any = true; }
        for (int c = 1; c < kComps; ++c)
            if (rk[c]) {
                lo = std::min(lo, rl[c]);
                hi = std::max(hi, rh[c]);
                any = true;
            }
        if (!any) {
            no_range(codes, rows);
            return false;
        }
        const int64_t W = (int64_t)hi - lo + 1, Wp = padded_width(W);
        const int64_t top = (int64_t)lo + Wp - 1;  // the loop computes [lo, top]
        cells += (uint64_t)W;
        ensure_nullbuf(Wp + 2);
        // Sources may be one and the same wave (x == o + e, ...): pad every one to the
        // widest window first, so that taking the pointers below reallocates nothing.
        for (Wave *w : {Mx, Mo, De, Ie, Mo2, D2e, I2e}) src(w, (int64_t)lo - 1, top + 1);
        const int32_t *__restrict pMx = src(Mx, lo, top);
        const int32_t *__restrict pMo = src(Mo, (int64_t)lo - 1, top + 1);  // [i]: k-1, [i+2]: k+1
        const int32_t *__restrict pDe = src(De, (int64_t)lo - 1, top - 1);
        const int32_t *__restrict pIe = src(Ie, (int64_t)lo + 1, top + 1);
        const int32_t *__restrict pMo2 = nullptr, *__restrict pD2e = nullptr, *__restrict pI2e = nullptr;
        if (TWO) {
            pMo2 = src(Mo2, (int64_t)lo - 1, top + 1);
            pD2e = src(D2e, (int64_t)lo - 1, top - 1);
            pI2e = src(I2e, (int64_t)lo + 1, top + 1);
        }
        int32_t *__restrict oM = dst(slot(s, cM), lo, hi, top);
        int32_t *__restrict oD1 = dst(slot(s, cD1), lo, hi, top);
        int32_t *__restrict oI1 = dst(slot(s, cI1), lo, hi, top);
        int32_t *__restrict oD2 = nullptr, *__restrict oI2 = nullptr;
        if (TWO) {
            oD2 = dst(slot(s, cD2), lo, hi, top);
            oI2 = dst(slot(s, cI2), lo, hi, top);
        }
        for (int c = 1; c < kComps; ++c) {
            Wave &w = slot(s, c);
            if (!TWO && c >= cD2) { w.has = false; continue; }
            w.has = rk[c];
            if (rk[c]) { w.lo = rl[c]; w.hi = rh[c]; }
        }
        // A row that would take the codes past their limit is not stored, but the
        // score is still computed in full (without codes), so that the attempt
        // stops with the same score and cells whether or not codes are kept;
        // run_to_end then gives up.
        uint8_t *__restrict code = nullptr;
        if (codes && codes->room((uint64_t)W)) {
            rows->push_back(CodeRow{codes->size, lo, hi});
            code = codes->append((size_t)W, (size_t)Wp);
        }
        const uint32_t un = (uint32_t)n, um = (uint32_t)m;
        const int32_t iW = (int32_t)Wp;
        if (code) {
            affine_cells<TWO, true>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
            codes->commit();
        } else {
            affine_cells<TWO, false>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
        }
        return true;
    }

    bool step_edit(CodeBuf *codes, std::vector<CodeRow> *rows) {
        Wave *Mp = get(s - 1, cM);
        for (int c = 1; c < kComps; ++c) slot(s, c).has = false;
        int32_t lo, hi;
        if (!range_from(Mp, nullptr, 0, lo, hi)) {
            no_range(codes, rows);
            return false;
        }
        // [lo - 1, hi + 1], clamped
        lo = (int32_t)std::max<int64_t>((int64_t)lo - 1, -(int64_t)m);
        hi = (int32_t)std::min<int64_t>((int64_t)hi + 1, n);
        const int64_t W = (int64_t)hi - lo + 1, Wp = padded_width(W);
        const int64_t top = (int64_t)lo + Wp - 1;  // the loop computes [lo, top]
        cells += (uint64_t)W;
        ensure_nullbuf(Wp + 2);
        const int32_t *__restrict pM = src(Mp, (int64_t)lo - 1, top + 1);  // [i] k-1, [i+1] k, [i+2] k+1
        int32_t *__restrict oM = dst(slot(s, cM), lo, hi, top);
        const uint32_t un = (uint32_t)n, um = (uint32_t)m;
        const int32_t iW = (int32_t)Wp;
        if (codes && codes->room((uint64_t)W)) {  // as in step_affine
            rows->push_back(CodeRow{codes->size, lo, hi});
            edit_cells<true>(iW, lo, un, um, pM, oM, codes->append((size_t)W, (size_t)Wp));
            codes->commit();
        } else {
            edit_cells<false>(iW, lo, un, um, pM, oM, nullptr);
        }
        return true;
    }

    void extend_m(Wave &M) {
        if (padded) {
            if (nmis) extend_all<true, true>(M);
            else extend_all<false, true>(M);
        } else {
            if (nmis) extend_all<true, false>(M);
            else extend_all<false, false>(M);
        }
    }
    template <bool NMIS, bool PADDED>
    void extend_all(Wave &M) {
        // Locals: the offset stores could alias the members otherwise.
        int32_t *__restrict pm = M.at(M.lo);
        const int32_t lo = M.lo, w = M.hi - M.lo + 1, nn = n, mm = m;
        const uint8_t *pp = P, *tt = T;
        for (int32_t i = 0; i < w; ++i) {
            const int32_t h = pm[i];
            if (h < 0) continue;
            pm[i] = PADDED ? extend_run_padded<NMIS>(pp, tt, h, h - (lo + i))
                           : extend_run<NMIS>(pp, tt, h, h - (lo + i), nn, mm);
        }
    }
};

// The end of an alignment at the last score of d: the lowest diagonal of M (or of
// component ce, end-to-end only) that reaches it. Returns false if none yet.
bool find_end(Dir &d, int ce, int64_t pe, int64_t te, int32_t &k_end, int32_t &h_end) {
    if (pe == 0 && te == 0) {
        const int64_t k = (int64_t)d.n - d.m;
        if (d.value(d.s, ce, k) == d.n) {
            k_end = (int32_t)k;
            h_end = d.n;
            return true;
        }
        return false;
    }
    int32_t lo, hi;
    if (!d.m_range(lo, hi)) return false;
    const int32_t *pm = d.slot(d.s, cM).at(lo);
    for (int32_t k = lo; k <= hi; ++k) {
        const int32_t h = pm[k - lo];
        if (h < 0) continue;
        const int64_t v = (int64_t)h - k;
        if ((h == d.n && d.m - v <= pe) || (v == d.m && d.n - h <= te)) {
            k_end = k;
            h_end = h;
            return true;
        }
    }
    return false;
}

Penalties penalties_of(const WfaParams &p) {
    Penalties q{p.metric, p.x, p.o, p.e, p.o2, p.e2};
    if (p.metric == kMetricEdit) {
        q.x = 1;
        q.o = 0;
        q.e = 1;
    }
    return q;
}

int ring_len(const Penalties &q) {
    if (q.metric == kMetricEdit) return 2;
    int32_t r = std::max(q.x, q.o + q.e);
    if (q.metric == kMetricAffine2p) r = std::max(r, q.o2 + q.e2);
    return r + 1;
}

bool has_n(const uint8_t *s, int64_t len) { return len > 0 && std::memchr(s, kBaseN, (size_t)len) != nullptr; }

// Appends op (len << 4 | code) to the CIGAR, merging with an equal last op.
void push_op(std::vector<uint32_t> &cigar, uint32_t code, uint64_t len) {
    if (len == 0) return;
    if (!cigar.empty() && GALE_CIGAR_OP(cigar.back()) == code) cigar.back() += (uint32_t)(len << GALE_CIGAR_SHIFT);
    else cigar.push_back((uint32_t)(len << GALE_CIGAR_SHIFT) | code);
}

// wfa_replay with the problem given directly; extend_first is false for a half
// that begins inside a gap (the gap continues before any match). padded: P and
// T end in sentinels (Padded).
bool replay(const uint8_t *P, const uint8_t *T, int64_t m, int64_t n, bool nmis, int64_t h, int64_t v,
            bool extend_first, const WfaOp *ops, size_t n_ops, int64_t *h_end, int64_t *v_end,
            std::vector<uint32_t> &cigar, bool padded = false) {
    auto ext = [&]() {
        const int64_t h0 = h;
        if (padded)
            h = nmis ? extend_run_padded<true>(P, T, (int32_t)h, (int32_t)v)
                     : extend_run_padded<false>(P, T, (int32_t)h, (int32_t)v);
        else
            h = nmis ? extend_run<true>(P, T, (int32_t)h, (int32_t)v, (int32_t)n, (int32_t)m)
                     : extend_run<false>(P, T, (int32_t)h, (int32_t)v, (int32_t)n, (int32_t)m);
        v += h - h0;
        push_op(cigar, GALE_CIGAR_EQUAL, (uint64_t)(h - h0));
    };
    if (extend_first) ext();
    for (size_t i = 0; i < n_ops; ++i) {
        const WfaOp &op = ops[i];
        switch (op.code) {
        case GALE_CIGAR_DIFF:
            if (op.len != 1 || h >= n || v >= m || wfa_match(P[v], T[h], nmis ? 1 : 0)) return false;
            ++h;
            ++v;
            break;
        case GALE_CIGAR_DEL:
            if (op.len == 0 || (int64_t)op.len > n - h) return false;
            h += op.len;
            break;
        case GALE_CIGAR_INS:
            if (op.len == 0 || (int64_t)op.len > m - v) return false;
            v += op.len;
            break;
        default: return false;
        }
        push_op(cigar, op.code, op.len);
        ext();
    }
    *h_end = h;
    *v_end = v;
    return true;
}

// Full-memory alignment of one (sub)problem with backtrace codes.
struct FullOut {
    int64_t score;
    int32_t k0, k_end, h_end;
};

}  // namespace

// Tasks longer than this (both sequences together) are not copied (Padded).
constexpr int64_t kMaxPadded = (int64_t)1 << 24;

struct WfaWorkspace {
    Dir fwd, rev;
    CodeBuf codes;
    std::vector<CodeRow> rows;
    Padded pad;  // the task's sequences with sentinels
    std::vector<WfaOp> ops;
    std::vector<uint8_t> prev, trev;  // reversed sequences (low-memory mode)
};

namespace {

// A workspace lives as long as its worker thread and serves all its tasks, so
// what one large task allocated would stay held; past this many bytes the codes
// and the rings are given back after the task instead (the next large task
// allocates them again, at a cost small next to its alignment).
constexpr uint64_t kKeepBytes = (uint64_t)64 << 20;

void trim(WfaWorkspace &ws) {
    if (ws.codes.reserved() + ws.rows.capacity() * sizeof(CodeRow) > kKeepBytes) {
        ws.codes.release();
        std::vector<CodeRow>().swap(ws.rows);
    }
    if (ws.fwd.held() + ws.rev.held() > kKeepBytes) {
        ws.fwd.release();
        ws.rev.release();
    }
}

// Runs d (already set up) to the end. With codes (cleared here), gives up
// (returns false) at the first score whose row would take them over max_codes
// bytes; that score is computed (without codes) first, so d.s and d.cells include
// it. So an alignment runs in full memory iff its cells (the sum of M's widths
// over scores 0 .. its score, lib/wfa.h) are at most max_codes. ce: end component
// (end-to-end only).
bool run_to_end(Dir &d, int ce, int64_t pe, int64_t te, CodeBuf *codes, std::vector<CodeRow> *rows,
                uint64_t max_codes, int32_t &k_end, int32_t &h_end) {
    if (codes) {
        codes->clear(max_codes);
        rows->clear();
    }
    d.init(codes, rows);
    for (;;) {
        if (codes && codes->over) return false;
        if (find_end(d, ce, pe, te, k_end, h_end)) return true;
        d.step(codes, rows);
    }
}

// Backtrace from (s_end, k_end, ce) through the codes to score 0; fills ops in
// path order and returns the start diagonal.
int32_t backtrace(const Dir &d, const CodeBuf &codes, const std::vector<CodeRow> &rows, int ce,
                  int64_t s_end, int32_t k_end, std::vector<WfaOp> &ops) {
    const Penalties &q = d.pen;
    ops.clear();
    int64_t s = s_end;
    int64_t k = k_end;
    int c = ce;
    uint32_t glen = 0;
    auto code_at = [&](int64_t sc, int64_t kk) -> uint8_t {
        const CodeRow &r = rows[(size_t)sc];
        if (kk < r.lo || kk > r.hi) fail(GALE_E_INTERNAL, "WFA backtrace left the wavefront (s %lld, k %lld)",
                                         (long long)sc, (long long)kk);
        return codes.at(r.off + (uint64_t)(kk - r.lo));
    };
    auto gap_piece = [&](int comp, int32_t &o, int32_t &e, uint8_t &bit, int &dk, uint32_t &opcode) {
        const bool two = comp == cD2 || comp == cI2;
        o = two ? q.o2 : q.o;
        e = two ? q.e2 : q.e;
        bit = comp == cD1 ? kExtD1 : comp == cI1 ? kExtI1 : comp == cD2 ? kExtD2 : kExtI2;
        const bool del = comp == cD1 || comp == cD2;  // consumes the text: SAM D, previous diagonal k - 1
        dk = del ? -1 : +1;
        opcode = del ? GALE_CIGAR_DEL : GALE_CIGAR_INS;
    };
    for (;;) {
        if (s == 0 && (c == cM || c == d.cs)) {
            if (c != cM) {
                int32_t o, e;
                uint8_t bit;
                int dk;
                uint32_t opc;
                gap_piece(c, o, e, bit, dk, opc);
                if (glen) ops.push_back(WfaOp{opc, glen});
            }
            break;
        }
        if (s < 0) fail(GALE_E_INTERNAL, "WFA backtrace went below score 0");
        const uint8_t code = code_at(s, k);
        if (c == cM) {
            const int src = code & 7;
            if (q.metric == kMetricEdit) {
                if (src == kSrcX) ops.push_back(WfaOp{GALE_CIGAR_DIFF, 1});
                else if (src == kSrcD1) { ops.push_back(WfaOp{GALE_CIGAR_DEL, 1}); k -= 1; }
                else { ops.push_back(WfaOp{GALE_CIGAR_INS, 1}); k += 1; }
                s -= 1;
            } else if (src == kSrcX) {
                ops.push_back(WfaOp{GALE_CIGAR_DIFF, 1});
                s -= q.x;
            } else {
                c = src;  // kSrcD1.. map to the component numbers
            }
        } else {
            int32_t o, e;
            uint8_t bit;
            int dk;
            uint32_t opc;
            gap_piece(c, o, e, bit, dk, opc);
            ++glen;
            k += dk;
            if (code & bit) {
                s -= e;
            } else {
                ops.push_back(WfaOp{opc, glen});
                glen = 0;
                s -= (int64_t)o + e;
                c = cM;
            }
        }
    }
    std::reverse(ops.begin(), ops.end());
    return (int32_t)k;
}

static_assert((int)kSrcD1 == cD1 && (int)kSrcI1 == cI1 && (int)kSrcD2 == cD2 && (int)kSrcI2 == cI2,
              "component numbers follow WfaSrc");

// Low-memory (BiWFA) solver of one task.
class Bi {
public:
    Bi(WfaWorkspace &ws, const PairTask &t, const Penalties &q, bool nmis, uint64_t limit_bytes)
        : ws_(ws), t_(t), q_(q), nmis_(nmis) {
        m_ = t.v_len;
        n_ = t.h_len;
        R_ = ring_len(q);
        omax_ = q.metric == kMetricEdit ? 0 : (q.metric == kMetricAffine2p ? std::max(q.o, q.o2) : q.o);
        maxstep_ = R_ - 1;
        margin_ = maxstep_ + omax_;
        emin_ = q.metric == kMetricAffine2p ? std::min(q.e, q.e2) : q.e;
        if (q.metric == kMetricEdit) emin_ = 1;
        cap_ = std::min<uint64_t>(limit_bytes, (uint64_t)8 << 20);
        ws.prev.resize((size_t)m_);
        ws.trev.resize((size_t)n_);
        for (int64_t i = 0; i < m_; ++i) ws.prev[(size_t)i] = t.v[m_ - 1 - i];
        for (int64_t i = 0; i < n_; ++i) ws.trev[(size_t)i] = t.h[n_ - 1 - i];
    }

    uint64_t cells = 0;

    // Aligns [h0, h1) x [v0, v1) from component cs to component ce; appends its CIGAR.
    // est: an upper bound of its score (or -1: unknown). Returns its score.
    int64_t solve(int64_t h0, int64_t v0, int64_t h1, int64_t v1, int cs, int ce, int64_t est,
                  std::vector<uint32_t> &cigar) {
        const int64_t n = h1 - h0, m = v1 - v0;
        if (est >= 0 && (fits(est, n, m) || est <= 2 * margin_ || n == 0 || m == 0))
            return base(h0, v0, h1, v1, cs, ce, cigar);
        if (est < 0 && (n == 0 || m == 0)) return base(h0, v0, h1, v1, cs, ce, cigar);
        // Meet in the middle.
        Dir &F = ws_.fwd, &Rv = ws_.rev;
        const int ringb = R_ + omax_ + 2;
        F.setup(t_.v + v0, t_.h + h0, (int32_t)m, (int32_t)n, nmis_, q_, ringb, cs, 0, 0);
        Rv.setup(ws_.prev.data() + (m_ - v1), ws_.trev.data() + (n_ - h1), (int32_t)m, (int32_t)n, nmis_, q_, ringb,
                 ce, 0, 0, false);
        const int64_t C = gap_open(ce);
        best_ = INT64_MAX;
        F.init(nullptr, nullptr);
        Rv.init(nullptr, nullptr);
        compare(F, Rv, 0, 0, C, ce);
        for (int turn = 0;; turn ^= 1) {
            if (best_ != INT64_MAX && F.s + Rv.s >= best_ + margin_) break;
            if (turn == 0) {
                F.step(nullptr, nullptr);
                for (int64_t b = std::max<int64_t>(0, Rv.s - ringb + 1); b <= Rv.s; ++b)
                    compare(F, Rv, F.s, b, C, ce);
            } else {
                Rv.step(nullptr, nullptr);
                for (int64_t a = std::max<int64_t>(0, F.s - ringb + 1); a <= F.s; ++a)
                    compare(F, Rv, a, Rv.s, C, ce);
            }
        }
        cells += F.cells + Rv.cells;
        const int64_t score = best_, a = bp_a_, b = bp_b_;
        const int c = bp_c_;
        const int64_t hb = h0 + bp_h_, vb = v0 + (int64_t)bp_h_ - bp_k_;
        const bool degenerate = (hb == h0 && vb == v0 && c == cs) || (hb == h1 && vb == v1 && c == ce);
        if (degenerate) return base(h0, v0, h1, v1, cs, ce, cigar);
        const int64_t left = solve(h0, v0, hb, vb, cs, c, a, cigar);
        const int64_t right = solve(hb, vb, h1, v1, c, ce, b + omax_, cigar);
        if (left + right != score)
            fail(GALE_E_INTERNAL, "WFA low-memory halves score %lld + %lld, expected %lld", (long long)left,
                 (long long)right, (long long)score);
        return score;
    }

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

    int64_t gap_open(int c) const {
        if (c == cD1 || c == cI1) return q_.o;
        if (c == cD2 || c == cI2) return q_.o2;
        return 0;
    }

    // Provably at most cap_ bytes of codes: a range widens by at most one
    // diagonal per side for each e of score.
    bool fits(int64_t S, int64_t n, int64_t m) const {
        const double width = std::min<double>((double)(n + m + 1), 2.0 * (double)(S / emin_) + 3.0);
        return (double)(S + 1) * width <= (double)cap_;
    }

    // Forward wavefronts of score a against reverse ones of score b: an overlap on
    // a diagonal in the same component is a path of penalty a + b (+ the open of
    // the final gap the reverse start did not pay, - the open of a gap both paid).
    void compare(Dir &F, Dir &Rv, int64_t a, int64_t b, int64_t C, int ce) {
        const int ncomp = q_.metric == kMetricEdit ? 1 : (q_.metric == kMetricAffine2p ? 5 : 3);
        const int64_t n = F.n, dk = (int64_t)F.n - F.m;
        for (int c = 0; c < ncomp; ++c) {
            const int64_t total = a + b + C - gap_open(c);
            if (total >= best_) continue;
            Wave *fw = F.get(a, c), *rw = Rv.get(b, c);
            if (!fw || !rw) continue;
            // forward diagonal k <-> reverse diagonal dk - k
            const int64_t lo = std::max<int64_t>(fw->lo, dk - rw->hi), hi = std::min<int64_t>(fw->hi, dk - rw->lo);
            for (int64_t k = lo; k <= hi; ++k) {
                const int32_t hf = *fw->at(k), hr = *rw->at(dk - k);
                if (hf >= 0 && hr >= 0 && (int64_t)hf + hr >= n) {
                    // At the very end the path must be in ce: another component there
                    // is no breakpoint (its right half would be empty yet end elsewhere).
                    if (hf == n && (int64_t)hf - k == F.m && c != ce && ce != cM) continue;
                    best_ = total;
                    bp_a_ = a;
                    bp_b_ = b;
                    bp_k_ = (int32_t)k;
                    bp_h_ = hf;
                    bp_c_ = c;
                    break;
                }
            }
        }
    }

    // Full-memory solve of a small (sub)problem from cs to ce.
    int64_t base(int64_t h0, int64_t v0, int64_t h1, int64_t v1, int cs, int ce, std::vector<uint32_t> &cigar) {
        const int64_t n = h1 - h0, m = v1 - v0;
        Dir &d = ws_.fwd;
        d.setup(t_.v + v0, t_.h + h0, (int32_t)m, (int32_t)n, nmis_, q_, R_, cs, 0, 0);
        int32_t k_end = 0, h_end = 0;
        if (n == 0 || m == 0) {
            // One sequence is empty: the path is one gap whatever the codes say
            // (pieces of it merge in the CIGAR), so only its score is needed, and
            // the wavefronts run without codes. With codes this half would take
            // about L^2 / 4 bytes for a gap of L bases at e = 2 (128 MB for the
            // 16 kbp half of a 64 kbp insertion), far past the memory limit.
            if (!run_to_end(d, ce, 0, 0, nullptr, nullptr, 0, k_end, h_end) || k_end != n - m || h_end != n)
                fail(GALE_E_INTERNAL, "WFA low-memory gap half did not reach its end");
            cells += d.cells;
            push_op(cigar, n ? GALE_CIGAR_DEL : GALE_CIGAR_INS, (uint64_t)(n + m));
            return d.s;
        }
        // Unbounded codes: any other base case is small by construction (solve()).
        if (!run_to_end(d, ce, 0, 0, &ws_.codes, &ws_.rows, UINT64_MAX, k_end, h_end))
            fail(GALE_E_INTERNAL, "WFA low-memory base case ran out of code room");
        cells += d.cells;
        const int64_t score = d.s;
        const int32_t k0 = backtrace(d, ws_.codes, ws_.rows, ce, d.s, k_end, ws_.ops);
        int64_t he, ve;
        if (k0 != 0 || !replay(t_.v + v0, t_.h + h0, m, n, nmis_, 0, 0, cs == cM, ws_.ops.data(), ws_.ops.size(),
                               &he, &ve, cigar) ||
            he != n || ve != m)
            fail(GALE_E_INTERNAL, "WFA low-memory base case replay failed");
        return score;
    }
};

}  // namespace

bool wfa_replay(const PairTask &t, const WfaParams &p, int64_t k0, const WfaOp *ops, size_t n_ops, int64_t *h_end,
                int64_t *v_end, std::vector<uint32_t> &cigar) {
    if (k0 > t.h_len || -k0 > t.v_len) return false;
    const bool nmis = p.n_policy == GALE_N_MISMATCH;
    return replay(t.v, t.h, t.v_len, t.h_len, nmis, std::max<int64_t>(k0, 0), std::max<int64_t>(-k0, 0), true,
                  ops, n_ops, h_end, v_end, cigar);
}

namespace {

void align_task(const PairTask &t, const WfaParams &p, WfaResult &r, std::vector<uint32_t> &cigar,
                WfaWorkspace *ws) {
    cigar.clear();
    r.cigar = VarSpan{};
    r.flags = 0;
    r.cells = 0;
    const int64_t m = t.v_len, n = t.h_len;
    const WfaFree f = wfa_free(p, m, n);
    const Penalties q = penalties_of(p);
    const bool nmis = p.n_policy == GALE_N_MISMATCH && (has_n(t.v, m) || has_n(t.h, n));
    const int R = ring_len(q);
    const auto signed_score = [&](int64_t s) { return q.metric == kMetricEdit ? s : -s; };
    // Sentinel copies of the sequences, unless they are huge (then the memory
    // matters more than the bound checks).
    const bool padded = m + n <= kMaxPadded;
    const uint8_t *P = t.v, *T = t.h;
    if (padded) {
        ws->pad.set(t.v, m, t.h, n);
        P = ws->pad.P;
        T = ws->pad.T;
    }
    Dir &d = ws->fwd;
    d.setup(P, T, (int32_t)m, (int32_t)n, nmis, q, R, cM, f.pb, f.tb);
    d.padded = padded;
    int32_t k_end = 0, h_end = 0;

    if (p.scope == GALE_SCOPE_SCORE) {
        run_to_end(d, cM, f.pe, f.te, nullptr, nullptr, 0, k_end, h_end);
        r.score = signed_score(d.s);
        r.cells = d.cells;
        r.h_end = h_end;
        r.v_end = (int64_t)h_end - k_end;
        const bool free_begin = f.pb > 0 || f.tb > 0;
        r.h_begin = free_begin ? -1 : 0;
        r.v_begin = free_begin ? -1 : 0;
        trim(*ws);
        return;
    }

    const uint64_t limit = (uint64_t)p.memory_limit_mib << 20;
    if (run_to_end(d, cM, f.pe, f.te, &ws->codes, &ws->rows, limit, k_end, h_end)) {
        r.cells = d.cells;
        r.score = signed_score(d.s);
        const int32_t k0 = backtrace(d, ws->codes, ws->rows, cM, d.s, k_end, ws->ops);
        int64_t he = -1, ve = -1;
        // As wfa_replay(), on the sentinel copies.
        if (k0 > n || -k0 > m ||
            !replay(P, T, m, n, nmis, std::max<int64_t>(k0, 0), std::max<int64_t>(-k0, 0), true, ws->ops.data(),
                    ws->ops.size(), &he, &ve, cigar, padded) ||
            he != h_end || ve != (int64_t)h_end - k_end)
            fail(GALE_E_INTERNAL, "WFA replay does not reach the end found by the wavefronts");
        r.h_begin = std::max<int64_t>(k0, 0);
        r.v_begin = std::max<int64_t>(-k0, 0);
        r.h_end = he;
        r.v_end = ve;
        trim(*ws);
        return;
    }

    // Low-memory mode.
    uint64_t cells = d.cells;
    ws->codes.release();
    std::vector<CodeRow>().swap(ws->rows);
    r.flags |= GALE_RF_LOWMEM;
    int64_t hb = 0, vb = 0, he = n, ve = m, score;
    const bool ends_free = f.pb || f.tb || f.pe || f.te;
    if (ends_free) {
        // The end (forward, score only), then the begin (backwards from that end).
        d.setup(t.v, t.h, (int32_t)m, (int32_t)n, nmis, q, R, cM, f.pb, f.tb);
        run_to_end(d, cM, f.pe, f.te, nullptr, nullptr, 0, k_end, h_end);
        cells += d.cells;
        he = h_end;
        ve = (int64_t)h_end - k_end;
        score = d.s;
        Bi bi(*ws, t, q, nmis, limit);  // builds the reversed sequences
        Dir &b = ws->rev;
        b.setup(ws->prev.data() + (m - ve), ws->trev.data() + (n - he), (int32_t)ve, (int32_t)he, nmis, q, R, cM, 0,
                0);
        int32_t kb, hb2;
        run_to_end(b, cM, f.pb, f.tb, nullptr, nullptr, 0, kb, hb2);
        cells += b.cells;
        if (b.s != score) fail(GALE_E_INTERNAL, "WFA low-memory: begin search scored %lld, end search %lld",
                               (long long)b.s, (long long)score);
        hb = he - hb2;
        vb = ve - ((int64_t)hb2 - kb);
        const int64_t s2 = bi.solve(hb, vb, he, ve, cM, cM, -1, cigar);
        cells += bi.cells;
        if (s2 != score) fail(GALE_E_INTERNAL, "WFA low-memory: aligned region scored %lld, expected %lld",
                              (long long)s2, (long long)score);
    } else {
        Bi bi(*ws, t, q, nmis, limit);
        score = bi.solve(0, 0, n, m, cM, cM, -1, cigar);
        cells += bi.cells;
    }
    r.score = signed_score(score);
    r.cells = cells;
    r.h_begin = hb;
    r.v_begin = vb;
    r.h_end = he;
    r.v_end = ve;
    std::vector<uint8_t>().swap(ws->prev);
    std::vector<uint8_t>().swap(ws->trev);
    trim(*ws);
}

}  // namespace

bool wfa_task_cpu(const PairTask &t, const WfaParams &p, WfaResult &r, std::vector<uint32_t> &cigar,
                  WfaWorkspace *&ws, const std::atomic<bool> *cancel) {
    if (!ws) ws = new WfaWorkspace();
    ws->fwd.cancel = ws->rev.cancel = cancel;
    try {
        align_task(t, p, r, cigar, ws);
        return true;
    } catch (const Stopped &) {
        // Given back as after a task that ends: what a long task took does not stay held.
        cigar.clear();
        std::vector<uint8_t>().swap(ws->prev);
        std::vector<uint8_t>().swap(ws->trev);
        trim(*ws);
        return false;
    }
}

void wfa_workspace_free(WfaWorkspace *ws) { delete ws; }

}  // namespace gale
