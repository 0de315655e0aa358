// The backend interface: how a context runs its batches. One backend per context,
// chosen at creation by the registry (lib/backend.cpp), the only place in lib/ that
// knows whether the CUDA backend was built:
//   CpuBackend  (lib/backend_cpu.cpp)  the context's worker threads take tasks off a counter;
//   CudaBackend (lib/backend_cuda.cpp) one thread per device entry streams its part of a
//               batch through that device (cuda/); the CPU threads rescue what it cannot take.
#ifndef GALE_BACKEND_H
#define GALE_BACKEND_H

#include <cstdint>
#include <memory>
#include <vector>

#include "gale.h"
#include "compare.h"
#include "gale_config.h"
#include "lastz_seed.h"
#include "ydrop.h"

struct gale_batch;

namespace gale {

class WorkerPool;

class Backend {
public:
    virtual ~Backend() = default;
    virtual int id() const = 0;                          // GALE_BACKEND_CPU or GALE_BACKEND_CUDA
    virtual std::vector<int> devices() const { return {}; }  // CUDA device entries
    // Runs a batch whose state was just set to Running; it ends through
    // batch_part_done (lib/run.h). Never throws once it has taken the batch.
    virtual void start(gale_batch *b) = 0;
    // The batch's cancel flag was just raised (gale_cancel): stop its work in flight
    // that does not poll the flag itself (the CUDA backend raises its devices' cancel
    // words). Returns at once, without waiting for anything to stop; callable from any
    // thread, at any time while the batch lives.
    virtual void cancel(gale_batch *) noexcept {}
    // Stops the backend's own threads; every batch has ended before this is called.
    virtual void stop() noexcept {}
    // LASTZ's phase 1 on this backend's devices for one gale_lastz_extend call
    // (lib/ydrop.h, YdropParams::device), or an empty function where there is none. The
    // function runs each wave on the device entries' threads (its anchors dealt out to
    // them in turn), between the parts of batches,
    // and frees what the call took on the device when the last copy of it is destroyed.
    virtual YdropDevice ydrop_device() { return {}; }
    // LASTZ's seeding on this backend's devices for one seeder (lib/lastz_seed.h,
    // LastzSeedDevice; its finds dealt out to the device entries in turn), or null where
    // there is none. The seeder must be freed before the backend stops.
    virtual std::unique_ptr<LastzSeedDevice> lastz_seed_device(const LastzSeedView &) { return nullptr; }
    // gale compare on one of this backend's devices (lib/compare.h, CompareInput; the next
    // entry in turn): appends the fragments to out and returns GALE_OK, or leaves out as it
    // was and says why not: GALE_E_UNSUPPORTED (no device side), GALE_E_NOMEM (the device's
    // memory ran out); the caller then computes on the CPU. Throws gale::Error when the
    // device failed otherwise.
    virtual gale_status compare_device(const CompareInput &, std::vector<CompareFragment> &) {
        return GALE_E_UNSUPPORTED;
    }
};

std::unique_ptr<Backend> cpu_backend_open(WorkerPool &pool);

// The registry: the backend that opts asks for (GALE_BACKEND_AUTO: CUDA when built
// in and a device is present). Throws gale::Error.
std::unique_ptr<Backend> backend_open(const gale_ctx_opts &opts, WorkerPool &pool);
int backend_cuda_device_count() noexcept;  // 0 without CUDA, driver or device
unsigned backend_features() noexcept;      // GALE_FEATURE_* bits

}  // namespace gale

// A kind's GPU side for its table entry (lib/kinds.cpp): the cuda::GpuKind object
// when the CUDA backend is built, else none.
#if GALE_HAVE_CUDA
#include "cuda_backend.h"
#define GALE_GPU_KIND(name) (&::gale::cuda::name)
#else
#define GALE_GPU_KIND(name) nullptr
#endif

#endif
