// The CUDA backend's failure handling on the host, without a GPU: cuda/device.cu
// (device_open and its pool, device_settle, run_job, GALE_FAULT_INJECT's parser) and
// the chunk pipeline (cuda/common/pipeline.cuh) compiled against a fake CUDA runtime
// (fake_cuda/cuda_runtime.h: synchronous streams, host memory, calls made to fail on
// demand), driving a made-up kind whose "kernel" writes f(task) for each task.
//
// For every fault the library can meet, injected (each point, each kind, the Nth
// call for N from 1 to 80, and N+ and N/K forms) or real (a fake call that fails,
// leaving its error in the last-error state, sticky or not), a device entry runs
// three batches of 100 tasks. Each batch must either end with every task done exactly
// once, on the "GPU" with the right value or rescued on the "CPU", or fail with the
// status the failure documents; after a non-sticky failure the next batch must work;
// after a sticky one every later batch must fail saying the device is lost; and
// nothing may stay allocated once the entry is closed. tests/gpu/faults.c checks the
// same on a real GPU with the real kinds.
#include <cstdio>
#include <string>
#include <vector>

#include "cuda/common/pipeline.cuh"
#include "cuda/device.cu"  // compiled here as C++, against the fake runtime

namespace gale {
namespace cuda {
const void *xdrop_dpx_kernel() noexcept { return nullptr; }  // cuda/xdrop.cu's, for dpx_in_use
}  // namespace cuda
}  // namespace gale

namespace fake {
State state;
}

using namespace gale;
using namespace gale::cuda;

namespace {

int failures = 0, checks = 0;
#define EXPECT(cond, ...)                                                  \
    do {                                                                   \
        ++checks;                                                          \
        if (!(cond)) {                                                     \
            ++failures;                                                    \
            std::printf("FAIL %s:%d: ", __FILE__, __LINE__);               \
            std::printf(__VA_ARGS__);                                      \
            std::printf("\n");                                             \
        }                                                                  \
    } while (0)

uint64_t f_of(uint64_t task) { return task * 31 + 7; }

// A made-up kind: chunks of up to 7 tasks; every 13th task is "too large" for any
// chunk (rescued at plan), every 17th "overflows" in the kernel (rescued at collect).
struct Chunk : ChunkIO {};
struct Flow {
    size_t n, next;
    std::vector<int> &gpu_done;
    std::vector<uint64_t> &value;
    bool more() const { return next < n; }
    bool plan(Chunk &c, const Slot &, std::vector<size_t> &rescue) {
        c.tasks.clear();
        while (next < n && c.tasks.size() < 7) {
            if (next % 13 == 5) rescue.push_back(next++);
            else c.tasks.push_back(next++);
        }
        c.in_bytes = c.tasks.size() * 8;
        c.out_at = 1024;
        c.out_bytes = c.tasks.size() * 8;
        return !c.tasks.empty();
    }
    void fill(Chunk &c, char *host) {
        for (size_t j = 0; j < c.tasks.size(); ++j) reinterpret_cast<uint64_t *>(host)[j] = c.tasks[j];
    }
    void launch(Chunk &c, const Slot &s) {  // the "kernel", reading what the copy brought
        const uint64_t *in = reinterpret_cast<const uint64_t *>(s.dev);
        uint64_t *out = reinterpret_cast<uint64_t *>(s.dev + c.out_at);
        for (size_t j = 0; j < c.tasks.size(); ++j) out[j] = f_of(in[j]);
        GALE_CUDA_CHECK(cudaGetLastError());  // as the kinds check their launches
    }
    void collect(Chunk &c, const char *host, std::vector<size_t> &rescue) {
        const uint64_t *out = reinterpret_cast<const uint64_t *>(host + c.out_at);
        for (size_t j = 0; j < c.tasks.size(); ++j) {
            const size_t t = c.tasks[j];
            if (t % 17 == 3) {
                rescue.push_back(t);
                continue;
            }
            value[t] = out[j];
            ++gpu_done[t];
        }
    }
};

// The tasks of the batch being run (the kind's run() reaches them through these).
std::vector<int> *g_gpu_done;
std::vector<uint64_t> *g_value;

// As the real kinds: set the device, hand some tasks to the CPU before the first
// chunk (as WFA's order does: the last task here), then the pipeline.
void fake_run(Device *dev, GpuJob &job) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    job.rescue(std::vector<size_t>{job.n - 1});
    Flow flow{job.n - 1, 0, *g_gpu_done, *g_value};
    ChunkPipeline<Chunk> pipe(dev, job);
    pipe.run(flow);
    job.kernel_ns = pipe.kernel_ns();
}
const GpuKind kFake = {fake_run, nullptr};

struct Outcome {
    gale_status st = GALE_OK;
    std::string msg;
    size_t rescued = 0;
};

Outcome run_batch(Device *dev, size_t n, const std::string &what) {
    std::vector<int> gpu_done(n, 0), rescued(n, 0);
    std::vector<uint64_t> value(n, 0);
    g_gpu_done = &gpu_done;
    g_value = &value;
    Outcome o;
    std::atomic<bool> cancel{false};
    GpuJob job;
    job.n = n;
    job.cancel = &cancel;
    job.rescue = [&](std::vector<size_t> &&idx) {
        for (size_t i : idx) ++rescued[i];
    };
    try {
        run_job(kFake, dev, job);
    } catch (const Error &e) {
        o.st = e.status;
        o.msg = e.message;
    }
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        o.rescued += (size_t)rescued[i];
        EXPECT(gpu_done[i] + rescued[i] <= 1, "%s: task %zu done %d times on the GPU, %d on the CPU", what.c_str(), i,
               gpu_done[i], rescued[i]);
        if (o.st != GALE_OK) continue;  // a failed batch's results are never read
        if (gpu_done[i] + rescued[i] != 1 || (gpu_done[i] && value[i] != f_of(i))) ++bad;
    }
    EXPECT(bad == 0, "%s: %zu tasks missing or wrong", what.c_str(), bad);
    return o;
}

enum class Expect {
    Ok,         // every batch ends well; at `fire` (a memory fault), more tasks rescued than without
    Error,      // exactly batch `fire` fails with GALE_E_DEVICE, naming the injection
    Lost,       // batch `fire` and every later one fail with GALE_E_DEVICE, "lost"
    NoContext,  // device_open fails with GALE_E_NOMEM
    Invalid,    // the rule does not parse (GALE_E_INVALID)
};

size_t g_base = 0;  // tasks a batch rescues with no fault

// Opens a device entry under `inject` (or none), with a real failure armed (call, nth,
// error) when `call` is set, and runs three batches. fire: the batch (0-2) the fault
// lands in, -1 for none; all: that batch goes to the CPU whole (a fault before its
// first chunk); every: the fault lands again in each later batch (rules N+, N/K).
void scenario(const char *inject, uint64_t budget, Expect ex, int fire, bool all = false, const char *call = nullptr,
              int nth = 0, cudaError_t err = cudaSuccess, bool every = false) {
    fake::reset();
    std::string what = std::string(inject ? inject : "-") + (call ? std::string(", ") + call + " #" +
                                                                        std::to_string(nth) + " fails" : "");
    std::shared_ptr<FaultPlan> plan;
    try {
        if (inject) plan = std::make_shared<FaultPlan>(inject);
    } catch (const Error &e) {
        EXPECT(ex == Expect::Invalid && e.status == GALE_E_INVALID && e.message.find("GALE_FAULT_INJECT") == 0,
               "%s: refused (%d): %s", what.c_str(), e.status, e.message.c_str());
        return;
    }
    EXPECT(ex != Expect::Invalid, "%s: parsed, expected GALE_E_INVALID", what.c_str());
    if (call) fake::fail(call, nth, err);
    Device *dev = nullptr;
    try {
        dev = device_open(0, budget, budget == 0, plan);
    } catch (const Error &e) {
        EXPECT(ex == Expect::NoContext && e.status == GALE_E_NOMEM, "%s: device_open failed (%d): %s", what.c_str(),
               e.status, e.message.c_str());
        EXPECT(fake::state.objects == 0 && fake::state.host == 0, "%s: %ld objects, %ld pinned left", what.c_str(),
               fake::state.objects, fake::state.host);
        return;
    }
    EXPECT(ex != Expect::NoContext, "%s: the device entry opened", what.c_str());
    Outcome o[3];
    for (int k = 0; k < 3; ++k) o[k] = run_batch(dev, 100, what + ", batch " + std::to_string(k + 1));
    device_close(dev);
    EXPECT(fake::state.objects == 0 && fake::state.host == 0, "%s: %ld objects, %ld pinned left", what.c_str(),
           fake::state.objects, fake::state.host);
    for (int k = 0; k < 3; ++k) {
        const bool fails = (ex == Expect::Error && k == fire) || (ex == Expect::Lost && fire >= 0 && k >= fire);
        const std::string b = what + ", batch " + std::to_string(k + 1);
        if (!fails) {
            const bool hit = fire >= 0 && (k == fire || (every && k > fire));
            EXPECT(o[k].st == GALE_OK, "%s: failed (%d): %s", b.c_str(), o[k].st, o[k].msg.c_str());
            if (o[k].st != GALE_OK) continue;
            if (ex == Expect::Ok && hit && all) EXPECT(o[k].rescued == 100, "%s: %zu rescued", b.c_str(), o[k].rescued);
            else if (ex == Expect::Ok && hit) EXPECT(o[k].rescued > g_base, "%s: %zu rescued", b.c_str(), o[k].rescued);
            else EXPECT(o[k].rescued == g_base, "%s: %zu rescued, %zu without a fault", b.c_str(), o[k].rescued, g_base);
            continue;
        }
        EXPECT(o[k].st == GALE_E_DEVICE, "%s: status %d, expected GALE_E_DEVICE: %s", b.c_str(), o[k].st,
               o[k].msg.c_str());
        if (ex == Expect::Lost) EXPECT(o[k].msg.find("lost") != std::string::npos, "%s: %s", b.c_str(), o[k].msg.c_str());
        if (inject && k == fire)
            EXPECT(o[k].msg.find("GALE_FAULT_INJECT") != std::string::npos, "%s: %s", b.c_str(), o[k].msg.c_str());
    }
}

}  // namespace

int main() {
    const uint64_t mib = (uint64_t)1 << 20;
    {  // the baseline: what a batch rescues with no fault (plan's, collect's, and the one before the pipeline)
        fake::reset();
        Device *dev = device_open(0, mib, false, nullptr);
        g_base = run_batch(dev, 100, "no fault").rescued;
        device_close(dev);
        EXPECT(g_base > 0 && g_base < 100, "no fault: %zu rescued", g_base);
    }
    scenario(nullptr, mib, Expect::Ok, -1);
    // One batch: 13 chunks of 7 GPU tasks; 1 + 6 * 13 = 79 stream operations (the timing
    // event's record first), 13 launches, 2 pinned allocations (one per slot, in the
    // first batch only: the mirrors stay).
    for (int n = 1; n <= 80; ++n) {
        const std::string s = std::to_string(n);
        const int stream = (n - 1) / 79, launch = (n - 1) / 13 < 3 ? (n - 1) / 13 : -1, host = n <= 2 ? 0 : -1;
        const bool setup = (n - 1) % 79 == 0;  // the timing event's record: before any chunk
        scenario(("stream=" + s + ":oom").c_str(), mib, Expect::Ok, stream, setup);
        scenario(("stream=" + s).c_str(), mib, Expect::Error, stream);
        scenario(("stream=" + s + ":sticky").c_str(), mib, Expect::Lost, stream);
        scenario(("launch=" + s + ":oom").c_str(), mib, Expect::Ok, launch);
        scenario(("launch=" + s).c_str(), mib, launch < 0 ? Expect::Ok : Expect::Error, launch);
        scenario(("launch=" + s + ":sticky").c_str(), mib, launch < 0 ? Expect::Ok : Expect::Lost, launch);
        scenario(("host=" + s).c_str(), mib, Expect::Ok, host);
        scenario(("host=" + s + ":error").c_str(), mib, host < 0 ? Expect::Ok : Expect::Error, host);
    }
    // alloc: the pool, 2 streams, 4 events and the cancel word at device_open, then each
    // run's timing event.
    for (int n = 1; n <= 8; ++n) scenario(("alloc=" + std::to_string(n)).c_str(), mib, Expect::NoContext, -1);
    for (int n = 9; n <= 11; ++n) scenario(("alloc=" + std::to_string(n)).c_str(), mib, Expect::Ok, n - 9, true);
    scenario("alloc=9:error", mib, Expect::Error, 0);
    scenario("alloc=1", 0, Expect::Ok, -1);           // a default budget is halved
    scenario("alloc=1/1", 0, Expect::NoContext, -1);  // ... down to an eighth, then refused
    scenario("host=1+", mib, Expect::Ok, 0, true, nullptr, 0, cudaSuccess, true);  // no pinned memory: all on the CPU
    scenario("launch=1+:oom", mib, Expect::Ok, 0, true, nullptr, 0, cudaSuccess, true);
    scenario("launch=14/13:oom", mib, Expect::Ok, 1, false, nullptr, 0, cudaSuccess, true);  // a chunk a batch
    for (const char *r : {"alloc=0", "alloc", "pool=1", "host=1:bad", "launch=1/0", "stream=2,stream=3", "host=1x"})
        scenario(r, mib, Expect::Invalid, -1);
    // Real failures: the error stays in the last-error state, as the runtime leaves it.
    scenario(nullptr, mib, Expect::Ok, 0, false, "cudaMallocHost", 1, cudaErrorMemoryAllocation);
    scenario(nullptr, mib, Expect::Ok, 0, false, "cudaMemcpyAsync", 3, cudaErrorMemoryAllocation);
    scenario(nullptr, mib, Expect::Error, 0, false, "cudaMemcpyAsync", 3, cudaErrorInvalidValue);
    scenario(nullptr, mib, Expect::Error, 0, false, "cudaMemsetAsync", 1, cudaErrorLaunchOutOfResources);
    scenario(nullptr, mib, Expect::Lost, 0, false, "cudaStreamSynchronize", 2, cudaErrorIllegalAddress);
    scenario(nullptr, mib, Expect::Lost, 0, false, "cudaEventRecord", 4, cudaErrorLaunchFailure);
    scenario(nullptr, mib, Expect::Ok, 0, true, "cudaEventCreate", 5, cudaErrorMemoryAllocation);  // a run's event
    scenario(nullptr, 0, Expect::Ok, -1, false, "cudaMalloc", 1, cudaErrorMemoryAllocation);
    scenario(nullptr, mib, Expect::NoContext, -1, false, "cudaMalloc", 1, cudaErrorMemoryAllocation);
    if (failures) {
        std::printf("pipeline_host: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    std::printf("pipeline_host: all %d checks passed\n", checks);
    return 0;
}
