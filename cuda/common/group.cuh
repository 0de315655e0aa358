// A group of threads that computes one task together: a warp (T == 32) or a whole
// block of T threads (a multiple of 32). X-drop (cuda/xdrop.cu) and the wavefront
// kernels (cuda/wfa.cu, through cuda/common/wfa_core.cuh's align()) are written
// against it, so that each kind picks its group size per task size and the code of
// one task does not change with it. (tests/unit/wfa_core_host.cpp runs align() with a
// one-thread HostGroup of the same interface: size, tid(), min().)
//
// A block group reduces through shared memory that the kernel hands it (red): its
// reductions alternate between two halves (parity), so that one reduction's reads
// never race the next one's writes and each costs a single __syncthreads. VALUES is
// how many values one reduction carries (min: 1; reduce: 3), which sizes red:
//     2 * VALUES * (T / 32) + 1 ints (the last one for bcast).
// A warp group needs none (pass nothing): shuffles and __reduce_*_sync do it.
#ifndef GALE_CUDA_GROUP_CUH
#define GALE_CUDA_GROUP_CUH

#include <cstdint>

namespace gale {
namespace cuda {

// One warp whose lanes split a row or an anti-diagonal of one task: the shuffles that the
// per-task code of the Z-drop and Y-drop kernels (cuda/common/zdrop_core.cuh,
// ydrop_core.cuh) is written against; each kernel's group adds what it needs (its tests'
// host groups have the same interface).
struct WarpLanes {
    static constexpr int size = 32;
    __device__ int tid() const { return (int)(threadIdx.x & 31); }
    __device__ void sync() const { __syncwarp(); }
    // v of the lane before, carry on lane 0
    __device__ int32_t shfl_up(int32_t v, int32_t carry) const {
        const int32_t r = __shfl_up_sync(0xffffffffu, v, 1);
        return tid() == 0 ? carry : r;
    }
    __device__ int32_t last(int32_t v) const { return __shfl_sync(0xffffffffu, v, 31); }
};

template <int T, int VALUES = 1>
struct Group {
    static_assert(T % 32 == 0, "a group is a warp or whole warps");
    static constexpr int size = T;
    static constexpr int kWarps = T / 32;
    // Ints of shared memory a block group needs (a warp group: none).
    static constexpr int kRedInts = 2 * VALUES * kWarps + 1;
    int32_t *red = nullptr;  // shared: kRedInts ints (block groups only)
    int parity = 0;

    __device__ int tid() const { return T == 32 ? (int)(threadIdx.x & 31) : (int)threadIdx.x; }

    __device__ void sync() const {
        if (T == 32) __syncwarp();
        else __syncthreads();
    }

    // The group's minimum of v; also a barrier, which orders one step's stores before
    // the next step's loads (the wavefront kernels rely on it once per score).
    __device__ int32_t min(int32_t v) {
        if (T == 32) {
            __syncwarp();
            return __reduce_min_sync(0xffffffffu, v);
        }
        v = __reduce_min_sync(0xffffffffu, v);
        int32_t *r = red + parity * VALUES * kWarps;
        parity ^= 1;
        if ((threadIdx.x & 31) == 0) r[threadIdx.x >> 5] = v;
        __syncthreads();
        v = r[0];
#pragma unroll
        for (int i = 1; i < kWarps; ++i) v = ::min(v, r[i]);
        return v;
    }

    // Three reductions at once: max a, min b, max c (X-drop's best score and band per
    // anti-diagonal). Also a full barrier.
    __device__ void reduce(int32_t &a, int32_t &b, int32_t &c) {
        static_assert(VALUES >= 3, "reduce() carries three values: Group<T, 3>");
        a = __reduce_max_sync(0xffffffffu, a);
        b = __reduce_min_sync(0xffffffffu, b);
        c = __reduce_max_sync(0xffffffffu, c);
        if (T == 32) {
            __syncwarp();
            return;
        }
        constexpr int W = kWarps;
        int32_t *r = red + parity * VALUES * W;
        parity ^= 1;
        const int w = threadIdx.x >> 5;
        if ((threadIdx.x & 31) == 0) { r[w] = a; r[W + w] = b; r[2 * W + w] = c; }
        __syncthreads();
        a = r[0]; b = r[W]; c = r[2 * W];
#pragma unroll
        for (int i = 1; i < W; ++i) { a = max(a, r[i]); b = ::min(b, r[W + i]); c = max(c, r[2 * W + i]); }
    }

    // v of thread 0, to every thread of the group (a block group: between two barriers).
    __device__ int32_t bcast(int32_t v) {
        if (T == 32) return __shfl_sync(0xffffffffu, v, 0);
        __syncthreads();
        if (threadIdx.x == 0) red[2 * VALUES * kWarps] = v;
        __syncthreads();
        return red[2 * VALUES * kWarps];
    }
};

}  // namespace cuda
}  // namespace gale

#endif
