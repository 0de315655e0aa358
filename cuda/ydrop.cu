// CUDA kernel of LASTZ's gapped extension, phase 1 of the parallel scheme (doc/ydrop.md,
// "Parallel extension"): one-sided Y-drop extensions without bounds, bit-identical to the
// CPU's (lib/cpu/ydrop_run.h, Run::one_sided with a SideRec). A group of threads per half
// runs cuda/common/ydrop_core.cuh's yd_side, each row's cells split over the threads (the
// gap and the best score carried by scans): a warp in the small slots' launches (most
// halves: short), a block of kLargeThreads in the large slots' (LASTZ's longest
// extensions, whose rows a warp swept in four steps, each a chain of latency-bound
// shuffles: the block sweeps such a row in one). The walk (phase 2,
// lib/cpu/ydrop_parallel.cpp) stays on the CPU and takes each half it can prove equal to
// its own.
//
// Memory: the call's sequences (with their reversed copies, as the walk holds them) and
// LASTZ's 256 x 256 scores go to the device once per gale_lastz_extend call (YdropGpu);
// each half of a launch gets a slot of the device entry's pool (YdropArena: large and small
// slots, shared by the calls running at once), with its traceback bytes, row records, DP
// row and edit script (yd_slot). A half that does not fit a large slot comes back failed
// and the walk computes it on the CPU; so do all the halves of a wave whose memory could
// not be had. The wave reports how many halves the pool holds at once for each call
// (YdropDeviceWave::capacity): the walk sizes its next waves from it.
#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
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

constexpr unsigned kFull = 0xffffffffu;

// A warp's inclusive prefix maximum of v over its lanes (X: int32_t or int64_t).
template <class X>
__device__ __forceinline__ X warp_incl_max(X v, int lane) {
#pragma unroll
    for (int k = 1; k < 32; k <<= 1) {
        const X u = __shfl_up_sync(kFull, v, k);
        if (lane >= k) v = u > v ? u : v;
    }
    return v;
}
// The same, segmented: a lane with reset starts over from its own v; f tells whether a
// reset lies at or before the lane.
__device__ __forceinline__ int64_t warp_incl_seg_max(bool reset, int64_t v, int lane, int &f) {
    f = reset ? 1 : 0;
#pragma unroll
    for (int k = 1; k < 32; k <<= 1) {
        const int64_t u = __shfl_up_sync(kFull, v, k);
        const int g = __shfl_up_sync(kFull, f, k);
        if (lane >= k && !f) {
            v = u > v ? u : v;
            f = g;
        }
    }
    return v;
}
// The highest (lowest) lane of the warp whose p is set, -1 (32) for none.
__device__ __forceinline__ int warp_last_set(bool p) {
    const uint32_t m = __ballot_sync(kFull, p);
    return m == 0 ? -1 : 31 - __clz(m);
}
__device__ __forceinline__ int warp_first_set(bool p) {
    const uint32_t m = __ballot_sync(kFull, p);
    return m == 0 ? 32 : __ffs(m) - 1;
}

// yd_side's group interface for one warp.
struct WarpGroup : WarpLanes {
    __device__ int32_t shfl_up_last(int32_t v, int32_t carry, int32_t &last_v) const {
        const int32_t up = shfl_up(v, carry);
        last_v = last(v);
        return up;
    }
    __device__ bool any(bool p) const { return __any_sync(kFull, p) != 0; }
    // the highest lane whose p is set (-1: none) and its v as value
    __device__ int last_where(bool p, int32_t v, int32_t &value) const {
        const int top = warp_last_set(p);
        value = __shfl_sync(kFull, v, top < 0 ? 0 : top);
        return top;
    }
    // the lowest lane whose p is set (32: none) and its v as value
    __device__ int first_where(bool p, int32_t v, int32_t &value) const {
        const int first = warp_first_set(p);
        value = __shfl_sync(kFull, v, first & 31);
        return first;
    }
    // Exclusive prefix maximum of v over the lanes, after carry; total: over all.
    __device__ int64_t scan_max(int64_t v, int64_t carry, int64_t &total) const {
        const int lane = tid();
        v = warp_incl_max(v, lane);
        const int64_t all = __shfl_sync(kFull, v, 31);
        total = all > carry ? all : carry;
        const int64_t before = __shfl_up_sync(kFull, v, 1);
        return lane == 0 ? carry : (before > carry ? before : carry);
    }
    // The same over 32-bit values.
    __device__ int32_t scan_max32(int32_t v, int32_t carry, int32_t &total) const {
        const int lane = tid();
        v = warp_incl_max(v, lane);
        const int32_t all = __shfl_sync(kFull, v, 31);
        total = max(all, carry);
        const int32_t before = __shfl_up_sync(kFull, v, 1);
        return lane == 0 ? carry : max(before, carry);
    }
    // The same, segmented: a lane with reset starts over from its own v.
    __device__ int64_t seg_scan_max(bool reset, int64_t v, int64_t carry, int64_t &total) const {
        const int lane = tid();
        int f;
        v = warp_incl_seg_max(reset, v, lane, f);
        if (!f && carry > v) v = carry;  // (the carry reaches the lanes before the first reset)
        total = __shfl_sync(kFull, v, 31);
        const int64_t before = __shfl_up_sync(kFull, v, 1);
        return lane == 0 ? carry : before;
    }
};

// yd_side's group interface for a block of T threads (T / 32 warps) that sweeps the rows
// of one long half together: each call does the warp's part with shuffles, then the warps
// exchange one or two values each through shared memory (x), behind one __syncthreads.
// The exchanges use the two halves of x in turn, so that one's reads never race the
// next one's writes (as cuda/common/group.cuh's Group).
template <int T>
struct BlockGroup {
    static_assert(T % 32 == 0 && T > 32, "a block group is whole warps, more than one");
    static constexpr int size = T;
    static constexpr int kWarps = T / 32;
    static constexpr int kXWords = 2 * 2 * kWarps;  // x: int64_t words
    int64_t *x;  // shared
    int parity = 0;

    __device__ int tid() const { return (int)threadIdx.x; }
    __device__ void sync() const { __syncthreads(); }
    __device__ int64_t *exchange() {
        int64_t *h = x + parity * 2 * kWarps;
        parity ^= 1;
        return h;
    }
    __device__ int32_t shfl_up_last(int32_t v, int32_t carry, int32_t &last_v) {
        const int lane = tid() & 31, w = tid() >> 5;
        int64_t *h = exchange();
        if (lane == 31) h[w] = v;
        const int32_t up = __shfl_up_sync(kFull, v, 1);
        __syncthreads();
        last_v = (int32_t)h[kWarps - 1];
        if (lane != 0) return up;
        return w == 0 ? carry : (int32_t)h[w - 1];
    }
    __device__ bool any(bool p) const { return __syncthreads_or(p) != 0; }
    __device__ int last_where(bool p, int32_t v, int32_t &value) {
        const int lane = tid() & 31, w = tid() >> 5;
        const int top = warp_last_set(p);
        const int32_t tv = __shfl_sync(kFull, v, top < 0 ? 0 : top);
        int64_t *h = exchange();
        if (lane == 0) {
            h[2 * w] = top < 0 ? -1 : 32 * w + top;
            h[2 * w + 1] = tv;
        }
        __syncthreads();
        value = 0;
#pragma unroll
        for (int i = kWarps - 1; i >= 0; --i)
            if (h[2 * i] >= 0) {
                value = (int32_t)h[2 * i + 1];
                return (int)h[2 * i];
            }
        return -1;
    }
    __device__ int first_where(bool p, int32_t v, int32_t &value) {
        const int lane = tid() & 31, w = tid() >> 5;
        const int first = warp_first_set(p);
        const int32_t fv = __shfl_sync(kFull, v, first & 31);
        int64_t *h = exchange();
        if (lane == 0) {
            h[2 * w] = first == 32 ? -1 : 32 * w + first;
            h[2 * w + 1] = fv;
        }
        __syncthreads();
        value = 0;
#pragma unroll
        for (int i = 0; i < kWarps; ++i)
            if (h[2 * i] >= 0) {
                value = (int32_t)h[2 * i + 1];
                return (int)h[2 * i];
            }
        return T;
    }
    // Exclusive prefix maximum of v over the threads, after carry; total: over all.
    template <class X>
    __device__ X scan(X v, X carry, X &total) {
        const int lane = tid() & 31, w = tid() >> 5;
        v = warp_incl_max(v, lane);
        int64_t *h = exchange();
        if (lane == 31) h[w] = v;
        const X up = __shfl_up_sync(kFull, v, 1);
        __syncthreads();
        X before = carry, all = carry;
#pragma unroll
        for (int i = 0; i < kWarps; ++i) {
            const X t = (X)h[i];
            if (i < w && t > before) before = t;
            if (t > all) all = t;
        }
        total = all;
        return lane == 0 || up < before ? before : up;
    }
    __device__ int64_t scan_max(int64_t v, int64_t carry, int64_t &total) { return scan<int64_t>(v, carry, total); }
    __device__ int32_t scan_max32(int32_t v, int32_t carry, int32_t &total) { return scan<int32_t>(v, carry, total); }
    // The same, segmented: a thread with reset starts over from its own v.
    __device__ int64_t seg_scan_max(bool reset, int64_t v, int64_t carry, int64_t &total) {
        const int lane = tid() & 31, w = tid() >> 5;
        int f;
        v = warp_incl_seg_max(reset, v, lane, f);
        int64_t *h = exchange();
        if (lane == 31) {
            h[2 * w] = v;
            h[2 * w + 1] = f;
        }
        __syncthreads();
        int64_t in = carry, all = carry;  // what reaches the warp, and the whole block
#pragma unroll
        for (int i = 0; i < kWarps; ++i) {
            const int64_t t = h[2 * i];
            const int64_t next = h[2 * i + 1] ? t : (t > all ? t : all);
            if (i < w) in = next;
            all = next;
        }
        total = all;
        if (!f && in > v) v = in;
        const int64_t before = __shfl_up_sync(kFull, v, 1);
        return lane == 0 ? in : before;
    }
};

constexpr int kWarpsPerBlock = 4;
// Columns a thread takes in each step of a row: LASTZ's rows are a few hundred columns
// wide (its default ydrop and gaps), so a warp sweeps one in a few steps, and the group's
// scans and ballots, whose latency bounds the step, are paid once per size V columns.
constexpr int kColumnsPerLane = 4;
// Threads per half in the large slots' launches: a row of 512 columns a step. Measured on
// the 10 Mbp pair (H100, bench/RESULTS.md 2026-12-06 13:51 UTC), a wave's longest halves
// and with them `gale lastz`: 12.9 s with a warp, 8.2 s with 128 or 256 threads (4 or 2
// columns a thread), 9.9 s with 64; the small slots' launches gained nothing in wall time
// from 64 or 128 threads (the walk ends last), so they keep a warp, which runs the many
// short halves of a wave side by side.
constexpr int kLargeThreads = 128;

// Where a launch's halves have their slots (of the entry's arena), by value, in units of
// 256 bytes from the pool's start: a launch takes at most kYdropMaxLaunch halves.
struct YdSlotList {
    uint32_t at[kYdropMaxLaunch];
};

__global__ void __launch_bounds__(32 * kWarpsPerBlock)
ydrop_phase1_kernel(YdParams P, const YdIn *__restrict__ in, YdOut *out, char *base, ydg::YdCaps caps,
                    const YdSlotList list, int n) {
    const int w = (int)(blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5));
    if (w >= n) return;
    WarpGroup g;
    const YdSlot S = ydg::yd_slot(base + (uint64_t)list.at[w] * 256, caps);
    ydg::yd_side<kColumnsPerLane>(g, P, in[w], S, out[w]);
}

// The same with a block of T threads per half, V columns a thread: for the large slots'
// launches (LASTZ's longest extensions), whose warp would sweep each row in several steps.
template <int T, int V>
__global__ void __launch_bounds__(T)
ydrop_phase1_block_kernel(YdParams P, const YdIn *__restrict__ in, YdOut *out, char *base, ydg::YdCaps caps,
                          const YdSlotList list, int n) {
    __shared__ int64_t x[BlockGroup<T>::kXWords];
    const int w = (int)blockIdx.x;
    if (w >= n) return;
    BlockGroup<T> g{x};
    const YdSlot S = ydg::yd_slot(base + (uint64_t)list.at[w] * 256, caps);
    ydg::yd_side<V>(g, P, in[w], S, out[w]);
}

// GALE_YDROP_BLOCK_ALL=1 (read once; doc/testing.md): every launch with the block kernel, so
// that the gpu suite's ydrop_gpu_block runs all of its cases through the block's exchanges.
bool block_all() {
    static const bool on = [] {
        const char *v = std::getenv("GALE_YDROP_BLOCK_ALL");
        return v != nullptr && std::strcmp(v, "1") == 0;
    }();
    return on;
}

void launch_phase1(bool large, int k, cudaStream_t st, const YdParams &P, const YdIn *in, YdOut *out, char *base,
                   const ydg::YdCaps &caps, const YdSlotList &list) {
    if (large || block_all())
        ydrop_phase1_block_kernel<kLargeThreads, kColumnsPerLane><<<k, kLargeThreads, 0, st>>>(P, in, out, base, caps,
                                                                                              list, k);
    else
        ydrop_phase1_kernel<<<(k + kWarpsPerBlock - 1) / kWarpsPerBlock, 32 * kWarpsPerBlock, 0, st>>>(
            P, in, out, base, caps, list, k);
}

}  // namespace

// Slots of one size: their capacities, where the first lies, which are free.
struct SlotClass {
    ydg::YdCaps caps{};
    uint64_t bytes = 0, first = 0;  // (both multiples of 256)
    size_t n = 0;
    std::vector<uint32_t> free;
    uint32_t unit(uint32_t k) const { return (uint32_t)((first + (uint64_t)k * bytes) / 256); }
};

// An entry's pool as phase 1 uses it, shared by the calls that run on the entry at once
// (gale lastz's query strands are calls of their own), in slots of two sizes. A large slot
// holds a whole extension up to LASTZ's truncation (80 MiB of traceback by default); most
// halves need a few MiB, so most of the pool is small slots (4 MiB of traceback), and a
// launch whose halves do not all find a large slot runs in small ones: a half that
// outgrows its small slot comes back (kYdOverCap) and runs again in a large one. A launch
// takes the free slots it needs (at least one: it waits for one) on the entry's thread and
// gives them back on its caller's thread once its results are copied out, so two calls'
// waves run on the device side by side. Batches of other kinds, which use the same pool,
// wait on the entry's thread until no slot is held (ydrop_arena_wait_idle).
struct YdropArena {
    std::mutex mu;
    std::condition_variable cv;
    char *base = nullptr;
    SlotClass large, small;
    size_t calls = 0;  // calls that have launched and are not closed: the capacity's share
    bool idle() const { return large.free.size() == large.n && small.free.size() == small.n; }
};

// A call's device state: the sequences (s1 r1 s2 r2, each with its 0 bytes), the scores,
// and each launch's inputs and outputs; its stream and timing events.
struct YdropGpu {
    char *mem = nullptr;
    YdIn *d_in = nullptr;
    YdOut *d_out = nullptr;
    YdParams P{};
    uint64_t tb_max = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    YdropArena *arena = nullptr;  // once it has launched
    SlotClass *held_in = nullptr; // the class of the launch in flight
    std::vector<uint32_t> held;   // its slots
    YdIn *in = nullptr;    // pinned: kYdropMaxLaunch each (a copy from pageable memory
    YdOut *out = nullptr;  // would hold its thread while the stream's kernel runs)
};

namespace {

void give_back(YdropGpu *g) {
    if (g->arena == nullptr || g->held.empty()) return;
    std::lock_guard<std::mutex> lock(g->arena->mu);
    for (uint32_t k : g->held) g->held_in->free.push_back(k);
    g->held.clear();
    g->arena->cv.notify_all();
}

// The slots for halves of tb_max traceback bytes at most (the pool of the entry, whole:
// [counters | staging 0 | staging 1 | work 0 | work 1]); only while no slot is held. A
// large slot: LASTZ's traceback memory (at most 1 GiB when that is lifted), 2^20 rows, a DP
// row of 2^18 cells, 2^20 script ops, every capacity halved while the pool holds fewer than
// two; a quarter of the pool (two slots at least). A small slot: 4 MiB, 2^16, 2^14, 2^16,
// the rest of the pool. A half past a large slot's capacity comes back failed (the walk
// computes it).
void arena_layout(Device *dev, YdropArena &A, uint64_t tb_max) {
    A.base = dev->slots[0].dev;
    const uint64_t region =
        (uint64_t)(dev->slots[kSlots - 1].work + dev->slots[kSlots - 1].work_bytes - A.base) / 256 * 256;
    ydg::YdCaps caps{std::min<uint64_t>(tb_max, (uint64_t)1 << 30), 1u << 20, 1u << 18, 1u << 20};
    while (region / ydg::yd_slot_bytes(caps) < 2 && caps.tb_cap > ((uint64_t)1 << 20)) {
        caps.tb_cap /= 2;
        caps.rows_cap /= 2;
        caps.dp_cap /= 2;
        caps.ops_cap /= 2;
    }
    const ydg::YdCaps small{(uint64_t)4 << 20, 1u << 16, 1u << 14, 1u << 16};
    const bool two = small.tb_cap < caps.tb_cap && small.rows_cap < caps.rows_cap && small.dp_cap < caps.dp_cap &&
                     small.ops_cap < caps.ops_cap;
    A.large = SlotClass();
    A.large.caps = caps;
    A.large.bytes = ydg::yd_slot_bytes(caps);
    const size_t all = (size_t)(region / A.large.bytes);
    A.large.n = two ? std::min(all, std::max<size_t>(2, (size_t)(region / 4 / A.large.bytes))) : all;
    A.small = SlotClass();
    if (two) {
        A.small.caps = small;
        A.small.bytes = ydg::yd_slot_bytes(small);
        A.small.first = A.large.n * A.large.bytes;
        A.small.n = (size_t)((region - A.small.first) / A.small.bytes);
    }
    for (SlotClass *c : {&A.large, &A.small})
        for (size_t k = c->n; k-- > 0;) c->free.push_back((uint32_t)k);
}

}  // namespace

YdropGpu *ydrop_gpu_open() { return new YdropGpu; }

void ydrop_gpu_close(YdropGpu *g) noexcept {
    if (g == nullptr) return;
    if (g->stream) cudaStreamSynchronize(g->stream);
    give_back(g);
    if (g->arena) {
        std::lock_guard<std::mutex> lock(g->arena->mu);
        g->arena->calls--;
    }
    if (g->start) cudaEventDestroy(g->start);
    if (g->stop) cudaEventDestroy(g->stop);
    if (g->stream) cudaStreamDestroy(g->stream);
    if (g->in) cudaFreeHost(g->in);
    if (g->out) cudaFreeHost(g->out);
    if (g->mem) cudaFree(g->mem);
    cudaGetLastError();  // (a lost device fails these; nothing to do about it)
    delete g;
}

YdropArena *ydrop_arena_open() { return new YdropArena; }
void ydrop_arena_close(YdropArena *a) noexcept { delete a; }

void ydrop_arena_wait_idle(YdropArena *a) {
    if (a == nullptr) return;
    std::unique_lock<std::mutex> lock(a->mu);
    a->cv.wait(lock, [a] { return a->idle(); });
}

void ydrop_arena_wait_free(YdropArena *a, bool large_only) {
    std::unique_lock<std::mutex> lock(a->mu);
    a->cv.wait(lock, [a, large_only] { return !a->large.free.empty() || (!large_only && !a->small.free.empty()); });
}

size_t ydrop_gpu_launch(Device *dev, YdropArena *A, YdropGpu *g, YdropDeviceWave &w,
                        const std::vector<uint32_t> &todo, bool large_only) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    device_check(dev);
    auto fail_all = [&] {
        for (uint32_t h : todo) {
            *w.sides[h] = ydrop_run::SideRec();
            w.sides[h]->failed = true;
        }
        return todo.size();
    };
    if (g->mem == nullptr) {  // the sequences, the scores and the launches' inputs and outputs, once per call
        const uint64_t l1 = w.len1 + 2ull, l2 = w.len2 + 2ull;
        const uint64_t sub_at = (2 * l1 + 2 * l2 + 255) / 256 * 256, in_at = sub_at + 256ull * 256 * 4,
                       out_at = in_at + kYdropMaxLaunch * sizeof(YdIn), bytes = out_at + kYdropMaxLaunch * sizeof(YdOut);
        try {
            GALE_CUDA_CHECK(cudaMalloc(&g->mem, bytes));
        } catch (const DeviceFault &f) {
            if (!f.memory) throw;
            g->mem = nullptr;
            return fail_all();
        }
        GALE_CUDA_CHECK(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
        GALE_CUDA_CHECK(cudaMallocHost((void **)&g->in, kYdropMaxLaunch * sizeof(YdIn)));
        GALE_CUDA_CHECK(cudaMallocHost((void **)&g->out, kYdropMaxLaunch * sizeof(YdOut)));
        GALE_CUDA_CHECK(cudaEventCreate(&g->start));
        GALE_CUDA_CHECK(cudaEventCreate(&g->stop));
        std::vector<int32_t> sub(256 * 256);
        for (int a = 0; a < 256; ++a)
            for (int b = 0; b < 256; ++b) sub[(size_t)a * 256 + (size_t)b] = w.scoring->sub[a][b];
        // (seq1 etc. point one past the leading 0 byte, which lies in the same arrays)
        GALE_CUDA_CHECK(cudaMemcpy(g->mem, w.seq1 - 1, l1, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + l1, w.rev1 - 1, l1, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + 2 * l1, w.seq2 - 1, l2, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + 2 * l1 + l2, w.rev2 - 1, l2, cudaMemcpyHostToDevice));
        GALE_CUDA_CHECK(cudaMemcpy(g->mem + sub_at, sub.data(), sub.size() * 4, cudaMemcpyHostToDevice));
        g->d_in = (YdIn *)(g->mem + in_at);
        g->d_out = (YdOut *)(g->mem + out_at);
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
    // slots for as many of the halves as are free (at least one): all in large slots if
    // there are enough (the first waves: few halves, LASTZ's longest extensions), else in
    // small ones
    YdSlotList list{};
    size_t k = 0;
    SlotClass *cls;
    {
        std::unique_lock<std::mutex> lock(A->mu);
        if (g->arena == nullptr) {
            if (A->large.n == 0 ||
                (A->idle() && A->large.caps.tb_cap < std::min<uint64_t>(g->tb_max, (uint64_t)1 << 30)))
                arena_layout(dev, *A, g->tb_max);  // (laid out again for larger halves while idle)
            g->arena = A;
            A->calls++;
        }
        w.capacity = (A->large.n + A->small.n) / std::max<size_t>(1, A->calls);
        if (A->large.n == 0) return fail_all();
        const size_t want = std::min(todo.size(), kYdropMaxLaunch);
        if (large_only || A->small.n == 0 || A->large.free.size() >= want) {
            cls = &A->large;
        } else {
            cls = A->small.free.empty() && !A->large.free.empty() ? &A->large : &A->small;
        }
        k = std::min(want, cls->free.size());  // (none: the caller waits, ydrop_arena_wait_free, and
                                               // the entry's thread goes on with other launches)
        g->held.clear();
        g->held_in = cls;
        for (size_t j = 0; j < k; ++j) {
            g->held.push_back(cls->free.back());
            cls->free.pop_back();
            list.at[j] = cls->unit(g->held.back());
        }
    }
    if (k == 0) return 0;
    for (size_t j = 0; j < k; ++j) {
        const uint32_t h = todo[j];
        g->in[j] = YdIn{w.anchor1[h / 2], w.anchor2[h / 2], h % 2 == 0 ? 1u : 0u, 0};
    }
    try {
        GALE_CUDA_CHECK(cudaMemcpyAsync(g->d_in, g->in, k * sizeof(YdIn), cudaMemcpyHostToDevice, g->stream));
        GALE_CUDA_CHECK(cudaEventRecord(g->start, g->stream));
        launch_phase1(cls == &A->large, (int)k, g->stream, g->P, g->d_in, g->d_out, A->base, cls->caps, list);
        GALE_CUDA_CHECK(cudaGetLastError());
        GALE_CUDA_CHECK(cudaEventRecord(g->stop, g->stream));
    } catch (...) {
        cudaStreamSynchronize(g->stream);
        give_back(g);
        throw;
    }
    // (nothing comes back here: a copy to pageable memory would hold the entry's thread until
    // the kernel ends, and with it the other calls' launches)
    return k;
}

void ydrop_gpu_finish(Device *dev, YdropGpu *g, YdropDeviceWave &w, const std::vector<uint32_t> &todo, size_t k,
                      std::vector<uint32_t> &retry) {
    struct Release {  // the slots go back however this ends
        YdropGpu *g;
        ~Release() { give_back(g); }
    } release{g};
    if (g->arena == nullptr || g->held.size() != k || k == 0) return;  // (failed at the launch)
    const SlotClass &cls = *g->held_in;
    const bool small = &cls == &g->arena->small;
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    GALE_CUDA_CHECK(cudaMemcpyAsync(g->out, g->d_out, k * sizeof(YdOut), cudaMemcpyDeviceToHost, g->stream));
    GALE_CUDA_CHECK(cudaStreamSynchronize(g->stream));  // (the rows and scripts below: pageable, once the kernel is done)
    float ms = 0;
    GALE_CUDA_CHECK(cudaEventElapsedTime(&ms, g->start, g->stop));
    w.kernel_ns += (uint64_t)((double)ms * 1e6);
    // each half's rows and script back, as a SideRec; a half too large for its small slot again
    std::vector<YdRow> rows;
    std::vector<uint32_t> ops;
    for (size_t j = 0; j < k; ++j) {
        const YdOut &o = g->out[j];
        if (small && (o.flags & ydg::kYdOverCap)) {
            retry.push_back(todo[j]);
            continue;
        }
        if (!(o.flags & ydg::kYdFailed)) {
            const YdSlot S = ydg::yd_slot(g->arena->base + (uint64_t)cls.unit(g->held[j]) * 256, cls.caps);
            rows.resize(o.nrows);
            ops.resize(o.nops);
            if (o.nrows)
                GALE_CUDA_CHECK(cudaMemcpyAsync(rows.data(), S.rows, o.nrows * sizeof(YdRow), cudaMemcpyDeviceToHost, g->stream));
            if (o.nops)
                GALE_CUDA_CHECK(cudaMemcpyAsync(ops.data(), S.ops, o.nops * sizeof(uint32_t), cudaMemcpyDeviceToHost, g->stream));
            GALE_CUDA_CHECK(cudaStreamSynchronize(g->stream));
        }
        *w.sides[todo[j]] = ydg::yd_side_rec(o, rows.data(), ops.data());
    }
}

}  // namespace cuda
}  // namespace gale
