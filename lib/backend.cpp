// The backend registry: the one place in lib/ that knows whether the CUDA backend
// was built (GALE_HAVE_CUDA); everything else asks the context's Backend.
#include "backend.h"

#include <vector>

#include "errors.h"

namespace gale {

#if GALE_HAVE_CUDA
// lib/backend_cuda.cpp, built with the CUDA backend only.
std::unique_ptr<Backend> cuda_backend_open(const std::vector<int> &devices, uint64_t budget, WorkerPool &pool);
#endif

int backend_cuda_device_count() noexcept {
#if GALE_HAVE_CUDA
    return cuda::device_count();
#else
    return 0;
#endif
}

unsigned backend_features() noexcept {
    unsigned f = GALE_FEATURE_CPU;
#if GALE_HAVE_CUDA
    f |= GALE_FEATURE_CUDA;
    if (cuda::dpx_in_use()) f |= GALE_FEATURE_DPX;
#endif
    return f;
}

namespace {
constexpr int kMaxDeviceEntries = 256;

#if GALE_HAVE_CUDA
// The device entries opts asks for: `device` alone, every device, or the list.
std::vector<int> device_entries(const gale_ctx_opts &o, int present) {
    std::vector<int> d;
    if (o.n_devices == 0) {
        d.push_back(o.device);
    } else if (o.n_devices == GALE_DEVICES_ALL) {
        for (int i = 0; i < present; ++i) d.push_back(i);
    } else {
        for (int i = 0; i < o.n_devices; ++i) d.push_back(o.devices[i]);
    }
    for (int x : d)
        if (x >= present) fail(GALE_E_RANGE, "CUDA device %d requested but only %d present", x, present);
    return d;
}
#endif
}  // namespace

std::unique_ptr<Backend> backend_open(const gale_ctx_opts &o, WorkerPool &pool) {
    if (o.backend != GALE_BACKEND_AUTO && o.backend != GALE_BACKEND_CPU && o.backend != GALE_BACKEND_CUDA)
        fail(GALE_E_RANGE, "unknown backend %d", o.backend);
    if (o.device < 0) fail(GALE_E_RANGE, "device index must be >= 0 (got %d)", o.device);
    if (o.n_devices < GALE_DEVICES_ALL || o.n_devices > kMaxDeviceEntries)
        fail(GALE_E_RANGE, "n_devices must be GALE_DEVICES_ALL (-1), 0, or 1..%d (got %d)", kMaxDeviceEntries,
             o.n_devices);
    if (o.n_devices > 0 && !o.devices) fail(GALE_E_INVALID, "n_devices is %d but devices is NULL", o.n_devices);
    for (int i = 0; i < o.n_devices; ++i)
        if (o.devices[i] < 0) fail(GALE_E_RANGE, "devices[%d] must be >= 0 (got %d)", i, o.devices[i]);

    const int present = backend_cuda_device_count();
    const bool want_cuda = o.backend == GALE_BACKEND_CUDA || (o.backend == GALE_BACKEND_AUTO && present > 0);
    if (!want_cuda) return cpu_backend_open(pool);
#if GALE_HAVE_CUDA
    if (present == 0) fail(GALE_E_UNSUPPORTED, "CUDA backend requested but no usable CUDA device was found");
    const std::vector<int> entries = device_entries(o, present);
    if (entries.empty()) fail(GALE_E_UNSUPPORTED, "GALE_DEVICES_ALL found no CUDA device");
    return cuda_backend_open(entries, o.device_memory, pool);
#else
    fail(GALE_E_UNSUPPORTED, "CUDA backend requested but this libgale was built without CUDA");
#endif
}

}  // namespace gale
