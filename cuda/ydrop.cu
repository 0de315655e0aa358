// CUDA kernel of LASTZ's gapped extension, phase 1 of the parallel scheme (doc/ydrop.md,
// "Parallel extension"): one-sided Y-drop extensions without bounds, bit-identical to the
// CPU's (lib/cpu/ydrop_run.h, Run::one_sided with a SideRec). A warp per half runs
// cuda/common/ydrop_core.cuh's yd_side, each row's cells split over the lanes (the gap
// and the best score carried by warp scans). The walk (phase 2, lib/cpu/ydrop_parallel.cpp)
// stays on the CPU and takes each half it can prove equal to its own.
//
// Memory: the call's sequences (with their reversed copies, as the walk holds them) and
// LASTZ's 256 x 256 scores go to the device once per gale_lastz_extend call (YdropGpu);
// each wave's halves get equal slots of the device entry's pool (the entry runs nothing
// else meanwhile: the backend runs this on the entry's own thread), each with its
// traceback bytes (as many as LASTZ's traceback memory), row records, DP row and edit
// script (yd_slot). A half that does not fit its slot comes back failed and the walk
// computes it on the CPU; so do all the halves of a wave whose memory could not be had.
// The wave reports how many halves the pool holds at once (YdropDeviceWave::capacity):
// the walk sizes its next waves from it.
#include <algorithm>
#include <cstring>
#include <vector>

#include "common/device.cuh"
#include "common/group.cuh"
#include "common/ydrop_core.cuh"
#include "common/ydrop_side.h"
#include "cpu/ydrop_run.h"
#include "cuda_backend.h"

namespace gale {
namespace cuda {

namespace {

using ydg::YdIn;
using ydg::YdOut;
using ydg::YdParams;
using ydg::YdRow;
using ydg::YdSlot;

// yd_side's group interface for one warp.
struct WarpGroup : WarpLanes {
    __device__ uint32_t ballot(bool p) const { return __ballot_sync(0xffffffffu, p); }
    __device__ int32_t bcast(int32_t v, int src) const { return __shfl_sync(0xffffffffu, v, src); }
    // Exclusive prefix maximum of v over the lanes, after carry; total: over all.
    __device__ int64_t scan_max(int64_t v, int64_t carry, int64_t &total) const {
        const int lane = tid();
#pragma unroll
        for (int k = 1; k < 32; k <<= 1) {
            const int64_t u = __shfl_up_sync(0xffffffffu, v, k);
            if (lane >= k) v = u > v ? u : v;
        }
        const int64_t all = __shfl_sync(0xffffffffu, v, 31);
        total = all > carry ? all : carry;
        const int64_t before = __shfl_up_sync(0xffffffffu, v, 1);
        return lane == 0 ? carry : (before > carry ? before : carry);
    }
    // The same, segmented: a lane with reset starts over from its own v.
    __device__ int64_t seg_scan_max(bool reset, int64_t v, int64_t carry, int64_t &total) const {
        const int lane = tid();
        int f = reset ? 1 : 0;
#pragma unroll
        for (int k = 1; k < 32; k <<= 1) {
            const int64_t u = __shfl_up_sync(0xffffffffu, v, k);
            const int g = __shfl_up_sync(0xffffffffu, f, k);
            if (lane >= k && !f) {
                v = u > v ? u : v;
                f = g;
            }
        }
        if (!f && carry > v) v = carry;  // (the carry reaches the lanes before the first reset)
        total = __shfl_sync(0xffffffffu, v, 31);
        const int64_t before = __shfl_up_sync(0xffffffffu, v, 1);
        return lane == 0 ? carry : before;
    }
};

constexpr int kWarpsPerBlock = 4;
// Columns a lane takes in each step of a row: LASTZ's rows are a few hundred columns wide
// (its default ydrop and gaps), so a warp sweeps one in a few steps, and the warp's scans
// and ballots, whose latency bounds the step, are paid once per 32 V columns.
constexpr int kColumnsPerLane = 4;

__global__ void __launch_bounds__(32 * kWarpsPerBlock)
ydrop_phase1_kernel(YdParams P, const YdIn *__restrict__ in, YdOut *out, char *slots, uint64_t slot_bytes,
                    ydg::YdCaps caps, int n) {
    const int w = (int)(blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5));
    if (w >= n) return;
    WarpGroup g;
    const YdSlot S = ydg::yd_slot(slots + (uint64_t)w * slot_bytes, caps);
    ydg::yd_side<kColumnsPerLane>(g, P, in[w], S, out[w]);
}

}  // namespace

// A call's device state: the sequences (s1 r1 s2 r2, each with its 0 bytes) and the scores.
struct YdropGpu {
    char *mem = nullptr;
    YdParams P{};
    uint64_t tb_max = 0;
};

YdropGpu *ydrop_gpu_open() { return new YdropGpu; }

void ydrop_gpu_close(YdropGpu *g) noexcept {
    if (g == nullptr) return;
    if (g->mem) cudaFree(g->mem);
    delete g;
}

void ydrop_gpu_wave(Device *dev, YdropGpu *g, YdropDeviceWave &w) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    device_check(dev);
    auto fail_all = [&] {
        for (size_t k = 0; k < 2 * w.n; ++k) {
            *w.sides[k] = ydrop_run::SideRec();
            w.sides[k]->failed = true;
        }
    };
    if (g->mem == nullptr) {  // the sequences and the scores, once per call
        const uint64_t l1 = w.len1 + 2ull, l2 = w.len2 + 2ull;
        const uint64_t sub_at = (2 * l1 + 2 * l2 + 255) / 256 * 256, bytes = sub_at + 256ull * 256 * 4;
        try {
            GALE_CUDA_CHECK(cudaMalloc(&g->mem, bytes));
        } catch (const DeviceFault &f) {
            if (!f.memory) throw;
            g->mem = nullptr;
            fail_all();
            return;
        }
        std::vector<int32_t> sub(256 * 256);
        for (int a = 0; a < 256; ++a)
            for (int b = 0; b < 256; ++b) sub[(size_t)a * 256 + (size_t)b] = w.scoring->sub[a][b];
        // (seq1 etc. point one past the leading 0 byte, which lies in the same arrays)
        GALE_CUDA_CHECK(cudaMemcpy(g->mem, w.seq1 - 1, l1, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + l1, w.rev1 - 1, l1, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + 2 * l1, w.seq2 - 1, l2, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + 2 * l1 + l2, w.rev2 - 1, l2, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + sub_at, sub.data(), sub.size() * 4, cudaMemcpyHostToDevice));
        YdParams &P = g->P;
        P.seq1 = (const uint8_t *)g->mem + 1;
        P.rev1 = (const uint8_t *)g->mem + l1 + 1;
        P.seq2 = (const uint8_t *)g->mem + 2 * l1 + 1;
        P.rev2 = (const uint8_t *)g->mem + 2 * l1 + l2 + 1;
        P.len1 = w.len1;
        P.len2 = w.len2;
        P.sub = (const int32_t *)(g->mem + sub_at);
        const YdropParams &prm = *w.params;
        P.gapE = w.scoring->gap_extend;
        P.gapOE = w.scoring->gap_open + w.scoring->gap_extend;
        P.yDrop = prm.ydrop;
        P.trimToPeak = prm.trim_to_peak ? 1 : 0;
        // new_traceback: cells = 1 + (size - sizeof(tback)); 0 = gale's unlimited (as the CPU's)
        const uint64_t tbLen64 = prm.traceback_bytes == 0 ? UINT64_MAX / 4 : prm.traceback_bytes - 8 + 1;
        P.tbLen = (int64_t)std::min<uint64_t>(tbLen64, (uint64_t)INT64_MAX / 4);
        g->tb_max = (uint64_t)P.tbLen;  // a half never writes more (the truncation)
    }
    // The whole pool of the entry: [counters | staging 0 | staging 1 | work 0 | work 1].
    char *const region = dev->slots[0].dev;
    const uint64_t region_bytes =
        (uint64_t)(dev->slots[kSlots - 1].work + dev->slots[kSlots - 1].work_bytes - region);
    const size_t halves = 2 * w.n;
    const uint64_t io_bytes = ydg::yd_align(halves * (sizeof(YdIn) + sizeof(YdOut)));
    // A slot holds a whole extension up to LASTZ's truncation (its traceback memory; at most
    // 1 GiB when that is lifted), 2^20 rows, a DP row of 2^18 cells and 2^20 script ops;
    // where the pool holds fewer than two, every capacity is halved until it does. A half
    // past a capacity comes back failed (the walk computes it).
    ydg::YdCaps caps{std::min<uint64_t>(g->tb_max, (uint64_t)1 << 30), 1u << 20, 1u << 18, 1u << 20};
    const uint64_t room = region_bytes > io_bytes ? region_bytes - io_bytes : 0;
    while (room / ydg::yd_slot_bytes(caps) < std::min<size_t>(halves, 2) && caps.tb_cap > ((uint64_t)1 << 20)) {
        caps.tb_cap /= 2;
        caps.rows_cap /= 2;
        caps.dp_cap /= 2;
        caps.ops_cap /= 2;
    }
    const uint64_t slot = ydg::yd_slot_bytes(caps);
    const size_t fit = (size_t)(room / slot);
    if (fit == 0) {
        fail_all();
        return;
    }
    const size_t per_launch = std::min<size_t>(halves, fit);
    w.capacity = fit;
    YdIn *const d_in = (YdIn *)region;
    YdOut *const d_out = (YdOut *)(region + halves * sizeof(YdIn));
    char *const d_slots = region + io_bytes;

    std::vector<YdIn> in(halves);
    for (size_t k = 0; k < w.n; ++k) {
        in[2 * k] = YdIn{w.anchor1[k], w.anchor2[k], 1, 0};
        in[2 * k + 1] = YdIn{w.anchor1[k], w.anchor2[k], 0, 0};
    }
    std::vector<YdOut> out(halves);
    cudaStream_t st = dev->slots[0].stream;
    GALE_CUDA_CHECK(cudaMemcpyAsync(d_in, in.data(), halves * sizeof(YdIn), cudaMemcpyHostToDevice, st));
    std::vector<YdRow> rows;
    std::vector<uint32_t> ops;
    for (size_t first = 0; first < halves; first += per_launch) {
        const int n = (int)std::min(per_launch, halves - first);
        GALE_CUDA_CHECK(cudaEventRecord(dev->slots[0].start, st));
        ydrop_phase1_kernel<<<(n + kWarpsPerBlock - 1) / kWarpsPerBlock, 32 * kWarpsPerBlock, 0, st>>>(
            g->P, d_in + first, d_out + first, d_slots, slot, caps, n);
        GALE_CUDA_CHECK(cudaGetLastError());
        GALE_CUDA_CHECK(cudaEventRecord(dev->slots[0].stop, st));
        GALE_CUDA_CHECK(cudaMemcpyAsync(out.data() + first, d_out + first, (size_t)n * sizeof(YdOut),
                                        cudaMemcpyDeviceToHost, st));
        GALE_CUDA_CHECK(cudaStreamSynchronize(st));
        float ms = 0;
        GALE_CUDA_CHECK(cudaEventElapsedTime(&ms, dev->slots[0].start, dev->slots[0].stop));
        w.kernel_ns += (uint64_t)((double)ms * 1e6);
        // each half's rows and script back, as a SideRec
        for (int k = 0; k < n; ++k) {
            const YdOut &o = out[first + (size_t)k];
            if (!(o.flags & ydg::kYdFailed)) {
                const YdSlot S = ydg::yd_slot(d_slots + (uint64_t)k * slot, caps);
                rows.resize(o.nrows);
                ops.resize(o.nops);
                if (o.nrows)
                    GALE_CUDA_CHECK(cudaMemcpyAsync(rows.data(), S.rows, o.nrows * sizeof(YdRow), cudaMemcpyDeviceToHost, st));
                if (o.nops)
                    GALE_CUDA_CHECK(cudaMemcpyAsync(ops.data(), S.ops, o.nops * sizeof(uint32_t), cudaMemcpyDeviceToHost, st));
                GALE_CUDA_CHECK(cudaStreamSynchronize(st));
            }
            *w.sides[first + (size_t)k] = ydg::yd_side_rec(o, rows.data(), ops.data());
        }
    }
}

}  // namespace cuda
}  // namespace gale
