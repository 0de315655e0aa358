// Fault injection, a testing aid outside gale's API (doc/testing.md): the environment
// variable GALE_FAULT_INJECT, read once when a CUDA context is created, makes chosen
// CUDA calls of that context fail as they fail when memory runs out or the device
// fails, so that tests/gpu/faults.c can show that every task of a batch still ends
// with its correct result (rescued on the CPU) or with a clear status. Unset (the
// default), a context has no plan and each call site tests one null pointer.
//
//   GALE_FAULT_INJECT = RULE[,RULE...]     RULE = POINT=N[+|/K][:KIND]
//
// POINT: the calls counted, from 1, per context (all its device entries together):
//   alloc   device allocations: each entry's memory pool (cudaMalloc), streams and
//           events (gale_ctx_create), and each GPU run's timing event;
//   host    pinned host allocations (cudaMallocHost: a slot's staging mirror, taken
//           by a batch's first chunk in that slot and grown as chunks need);
//   launch  a chunk's kernel launches (counted once per chunk, before its first kernel);
//   stream  stream operations: a run's first event record, then per chunk its copy to
//           the device, counter memset, two event records and copy back, and the
//           synchronize that collects it.
// N: the Nth call fails; N+: the Nth and every later one; N/K: the Nth and every Kth after it.
// KIND: what the failed call reports:
//   oom     cudaErrorMemoryAllocation (the default for alloc and host);
//   error   a non-sticky error that is not about memory (the default for launch and
//           stream): cudaErrorLaunchOutOfResources for launch, cudaErrorInvalidValue else;
//   sticky  cudaErrorLaunchFailure, and from then on every call of that device fails
//           with it, as after a kernel that crashed: the device is lost to the process.
// The injected call is not made; its error takes the path a real one takes (common/
// device.cuh, GALE_CUDA_AT), and the message says that it was injected.
#ifndef GALE_CUDA_FAULT_CUH
#define GALE_CUDA_FAULT_CUH

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace gale {
namespace cuda {

enum FaultPoint : int { kFaultAlloc, kFaultHost, kFaultLaunch, kFaultStream, kFaultPoints };

class FaultPlan {
public:
    // Parses a GALE_FAULT_INJECT value; throws gale::Error (GALE_E_INVALID) naming what
    // is wrong, so that a mistyped rule never passes for an injection that did nothing.
    explicit FaultPlan(const char *spec);

    // Counts one call at point p on device `device`: the error to report instead of
    // making it, or cudaSuccess (make it). Thread-safe.
    cudaError_t hit(FaultPoint p, int device) noexcept {
        if (lost(device)) return cudaErrorLaunchFailure;
        const Rule &r = rules_[p];
        if (r.first == 0) return cudaSuccess;
        const uint64_t n = count_[p].fetch_add(1, std::memory_order_relaxed) + 1;
        if (n < r.first || (n != r.first && (r.every == 0 || (n - r.first) % r.every != 0))) return cudaSuccess;
        if (r.sticky) lost_.fetch_or(bit(device), std::memory_order_relaxed);
        return r.code;
    }
    // A sticky fault was injected on this device: every call of it fails from then on.
    bool lost(int device) const noexcept { return (lost_.load(std::memory_order_relaxed) & bit(device)) != 0; }
    const std::string &spec() const noexcept { return spec_; }

private:
    struct Rule {
        uint64_t first = 0;  // 0: no rule for this point
        uint64_t every = 0;  // 0: the first only
        cudaError_t code = cudaSuccess;
        bool sticky = false;
    };
    static uint64_t bit(int device) noexcept { return (uint64_t)1 << ((unsigned)device & 63u); }

    std::string spec_;
    Rule rules_[kFaultPoints];
    std::atomic<uint64_t> count_[kFaultPoints];  // calls seen at each point (set to 0 by the constructor)
    std::atomic<uint64_t> lost_{0};
};

}  // namespace cuda
}  // namespace gale

#endif
