// CUDA kernels of wavefront alignment (GALE_WFA, GALE_EDIT), bit-identical to
// lib/cpu/wfa.cpp: both implement lib/wfa.h (recurrence, ranges, tie-break, codes,
// backtrace); the per-cell and per-score code is in cuda/common/wfa_core.cuh (align,
// by stages), wfa_cells.cuh, wfa_ranges.cuh and wfa_heuristic.cuh.
//
// After WFA-GPU (Aguado-Puig et al.): one group of threads per alignment with the
// threads across the diagonals of each wavefront; the backtrace code bytes of
// lib/wfa.h written as the wavefronts are computed; bases compared 16 at a time
// from 2-bit packed sequences (an N mask is read only for tasks that hold an N;
// under GALE_N_BYTES one byte per base, 4 compared at a time);
// persistent groups take the next alignment off an atomic counter. Groups are a
// warp (4 independent warps per block) for wavefronts up to kWarpCap diagonals,
// else a block of 256 threads (pick_group). The backtrace is walked on the GPU by
// one thread (start diagonal and ops); the host rebuilds the CIGAR with wfa_replay().
// WFA-GPU's own backtrace, 2-bit steps carried beside every offset and spilled in
// blocks, gave the same results 2.9x to 11x slower at 10 kbp here (bench/RESULTS.md,
// steps 15-19); it is kept as bench/experiments/wfa-piggyback-bt-layout.diff, and
// GALE_P_GPU_BACKTRACE no longer has an effect.
//
// A cell reads five offsets from the rings, then the sequence words of its first
// extension step, and writes three offsets. So each thread computes its cells of a
// score U at a time with their loads issued together (wfa_core.cuh, align),
// registers are capped at 64 for 32 resident warps per SM, and tasks with both
// lengths < 32768 keep int16 offsets (half the ring bytes). Per score, one thread
// plans the ranges for its group (Plan); interior cells run without range tests and,
// until an offset reaches a sequence end, without bound tests (cell_clear). ncu: about
// 3.7 warp instructions per cell at 10 kbp, score scope, 90 per 4 cells in the loop
// (bench/RESULTS.md, steps 12-14).
//
// Memory budget. A task's score budget is
//     S = ceil(err * (m + n) / 2000) * pmax + gap(|n - m|)
// with err = GALE_P_EXPECTED_ERROR (per mille), pmax = max(x, o + e [, o2 + e2])
// (edit: 1) and gap(d) the cheapest gap of length d (0 for d = 0): err/1000 edits
// per base on average over the two lengths, each at the highest single-edit
// penalty, plus the length difference as one gap. Ranges do not depend on the
// sequences, so the dispatcher runs the range recurrence alone up to S and gets
// the task's exact diagonal window W (cap = its width) and code bytes C (the sum
// of M's widths). A unit (one alignment in flight) takes
//     rings (max(x, o+e, o2+e2) + 1 + 2(e + 1) [+ 2(e2 + 1)]) * cap * 4 bytes
//   + (S + 1) * 8 + C bytes (alignment scope only: per-score headers and codes).
// A slot's work area (all of the work memory the pool gives it: wfa_work_bytes asks
// for every byte) holds as many units as fit, at most one per resident group. A task whose unit exceeds a slot's work area is rescued at once; a task
// that reaches a score above S is stopped and rescued on the CPU (GALE_RF_RESCUED)
// while the GPU goes on. The result never depends on the budget.
#include <algorithm>
#include <climits>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "common/cancel.cuh"
#include "common/device.cuh"
#include "common/group.cuh"
#include "common/pack.cuh"
#include "common/pipeline.cuh"
#include "common/wfa_core.cuh"
#include "common/wfa_heuristic.cuh"
#include "cuda_backend.h"
#include "parallel.h"

namespace gale {
namespace cuda {

namespace {

using namespace wfag;

constexpr int kWarpsPerBlock = 4;
constexpr int32_t kWarpCap = 1536;  // widest window computed by a warp

struct KArgs {
    const Task *tasks;
    Out *outs;
    uint32_t *ops;
    const uint32_t *code, *mask;
    int n_tasks;
    int *counter;
    Pen pen;
    int32_t n_policy;
    Shape shape;
    // Units [0, units_a) at base_a, the rest at base_b. The pool now gives a slot one
    // work area (launch: units_a = units); the second region stays because removing
    // it made the 1 kbp CIGAR kernels 5.6% slower on an H100 (the compiler laid them
    // out otherwise; bench/RESULTS.md, "Restructuring of 0.3").
    char *base_a, *base_b;
    uint64_t units_a, units;
    CancelWord cancel;  // the device's cancel word (common/cancel.cuh)
    HeurArgs heur;      // heuristic mode (HEUR kernels): WFA2-lib's cut-offs
};

// The range ring (every thread reads it at every score, written by thread 0 of the
// group) lives in shared memory when its scores fit: one memory round trip per score
// less for every thread. Penalties up to 31 keep it there. A template parameter (RRS)
// rather than a run-time choice: with a pointer that may be either, the compiler
// must use generic addressing, and the kernels spilled.
constexpr int kSharedRingScores = 32;
constexpr int kSharedRingInts = kSharedRingScores * kComps * 2;

template <int METRIC, int BT, class OFF, bool RRS, bool HEUR, class G>
__device__ void run_group(G &g, const KArgs &a, uint64_t unit, int32_t *rr_smem, Plan *plans) {
    char *base = unit < a.units_a ? a.base_a + unit * a.shape.bytes : a.base_b + (unit - a.units_a) * a.shape.bytes;
    Unit u = unit_at(base, a.shape);
    if (RRS) u.rr = rr_smem;
    CancelPoll cancel{a.cancel};
    for (;;) {
        int i = 0;
        if (g.tid() == 0) i = atomicAdd(a.counter, 1);
        i = g.bcast(i);  // also a barrier: the last task's backtrace is done before the unit is reused
        if (i >= a.n_tasks) return;
        if (cancel.stop(g, kCancelFetchWork)) {  // cancelled: the rest of the chunk only gets its status
            if (g.tid() == 0) {
                a.outs[i].status = kOutCanceled;
                a.outs[i].n_ops = 0;
            }
            continue;
        }
        const Task t = a.tasks[i];
        const Seqs sq{a.code, a.mask, t.p0, t.t0, t.has_n, a.n_policy};
        // Cells per thread in flight: 4, or 2 for two-piece (more live values per cell; 4
        // spilled under the 64-register cap).
        if constexpr (HEUR)
            align_heuristic<METRIC, BT>(g, a.pen, a.heur, t, sq, a.shape, u, a.outs + i, a.ops + t.ops_at, cancel);
        else
            align<METRIC, BT, OFF, METRIC == kMetricAffine2p ? 2 : 4>(g, a.pen, t, sq, a.shape, u, a.outs + i,
                                                                      a.ops + t.ops_at, plans, cancel);
    }
}

// Register caps (min blocks per SM): 64 registers a thread, so that 32 warps of an
// SM are resident; the per-cell work is latency-bound (ring loads), and the
// uncapped kernels took 74-108 registers (24 or fewer warps per SM).
template <int METRIC, int BT, class OFF, bool RRS, bool HEUR>
__global__ void __launch_bounds__(kWarpsPerBlock * 32, 8) wfa_warps(KArgs a) {
    __shared__ int32_t rr[RRS ? kWarpsPerBlock : 1][RRS ? kSharedRingInts : 1];
    __shared__ Plan plans[kWarpsPerBlock][2];
    Group<32> g;
    const uint64_t unit = (uint64_t)blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (unit >= a.units) return;
    run_group<METRIC, BT, OFF, RRS, HEUR>(g, a, unit, rr[RRS ? threadIdx.x >> 5 : 0], plans[threadIdx.x >> 5]);
}

template <int METRIC, int BT, class OFF, bool RRS, bool HEUR, int T>
__global__ void __launch_bounds__(T, 1024 / T) wfa_block(KArgs a) {
    __shared__ int32_t red[Group<T>::kRedInts];
    __shared__ int32_t rr[RRS ? kSharedRingInts : 1];
    __shared__ Plan plans[2];
    Group<T> g{red};
    if (blockIdx.x >= a.units) return;
    run_group<METRIC, BT, OFF, RRS, HEUR>(g, a, blockIdx.x, rr, plans);
}

typedef void (*KernelFn)(KArgs);

// threads: 32 (a warp per alignment, kWarpsPerBlock per block), 128 or 256.
template <int M, int BT, class OFF, bool RRS, bool HEUR>
KernelFn pick_threads(int threads) {
    return threads == 32    ? wfa_warps<M, BT, OFF, RRS, HEUR>
           : threads == 256 ? wfa_block<M, BT, OFF, RRS, HEUR, 256>
                            : wfa_block<M, BT, OFF, RRS, HEUR, 128>;
}
template <int M, int BT, class OFF, bool HEUR>
KernelFn pick_rrs(bool rrs, int threads) {
    return rrs ? pick_threads<M, BT, OFF, true, HEUR>(threads) : pick_threads<M, BT, OFF, false, HEUR>(threads);
}
// Heuristic mode keeps int32 offsets (align_heuristic): off16 is false there.
template <int M, int BT>
KernelFn pick_off(bool off16, bool rrs, bool heur, int threads) {
    if (heur) return pick_rrs<M, BT, int32_t, true>(rrs, threads);
    return off16 ? pick_rrs<M, BT, int16_t, false>(rrs, threads) : pick_rrs<M, BT, int32_t, false>(rrs, threads);
}
template <int M>
KernelFn pick_bt(int bt, bool off16, bool rrs, bool heur, int threads) {
    return bt == kBtCodes ? pick_off<M, kBtCodes>(off16, rrs, heur, threads)
                          : pick_off<M, kBtNone>(off16, rrs, heur, threads);
}
// rrs: the range ring fits shared memory (Pen::rm <= kSharedRingScores). heur: a
// heuristic (GALE_P_WFA_HEURISTIC), int32 offsets only.
KernelFn pick_kernel(int metric, int bt, bool off16, bool rrs, bool heur, int threads) {
    if (metric == kMetricAffine) return pick_bt<kMetricAffine>(bt, off16, rrs, heur, threads);
    if (metric == kMetricAffine2p) return pick_bt<kMetricAffine2p>(bt, off16, rrs, heur, threads);
    return pick_bt<kMetricEdit>(bt, off16, rrs, heur, threads);
}

// ---- host side ----------------------------------------------------------------------
// A run goes through stages, each a member of WfaRun below: configure (kernel
// shapes), estimate (what each task needs), order (largest first), then per chunk
// plan, fill, launch and collect (driven by ChunkPipeline, common/pipeline.cuh), in
// one or two passes.

size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

// What one task needs, computed before chunking.
struct Est {
    int32_t s_limit = 0, klo = 0, khi = 0, max_ops = 0;  // max_ops: backtrace ops
    uint64_t cells = 0;  // cells up to s_limit (alignment scope): code bytes
    uint64_t bytes = 0;  // its unit alone
    bool gpu = false;
    bool off16 = false;  // both lengths < kOff16Limit: int16 offsets
};

// Chunks small enough that packing and finishing them overlap the kernels of the
// other slot, and that both slots' kernels (each with its own work area) overlap.
constexpr size_t kMaxChunkTasks = 16384;
constexpr size_t kMaxChunkBases = (size_t)64 << 20;
constexpr size_t kSlack = 4096;

// A chunk in one slot: [code | mask | tasks] go to the device, [outs | ops] come back.
struct Chunk : ChunkIO {
    Shape shape{};
    int threads = 32;    // per alignment (pick_group)
    bool off16 = false;  // int16 offsets (every task of the chunk allows them)
    uint64_t units = 0;  // alignments in flight
    size_t off_code = 0, off_mask = 0, off_task = 0, off_ops = 0;
};

// bytes: GALE_N_BYTES, one byte per base and no mask (common/pack.cuh).
size_t task_slot_bytes(const PairTask &t, const Est &e, bool trace, bool bytes) {
    const int64_t bases = pack_round(t.h_len) + pack_round(t.v_len);
    return (size_t)(code_array_bytes(bases, bytes) + mask_array_bytes(bases, bytes)) + sizeof(Task) + sizeof(Out) +
           (trace ? (size_t)e.max_ops * 4 : 0);
}

// Phase 1 of the pool's query (common/device.cuh): every byte of a slot's work
// memory. The kind needs a unit per alignment in flight (cuda/wfa.cu's header,
// "Memory budget": rings plus, in alignment scope, the codes), sized per task from
// its lengths and score budget; more memory means more units in flight, up to one
// per resident group, and fewer tasks stopped by pass 1.
size_t wfa_work_bytes(Device *, const void *) { return SIZE_MAX; }

class WfaRun {
public:
    WfaRun(Device *dev, GpuJob &job)
        : dev_(dev), job_(job), tasks_(job.tasks), results_(static_cast<WfaResult *>(job.results)),
          p_(*static_cast<const WfaParams *>(job.params)), q_(make_pen(p_)), trace_(p_.scope == 1),
          bytes_(p_.n_policy == GALE_N_BYTES), heur_(p_.heuristic != 0),
          bt_(trace_ ? kBtCodes : kBtNone) {}

    void run() {
        configure();
        estimate();
        if (job_.cancel->load()) return;  // the estimates may have stopped short (estimate)
        order_tasks();
        ChunkPipeline<Chunk> pipe(dev_, job_);
        pipe.run(*this);
        // Pass 2: the tasks that outgrew pass 1's codes, with their full budgets.
        if (!retry_.empty() && !job_.cancel->load()) {
            pass_ = 2;
            order_.swap(retry_);
            retry_.clear();
            std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return E(a).bytes > E(b).bytes; });
            next_ = 0;
            pipe.run(*this);
        }
        job_.kernel_ns = pipe.kernel_ns();
    }

    // ---- ChunkPipeline's flow -------------------------------------------------------
    bool more() const { return next_ < order_.size(); }
    bool plan(Chunk &c, const Slot &s, std::vector<size_t> &rescue);
    void fill(Chunk &c, char *host);
    void launch(Chunk &c, const Slot &s);
    void collect(Chunk &c, const char *host, std::vector<size_t> &rescue);

private:
    void configure();
    void estimate();
    void estimate_shape(uint64_t key, std::vector<Range> &ring, Est &full, Est &pass1) const;
    void order_tasks();

    // Threads per alignment: a warp for narrow windows (no block barrier, 4 x more
    // alignments per block), else 256. Measured at 10 kbp (bench/RESULTS.md, steps 6, 11
    // and 14): with codes 128 threads took 2x the time of 256 (each of twice the units
    // then holds half the code memory and more tasks need the second pass); scores alone
    // ran best on 128 threads while every thread planned each score itself, and on 256
    // (1.06x over 128, H100) once one thread plans it for the group (Plan). 512 was
    // slower than 256.
    int pick_group(int32_t cap) const {
        if (force_threads_ != 0) return force_threads_;
        return cap <= kWarpCap ? 32 : 256;
    }
    uint64_t groups_of(bool off16, int threads) const {
        return res_groups_[off16 ? 1 : 0][threads == 32 ? 0 : threads == 256 ? 1 : 2];
    }
    const Est &E(size_t i) const { return pass_ == 1 ? sest_[sid_[i]] : sest_full_[sid_[i]]; }
    // Pass 2 runs a task again when pass 1 stopped it where pass 2 would go on (at a
    // lower score budget).
    bool retry_ok(size_t i, int32_t status) const {
        return pass_ == 1 && status == kOutOverflow && sest_[sid_[i]].s_limit < sest_full_[sid_[i]].s_limit;
    }
    const WorkArea &work_of(const Slot &s) const { return work_[&s - dev_->slots]; }

    Device *dev_;
    GpuJob &job_;
    const PairTask *tasks_;
    WfaResult *results_;
    const WfaParams &p_;
    const Pen q_;
    const bool trace_;  // GALE_SCOPE_ALIGNMENT: a backtrace (codes)
    const bool bytes_;  // GALE_N_BYTES: one byte per base on the device, no N mask (common/pack.cuh)
    const bool heur_;   // a heuristic (GALE_P_WFA_HEURISTIC): align_heuristic's kernels, int32 offsets
    const int bt_;      // BtMode
    // configure
    WorkArea work_[kSlots]{};
    uint64_t work_bytes_ = 0;   // the most one unit may take (a slot's work memory)
    size_t slot_bytes_ = 0;     // a slot's staging
    bool rrs_ = false;          // the range ring fits shared memory (kSharedRingScores)
    int force_threads_ = 0;     // GALE_PX_WFA_GROUP_THREADS (0: pick_group decides)
    uint64_t units_cap_ = UINT64_MAX;  // GALE_PX_WFA_UNITS_PER_SM x SMs
    uint64_t res_groups_[2][3] = {};   // resident groups: [off16][32, 256, 128 threads]
    // estimate: task -> shape id; per shape, the pass-1 and the full estimates
    std::vector<uint32_t> sid_;
    std::vector<Est> sest_, sest_full_;
    // order and the passes
    int pass_ = 1;
    std::vector<size_t> order_, retry_;  // retry: pass 1 overflows that pass 2 runs with the full budget
    size_t next_ = 0;
    size_t launched_ = 0;
};

// Kernel shapes of the run: the slots' work areas (phase 2 of the pool's query), the
// resident groups of each kernel shape, and the measurement overrides.
void WfaRun::configure() {
    for (int i = 0; i < kSlots; ++i) work_[i] = slot_work(dev_, i, wfa_work_bytes(dev_, &p_));
    work_bytes_ = work_[0].bytes;
    slot_bytes_ = dev_->slots[0].bytes;
    const int sms = dev_->prop.multiProcessorCount;
    rrs_ = q_.rm <= kSharedRingScores;
    // Shape overrides for measurements only (results never depend on them), set by the
    // experimental parameters GALE_PX_WFA_GROUP_THREADS (32, 128 or 256 threads per
    // alignment) and GALE_PX_WFA_UNITS_PER_SM (alignments in flight per multiprocessor);
    // 0 leaves the choice to the dispatcher.
    force_threads_ = p_.test_group_threads;
    if (force_threads_ != 0 && force_threads_ != 32 && force_threads_ != 128 && force_threads_ != 256)
        fail(GALE_E_RANGE, "WFA GPU group of %d threads: 32, 128 or 256 (0: automatic)", force_threads_);
    // (test_units_per_sm is 0..64 by its bounds in lib/kinds.cpp: an SM holds at most
    // 64 warps, so at most 64 alignments, a warp each, in flight.)
    units_cap_ = p_.test_units_per_sm > 0 ? (uint64_t)p_.test_units_per_sm * sms : UINT64_MAX;
    for (int o16 = 0; o16 < 2; ++o16)
        for (int ti = 0; ti < 3; ++ti) {
            const int threads = ti == 0 ? 32 : ti == 1 ? 256 : 128;
            const bool warps = threads == 32;
            int per_sm = 0;
            KernelFn k = pick_kernel(q_.metric, bt_, o16 != 0, rrs_, heur_, threads);
            GALE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, (const void *)k, warps ? kWarpsPerBlock * 32 : threads, 0));
            res_groups_[o16][ti] = (uint64_t)std::max(1, per_sm) * sms * (warps ? kWarpsPerBlock : 1);
        }
}

// Estimates. An estimate depends on the two lengths only, and tasks of a batch
// mostly repeat them: each thread maps its tasks to the distinct (m, n) it saw,
// the distinct shapes of all threads are estimated once each (in parallel: the
// range recurrence of a 10 kbp task runs thousands of scores), and the tasks
// then take their shape's estimate.
void WfaRun::estimate() {
    const size_t n = job_.n;
    const int est_threads = std::max(1, job_.pack_threads);
    const size_t per = (n + (size_t)est_threads - 1) / (size_t)est_threads;
    sid_.assign(n, 0);
    std::vector<std::vector<uint64_t>> local_keys((size_t)est_threads);
    auto key_of = [&](size_t i) { return ((uint64_t)tasks_[i].v_len << 32) | (uint64_t)tasks_[i].h_len; };
    parallel_for((size_t)est_threads, est_threads, 1, [&](size_t lo, size_t hi) {
        for (size_t w = lo; w < hi; ++w) {
            std::unordered_map<uint64_t, uint32_t> ids;
            for (size_t i = w * per; i < std::min(n, (w + 1) * per); ++i) {
                const auto ins = ids.emplace(key_of(i), (uint32_t)local_keys[w].size());
                if (ins.second) local_keys[w].push_back(key_of(i));
                sid_[i] = ins.first->second;  // local id for now
            }
        }
    });
    std::vector<uint64_t> keys;
    for (auto &lk : local_keys) keys.insert(keys.end(), lk.begin(), lk.end());
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    sest_.assign(keys.size(), Est{});
    sest_full_.assign(keys.size(), Est{});
    // A shape's range recurrence runs up to its score budget (milliseconds at 10 kbp): a
    // batch of many distinct long shapes takes a while, so it looks at the cancel flag
    // between shapes (and run() returns if it was raised).
    parallel_for(keys.size(), job_.pack_threads, 1, [&](size_t lo, size_t hi) {
        std::vector<Range> ring((size_t)q_.rm * kComps);
        for (size_t j = lo; j < hi && !job_.cancel->load(std::memory_order_relaxed); ++j)
            estimate_shape(keys[j], ring, sest_full_[j], sest_[j]);
    });
    parallel_for((size_t)est_threads, est_threads, 1, [&](size_t lo, size_t hi) {
        for (size_t w = lo; w < hi; ++w) {
            std::vector<uint32_t> to_global(local_keys[w].size());
            for (size_t l = 0; l < to_global.size(); ++l)
                to_global[l] = (uint32_t)(std::lower_bound(keys.begin(), keys.end(), local_keys[w][l]) - keys.begin());
            for (size_t i = w * per; i < std::min(n, (w + 1) * per); ++i) sid_[i] = to_global[sid_[i]];
        }
    });
}

// The estimates of one shape (key: the lengths m << 32 | n), in full (e) and for
// pass 1 (e1). Two passes (alignment scope): the codes of a unit are sized for the
// score budget S, but most tasks end far below it (the budget is an upper bound on
// the divergence). When S's codes would leave fewer units than resident groups,
// pass 1 runs each task with the codes that a slot's work area holds for every
// resident group; a task that outgrows them is run again in pass 2 with its full S.
// Results never depend on the pass: both compute the same recurrence, pass 1 only
// stops earlier.
void WfaRun::estimate_shape(uint64_t key, std::vector<Range> &ring, Est &e, Est &e1) const {
    PairTask t{};
    t.v_len = (int64_t)(key >> 32);
    t.h_len = (int64_t)(key & 0xffffffffu);
    const int64_t bases = pack_round(t.h_len) + pack_round(t.v_len);
    e = Est{};
    e.off16 = !heur_ && t.v_len < kOff16Limit && t.h_len < kOff16Limit;
    e1 = e;
    const WfaFree f = wfa_free(p_, t.v_len, t.h_len);
    const int64_t S = score_budget(q_, p_.expected_error, t.v_len, t.h_len);
    if (t.v_len + t.h_len + bases >= ((int64_t)1 << 27) || S >= ((int64_t)1 << 26)) return;  // longer recurrences: the CPU
    // A match score with free begins starts diagonals above score 0 (lib/wfa.h,
    // kSrcStart), which this kernel does not do: the CPU computes those tasks.
    if (p_.match < 0 && (f.pb > 0 || f.tb > 0)) return;
    // The cells stop at the CPU's full-memory limit (its codes take a byte a cell;
    // beyond it the CPU runs BiWFA, whose CIGAR may break ties otherwise) and at what
    // a slot's work area holds of codes: the score budget shrinks to the last score
    // within both.
    const uint64_t area_cells = work_bytes_ / 2;
    const uint64_t limit = std::min<uint64_t>({area_cells, (uint64_t)p_.memory_limit_mib << 20, 0xffffff00ull});
    const Need nd = simulate_ranges(q_, (int32_t)t.v_len, (int32_t)t.h_len, (int32_t)f.pb, (int32_t)f.tb, S, limit,
                                    trace_, ring.data());
    if (nd.s_reached < 0) return;
    // The unit of x.
    auto layout = [&](Est &x) {
        Shape sh{};
        sh.cap = x.khi - x.klo + 1;
        sh.off_bytes = x.off16 ? 2 : 4;
        sh.hdr_scores = x.s_limit + 1;
        sh.code_cap = x.cells;
        shape_layout(sh, q_, bt_);
        x.bytes = sh.bytes;
        x.gpu = sh.bytes <= work_bytes_ && task_slot_bytes(t, x, trace_, bytes_) + kSlack + 16 * 1024 <= slot_bytes_;
    };
    e.s_limit = (int32_t)nd.s_reached;
    e.klo = nd.klo;
    e.khi = nd.khi;
    e.cells = trace_ ? nd.cells : 0;
    e.max_ops = trace_ ? codes_max_ops(q_, e.s_limit) : 0;
    layout(e);
    e1 = e;
    if (!trace_ || !e.gpu) return;
    const uint64_t per_unit = work_bytes_ / std::max<uint64_t>(1, groups_of(e.off16, pick_group(e.khi - e.klo + 1)));
    const uint64_t share = per_unit / 4 * 3;
    if (e.cells <= share) return;  // pass 1 stops at the share's cells
    const Need n1 = simulate_ranges(q_, (int32_t)t.v_len, (int32_t)t.h_len, (int32_t)f.pb, (int32_t)f.tb, e.s_limit,
                                    share, trace_, ring.data());
    if (n1.s_reached < 1 || n1.s_reached >= e.s_limit) return;
    e1.s_limit = (int32_t)n1.s_reached;
    e1.klo = n1.klo;
    e1.khi = n1.khi;
    e1.cells = n1.cells;
    e1.max_ops = codes_max_ops(q_, e1.s_limit);
    layout(e1);
}

// Largest units first: chunks of alike tasks share a unit shape, and the long
// alignments start early. A counting sort over the shapes (by bytes, descending),
// tasks of one shape in batch order. Tasks no unit holds go to the CPU at once.
void WfaRun::order_tasks() {
    std::vector<size_t> rescue_now;
    std::vector<uint32_t> rank(sest_.size());
    std::iota(rank.begin(), rank.end(), 0u);
    std::stable_sort(rank.begin(), rank.end(), [&](uint32_t a, uint32_t b) { return sest_[a].bytes > sest_[b].bytes; });
    std::vector<size_t> at(sest_.size() + 1, 0);
    for (size_t i = 0; i < job_.n; ++i) at[sid_[i]] += E(i).gpu ? 1 : 0;
    size_t sum = 0;
    for (uint32_t r : rank) {
        const size_t c = at[r];
        at[r] = sum;
        sum += c;
    }
    order_.resize(sum);
    for (size_t i = 0; i < job_.n; ++i) {
        if (E(i).gpu) order_[at[sid_[i]]++] = i;
        else rescue_now.push_back(i);
    }
    if (!rescue_now.empty()) job_.rescue(std::move(rescue_now));
}

// Alike tasks in order while the slot holds their inputs and outputs and the unit
// shape stays within 1.25x of the first task's; then the chunk's layout in the slot
// and its units (what the slot's work area holds, at most one per resident group).
// The GPU idles until the first chunk is packed and copied: that one is an eighth of
// the others (at 10 kbp, ~1 ms of packing instead of ~5 before the first kernel).
bool WfaRun::plan(Chunk &c, const Slot &s, std::vector<size_t> &rescue) {
    c.tasks.clear();
    Shape sh{};
    size_t bytes = kSlack, bases = 0, ops_words = 0;
    uint64_t first_bytes = 0;
    const bool off16 = E(order_[next_]).off16;
    sh.off_bytes = off16 ? 2 : 4;
    while (next_ < order_.size() && c.tasks.size() < kMaxChunkTasks) {
        const size_t ti = order_[next_];
        const PairTask &t = tasks_[ti];
        const Est &e = E(ti);
        if (e.off16 != off16) break;
        const size_t need = task_slot_bytes(t, e, trace_, bytes_);
        const size_t tb = (size_t)(pack_round(t.h_len) + pack_round(t.v_len));
        if (bytes + need + 64 > slot_bytes_ || bases + tb >= ((size_t)1 << 31) - 1024) break;
        if (!c.tasks.empty() && bases + tb > (launched_ == 0 ? kMaxChunkBases / 8 : kMaxChunkBases)) break;
        Shape x = sh;
        x.cap = std::max(x.cap, e.khi - e.klo + 1);
        x.hdr_scores = std::max(x.hdr_scores, e.s_limit + 1);
        x.code_cap = std::max(x.code_cap, e.cells);
        // Alike tasks mostly leave the shape as it is: no layout to redo.
        if (c.tasks.empty() || x.cap != sh.cap || x.hdr_scores != sh.hdr_scores || x.code_cap != sh.code_cap)
            shape_layout(x, q_, bt_);
        if (c.tasks.empty()) first_bytes = x.bytes;
        else if (x.bytes > first_bytes + first_bytes / 4 || x.bytes > work_bytes_) break;
        sh = x;
        bytes += need;
        bases += tb;
        ops_words += trace_ ? (size_t)e.max_ops : 0;
        c.tasks.push_back(ti);
        ++next_;
    }
    c.shape = sh;
    c.threads = pick_group(sh.cap);
    c.off16 = off16;
    const size_t nt = c.tasks.size();
    c.off_code = 0;
    // + 16 (+ 64 bytes): the padding words the windows read past the last sequence (fill)
    c.off_mask = align_up(c.off_code + (size_t)code_array_bytes((int64_t)bases, bytes_) + (bytes_ ? 64 : 16), 256);
    c.off_task = align_up(c.off_mask + (size_t)mask_array_bytes((int64_t)bases, bytes_) + 16, 256);
    c.in_bytes = c.off_task + nt * sizeof(Task);
    c.out_at = align_up(c.in_bytes, 256);
    c.off_ops = align_up(c.out_at + nt * sizeof(Out), 256);
    c.out_bytes = c.off_ops + ops_words * 4 - c.out_at;
    const uint64_t units = sh.bytes ? work_of(s).bytes / sh.bytes : 0;
    c.units = std::min<uint64_t>({units, groups_of(c.off16, c.threads), units_cap_, (uint64_t)nt});
    if (c.units == 0) {  // cannot happen (each task fits a work area); keep the tasks anyway
        rescue.insert(rescue.end(), c.tasks.begin(), c.tasks.end());
        return false;
    }
    return true;
}

// Packs the sequences and writes the task records into the slot's staging.
void WfaRun::fill(Chunk &c, char *host) {
    uint32_t *code = reinterpret_cast<uint32_t *>(host + c.off_code);
    uint32_t *mask = bytes_ ? nullptr : reinterpret_cast<uint32_t *>(host + c.off_mask);
    Task *tasks = reinterpret_cast<Task *>(host + c.off_task);
    const size_t nt = c.tasks.size();
    int64_t at = 0;
    uint32_t ops_at = 0;
    for (size_t j = 0; j < nt; ++j) {
        const PairTask &t = tasks_[c.tasks[j]];
        const Est &e = E(c.tasks[j]);
        const WfaFree f = wfa_free(p_, t.v_len, t.h_len);
        Task &x = tasks[j];
        x.p0 = (uint32_t)at;
        at += pack_round(t.v_len);
        x.t0 = (uint32_t)at;
        at += pack_round(t.h_len);
        x.m = (int32_t)t.v_len;
        x.n = (int32_t)t.h_len;
        x.pb = (int32_t)f.pb; x.pe = (int32_t)f.pe; x.tb = (int32_t)f.tb; x.te = (int32_t)f.te;
        x.s_limit = e.s_limit;
        x.kbase = e.klo;
        x.ops_at = ops_at;
        x.max_ops = trace_ ? e.max_ops : 0;
        ops_at += trace_ ? (uint32_t)e.max_ops : 0;
        x.has_n = 0;
        x.pad = 0;
    }
    // The padding words read past the last sequence by the 16-base windows.
    if (bytes_) {
        std::memset(reinterpret_cast<char *>(code) + at, 0, 64);
    } else {
        for (int w = 0; w < 4; ++w) code[(size_t)at / 16 + w] = 0;
        for (int w = 0; w < 4; ++w) mask[(size_t)at / 32 + w] = 0;
    }
    // Split by tasks, but a 10 kbp chunk holds only ~3,000 of them: a few dozen
    // per thread already amortize the thread's start.
    parallel_for(nt, job_.pack_threads, 32, [&](size_t lo, size_t hi) {
        for (size_t j = lo; j < hi; ++j) {
            const PairTask &t = tasks_[c.tasks[j]];
            Task &x = tasks[j];
            store_bases(t.v, t.v_len, x.p0, code, mask);
            store_bases(t.h, t.h_len, x.t0, code, mask);
            if (!mask) continue;  // GALE_N_BYTES: no N mask to read (has_n stays 0)
            uint32_t any = 0;
            for (int64_t w = x.p0 / 32; w < (x.t0 + pack_round(t.h_len)) / 32; ++w) any |= mask[w];
            x.has_n = any != 0;
        }
    });
}

// One kernel for the chunk: its metric, backtrace, offset width, range ring and group.
void WfaRun::launch(Chunk &c, const Slot &s) {
    const WorkArea &w = work_of(s);
    KArgs ka;
    ka.tasks = reinterpret_cast<const Task *>(s.dev + c.off_task);
    ka.outs = reinterpret_cast<Out *>(s.dev + c.out_at);
    ka.ops = reinterpret_cast<uint32_t *>(s.dev + c.off_ops);
    ka.code = reinterpret_cast<const uint32_t *>(s.dev + c.off_code);
    ka.mask = bytes_ ? nullptr : reinterpret_cast<const uint32_t *>(s.dev + c.off_mask);
    ka.n_tasks = (int)c.tasks.size();
    ka.counter = s.counters;
    ka.pen = q_;
    ka.n_policy = p_.n_policy;
    ka.shape = c.shape;
    ka.base_a = w.ptr;  // one work area a slot: every unit in the first region
    ka.base_b = w.ptr;
    ka.units_a = c.units;
    ka.units = c.units;
    ka.cancel = dev_->cancel_dev;
    ka.heur = wfa_heur_args(p_);
    KernelFn k = pick_kernel(q_.metric, bt_, c.off16, rrs_, heur_, c.threads);
    const bool warps = c.threads == 32;
    const unsigned blocks = warps ? (unsigned)((c.units + kWarpsPerBlock - 1) / kWarpsPerBlock) : (unsigned)c.units;
    k<<<blocks, warps ? kWarpsPerBlock * 32 : c.threads, 0, s.stream>>>(ka);
    GALE_CUDA_CHECK(cudaGetLastError());
    ++launched_;
}

// Results from the chunk's outs and ops: the CIGAR rebuilt from the ops (wfa_replay),
// in parallel over the chunk's tasks. Tasks stopped by pass 1's budget are kept for
// pass 2, others the GPU could not finish go to the CPU, and those stopped by a cancel
// are left without a result (common/cancel.cuh); a backtrace that does not rebuild
// into the alignment it scored is a bug and fails the batch.
void WfaRun::collect(Chunk &c, const char *host, std::vector<size_t> &rescue) {
    const Out *outs = reinterpret_cast<const Out *>(host + c.out_at);
    const uint32_t *ops = reinterpret_cast<const uint32_t *>(host + c.off_ops);
    const Task *tasks = reinterpret_cast<const Task *>(host + c.off_task);
    std::vector<char> bad(c.tasks.size(), 0);
    parallel_for(c.tasks.size(), job_.pack_threads, 32, [&](size_t lo, size_t hi) {
        std::vector<WfaOp> path;
        std::vector<uint32_t> cigar;
        // The range's CIGARs go to the batch's arena in one put (one lock per range,
        // not per alignment: 16 threads taking the arena's lock per 1 kbp alignment
        // made collect 1.6x slower on an H100).
        std::vector<uint32_t> words;
        std::vector<std::pair<size_t, size_t>> spans;  // (task, offset in words)
        for (size_t j = lo; j < hi; ++j) {
            const Out &o = outs[j];
            const size_t ti = c.tasks[j];
            if (o.status == kOutCanceled) {  // 4: no result
                bad[j] = 4;
                continue;
            }
            if (o.status == kOutUnfeasible) {  // a heuristic cut every path (the CPU's result)
                WfaResult &r = results_[ti];
                r = WfaResult{};
                r.cells = o.cells;
                r.flags = GALE_RF_UNFEASIBLE | kResultDone;
                continue;
            }
            if (o.status != kOutOk) {  // 2: run again in pass 2; 1: rescue on the CPU; 3: a bug
                bad[j] = retry_ok(ti, o.status) ? 2 : 1;
                continue;
            }
            const PairTask &t = tasks_[ti];
            WfaResult &r = results_[ti];
            r.cigar = VarSpan{};
            cigar.clear();
            r.score = wfa_report_score(p_, o.score, t.v_len, t.h_len);
            r.cells = o.cells;
            r.flags = kResultDone;
            r.h_end = o.h_end;
            r.v_end = (int64_t)o.h_end - o.k_end;
            if (trace_) {
                const uint32_t *w = ops + tasks[j].ops_at;
                int64_t k0 = o.k0;
                bool ok = o.n_ops >= 0 && o.n_ops <= tasks[j].max_ops;
                if (ok) {
                    path.resize((size_t)o.n_ops);
                    for (int32_t x = 0; x < o.n_ops; ++x) {  // the kernel wrote them last first
                        const uint32_t op = w[o.n_ops - 1 - x];
                        path[(size_t)x] = WfaOp{GALE_CIGAR_OP(op), GALE_CIGAR_LEN(op)};
                    }
                }
                int64_t he = -1, ve = -1;
                ok = ok && wfa_replay(t, p_, k0, path.data(), path.size(), &he, &ve, cigar);
                if (!ok || he != r.h_end || ve != r.v_end) {  // a bug: fail loudly, never hide it
                    bad[j] = 3;
                    continue;
                }
                spans.emplace_back(ti, words.size());
                words.insert(words.end(), cigar.begin(), cigar.end());
                r.cigar.n = cigar.size();
                r.h_begin = std::max<int64_t>(k0, 0);
                r.v_begin = std::max<int64_t>(-k0, 0);
            } else {
                const WfaFree f = wfa_free(p_, t.v_len, t.h_len);
                const bool free_begin = f.pb > 0 || f.tb > 0;
                r.h_begin = free_begin ? -1 : 0;
                r.v_begin = free_begin ? -1 : 0;
            }
        }
        const VarSpan all = job_.var->put(words.data(), words.size());
        for (const auto &sp : spans) {
            VarSpan &cg = results_[sp.first].cigar;
            cg.data = cg.n ? all.data + sp.second : nullptr;
        }
    });
    for (size_t j = 0; j < c.tasks.size(); ++j) {
        if (bad[j] == 3)
            fail(GALE_E_INTERNAL, "GPU backtrace of task %zu does not rebuild into the alignment it scored", c.tasks[j]);
        if (bad[j] == 2) retry_.push_back(c.tasks[j]);
        else if (bad[j] == 1) rescue.push_back(c.tasks[j]);
    }
}

void wfa_run(Device *dev, GpuJob &job) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    WfaRun(dev, job).run();
}

// Every kernel pick_kernel can return but the heuristic mode's (GALE_P_WFA_HEURISTIC):
// those load at their first batch, so that every context's start does not pay for a
// mode few batches use.
void wfa_preload(Device *dev) noexcept {
    cudaFuncAttributes a;
    if (cudaSetDevice(dev->index) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    for (int metric : {kMetricAffine, kMetricAffine2p, kMetricEdit})
        for (int bt : {kBtCodes, kBtNone})
            for (int off16 = 0; off16 < 2; ++off16)
                for (int rrs = 0; rrs < 2; ++rrs)
                    for (int threads : {32, 128, 256})
                        cudaFuncGetAttributes(&a, (const void *)pick_kernel(metric, bt, off16 != 0, rrs != 0, false,
                                                                            threads));
    cudaGetLastError();
}

}  // namespace

const GpuKind kWfaGpu = {wfa_run, wfa_preload};

}  // namespace cuda
}  // namespace gale
