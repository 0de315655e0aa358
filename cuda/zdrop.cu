// CUDA kernel of ksw2's Z-drop extension (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2),
// bit-identical to lib/cpu/zdrop.cpp: a warp per task runs cuda/common/zdrop_core.cuh's
// zd_task, each anti-diagonal's cells split over the lanes (ksw2's 16-lane carry becomes
// a shuffle; its four-lane maximum a reduction over a priority). Warps are persistent:
// they take tasks off a counter.
//
// Memory: a task's sequences (one byte per base, the codes of lib/sequence.h), its
// junction array (exts2, when the task has one) and its record go to the device; its
// ZdOut and CIGAR come back; its state ring (ksw2's u v x y and H for the live columns of
// the band: zd_state_cols) lies in shared memory when it fits kRingShared; the rest of its
// work (ksw2's byte block, the backtrack codes of its band: zd_layout) lies in the slot's
// work area,
// one region per resident warp, as large as the chunk's largest task needs. A task whose
// work exceeds the whole work area of a slot is rescued on the CPU (GALE_RF_RESCUED), as
// is one too long for the chunk's staging.
//
// Not yet tuned: one cell per lane (ksw2's 8-bit lanes would pack four to a 32-bit word:
// __vadd4 / __vmaxs4 / __vcmpgts4), no DPX, bases not packed; the scores still go through
// ksw2's s array in device memory (its overrun into sf is part of the result, Q9).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/cancel.cuh"
#include "common/device.cuh"
#include "common/group.cuh"
#include "common/pipeline.cuh"
#include "common/zdrop_core.cuh"
#include "cuda_backend.h"
#include "zdrop.h"

namespace gale {
namespace cuda {

namespace {

using zdg::ZdLayout;
using zdg::ZdMem;
using zdg::ZdOut;

constexpr uint64_t kNoJunc = ~(uint64_t)0;

struct ZdTask {
    uint64_t q_at, t_at;      // the codes, bytes into the slot's input
    uint64_t j_at;            // the junction array (tlen bytes) likewise, or kNoJunc
    uint64_t cigar_at;        // the CIGAR's first op, in ops past the ZdOut array
    uint64_t state_at, rows_at, p_at;  // the work regions, bytes into the warp's region (mem at 0)
    int32_t qlen, tlen;
};

// The group interface of zd_task for one warp.
struct WarpGroup : WarpLanes {
    CancelPoll *cancel;
    __device__ int32_t max(int32_t v) const { return __reduce_max_sync(0xffffffffu, v); }
    __device__ uint64_t min(uint64_t v) const {
        for (int o = 16; o > 0; o >>= 1) {
            const uint64_t w = __shfl_xor_sync(0xffffffffu, v, o);
            v = w < v ? w : v;
        }
        return v;
    }
    __device__ int32_t bcast(int32_t v) const { return __shfl_sync(0xffffffffu, v, 0); }
    __device__ bool stop(int32_t work) { return cancel->stop(*this, work + kCancelStepWork); }
};

template <int V>
__global__ void __launch_bounds__(32)
zdrop_kernel(const ZdTask *__restrict__ tasks, int n, const uint8_t *__restrict__ in, ZdOut *outs, uint32_t *cigars,
             char *work, uint64_t region, uint32_t smem_bytes, ZdropParams P, int *counters, CancelWord cancel_word) {
    extern __shared__ uint4 zd_smem[];  // the state ring of a task that fits (smem_bytes)
    WarpGroup g;
    CancelPoll cancel{cancel_word};
    g.cancel = &cancel;
    char *mine = work + (uint64_t)blockIdx.x * region;
    for (;;) {
        int i = 0;
        if (g.tid() == 0) i = atomicAdd(&counters[0], 1);
        i = g.bcast(i);
        if (i >= n) return;
        if (cancel.stop(g, kCancelFetchWork)) {
            if (g.tid() == 0) outs[i].status = zdg::kZdCanceled;
            continue;
        }
        const ZdTask tk = tasks[i];
#if defined(GALE_ZD_CHECKED)
        if (g.tid() == 0 && (mine + region > zdg::zd_work_end || tk.p_at > region || tk.rows_at > region))
            printf("ZD_CHECKED(dev): block %d task %d region %llu mine %p end %p h_at %llu rows_at %llu p_at %llu q %d t %d\n",
                   (int)blockIdx.x, i, (unsigned long long)region, (void *)mine, (void *)zdg::zd_work_end,
                   (unsigned long long)tk.state_at, (unsigned long long)tk.rows_at, (unsigned long long)tk.p_at, tk.qlen, tk.tlen);
#endif
        ZdMem M;
        M.mem = reinterpret_cast<int8_t *>(mine);
        // the state ring in shared memory when it fits there, else in the warp's region
        const bool ring_shared = zdg::zd_state_bytes(P, tk.qlen, tk.tlen) <= smem_bytes;
        zdg::zd_state_at(M, ring_shared ? static_cast<void *>(zd_smem) : static_cast<void *>(mine + tk.state_at), P,
                         tk.qlen, tk.tlen);
        const uint64_t rows = tk.qlen > 0 && tk.tlen > 0 ? (uint64_t)tk.qlen + tk.tlen - 1 : 0;
        M.off = reinterpret_cast<int32_t *>(mine + tk.rows_at);
        M.off_end = M.off + rows;
        M.prow = reinterpret_cast<uint32_t *>(M.off_end + rows);
        M.p = reinterpret_cast<uint8_t *>(mine + tk.p_at);
        M.cigar = cigars + tk.cigar_at;
        // ksw2's block starts zeroed (kcalloc)
        uint4 *z4 = reinterpret_cast<uint4 *>(mine);
        for (uint64_t k = g.tid(); k < tk.state_at / 16; k += 32) z4[k] = make_uint4(0, 0, 0, 0);
        __syncwarp();
        ZdOut o;
        const uint8_t *junc = tk.j_at == kNoJunc ? nullptr : in + tk.j_at;
        zdg::zd_task<V>(g, P, kZdAlphabet, P.mat, tk.qlen, in + tk.q_at, tk.tlen, in + tk.t_at, junc, M, o);
        if (g.tid() == 0) outs[i] = o;
        __syncwarp();
    }
}

const void *kernel_of(int variant) {
    return variant == kZdExtz2 ? (const void *)zdrop_kernel<kZdExtz2>
           : variant == kZdExtd2 ? (const void *)zdrop_kernel<kZdExtd2>
                                 : (const void *)zdrop_kernel<kZdExts2>;
}

size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

struct Chunk : ChunkIO {
    std::vector<ZdLayout> lay;
    uint64_t region = 0;  // work bytes of each warp: the chunk's largest task
    uint32_t smem = 0;    // shared memory of each warp: the largest state ring that fits kRingShared
    size_t off_tasks = 0, cigar_at = 0;
};

constexpr size_t kMaxChunkTasks = 32768;
// The most shared memory a warp's state ring takes (zd_state_bytes); a larger ring stays in
// the warp's region of device memory. 16 KiB holds minimap2's long-read band (w 751: 1,024
// columns of 8 or 12 bytes) with 19 or more warps per SM.
constexpr uint32_t kRingShared = 16 * 1024;
constexpr size_t kSlack = 4096;

struct ZdFlow {
    GpuJob &job;
    const PairTask *tasks;
    const ZdropParams &params;
    ZdropResult *results;
    int sms;                  // the device's multiprocessors (warps resident: by occupancy at each launch)
    const WorkArea *work;     // per slot
    const Slot *slots;
    CancelWord cancel;
    size_t next = 0;

    bool more() const { return next < job.n; }

    bool plan(Chunk &c, const Slot &s, std::vector<size_t> &rescue) {
        c.tasks.clear();
        c.lay.clear();
        c.region = 0;
        c.smem = 0;
        const size_t area = work[&s - slots].bytes;
        size_t in = 0, out_ops = 0;
        while (next < job.n && c.tasks.size() < kMaxChunkTasks) {
            const PairTask &t = tasks[next];
            const ZdLayout L = zdg::zd_layout(params, (int)t.v_len, (int)t.h_len);
            const size_t seq = align_up((size_t)t.v_len, 16) + align_up((size_t)t.h_len, 16) +
                               (t.junc ? align_up((size_t)t.h_len, 16) : 0);
            const size_t ops = (size_t)(L.cigar / 4);
            const size_t stage = seq + sizeof(ZdTask) + sizeof(ZdOut) + L.cigar;
            if (L.work() > area || stage + kSlack > s.bytes) {
                rescue.push_back(next++);
                continue;
            }
            const size_t n1 = c.tasks.size() + 1;
            const size_t need = align_up(in + seq, 256) + n1 * sizeof(ZdTask) + 256 + n1 * sizeof(ZdOut) +
                                (out_ops + ops) * 4 + kSlack;
            // the chunk's warps share the area in regions of its largest task
            const uint64_t region = std::max<uint64_t>(c.region, L.work());
            if (need > s.bytes || (c.tasks.size() > 0 && region > area)) break;
            c.region = region;
            if (L.state <= kRingShared) c.smem = std::max<uint32_t>(c.smem, (uint32_t)L.state);
            c.tasks.push_back(next++);
            c.lay.push_back(L);
            in += seq;
            out_ops += ops;
        }
        // the largest tasks first, so that the warps that take the last ones finish together
        std::vector<size_t> order(c.tasks.size());
        for (size_t k = 0; k < order.size(); ++k) order[k] = k;
        auto cells = [&](size_t k) { return (uint64_t)tasks[c.tasks[k]].v_len * (uint64_t)tasks[c.tasks[k]].h_len; };
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cells(a) > cells(b); });
        std::vector<size_t> ids(order.size());
        std::vector<ZdLayout> lays(order.size());
        for (size_t k = 0; k < order.size(); ++k) ids[k] = c.tasks[order[k]], lays[k] = c.lay[order[k]];
        c.tasks.swap(ids);
        c.lay.swap(lays);
        c.off_tasks = align_up(in, 256);
        c.in_bytes = c.off_tasks + c.tasks.size() * sizeof(ZdTask);
        c.out_at = align_up(c.in_bytes, 256);
        c.cigar_at = c.out_at + c.tasks.size() * sizeof(ZdOut);
        c.out_bytes = c.tasks.size() * sizeof(ZdOut) + out_ops * 4;
        return !c.tasks.empty();
    }

    void fill(Chunk &c, char *host) {
        ZdTask *rec = reinterpret_cast<ZdTask *>(host + c.off_tasks);
        uint64_t at = 0, ops = 0;
        for (size_t k = 0; k < c.tasks.size(); ++k) {
            const PairTask &t = tasks[c.tasks[k]];
            const ZdLayout &L = c.lay[k];
            ZdTask x;
            x.q_at = at;
            std::memcpy(host + at, t.v, (size_t)t.v_len);
            at += align_up((size_t)t.v_len, 16);
            x.t_at = at;
            std::memcpy(host + at, t.h, (size_t)t.h_len);
            at += align_up((size_t)t.h_len, 16);
            x.j_at = kNoJunc;
            if (t.junc) {
                x.j_at = at;
                std::memcpy(host + at, t.junc, (size_t)t.h_len);
                at += align_up((size_t)t.h_len, 16);
            }
            x.cigar_at = ops;
            ops += L.cigar / 4;
            x.state_at = ZdLayout::al(L.mem);
            x.rows_at = x.state_at + ZdLayout::al(L.state);
            x.p_at = x.rows_at + ZdLayout::al(L.rows);
            x.qlen = (int32_t)t.v_len;
            x.tlen = (int32_t)t.h_len;
            rec[k] = x;
        }
    }

    void launch(Chunk &c, const Slot &s) {
        const int n = (int)c.tasks.size();
        if (n == 0) return;
        const WorkArea &wa = work[&s - slots];
        const uint64_t region = std::max<uint64_t>(c.region, 16);
        uint32_t smem = c.smem;
        int per_sm = 0;
        GALE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_of(params.variant), 32, smem));
        const uint64_t resident = (uint64_t)std::max(1, per_sm) * (uint64_t)sms;
        const int warps = (int)std::max<uint64_t>(1, std::min<uint64_t>({resident, wa.bytes / region, (uint64_t)n}));
        const ZdTask *rec = reinterpret_cast<const ZdTask *>(s.dev + c.off_tasks);
        const uint8_t *in = reinterpret_cast<const uint8_t *>(s.dev);
        ZdOut *outs = reinterpret_cast<ZdOut *>(s.dev + c.out_at);
        uint32_t *cigars = reinterpret_cast<uint32_t *>(s.dev + c.cigar_at);
        char *wk = wa.ptr;
        ZdropParams p = params;
        int *counters = s.counters;
        CancelWord cancel_word = cancel;
        void *args[] = {&rec, const_cast<int *>(&n), &in, &outs, &cigars, &wk, const_cast<uint64_t *>(&region),
                        &smem, &p, &counters, &cancel_word};
#if defined(GALE_ZD_CHECKED)
        char *end = wa.ptr + wa.bytes;
        cudaMemcpyToSymbolAsync(zdg::zd_work_end, &end, sizeof end, 0, cudaMemcpyHostToDevice, s.stream);
        fprintf(stderr, "ZD_CHECKED: launch %d tasks, %d warps, region %llu, area %zu\n", n, warps,
                (unsigned long long)region, wa.bytes);
#endif
        GALE_CUDA_CHECK(cudaLaunchKernel(kernel_of(params.variant), warps, 32, args, smem, s.stream));
    }

    void collect(Chunk &c, const char *host, std::vector<size_t> &) {
#if defined(GALE_ZD_CHECKED)
        {  // a debugging build only (zdrop_core.cuh): what the checked accesses caught
            zdg::ZdDiag d{};
            cudaMemcpyFromSymbol(&d, zdg::zd_diag, sizeof d);
            if (d.hit)
                fprintf(stderr, "ZD_CHECKED: H[%d] of %lld at line %d, r %d st0 %d en0 %d qlen %d tlen %d tid %d block %d "
                        "(chunk of %zu, region %llu)\n", d.i, d.n_H, d.line, d.r, d.st0, d.en0, d.qlen, d.tlen, d.tid,
                        d.block, c.tasks.size(), (unsigned long long)c.region);
            d = zdg::ZdDiag{};
            cudaMemcpyToSymbol(zdg::zd_diag, &d, sizeof d);
        }
#endif
        const ZdOut *outs = reinterpret_cast<const ZdOut *>(host + c.out_at);
        const uint32_t *cigars = reinterpret_cast<const uint32_t *>(host + c.cigar_at);
        uint64_t ops = 0;
        for (size_t k = 0; k < c.tasks.size(); ++k) {
            const ZdOut &o = outs[k];
            const uint64_t at = ops;
            ops += c.lay[k].cigar / 4;
            if (o.status != zdg::kZdOk) continue;  // cancelled: no result
            ZdropResult &r = results[c.tasks[k]];
            r.max = o.max, r.zdropped = o.zdropped, r.max_q = o.max_q, r.max_t = o.max_t, r.mqe = o.mqe,
            r.mqe_t = o.mqe_t, r.mte = o.mte, r.mte_q = o.mte_q, r.score = o.score, r.reach_end = o.reach_end;
            r.cells = o.cells;
            r.cigar = job.var->put(cigars + at, (size_t)o.n_cigar);
            r.flags = kResultDone;
        }
    }
};

void zdrop_run(Device *dev, GpuJob &job) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    static_assert(sizeof(ZdOut) == 56 && sizeof(ZdTask) == 64, "record layout");
    const ZdropParams &params = *static_cast<const ZdropParams *>(job.params);
    // Every byte of work memory helps: more warps hold larger tasks at once.
    WorkArea work[kSlots];
    for (int i = 0; i < kSlots; ++i) work[i] = slot_work(dev, i, SIZE_MAX);
    ZdFlow flow{job, job.tasks, params, static_cast<ZdropResult *>(job.results), dev->prop.multiProcessorCount, work, dev->slots,
                dev->cancel_dev, 0};
    ChunkPipeline<Chunk> pipe(dev, job);
    pipe.run(flow);
    job.kernel_ns = pipe.kernel_ns();
}

void zdrop_preload(Device *dev) noexcept {
    cudaFuncAttributes a;
    if (cudaSetDevice(dev->index) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    for (int v = 0; v < 3; ++v) cudaFuncGetAttributes(&a, kernel_of(v));
    cudaGetLastError();
}

}  // namespace

// Not experimental since zdrop_gpu and the AGAThA benchmark passed on an H200 (2026-11-29,
// doc/zdrop.md, "GPU status").
const GpuKind kZdropGpu = {zdrop_run, zdrop_preload, false};

}  // namespace cuda
}  // namespace gale
