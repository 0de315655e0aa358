// CUDA kernels of gapped X-drop seed extension, bit-identical to lib/cpu/xdrop.cpp.
//
// Each extension (one side of one task) is computed by a group of threads that
// walks the anti-diagonals exactly as the CPU kernel does; the threads split the
// live band of each anti-diagonal, and three group-wide reductions per
// anti-diagonal give the new best score and the new band (min/max live column).
// Extensions go through tiers by band width (inspector-executor: a tier that
// finds the band outgrowing its buffers hands the extension to the next):
//  - narrow: a warp per extension, anti-diagonals in shared memory (256 cells);
//    nearly every extension of X <= 100 ends here;
//  - block tiers (kTiers): 128 threads / 2048 cells and 256 threads / 6144 cells
//    in shared memory, with both segments unpacked to bytes there; then 256
//    threads with anti-diagonals in the pool's global scratch;
//  - what no tier holds is rescued on the CPU by the caller.
// Kernels are persistent: resident groups take extensions off a counter, so long
// and short extensions mix without tail waits.
// Sequences travel 2-bit packed with an N mask, under GALE_N_BYTES one byte per
// base (cuda/common/pack.cuh); the cell
// update uses the DPX instruction viaddmax (cuda/common/dpx.cuh).
#include <algorithm>
#include <climits>
#include <vector>

#include "common/cancel.cuh"
#include "common/device.cuh"
#include "common/dpx.cuh"
#include "common/group.cuh"
#include "common/pack.cuh"
#include "common/pipeline.cuh"
#include "cuda_backend.h"
#include "parallel.h"

namespace gale {
namespace cuda {

namespace {

constexpr int kNarrowCap = 256;       // cells per anti-diagonal in the narrow kernel
constexpr int kNarrowWarps = 4;       // warps per block of the narrow kernel

// Overflow: the band outgrew the tier's buffers; the next tier (or the CPU) takes it.
// Canceled: the batch was cancelled before it finished (common/cancel.cuh): no result.
enum ExtStatus : int32_t { kExtOk = 0, kExtOverflow = 1, kExtCanceled = 2 };

struct Ext {
    int64_t h0, v0;   // base index (in the chunk's packed arrays) of DP row 1 / col 1
    int32_t h_n, v_n; // segment lengths
    int32_t step;     // +1 right, -1 left
    int32_t pad;
};

struct ExtOut {
    int32_t score, rows, cols, status;
    uint64_t cells;
};

// How an extension reads its bases: DP col c is v[v0 + step*(c-1)], row r is
// h[h0 + step*(r-1)]. Positions are 32-bit (a chunk holds < 2^31 bases).
// advance() is called once per anti-diagonal, before its cells, by every thread of
// the group (the band then uses cols [minCol, maxCol) and rows d - col).
// Under GALE_N_MISMATCH an N of h reads as code 5 (h_n_code), so that "same code"
// is exactly "match" and the cell update needs no N test (see cell_subst).
struct PackedSeq {  // straight from the chunk's 2-bit packed arrays
    const uint32_t *code, *mask;
    int32_t v0, h0, step;
    uint8_t h_n_code;
    __device__ __forceinline__ uint8_t v(int32_t col) const { return base_at(code, mask, v0 + step * (col - 1)); }
    __device__ __forceinline__ uint8_t h(int32_t row) const {
        const uint8_t b = base_at(code, mask, h0 + step * (row - 1));
        return b == kBaseN ? h_n_code : b;
    }
    template <class G>
    __device__ __forceinline__ void advance(G &, int32_t, int32_t, int32_t) {}
};
struct SmemSeq {  // unpacked once per extension into shared memory, in DP order
    const uint8_t *vs, *hs;
    __device__ __forceinline__ uint8_t v(int32_t col) const { return vs[col - 1]; }
    __device__ __forceinline__ uint8_t h(int32_t row) const { return hs[row - 1]; }
    template <class G>
    __device__ __forceinline__ void advance(G &, int32_t, int32_t, int32_t) {}
};
// A warp's band is at most kNarrowCap cells, and its highest col and row grow by at
// most one per anti-diagonal: so circular windows of kWindow unpacked bases, topped
// up with the one or two new bases of each anti-diagonal, hold every base the band
// reads. That saves decoding two packed bases per cell.
constexpr int kWindow = 512;
struct WindowSeq {
    PackedSeq src;
    uint8_t *vw, *hw;        // kWindow bytes each, in shared memory
    int32_t v_top = 0, h_top = 0;  // highest col / row unpacked so far
    __device__ __forceinline__ uint8_t v(int32_t col) const { return vw[col & (kWindow - 1)]; }
    __device__ __forceinline__ uint8_t h(int32_t row) const { return hw[row & (kWindow - 1)]; }
    template <class G>
    __device__ __forceinline__ void advance(G &g, int32_t d, int32_t minCol, int32_t maxCol) {
        // At most one new col (maxCol grows by <= 1) and one new row (minCol never
        // decreases) per anti-diagonal: lane 0 and lane 1 fetch them.
        const int32_t v_need = maxCol - 1, h_need = d - minCol;
        if (g.tid() == 0 && v_need > v_top) vw[v_need & (kWindow - 1)] = src.v(v_need);
        if (g.tid() == 1 && h_need > h_top) hw[h_need & (kWindow - 1)] = src.h(h_need);
        v_top = max(v_top, v_need);
        h_top = max(h_top, h_need);
        g.sync();
    }
};

// xdrop_subst for codes read through a Seq (h's N already mapped by the N policy).
__device__ __forceinline__ int32_t cell_subst(uint8_t vb, uint8_t hb, const XdropParams &p) {
    return vb == hb ? p.match : p.mismatch;
}

__device__ __forceinline__ uint8_t h_n_code(const XdropParams &p) {
    return p.n_policy == GALE_N_MISMATCH ? kBaseN + 1 : kBaseN;
}

// One extension, step for step as xdrop_extend_cpu. buf holds 3 * cap cells. Polls the
// cancel word with the group's cancel (once per kCancelPollWork cells).
template <int T, class Seq>
__device__ void extend(Group<T, 3> &g, const int32_t h_n, const int32_t v_n, Seq seq, const XdropParams &p,
                       int32_t *buf, int32_t cap, ExtOut *out, CancelPoll &cancel) {
    const int tid = g.tid();
    const int32_t cols = v_n + 1, rows = h_n + 1;
    const int32_t gap = p.gap, X = p.xdrop;
    // The three anti-diagonals rotate through buf: b1 (d-2), b2 (d-1), b3 (d).
    int32_t *b1 = buf, *b2 = buf + cap, *b3 = buf + 2 * cap;
    int32_t off1 = 0, len1 = 0, off2 = 0, len2 = 1, off3 = 0, len3 = 2;
    if (tid == 0) {
        b2[0] = 0;
        b3[0] = b3[1] = (-gap > X) ? kUndef : gap;
    }
    int32_t d = 1, minCol = 1, maxCol = 2, best = 0;
    uint64_t cells = 0;
    g.sync();

    while (minCol < maxCol) {
        ++d;
        int32_t *t = b1; b1 = b2; b2 = b3; b3 = t;
        off1 = off2; len1 = len2;
        off2 = off3; len2 = len3;
        off3 = minCol - 1;
        len3 = maxCol + 1 - off3;
        if (len3 > cap) {  // band outgrew this kernel's buffers: hand over (same for every thread)
            if (tid == 0) out->status = kExtOverflow;
            return;
        }
        int32_t *c3 = b3 - off3;
        const int32_t *c2 = b2 - off2, *c1 = b1 - off1;
        const int64_t border = (int64_t)d * gap;
        const bool keep_border = border > (int64_t)best - X;
        const int32_t left_border = (keep_border && off3 == 0) ? (int32_t)border : kUndef;
        const int32_t top_border = (keep_border && d == maxCol) ? (int32_t)border : kUndef;

        seq.advance(g, d, minCol, maxCol);
        const int32_t floor = best - X;
        int32_t lbest = kUndef, lmin = INT_MAX, lmax = INT_MIN;
        if (tid == 0) {
            c3[off3] = left_border;
            c3[maxCol] = top_border;
            // The band scans also look one column past each end (see the CPU kernel).
            if (top_border != kUndef || c2[maxCol - 1] != kUndef) lmin = maxCol;
            if (left_border != kUndef || c2[off3] != kUndef) lmax = off3;
        }
#pragma unroll 4
        for (int32_t col = minCol + tid; col < maxCol; col += T) {
            const uint8_t vb = seq.v(col), hb = seq.h(d - col);
            const int32_t up = c2[col - 1], left = c2[col];
            const int32_t v = dpx::add_max(max(up, left), gap, c1[col - 1] + cell_subst(vb, hb, p));
            const bool keep = v >= floor;
            c3[col] = keep ? v : kUndef;
            lbest = max(lbest, v);  // a dropped v is below best - X: it cannot raise best
            if (keep || up != kUndef) lmin = min(lmin, col);
            if (keep || left != kUndef) lmax = max(lmax, col);
        }
        // reduce() ends in a barrier (__syncwarp / __syncthreads): it also makes this
        // anti-diagonal's cells visible before the next one reads them, and keeps the
        // next one from overwriting cells still being read.
        g.reduce(lbest, lmin, lmax);
        cells += (uint64_t)(maxCol - minCol);
        // The group is converged here (the reduction) and the width the same on every thread.
        if (cancel.stop(g, maxCol - minCol + kCancelStepWork)) {
            if (tid == 0) out->status = kExtCanceled;
            return;
        }
        best = max(best, lbest);
        const int32_t newMin = (lmin == INT_MAX) ? maxCol + 1 : lmin;
        const int32_t newMax = (lmax == INT_MIN) ? off3 + 1 : lmax + 2;
        minCol = max(newMin, d + 2 - rows);
        maxCol = min(newMax, cols);
    }

    // The end cell, as in the CPU kernel.
    const int32_t *a1 = b1, *a2 = b2, *a3 = b3;
    int32_t col = off3 + len3 - 2, row = d - col;
    int32_t score = a3[len3 - 2];
    if (score == kUndef) {
        if (a2[len2 - 2] != kUndef) {
            col = off2 + len2 - 2; row = d - 1 - col; score = a2[len2 - 2];
        } else if (len2 > 2 && a2[len2 - 3] != kUndef) {
            col = off2 + len2 - 3; row = d - 1 - col; score = a2[len2 - 3];
        }
    }
    if (score == kUndef) {
        // Best cell of a1, lowest index on ties: the max value, then the lowest index holding it.
        int32_t lv = kUndef, li = INT_MAX;
        for (int32_t i = tid; i < len1; i += T)
            if (a1[i] > lv) { lv = a1[i]; li = i; }  // strided scan: first hit is this thread's lowest index
        int32_t gv = lv, none_min = INT_MAX, none_max = INT_MIN;
        g.reduce(gv, none_min, none_max);
        int32_t gi = (gv != kUndef && lv == gv) ? li : INT_MAX, none_a = INT_MIN, none_c = INT_MIN;
        g.reduce(none_a, gi, none_c);
        if (gv != kUndef) { score = gv; col = gi + off1; row = d - 2 - col; }
    }
    if (tid == 0) {
        if (score != kUndef) { out->score = score; out->rows = row; out->cols = col; }
        else { out->score = xdrop_no_end_score(p); out->rows = 0; out->cols = 0; }
        out->cells = cells;
        out->status = kExtOk;
    }
}

// Narrow kernel: a warp per extension, buffers in shared memory.
__global__ void __launch_bounds__(kNarrowWarps * 32)
xdrop_narrow(const Ext *__restrict__ exts, int n, ExtOut *outs, const uint32_t *__restrict__ code,
             const uint32_t *__restrict__ mask, XdropParams p, int *counters, int *wide_list, CancelWord cancel_word) {
    __shared__ int32_t bufs[kNarrowWarps][3 * kNarrowCap];
    __shared__ uint8_t windows[kNarrowWarps][2][kWindow];
    static_assert(kWindow >= kNarrowCap + 2, "the base windows must cover a narrow band");
    const int w = threadIdx.x >> 5;
    Group<32, 3> g;
    CancelPoll cancel{cancel_word};
    for (;;) {
        int i = 0;
        if (g.tid() == 0) i = atomicAdd(&counters[0], 1);
        i = g.bcast(i);
        if (i >= n) return;
        ExtOut *o = outs + i;
        if (cancel.stop(g, kCancelFetchWork)) {  // cancelled: the rest of the chunk only gets its status
            if (g.tid() == 0) o->status = kExtCanceled;
            continue;
        }
        const Ext e = exts[i];
        const PackedSeq packed{code, mask, (int32_t)e.v0, (int32_t)e.h0, e.step, h_n_code(p)};
        WindowSeq seq{packed, windows[w][0], windows[w][1]};
        extend<32>(g, e.h_n, e.v_n, seq, p, bufs[w], kNarrowCap, o, cancel);
        __syncwarp();
        if (g.tid() == 0 && o->status == kExtOverflow) wide_list[atomicAdd(&counters[1], 1)] = i;  // first block tier
    }
}

// Block kernels: a block of T threads per extension, for bands too wide for a
// warp. SMEM: anti-diagonals (CAP cells) and, when both segments fit in CODES
// bytes, the unpacked bases in dynamic shared memory; otherwise the anti-diagonals
// live in the pool's global scratch. Each tier takes the extensions the tier
// before it queued (count at counters[at], its take counter at counters[at + 1])
// and queues what its band cannot hold for the next one (count at counters[at + 2]);
// the last tier marks them for CPU rescue.
template <int T, int CAP, int CODES, bool SMEM>
__global__ void __launch_bounds__(T)
xdrop_block(const Ext *__restrict__ exts, ExtOut *outs, const uint32_t *__restrict__ code,
            const uint32_t *__restrict__ mask, XdropParams p, int *counters, int at, const int *list_in,
            int *list_out, int32_t *scratch, int32_t scratch_cap, CancelWord cancel_word) {
    extern __shared__ int32_t dyn[];
    __shared__ int32_t red[Group<T, 3>::kRedInts];
    Group<T, 3> g{red};
    const int32_t cap = SMEM ? CAP : scratch_cap;
    int32_t *buf = SMEM ? dyn : scratch + (size_t)blockIdx.x * 3 * cap;
    uint8_t *codes = reinterpret_cast<uint8_t *>(dyn + (SMEM ? 3 * CAP : 0));
    const int n = *(volatile int *)&counters[at];
    CancelPoll cancel{cancel_word};
    for (;;) {
        int k = 0;
        if (threadIdx.x == 0) k = atomicAdd(&counters[at + 1], 1);
        k = g.bcast(k);
        if (k >= n) return;
        const int i = list_in[k];
        ExtOut *o = outs + i;
        if (cancel.stop(g, kCancelFetchWork)) {
            if (threadIdx.x == 0) o->status = kExtCanceled;
            continue;
        }
        const Ext e = exts[i];
        const PackedSeq packed{code, mask, (int32_t)e.v0, (int32_t)e.h0, e.step, h_n_code(p)};
        if (SMEM && e.v_n + e.h_n <= CODES) {
            // Unpack both segments once: every cell then reads its two bases with one byte load each.
            for (int32_t c = threadIdx.x; c < e.v_n; c += T) codes[c] = packed.v(c + 1);
            for (int32_t r = threadIdx.x; r < e.h_n; r += T) codes[e.v_n + r] = packed.h(r + 1);
            __syncthreads();
            extend<T>(g, e.h_n, e.v_n, SmemSeq{codes, codes + e.v_n}, p, buf, cap, o, cancel);
        } else {
            extend<T>(g, e.h_n, e.v_n, packed, p, buf, cap, o, cancel);
        }
        __syncthreads();
        if (list_out && threadIdx.x == 0 && o->status == kExtOverflow) list_out[atomicAdd(&counters[at + 2], 1)] = i;
    }
}

// The tiers after the narrow kernel, by band width.
struct Tier {
    const void *kernel;
    int threads, smem;
};
#define GALE_TIER(T, CAP, CODES, SMEM) \
    Tier{(const void *)xdrop_block<T, CAP, CODES, SMEM>, T, SMEM ? 3 * CAP * 4 + CODES : 0}
const Tier kTiers[] = {
    GALE_TIER(128, 2048, 8192, true),    // bands up to 2048 cells, ~6 blocks per SM
    GALE_TIER(256, 6144, 12288, true),   // up to 6144 cells, 2 blocks per SM
    GALE_TIER(256, 0, 0, false),         // global scratch, up to what the pool gives a block
};
constexpr int kTierCount = 3;
#undef GALE_TIER

// ---- host side ----------------------------------------------------------------------

struct ChunkSide {
    size_t task;  // index into the chunk's tasks
    int side;     // 0 left, 1 right
};

// A chunk of tasks laid out in one slot: [code | mask | exts] go to the device,
// [outs] come back, [lists] (the tiers' overflow lists) stay there.
struct Chunk : ChunkIO {
    std::vector<ChunkSide> sides;  // one per Ext
    size_t n_ext = 0;
    size_t off_code = 0, off_mask = 0, off_ext = 0, off_list = 0;
};

size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

bool side_wanted(const XdropParams &p, int side) { return p.direction & (side == 0 ? 1 : 2); }

// GALE_N_BYTES: the chunk keeps one byte per base, not 2 bits and an N mask (common/pack.cuh).
bool bytes_policy(const XdropParams &p) { return p.n_policy == GALE_N_BYTES; }

// Bytes a task needs in a slot (packed bases + per-extension records).
size_t task_bytes(const XdropTask &t, int n_ext, bool bytes) {
    int64_t bases = pack_round(t.h_len) + pack_round(t.v_len);
    return (size_t)(code_array_bytes(bases, bytes) + mask_array_bytes(bases, bytes)) +
           (size_t)n_ext * (sizeof(Ext) + sizeof(ExtOut) + kTierCount * sizeof(int));
}

// A side goes to the GPU when it is asked for and has bases on both sequences
// (an empty side scores 0 without computing anything, as on the CPU).
bool side_on_gpu(const XdropTask &t, const XdropParams &p, int side) {
    XdropSpan sp = xdrop_span(t, side == 0);
    return side_wanted(p, side) && sp.h_n > 0 && sp.v_n > 0;
}

int n_sides(const XdropTask &t, const XdropParams &p) { return side_on_gpu(t, p, 0) + side_on_gpu(t, p, 1); }

constexpr size_t kMaxChunkTasks = 32768;
constexpr size_t kSlack = 4096;
constexpr int32_t kScratchCapMax = 1 << 20;  // cells per anti-diagonal of the scratch tier, at most

// Persistent grids sized to what is resident (blocks of each kernel).
struct Grids {
    int narrow = 1;
    int tier[kTierCount] = {};
};
Grids resident_grids(const Device *dev) {
    Grids g;
    const int sms = dev->prop.multiProcessorCount;
    int per_sm = 0;
    GALE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, xdrop_narrow, kNarrowWarps * 32, 0));
    g.narrow = std::max(1, per_sm * sms);
    for (int t = 0; t < kTierCount; ++t) {
        if (kTiers[t].smem > 48 * 1024)
            GALE_CUDA_CHECK(cudaFuncSetAttribute(kTiers[t].kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 kTiers[t].smem));
        GALE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kTiers[t].kernel, kTiers[t].threads,
                                                                      kTiers[t].smem));
        g.tier[t] = std::max(1, per_sm * sms);
    }
    return g;
}

// Phase 1 of the pool's query (common/device.cuh): the scratch tier's anti-diagonals,
// 3 x kScratchCapMax cells for each of its resident blocks. It is what an extension
// needs whose band outgrew the shared-memory tiers; with less, the blocks get smaller
// buffers, or fewer blocks run (xdrop_run), and wider bands go to the CPU.
size_t scratch_want(const Grids &g) { return (size_t)g.tier[kTierCount - 1] * 3 * (size_t)kScratchCapMax * sizeof(int32_t); }

// One run's chunks (ChunkPipeline's flow): tasks in batch order, each chunk as many
// as a slot holds.
struct XdropFlow {
    GpuJob &job;
    const PairTask *tasks;
    const XdropParams &params;
    XdropResult *results;
    Grids grid;
    int32_t cap;                  // scratch tier: cells per anti-diagonal of a block
    const WorkArea *scratch;      // per slot
    size_t next = 0;

    bool more() const { return next < job.n; }

    // Picks the tasks of the next chunk; tasks no slot can hold, or too long for the
    // kernels' 32-bit indices, go to rescue.
    bool plan(Chunk &c, const Slot &s, std::vector<size_t> &rescue) {
        c.tasks.clear();
        c.sides.clear();
        size_t bytes = kSlack, bases = 0;
        while (next < job.n && c.tasks.size() < kMaxChunkTasks) {
            const XdropTask &t = tasks[next];
            const int ns = n_sides(t, params);
            const size_t need = task_bytes(t, ns, bytes_policy(params));
            if (t.h_len + t.v_len >= ((int64_t)1 << 31) - 64 || need + kSlack > s.bytes) {
                rescue.push_back(next++);
                continue;
            }
            if (bytes + need > s.bytes) break;
            if (bases + (size_t)(pack_round(t.h_len) + pack_round(t.v_len)) >= ((size_t)1 << 31) - 64) break;  // 32-bit positions
            bytes += need;
            bases += (size_t)(pack_round(t.h_len) + pack_round(t.v_len));
            c.tasks.push_back(next++);
            for (int sd = 0; sd < 2; ++sd)
                if (side_on_gpu(t, params, sd)) c.sides.push_back({c.tasks.size() - 1, sd});
        }
        c.n_ext = c.sides.size();
        c.off_code = 0;
        c.off_mask = align_up(c.off_code + (size_t)code_array_bytes((int64_t)bases, bytes_policy(params)), 256);
        c.off_ext = align_up(c.off_mask + (size_t)mask_array_bytes((int64_t)bases, bytes_policy(params)), 256);
        c.in_bytes = c.off_ext + c.n_ext * sizeof(Ext);
        c.out_at = align_up(c.in_bytes, 256);
        c.out_bytes = c.n_ext * sizeof(ExtOut);
        c.off_list = align_up(c.out_at + c.out_bytes, 256);
        return !c.tasks.empty();
    }

    // Packs the chunk's sequences and extension records into the slot's pinned
    // buffer. Packing a gigabase takes about a second on one core, longer than the
    // narrow kernels compute it, so it is split over the context's threads.
    void fill(Chunk &c, char *host) {
        uint32_t *code = reinterpret_cast<uint32_t *>(host + c.off_code);
        uint32_t *mask = bytes_policy(params) ? nullptr : reinterpret_cast<uint32_t *>(host + c.off_mask);
        Ext *exts = reinterpret_cast<Ext *>(host + c.off_ext);
        const size_t nt = c.tasks.size();
        std::vector<int64_t> h_at(nt), v_at(nt);
        int64_t at = 0;
        for (size_t k = 0; k < nt; ++k) {
            const XdropTask &t = tasks[c.tasks[k]];
            h_at[k] = at;
            at += pack_round(t.h_len);
            v_at[k] = at;
            at += pack_round(t.v_len);
        }
        auto pack_range = [&](size_t lo, size_t hi) {
            for (size_t k = lo; k < hi; ++k) {
                const XdropTask &t = tasks[c.tasks[k]];
                store_bases(t.h, t.h_len, h_at[k], code, mask);
                store_bases(t.v, t.v_len, v_at[k], code, mask);
            }
        };
        const size_t workers = std::min<size_t>(std::max(job.pack_threads, 1), (size_t)(at >> 22) + 1);  // ~4 Mbases each
        parallel_for(nt, (int)workers, 1, pack_range);
        for (size_t e = 0; e < c.n_ext; ++e) {
            const XdropTask &t = tasks[c.tasks[c.sides[e].task]];
            XdropSpan sp = xdrop_span(t, c.sides[e].side == 0);
            Ext x;
            x.h0 = h_at[c.sides[e].task] + sp.h0;
            x.v0 = v_at[c.sides[e].task] + sp.v0;
            x.h_n = (int32_t)sp.h_n;
            x.v_n = (int32_t)sp.v_n;
            x.step = sp.step;
            x.pad = 0;
            exts[e] = x;
        }
    }

    // The narrow kernel, then the tiers: tier t takes list t (count at counters[1 + 2t])
    // and fills list t + 1.
    void launch(Chunk &c, const Slot &s) {
        const int n = (int)c.n_ext;
        if (n == 0) return;
        const uint32_t *code = reinterpret_cast<const uint32_t *>(s.dev + c.off_code);
        const uint32_t *mask =
            bytes_policy(params) ? nullptr : reinterpret_cast<const uint32_t *>(s.dev + c.off_mask);
        const Ext *exts = reinterpret_cast<const Ext *>(s.dev + c.off_ext);
        ExtOut *outs = reinterpret_cast<ExtOut *>(s.dev + c.out_at);
        int *list = reinterpret_cast<int *>(s.dev + c.off_list);
        int *counters = s.counters;
        const int blocks = std::min(grid.narrow, (n + kNarrowWarps - 1) / kNarrowWarps);
        CancelWord cancel_word = cancel;
        xdrop_narrow<<<blocks, kNarrowWarps * 32, 0, s.stream>>>(exts, n, outs, code, mask, params, counters, list,
                                                                 cancel_word);
        GALE_CUDA_CHECK(cudaGetLastError());
        int32_t *scratch = reinterpret_cast<int32_t *>(scratch_of(s));
        for (int t = 0; t < kTierCount; ++t) {
            int at = 1 + 2 * t;
            const int *list_in = list + (size_t)t * c.n_ext;
            int *list_out = t + 1 < kTierCount ? list + (size_t)(t + 1) * c.n_ext : nullptr;
            XdropParams p = params;
            void *args[] = {&exts, &outs, &code,     &mask, &p,   &counters,   &at,
                            &list_in, &list_out, &scratch, &cap, &cancel_word};
            GALE_CUDA_CHECK(cudaLaunchKernel(kTiers[t].kernel, grid.tier[t], kTiers[t].threads, args, kTiers[t].smem,
                                             s.stream));
        }
    }

    // Results for tasks whose sides all finished, rescue for the rest; a task with a
    // cancelled side gets neither (common/cancel.cuh).
    void collect(Chunk &c, const char *host, std::vector<size_t> &rescue) {
        const ExtOut *outs = reinterpret_cast<const ExtOut *>(host + c.out_at);
        std::vector<XdropSide> side(2 * c.tasks.size());
        std::vector<char> bad(c.tasks.size(), 0);  // 1: rescue on the CPU, 2: cancelled
        for (size_t e = 0; e < c.n_ext; ++e) {
            const ExtOut &o = outs[e];
            const size_t k = c.sides[e].task;
            if (o.status != kExtOk) {
                bad[k] = std::max<char>(bad[k], o.status == kExtCanceled ? 2 : 1);
                continue;
            }
            XdropSide &x = side[2 * k + c.sides[e].side];
            x.score = o.score; x.rows = o.rows; x.cols = o.cols; x.cells = o.cells;
        }
        for (size_t k = 0; k < c.tasks.size(); ++k) {
            const size_t ti = c.tasks[k];
            if (bad[k] == 2) continue;
            if (bad[k]) { rescue.push_back(ti); continue; }
            xdrop_finish(tasks[ti], side[2 * k], side[2 * k + 1], results[ti]);
            results[ti].flags = kResultDone;
        }
    }

    char *scratch_of(const Slot &s) const { return scratch[&s - slots].ptr; }
    const Slot *slots;  // the device's, to find a slot's scratch
    CancelWord cancel;  // the device's cancel word (common/cancel.cuh)
};

void xdrop_run(Device *dev, GpuJob &job) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    static_assert(sizeof(Ext) == 32 && sizeof(ExtOut) == 24, "record layout");
    Grids grid = resident_grids(dev);
    // Phase 2 of the pool's query: the scratch each slot gives the scratch tier. Each
    // block owns 3 * cap cells of it; with too little for that many blocks, fewer and
    // larger ones.
    WorkArea scratch[kSlots];
    for (int i = 0; i < kSlots; ++i) scratch[i] = slot_work(dev, i, scratch_want(grid));
    const size_t scratch_cells = scratch[0].bytes / sizeof(int32_t);
    int &grid_scratch = grid.tier[kTierCount - 1];
    int32_t cap = (int32_t)std::min<size_t>(scratch_cells / (3 * (size_t)grid_scratch), kScratchCapMax);
    if (cap < 4 * kNarrowCap) {
        grid_scratch = std::max<int>(1, (int)(scratch_cells / (3 * 4 * kNarrowCap)));
        cap = (int32_t)std::min<size_t>(scratch_cells / (3 * (size_t)grid_scratch), kScratchCapMax);
    }
    XdropFlow flow{job, job.tasks, *static_cast<const XdropParams *>(job.params),
                   static_cast<XdropResult *>(job.results), grid, cap, scratch, 0, dev->slots, dev->cancel_dev};
    ChunkPipeline<Chunk> pipe(dev, job);
    pipe.run(flow);
    job.kernel_ns = pipe.kernel_ns();
}

void xdrop_preload(Device *dev) noexcept {
    cudaFuncAttributes a;
    if (cudaSetDevice(dev->index) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    cudaFuncGetAttributes(&a, (const void *)xdrop_narrow);
    for (const Tier &t : kTiers) cudaFuncGetAttributes(&a, t.kernel);
    cudaGetLastError();
}

}  // namespace

const GpuKind kXdropGpu = {xdrop_run, xdrop_preload};

// The DPX-using kernel whose machine code dpx_in_use() (cuda/device.cu) inspects.
const void *xdrop_dpx_kernel() noexcept { return (const void *)xdrop_narrow; }

}  // namespace cuda
}  // namespace gale
