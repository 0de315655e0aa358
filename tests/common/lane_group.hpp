// A group of N host threads, one per lane, in lockstep at each call: what a kernel's
// warp does with __syncwarp, shuffles, ballots and reductions, for the host tests that
// run a CUDA core's device code on the CPU (tests/unit/zdrop_core_host.cpp,
// ydrop_core_host.cpp, poa_core_host.cpp). Each call writes the lane's value, waits for every lane, reads
// what it needs and waits again, so that the next call cannot overwrite a value another
// lane has still to read.
#ifndef GALE_TESTS_LANE_GROUP_HPP
#define GALE_TESTS_LANE_GROUP_HPP

#include <pthread.h>

#include <algorithm>
#include <cstdint>

// Up to kMaxLanes lanes: a warp's 32, or a block of several warps for the kernels whose
// per-task code takes a group of any size (the Y-drop kernel's; ballot() only up to 32).
constexpr int kMaxLanes = 128;
struct LaneShared {
    pthread_barrier_t bar;
    int64_t v[kMaxLanes];
    int64_t f[kMaxLanes];   // flags (seg_scan_max's resets, ballot's predicates)
    uint64_t u[kMaxLanes];  // min's values
};

template <int N>
struct LaneGroup {
    static_assert(N >= 1 && N <= kMaxLanes, "lanes");
    static constexpr int size = N;
    LaneShared *sh;
    int lane;
    int tid() const { return lane; }
    void sync() const { pthread_barrier_wait(&sh->bar); }
    bool stop(int) const { return false; }  // (no cancel word on the host)
    bool stop() const { return false; }
    // lane i gets lane i-1's v, lane 0 gets carry
    int32_t shfl_up(int32_t v, int32_t carry) const {
        sh->v[lane] = v;
        sync();
        const int32_t r = lane ? (int32_t)sh->v[lane - 1] : carry;
        sync();
        return r;
    }
    // the last lane's v, to every lane; lane 0's
    int32_t last(int32_t v) const { return bcast(v, N - 1); }
    int32_t bcast(int32_t v) const { return bcast(v, 0); }
    int32_t bcast(int32_t v, int src) const {
        sh->v[lane] = v;
        sync();
        const int32_t r = (int32_t)sh->v[src];
        sync();
        return r;
    }
    int32_t max(int32_t v) const {
        sh->v[lane] = v;
        sync();
        int64_t m = sh->v[0];
        for (int i = 1; i < N; ++i) m = std::max(m, sh->v[i]);
        sync();
        return (int32_t)m;
    }
    uint64_t min(uint64_t v) const {
        sh->u[lane] = v;
        sync();
        uint64_t m = sh->u[0];
        for (int i = 1; i < N; ++i) m = std::min(m, sh->u[i]);
        sync();
        return m;
    }
    // exclusive max scan from carry; total: the max over carry and every lane
    int64_t scan_max(int64_t v, int64_t carry, int64_t &total) const {
        sh->v[lane] = v;
        sync();
        int64_t r = carry;
        for (int k = 0; k < lane; ++k) r = std::max(r, sh->v[k]);
        total = carry;
        for (int k = 0; k < N; ++k) total = std::max(total, sh->v[k]);
        sync();
        return r;
    }
    // the same over 32-bit values
    int32_t scan_max32(int32_t v, int32_t carry, int32_t &total) const {
        int64_t t;
        const int64_t r = scan_max(v, carry, t);
        total = (int32_t)t;
        return (int32_t)r;
    }
    // the same, restarting at each lane whose reset is set (from its own v)
    int64_t seg_scan_max(bool reset, int64_t v, int64_t carry, int64_t &total) const {
        sh->v[lane] = v;
        sh->f[lane] = reset;
        sync();
        int64_t r = carry;
        for (int k = 0; k < lane; ++k) r = sh->f[k] ? sh->v[k] : std::max(r, sh->v[k]);
        total = carry;
        for (int k = 0; k < N; ++k) total = sh->f[k] ? sh->v[k] : std::max(total, sh->v[k]);
        sync();
        return r;
    }
    // lane i gets lane i-1's v (lane 0: carry), every lane the last lane's as last
    int32_t shfl_up_last(int32_t v, int32_t carry, int32_t &last) const {
        const int32_t up = shfl_up(v, carry);
        last = bcast(v, N - 1);
        return up;
    }
    bool any(bool p) const {
        sh->f[lane] = p;
        sync();
        bool r = false;
        for (int k = 0; k < N; ++k) r = r || sh->f[k] != 0;
        sync();
        return r;
    }
    // the highest lane whose p is set (-1: none) and its v as value
    int last_where(bool p, int32_t v, int32_t &value) const { return where(p, v, value, N - 1, -1); }
    // the lowest lane whose p is set (N: none) and its v as value
    int first_where(bool p, int32_t v, int32_t &value) const { return where(p, v, value, 0, 1); }
    // the first lane from `from` on, `step` at a time, whose p is set (past the lanes: none)
    int where(bool p, int32_t v, int32_t &value, int from, int step) const {
        sh->f[lane] = p;
        sh->v[lane] = v;
        sync();
        int k = from;
        while (k >= 0 && k < N && sh->f[k] == 0) k += step;
        value = k >= 0 && k < N ? (int32_t)sh->v[k] : 0;
        sync();
        return k;
    }
    uint32_t ballot(bool p) const {
        static_assert(N <= 32, "a ballot is one warp's");
        sh->f[lane] = p;
        sync();
        uint32_t m = 0;
        for (int k = 0; k < N; ++k) m |= sh->f[k] ? 1u << k : 0u;
        sync();
        return m;
    }
};

#endif
