// Device discovery and the memory pool of one device of a context: one cudaMalloc
// sized once, split into the two chunk slots' staging (their pinned mirrors grow
// with use: common/device.cuh, host_mirror) and their work memory, which each kind
// asks for through its query (common/device.cuh, slot_work).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "common/device.cuh"
#include "cuda_backend.h"

namespace gale {
namespace cuda {

// ---- failed calls and fault injection (common/fault.cuh) ------------------------------

void cuda_fail(cudaError_t e, const char *call, const char *file, int line, const FaultPlan *injected) {
    if (!injected) cudaGetLastError();  // handled here: must not fail a later launch's check
    const bool memory = e == cudaErrorMemoryAllocation;
    const Error err = error_of(memory ? GALE_E_NOMEM : GALE_E_DEVICE, "CUDA error %s (%s) in %s at %s:%d%s%s%s",
                               cudaGetErrorName(e), cudaGetErrorString(e), call, file, line,
                               injected ? " [injected: GALE_FAULT_INJECT=" : "",
                               injected ? injected->spec().c_str() : "", injected ? "]" : "");
    throw DeviceFault(err.status, err.message, memory);
}

FaultPlan::FaultPlan(const char *spec) : spec_(spec) {
    for (auto &c : count_) c.store(0);
    static const char *const names[kFaultPoints] = {"alloc", "host", "launch", "stream"};
    const char *p = spec;
    auto bad = [&](const char *what) {
        fail(GALE_E_INVALID, "GALE_FAULT_INJECT=%s: %s at \"%s\" (rules: POINT=N[+|/K][:KIND], POINT alloc, host, "
             "launch or stream, KIND oom, error or sticky; doc/testing.md)", spec, what, p);
    };
    auto number = [&](uint64_t &out) {
        if (!std::isdigit((unsigned char)*p)) bad("expected a number");
        char *end = nullptr;
        out = std::strtoull(p, &end, 10);
        if (out == 0) bad("counts start at 1");
        p = end;
    };
    while (*p) {
        if (*p == ',' || *p == ' ') {
            ++p;
            continue;
        }
        int pt = -1;
        for (int i = 0; i < kFaultPoints && pt < 0; ++i) {
            const size_t len = std::strlen(names[i]);
            if (std::strncmp(p, names[i], len) == 0 && p[len] == '=') {
                pt = i;
                p += len + 1;
            }
        }
        if (pt < 0) bad("unknown point");
        Rule &r = rules_[pt];
        if (r.first != 0) bad("a point given twice");
        number(r.first);
        if (*p == '+') {
            r.every = 1;
            ++p;
        } else if (*p == '/') {
            ++p;
            number(r.every);
        }
        const bool oom_default = pt == kFaultAlloc || pt == kFaultHost;
        const char *kind = oom_default ? "oom" : "error";
        if (*p == ':') {
            ++p;
            kind = p;
            if (std::strncmp(p, "oom", 3) == 0) p += 3;
            else if (std::strncmp(p, "error", 5) == 0) p += 5;
            else if (std::strncmp(p, "sticky", 6) == 0) p += 6;
            else bad("unknown kind");
        }
        if (*p && *p != ',' && *p != ' ') bad("unexpected text");
        r.sticky = std::strncmp(kind, "sticky", 6) == 0;
        if (std::strncmp(kind, "oom", 3) == 0) r.code = cudaErrorMemoryAllocation;
        else if (r.sticky) r.code = cudaErrorLaunchFailure;
        else r.code = pt == kFaultLaunch ? cudaErrorLaunchOutOfResources : cudaErrorInvalidValue;
    }
}

std::shared_ptr<FaultPlan> fault_plan_from_env() {
    const char *spec = std::getenv("GALE_FAULT_INJECT");
    if (!spec || !*spec) return nullptr;
    return std::make_shared<FaultPlan>(spec);
}

bool experimental_gpu_enabled() {
    static const bool on = [] {
        const char *v = std::getenv("GALE_EXPERIMENTAL_GPU");
        return v && std::strcmp(v, "1") == 0;
    }();
    return on;
}

bool device_settle(Device *dev, const DeviceFault &f) {
    if (!dev->lost.empty()) throw DeviceFault(GALE_E_DEVICE, dev->lost, false);
    cudaGetLastError();  // a non-sticky error is cleared by this; a sticky one is not
    cudaError_t e = cudaSuccess;
    for (const Slot &s : dev->slots) {
        const cudaError_t x = s.stream ? cudaStreamSynchronize(s.stream) : cudaSuccess;
        if (e == cudaSuccess) e = x;
    }
    if (e == cudaSuccess && dev->fault && dev->fault->lost(dev->index)) e = cudaErrorLaunchFailure;  // injected: sticky
    if (e == cudaSuccess) return f.memory;
    cudaGetLastError();
    dev->lost = error_of(GALE_E_DEVICE, "CUDA device %d is lost: it fails every call with %s (%s) since: %s. A sticky "
                         "error cannot be recovered in this process; this context cannot use the device any more",
                         dev->index, cudaGetErrorName(e), cudaGetErrorString(e), f.message.c_str())
                    .message;
    throw DeviceFault(GALE_E_DEVICE, dev->lost, false);
}

void device_check(const Device *dev) {
    if (!dev->lost.empty()) fail(GALE_E_DEVICE, "an earlier batch lost the device: %s", dev->lost.c_str());
}

namespace {
// A part starts with the device's mirror of the cancel word cleared (common/cancel.cuh):
// the word itself was cleared by the backend (device_cancel) when the part was taken.
// Nothing runs on the device between two parts, and the part's kernels go to the slots'
// streams after this returns. (Not a fault point: GALE_FAULT_INJECT counts the calls of
// the pipeline's steps.)
void device_cancel_clear(Device *d) {
    GALE_CUDA_CHECK(cudaMemsetAsync(d->cancel_dev.shared, 0, sizeof(CancelShared), d->slots[0].stream));
    GALE_CUDA_CHECK(cudaStreamSynchronize(d->slots[0].stream));
}
}  // namespace

void run_job(const GpuKind &kind, Device *dev, GpuJob &job) {
    device_check(dev);
    device_cancel_clear(dev);
    std::vector<char> handed(job.n, 0);  // the tasks given to the CPU so far
    GpuJob run = job;
    run.rescue = [&](std::vector<size_t> &&idx) {
        for (size_t i : idx) handed[i] = 1;
        job.rescue(std::move(idx));
    };
    try {
        kind.run(dev, run);
    } catch (const DeviceFault &f) {
        if (!device_settle(dev, f) || run.gpu_results) throw;
        std::vector<size_t> rest;
        for (size_t i = 0; i < job.n; ++i)
            if (!handed[i]) rest.push_back(i);
        run.rescue(std::move(rest));
    }
    job.kernel_ns = run.kernel_ns;
    job.gpu_results = run.gpu_results;
}

int device_count() noexcept {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky "no device / no driver" error
        return 0;
    }
    return n;
}

namespace {
void release(Device *d) noexcept {
    for (auto &s : d->slots) {
        if (s.host) cudaFreeHost(s.host);
        if (s.stream) cudaStreamDestroy(s.stream);
        if (s.start) cudaEventDestroy(s.start);
        if (s.stop) cudaEventDestroy(s.stop);
    }
    if (d->pool) cudaFree(d->pool);
    if (d->cancel_host) cudaFreeHost(d->cancel_host);
    cudaGetLastError();  // a failure here (a lost device) is no later call's
    delete d;
}
}  // namespace

uint64_t device_default_budget(int index, bool capped) {
    GALE_CUDA_CHECK(cudaSetDevice(index));
    size_t free_b = 0, total_b = 0;
    GALE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return capped ? std::min<uint64_t>(free_b / 2, 8ull << 30) : (uint64_t)free_b / 2;
}

Device *device_open(int index, uint64_t budget, bool budget_is_default, std::shared_ptr<FaultPlan> fault) {
    Device *d = new Device;
    try {
        d->index = index;
        d->fault = std::move(fault);
        GALE_CUDA_CHECK(cudaSetDevice(index));
        GALE_CUDA_CHECK(cudaGetDeviceProperties(&d->prop, index));
        size_t free_b = 0, total_b = 0;
        GALE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        const bool default_budget = budget == 0 || budget_is_default;
        if (budget == 0) budget = std::min<uint64_t>(free_b / 2, 8ull << 30);  // as device_default_budget
        if (budget < (1u << 20)) fail(GALE_E_RANGE, "device memory budget must be at least 1 MiB (got %llu bytes)",
                                      (unsigned long long)budget);
        if (budget > free_b)
            fail(GALE_E_NOMEM, "device memory budget of %llu bytes exceeds the %llu bytes free on device %d",
                 (unsigned long long)budget, (unsigned long long)free_b, index);
        // Staging takes at most three quarters, and at most 1 GiB a slot (the pinned
        // mirrors may grow as large, and cost host memory; more buys no overlap); the
        // rest is the slots' work memory, half each. [counters | slot 0 | slot 1 | work 0 | work 1]
        // The default budget is what was free a moment ago: another process may take
        // some meanwhile, so a pool that cannot be had is halved, down to an eighth. A
        // budget the caller set is taken whole or not at all.
        for (int halvings = 0;; ++halvings) {
            try {
                GALE_CUDA_AT(d, kFaultAlloc, cudaMalloc(&d->pool, budget));
                break;
            } catch (const DeviceFault &f) {
                d->pool = nullptr;
                if (!f.memory) throw;
                if (!default_budget || halvings == 3 || budget / 2 < (1u << 20))
                    throw DeviceFault(f.status,
                                      error_of(f.status, "cannot allocate a device memory pool of %llu bytes on device "
                                               "%d (%s)", (unsigned long long)budget, index, f.message.c_str()).message,
                                      true);
                budget /= 2;
            }
        }
        const size_t align = 256, counters = 256;  // kSlots x kSlotCounters ints, then the cancel mirror
        constexpr size_t mirror_at = kSlots * kSlotCounters * sizeof(int);
        static_assert(mirror_at % 16 == 0 && mirror_at + sizeof(CancelShared) <= counters, "slot counters");
        size_t slot_bytes = (budget - counters - budget / 4) / kSlots / align * align;
        slot_bytes = std::min<size_t>(slot_bytes, 1ull << 30);
        const size_t work_at = counters + kSlots * slot_bytes;
        const size_t work_bytes = (budget - work_at) / kSlots / align * align;
        for (int i = 0; i < kSlots; ++i) {
            Slot &s = d->slots[i];
            s.counters = reinterpret_cast<int *>(d->pool) + i * kSlotCounters;
            s.bytes = slot_bytes;
            s.dev = d->pool + counters + i * slot_bytes;
            s.work = d->pool + work_at + i * work_bytes;
            s.work_bytes = work_bytes;
            // (its pinned mirror is taken when a chunk first needs it: host_mirror)
            GALE_CUDA_AT(d, kFaultAlloc, cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
            GALE_CUDA_AT(d, kFaultAlloc, cudaEventCreate(&s.start));
            GALE_CUDA_AT(d, kFaultAlloc, cudaEventCreate(&s.stop));
        }
        // The cancel word (common/cancel.cuh): mapped, so the kernels read the host's
        // store without any CUDA call on the cancelling thread.
        GALE_CUDA_AT(d, kFaultAlloc,
                     cudaHostAlloc(reinterpret_cast<void **>(&d->cancel_host), sizeof(int), cudaHostAllocMapped));
        __atomic_store_n(d->cancel_host, 0, __ATOMIC_RELAXED);
        int *mapped = nullptr;
        GALE_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&mapped), d->cancel_host, 0));
        d->cancel_dev.host = mapped;
        d->cancel_dev.shared = reinterpret_cast<CancelShared *>(d->pool + mirror_at);
    } catch (...) {
        release(d);
        throw;
    }
    return d;
}

void device_cancel(Device *d, bool raised) noexcept {
    // A plain store (release: it follows the cancel flag's store): the kernels' next poll
    // reads it through the mapping; no CUDA call, from any thread.
    __atomic_store_n(d->cancel_host, raised ? 1 : 0, __ATOMIC_RELEASE);
}

void device_close(Device *d) noexcept {
    if (!d) return;
    cudaSetDevice(d->index);
    for (auto &s : d->slots)
        if (s.stream) cudaStreamSynchronize(s.stream);  // a lost device fails at once; release ignores it
    release(d);
}

// True when some device present has compute capability 9.0 or more and the library
// holds machine code of the X-drop kernel (its cell update is viaddmax) that runs
// there as sm_90 or later code: then DPX is native, not emulated. A device of
// compute capability 8.x would run the PTX with emulated DPX; one where the kernel
// cannot load at all counts as none. Leaves the calling thread's device as it was.
// Asked once per process (it initialises every device's context): the devices and
// the library do not change while it runs.
namespace {
bool probe_dpx() noexcept {
    const int n = device_count();
    int saved = -1;
    if (n == 0 || cudaGetDevice(&saved) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    bool native = false;
    for (int i = 0; i < n && !native; ++i) {
        int major = 0;
        if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, i) != cudaSuccess || major < 9) continue;
        cudaFuncAttributes a{};
        native = cudaSetDevice(i) == cudaSuccess && cudaFuncGetAttributes(&a, xdrop_dpx_kernel()) == cudaSuccess &&
                 a.binaryVersion >= 90;
    }
    cudaGetLastError();  // leave no sticky error from a device that could not load the kernel
    cudaSetDevice(saved);
    return native;
}
}  // namespace

bool dpx_in_use() noexcept {
    static const bool in_use = probe_dpx();  // thread-safe once (C++11 statics)
    return in_use;
}

}  // namespace cuda
}  // namespace gale
