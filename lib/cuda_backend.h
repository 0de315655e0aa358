// The interface between the C++ core and the CUDA backend (cuda/*.cu). Only
// compiled in when GALE_HAVE_CUDA; no CUDA header leaks into lib/.
#ifndef GALE_CUDA_BACKEND_H
#define GALE_CUDA_BACKEND_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kind.h"  // kResultDone
#include "compare.h"
#include "errors.h"
#include "lastz_seed.h"
#include "wfa.h"
#include "xdrop.h"
#include "ydrop.h"

namespace gale {
namespace cuda {

// Number of usable devices; 0 when no driver or device (never throws).
int device_count() noexcept;

// One device of one context: its memory pool (allocated once), streams and
// pinned staging buffers. Errors are reported by throwing gale::Error; a CUDA call
// that failed throws a DeviceFault.
class Device;

// A failed CUDA call: GALE_E_NOMEM when memory ran out (cudaErrorMemoryAllocation:
// device or pinned memory, or a kernel's module that could not be loaded), else
// GALE_E_DEVICE; the message names the call and the error (and says when the error
// was injected: GALE_FAULT_INJECT, cuda/common/fault.cuh).
struct DeviceFault : Error {
    bool memory = false;  // memory ran out: the work may go to the CPU instead
    DeviceFault(gale_status st, std::string msg, bool mem) : Error{st, std::move(msg)}, memory(mem) {}
};

// The fault injection plan of GALE_FAULT_INJECT (a testing aid: cuda/common/fault.cuh),
// read when a CUDA context is created; null when the variable is unset or empty.
// Throws gale::Error (GALE_E_INVALID) for a value it cannot parse.
class FaultPlan;
std::shared_ptr<FaultPlan> fault_plan_from_env();

// The same index may be opened more than once (two entries of one context on one
// GPU): each Device has its own pool, streams and staging. budget_bytes 0: half the
// device's free memory, at most 8 GiB. A default budget (0, or budget_is_default: the
// backend's share of it) that cannot be allocated after all (taken meanwhile by another
// process) is halved, down to an eighth; a budget the caller set is taken whole or not at
// all. fault: the context's plan, or null. Throws gale::Error (DeviceFault).
Device *device_open(int index, uint64_t budget_bytes, bool budget_is_default, std::shared_ptr<FaultPlan> fault);
// The default budget of a device: half its free memory, at most 8 GiB when capped (gale.h,
// gale_ctx_opts.device_memory; uncapped: GALE_DEVICE_MEMORY_HALF_FREE). Throws gale::Error.
uint64_t device_default_budget(int index, bool capped);
void device_close(Device *dev) noexcept;
// Raises (or clears) dev's cancel word (cuda/common/cancel.cuh): the kernels running on
// dev stop at their next poll, within milliseconds. A store to pinned host memory, no
// CUDA call: callable from any thread, at any time while dev is open.
void device_cancel(Device *dev, bool raised) noexcept;

// After a DeviceFault on dev: waits for the work queued on dev's streams (a slot may
// then be reused) and tells whether the device still works. A sticky error (a kernel
// that crashed: the device's CUDA context is corrupted and every call fails from then
// on, in this process) marks dev lost and throws its GALE_E_DEVICE message; otherwise
// returns f.memory: true when the work that failed may go to the CPU instead, false
// when the failure is the batch's (the caller rethrows f; the device stays usable).
bool device_settle(Device *dev, const DeviceFault &f);
// Throws GALE_E_DEVICE when dev was lost in an earlier batch (device_settle).
void device_check(const Device *dev);

// ---- the interface the core's CUDA backend (lib/backend_cuda.cpp) calls ----------
// One batch (or, on a context of several devices, one contiguous part of it) for
// one device. The kind's table entry (lib/kinds.cpp) names its GpuKind.
struct GpuJob {
    const PairTask *tasks;         // sequences encoded as in lib/sequence.h
    size_t n;
    const void *params;            // the kind's parameter struct (XdropParams, WfaParams)
    void *results;                 // n of the kind's result struct, written for every task not rescued
                                   // (the collect sets kResultDone in the flags of each it writes)
    ResultArena *var;              // the batch's variable-size results (CIGARs)
    // The batch's cancel flag. Once it is raised the run launches nothing more and
    // returns as soon as its chunks in flight are collected (their kernels stop at once:
    // the backend raises the device's cancel word too, device_cancel); a task it did
    // not finish is left without a result (lib/kind.h, kResultDone).
    const std::atomic<bool> *cancel;
    // Called (from the calling thread) with indices into tasks[0, n) the GPU cannot
    // take; the callee computes them on the CPU while the GPU goes on.
    std::function<void(std::vector<size_t> &&)> rescue;
    int pack_threads = 1;          // host threads that may pack and collect chunks
    uint64_t kernel_ns = 0;        // out: time in kernels
    bool gpu_results = false;      // out: the GPU wrote results (common/pipeline.cuh, before a chunk's collect)
};

// A kind's GPU side. run() selects dev's device on the calling thread itself
// (each device of a context has its own thread), streams the job through dev's
// pool in chunks (common/pipeline.cuh) and returns when every task has a result or
// went to job.rescue. It takes its work memory through the pool's two-phase query
// (common/device.cuh, slot_work: the kind states what it wants per slot for these
// parameters, then sizes its units from what it got). Throws gale::Error. A chunk
// whose CUDA calls fail for want of memory goes to job.rescue (the pipeline); a
// DeviceFault that escapes is settled by the caller (lib/backend_cuda.cpp).
struct GpuKind {
    void (*run)(Device *dev, GpuJob &job);
    // Loads the kind's kernels into dev (selected on the calling thread). CUDA loads a module lazily, at its first kernel's first use: for the WFA
    // kernels about 30 ms on an H100 (bench/RESULTS.md, "First batch"). Each device
    // entry's thread calls this once right after the context starts, so that a first
    // batch that comes later does not wait for it. Best effort: an error is cleared and
    // shows again, with its message, where the kernel is used.
    void (*preload)(Device *dev) noexcept;
    // A kernel that has not yet passed its gpu suite on a GPU: batches of its kinds run on
    // the CPU threads (flagged GALE_RF_CPU) unless the environment sets
    // GALE_EXPERIMENTAL_GPU=1 (its own gpu tests and device benchmarks do), so that a
    // user's default backend never meets it. doc/zdrop.md, "GPU status".
    bool experimental = false;
};

// Whether GALE_EXPERIMENTAL_GPU=1 (read once).
bool experimental_gpu_enabled();

// Runs job on dev through kind (the CUDA backend's one call per part; cuda/device.cu).
// A device lost in an earlier batch fails at once (GALE_E_DEVICE). A memory fault before
// the GPU wrote any result (a run's setup: its timing event, a kernel's module loaded at
// an occupancy query) sends every task not yet given to job.rescue there: the job's
// rescues are tracked, so that none is handed out twice. Once the GPU wrote results,
// the pipeline has handled each chunk's memory fault itself, so a fault that escapes
// fails the batch, as does any other error (device_settle throws for a lost device).
void run_job(const GpuKind &kind, Device *dev, GpuJob &job);

extern const GpuKind kXdropGpu;   // cuda/xdrop.cu
extern const GpuKind kWfaGpu;     // cuda/wfa.cu (GALE_WFA and GALE_EDIT)
extern const GpuKind kZdropGpu;   // cuda/zdrop.cu (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2)
extern const GpuKind kPoaGpu;     // cuda/poa.cu (GALE_POA)

// LASTZ's phase 1 on a device (cuda/ydrop.cu). YdropGpu: the state of one
// gale_lastz_extend call (its sequences and scores on the device, taken at its first
// launch, its stream). YdropArena: an entry's pool cut into slots of one half each, shared
// by the calls on that entry at once. A wave runs as launches of at most kYdropMaxLaunch
// halves: ydrop_gpu_launch on the entry's thread (Backend::on_entries) takes slots for the
// first halves of `todo` (indices into w.sides; as many as are free, large ones only with
// large_only), starts them and returns how many (0 when none is free: the caller then waits
// with ydrop_arena_wait_free, never the entry's thread, which other calls' launches need);
// ydrop_gpu_finish on the caller's thread waits for them, fills their SideRecs, appends to
// `retry` those that outgrew a small slot (to be launched again, large_only) and gives the
// slots back. Halves the device cannot take come back failed (the walk computes them).
// Both throw gale::Error (DeviceFault) on a CUDA error.
constexpr size_t kYdropMaxLaunch = 512;
struct YdropGpu;
struct YdropArena;
YdropGpu *ydrop_gpu_open();
size_t ydrop_gpu_launch(Device *dev, YdropArena *arena, YdropGpu *g, YdropDeviceWave &w,
                        const std::vector<uint32_t> &todo, bool large_only);
void ydrop_gpu_finish(Device *dev, YdropGpu *g, YdropDeviceWave &w, const std::vector<uint32_t> &todo,
                      size_t launched, std::vector<uint32_t> &retry);
void ydrop_gpu_close(YdropGpu *g) noexcept;
YdropArena *ydrop_arena_open();
void ydrop_arena_close(YdropArena *a) noexcept;
// Waits until a slot of a is free (a large one with large_only).
void ydrop_arena_wait_free(YdropArena *a, bool large_only);
// Waits until no launch holds a slot of a (null: returns): another kind's batch part may
// then use the pool.
void ydrop_arena_wait_idle(YdropArena *a);

// LASTZ's seeding on a device (cuda/lastz_seed.cu). LastzSeedGpu: one seeder's state on
// one entry (its target, word table and scores, taken by lastz_seed_gpu_open; the buffers
// of its finds, kept between them); used only on that entry's thread.
// lastz_seed_gpu_find appends one query strand's candidates in LASTZ's order (lib/lastz_seed.h,
// LastzSeedDevice::find). Both throw gale::Error (DeviceFault: memory when a buffer could
// not be had).
struct LastzSeedGpu;
LastzSeedGpu *lastz_seed_gpu_open(Device *dev, const LastzSeedView &v);
void lastz_seed_gpu_find(Device *dev, LastzSeedGpu *g, const uint8_t *query, uint32_t query_len,
                         std::vector<LastzCandidate> &out, uint64_t *hits, double *device_seconds);
void lastz_seed_gpu_close(LastzSeedGpu *g) noexcept;

// gale compare on a device (cuda/compare.cu; lib/compare.h, CompareInput): appends the
// fragments to out, in the CPU kernel's order, or throws gale::Error (DeviceFault: memory
// when a buffer could not be had; out is then as it was). Everything it takes on the
// device is freed before it returns.
void compare_gpu(Device *dev, const CompareInput &in, std::vector<CompareFragment> &out);

// True when a kernel that uses Hopper's DPX instructions natively runs on one of
// the devices present (GALE_FEATURE_DPX). Never throws.
bool dpx_in_use() noexcept;

}  // namespace cuda
}  // namespace gale

#endif
