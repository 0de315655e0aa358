// CUDA kernel of SPOA's partial-order alignment (GALE_POA), bit-identical to
// lib/cpu/poa.cpp: a warp per window runs cuda/common/poa_core.cuh's pg_window (the reads
// in order; each read's DP with the columns over the lanes, then backtrack, graph
// insertion and topological sort on lane 0). Warps are persistent: they take windows off
// a counter.
//
// Memory: a window's bases (the reads one after the other), its lengths and its record
// go to the device; per read the score and the alignment projected on the read come back
// (poa_core.cuh says why that is all the graph needs), and the host rebuilds SPOA's graph
// from them (poa::Graph::add_projected, with the reads' weights, which the device does not
// keep) and draws the consensus, MSA and GFA (poa::finish), as the CPU kernel does. The
// work (graph, sort stack, DP matrices: pg_layout, bounded by the window's bases) lies in
// the slot's work area, one region per resident warp, as large as the chunk's largest
// window. A window whose work exceeds the whole work area of a slot, or whose staging
// exceeds the slot, is rescued on the CPU (GALE_RF_RESCUED), as is one the kernel could not
// finish (a capacity check failed, or what the CPU kernel refuses: SPOA's overflow, no
// predecessor in the backtrack; the CPU then reports the same error).
//
// Two passes: the first sizes each window for a graph of a few times its longest read
// (node_cap); the windows whose graph outgrows that run again, sized for the bound.
//
// Not yet tuned: no DPX, no shared memory; host-side graph rebuild and consensus in the
// collect.
#include <algorithm>
#include <cstring>
#include <vector>

#include "common/cancel.cuh"
#include "common/device.cuh"
#include "common/pipeline.cuh"
#include "common/poa_core.cuh"
#include "cuda_backend.h"
#include "kind.h"
#include "poa.h"

namespace gale {
namespace cuda {

namespace {

using poag::PgLayout;
using poag::PgMem;
using poag::PgRead;

struct PgTask {
    PgLayout lay;
    uint64_t bases_at;  // the reads' bytes, bytes into the slot's input
    uint64_t lens_at;   // n_reads int64 lengths, bytes into the slot's input
    uint64_t out_at;    // its PgOut, then n_reads PgRead, then the projections: bytes past the chunk's out_at
    uint32_t n_reads;
    uint32_t pad;
};

struct PgOut {
    int32_t status, pad;
    uint64_t cells;
};

// The group interface of pg_window for one warp.
struct WarpGroup {
    static constexpr int size = 32;
    CancelPoll *cancel;
    __device__ int tid() const { return (int)(threadIdx.x & 31); }
    __device__ void sync() const { __syncwarp(); }
    __device__ int32_t max(int32_t v) const {
        __syncwarp();
        return __reduce_max_sync(0xffffffffu, v);
    }
    __device__ int32_t bcast(int32_t v) const {
        __syncwarp();
        return __shfl_sync(0xffffffffu, v, 0);
    }
    // polled every 256 graph rows
    __device__ bool stop() { return cancel->stop(*this, 256 * kCancelStepWork); }
};

__global__ void __launch_bounds__(32)
poa_kernel(const PgTask *__restrict__ tasks, int n, const uint8_t *__restrict__ in, char *outs, char *work,
           uint64_t region, poa::Params P, int *counters, CancelWord cancel_word) {
    WarpGroup g;
    CancelPoll cancel{cancel_word};
    g.cancel = &cancel;
    char *mine = work + (uint64_t)blockIdx.x * region;
    for (;;) {
        int i = 0;
        if (g.tid() == 0) i = atomicAdd(&counters[0], 1);
        i = g.bcast(i);
        if (i >= n) return;
        PgOut *o = reinterpret_cast<PgOut *>(outs + tasks[i].out_at);
        if (cancel.stop(g, kCancelFetchWork)) {
            if (g.tid() == 0) o->status = poag::kPgCanceled;
            continue;
        }
        const PgTask &tk = tasks[i];
        const PgLayout lay = tk.lay;
        const PgMem M = poag::pg_mem(mine, lay);
        PgRead *reads = reinterpret_cast<PgRead *>(o + 1);
        int32_t *proj = reinterpret_cast<int32_t *>(reads + tk.n_reads);
        uint64_t cells = 0;
        const int32_t st = poag::pg_window(g, P, lay, M, tk.n_reads, in + tk.bases_at,
                                           reinterpret_cast<const int64_t *>(in + tk.lens_at), proj, reads, &cells);
        if (g.tid() == 0) o->status = st, o->cells = cells;
        __syncwarp();
    }
}

size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

struct Chunk : ChunkIO {
    std::vector<PgLayout> lay;
    std::vector<uint64_t> task_out;  // per task, bytes past the chunk's out_at
    uint64_t region = 0;           // work bytes of each warp: the chunk's largest window
    size_t off_tasks = 0;
};

constexpr size_t kMaxChunkTasks = 16384;
constexpr size_t kSlack = 4096;

uint64_t sum_lens(const PairTask &t) {
    const GroupSeq *gs = group_seqs(t);
    uint64_t s = 0;
    for (int64_t k = 0; k < t.h_len; ++k) s += (uint64_t)gs[k].len;
    return s;
}

uint64_t out_bytes(const PairTask &t, uint64_t sum) {
    return align_up(sizeof(PgOut) + (uint64_t)t.h_len * sizeof(PgRead) + sum * 4, 16);
}

// The first pass sizes each window for a graph of at most kNodeCap(longest read) nodes
// (a window of reads that agree grows a graph of about the read length, plus the
// mismatches and insertions); a window that outgrows it ends with kPgCapacity and runs
// again in a second pass, sized for the bound (every base a new node).
uint64_t node_cap(uint64_t max_l) { return 4 * max_l + 256; }

struct PoaFlow {
    GpuJob &job;
    const PairTask *tasks;
    const poa::KindParams &params;
    poa::Result *results;
    int resident;
    const WorkArea *work;
    const Slot *slots;
    CancelWord cancel;
    const std::vector<size_t> &list;  // the batch indices of this pass
    bool exact;                       // the second pass: no node cap
    size_t next = 0;
    std::vector<size_t> retry;        // the first pass's windows that outgrew the cap
    std::vector<uint32_t> words, weights;

    bool more() const { return next < list.size(); }

    PgLayout layout(const PairTask &t) const {
        const GroupSeq *gs = group_seqs(t);
        bool used[256] = {};
        uint64_t codes = 0;
        std::vector<int64_t> lens((size_t)t.h_len);
        uint64_t max_l = 0;
        for (int64_t k = 0; k < t.h_len; ++k) {
            lens[(size_t)k] = gs[k].len;
            if ((uint64_t)gs[k].len > max_l) max_l = (uint64_t)gs[k].len;
            for (int64_t j = 0; j < gs[k].len; ++j)
                if (!used[gs[k].bases[j]]) used[gs[k].bases[j]] = true, ++codes;
        }
        return poag::pg_layout(lens.data(), (uint64_t)t.h_len, codes, params.p.subtype, exact ? 0 : node_cap(max_l));
    }

    bool plan(Chunk &c, const Slot &s, std::vector<size_t> &rescue) {
        c.tasks.clear();
        c.lay.clear();
        c.task_out.clear();
        c.region = 0;
        const size_t area = work[&s - slots].bytes;
        size_t in = 0, out = 0;
        while (next < list.size() && c.tasks.size() < kMaxChunkTasks) {
            const size_t idx = list[next];
            const PairTask &t = tasks[idx];
            const uint64_t sum = sum_lens(t);
            const PgLayout L = layout(t);
            const size_t seq = align_up(sum, 16) + align_up((size_t)t.h_len * 8, 16);
            const size_t ob = out_bytes(t, sum);
            const size_t stage = seq + sizeof(PgTask) + ob;
            if (t.h_len > (int64_t)INT32_MAX || L.bytes > area || stage + kSlack > s.bytes) {
                rescue.push_back(idx);
                ++next;
                continue;
            }
            const size_t n1 = c.tasks.size() + 1;
            const size_t need = align_up(in + seq, 256) + n1 * sizeof(PgTask) + 256 + out + ob + kSlack;
            // The chunk's warps each take the region of its largest window: a chunk holds no
            // more windows than can run at once in that region, so that a large window does
            // not leave many small ones queued behind a few warps.
            const uint64_t region = std::max<uint64_t>(c.region, L.bytes);
            const uint64_t at_once = std::min<uint64_t>((uint64_t)resident, n1);
            if (need > s.bytes || (c.tasks.size() > 0 && (region > area || region * at_once > area))) break;
            c.region = region;
            c.tasks.push_back(idx);
            ++next;
            c.lay.push_back(L);
            c.task_out.push_back(out);
            in += seq;
            out += ob;
        }
        c.off_tasks = align_up(in, 256);
        c.in_bytes = c.off_tasks + c.tasks.size() * sizeof(PgTask);
        c.out_at = align_up(c.in_bytes, 256);
        c.out_bytes = out;
        return !c.tasks.empty();
    }

    void fill(Chunk &c, char *host) {
        PgTask *rec = reinterpret_cast<PgTask *>(host + c.off_tasks);
        uint64_t at = 0;
        for (size_t k = 0; k < c.tasks.size(); ++k) {
            const PairTask &t = tasks[c.tasks[k]];
            const GroupSeq *gs = group_seqs(t);
            PgTask x{};
            x.lay = c.lay[k];
            x.bases_at = at;
            for (int64_t r = 0; r < t.h_len; ++r) {
                if (gs[r].len) std::memcpy(host + at, gs[r].bases, (size_t)gs[r].len);
                at += (uint64_t)gs[r].len;
            }
            at = align_up(at, 16);
            x.lens_at = at;
            for (int64_t r = 0; r < t.h_len; ++r) std::memcpy(host + at + 8 * r, &gs[r].len, 8);
            at = align_up(at + 8 * (uint64_t)t.h_len, 16);
            x.out_at = c.task_out[k];
            x.n_reads = (uint32_t)t.h_len;
            rec[k] = x;
        }
    }

    void launch(Chunk &c, const Slot &s) {
        const int n = (int)c.tasks.size();
        if (n == 0) return;
        const WorkArea &wa = work[&s - slots];
        const uint64_t region = std::max<uint64_t>(c.region, 16);
        const int warps = (int)std::max<uint64_t>(1, std::min<uint64_t>({(uint64_t)resident, wa.bytes / region, (uint64_t)n}));
        const PgTask *rec = reinterpret_cast<const PgTask *>(s.dev + c.off_tasks);
        const uint8_t *in = reinterpret_cast<const uint8_t *>(s.dev);
        char *outs = s.dev + c.out_at;
        char *wk = wa.ptr;
        poa::Params p = params.p;
        int *counters = s.counters;
        CancelWord cancel_word = cancel;
        void *args[] = {&rec, const_cast<int *>(&n), &in, &outs, &wk, const_cast<uint64_t *>(&region), &p, &counters,
                        &cancel_word};
        GALE_CUDA_CHECK(cudaLaunchKernel((const void *)poa_kernel, warps, 32, args, 0, s.stream));
    }

    void collect(Chunk &c, const char *host, std::vector<size_t> &rescue) {
        for (size_t k = 0; k < c.tasks.size(); ++k) {
            const PgOut *o = reinterpret_cast<const PgOut *>(host + c.out_at + c.task_out[k]);
            if (o->status == poag::kPgCanceled) continue;  // cancelled: no result
            if (o->status == poag::kPgCapacity && !exact) {  // outgrew the node cap: the second pass
                retry.push_back(c.tasks[k]);
                continue;
            }
            if (o->status != poag::kPgOk) {  // the CPU computes it (or reports its error)
                rescue.push_back(c.tasks[k]);
                continue;
            }
            const PairTask &t = tasks[c.tasks[k]];
            const GroupSeq *gs = group_seqs(t);
            const PgRead *reads = reinterpret_cast<const PgRead *>(o + 1);
            const int32_t *proj = reinterpret_cast<const int32_t *>(reads + t.h_len);
            poa::Graph graph;
            std::vector<int32_t> scores((size_t)t.h_len, 0);
            uint64_t at = 0;
            for (int64_t r = 0; r < t.h_len; ++r) {
                const uint32_t len = (uint32_t)gs[r].len;
                scores[(size_t)r] = reads[r].score;
                if (len) {
                    poa::weights_of(gs[r].qual, gs[r].weight, len, weights);
                    graph.add_projected(proj + at, reads[r].vf, reads[r].vb, reinterpret_cast<const char *>(gs[r].bases),
                                        len, weights);
                }
                at += len;
            }
            poa::Result &res = results[c.tasks[k]];
            poa::finish(graph, scores, params.output, res, *job.var, words);
            res.cells = o->cells;
            res.flags = kResultDone;
        }
    }
};

void poa_run(Device *dev, GpuJob &job) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    const poa::KindParams &params = *static_cast<const poa::KindParams *>(job.params);
    int per_sm = 0;
    GALE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, poa_kernel, 32, 0));
    const int resident = std::max(1, per_sm * dev->prop.multiProcessorCount);
    WorkArea work[kSlots];
    for (int i = 0; i < kSlots; ++i) work[i] = slot_work(dev, i, SIZE_MAX);
    std::vector<size_t> all(job.n);
    for (size_t i = 0; i < job.n; ++i) all[i] = i;
    ChunkPipeline<Chunk> pipe(dev, job);
    PoaFlow first{job, job.tasks, params, static_cast<poa::Result *>(job.results), resident, work, dev->slots,
                  dev->cancel_dev, all, false, 0, {}, {}, {}};
    pipe.run(first);  // returns with every chunk collected
    if (!first.retry.empty() && !job.cancel->load()) {
        PoaFlow second{job, job.tasks, params, static_cast<poa::Result *>(job.results), resident, work, dev->slots,
                       dev->cancel_dev, first.retry, true, 0, {}, {}, {}};
        pipe.run(second);
    }
    job.kernel_ns = pipe.kernel_ns();
}

void poa_preload(Device *dev) noexcept {
    cudaFuncAttributes a;
    if (cudaSetDevice(dev->index) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    cudaFuncGetAttributes(&a, poa_kernel);
    cudaGetLastError();
}

}  // namespace

// experimental: it has not yet passed poa_gpu on a GPU (doc/poa.md, "GPU status").
const GpuKind kPoaGpu = {poa_run, poa_preload, true};

}  // namespace cuda
}  // namespace gale
