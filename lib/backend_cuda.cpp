// The CUDA backend (built only with CUDA; chosen by lib/backend.cpp): one thread per
// device entry runs the parts of batches given to it, one after the other, through
// the kind's GPU side (cuda/X.cu, a GpuKind). A batch is split across the entries
// by estimated DP cells into contiguous parts (lib/split.h), so results stay in
// submission order and each task's result does not depend on the split. Tasks a
// device cannot take are computed on the context's CPU threads meanwhile; a kind
// with no GPU side runs wholly on them (GALE_RF_CPU). When CUDA fails (cuda::run_job;
// doc/testing.md), memory that runs out sends the work to the CPU, another error fails
// the batch, and a sticky one loses the device to the context.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include "backend.h"
#include "context.h"
#include "cuda_backend.h"
#include "errors.h"
#include "run.h"
#include "split.h"

namespace gale {

namespace {

// One contiguous part [first, first + n) of a batch for one device entry; or, with b
// null, a call to run on the entry's thread (on_entries).
struct Part {
    gale_batch *b;
    size_t index;  // in b->parts
    size_t first, n;
    const std::function<void(cuda::Device *)> *call = nullptr;
    std::promise<void> *done = nullptr;
};

struct Entry {
    cuda::Device *dev = nullptr;
    std::thread thread;
    std::mutex mu;
    std::condition_variable cv;
    std::deque<Part> queue;
    bool stop = false;
    // The batch whose part runs now, or nullptr (guarded by mu): cancel() raises the
    // device's cancel word only for it, and a part starts with the word cleared.
    gale_batch *current = nullptr;
    cuda::YdropArena *ydrop = nullptr;  // LASTZ's phase 1's view of the pool (cuda/ydrop.cu)
};

class CudaBackend final : public Backend {
public:
    CudaBackend(const std::vector<int> &devices, uint64_t budget, WorkerPool &pool) : pool_(pool) {
        try {
            // GALE_FAULT_INJECT (testing only: cuda/common/fault.cuh), one plan for the
            // context's entries.
            const std::shared_ptr<cuda::FaultPlan> fault = cuda::fault_plan_from_env();
            const std::vector<cuda::Device *> opened = open_devices(devices, budget, fault);
            size_t i = 0;
            try {
                for (; i < devices.size(); ++i) {
                    entries_.emplace_back(new Entry);
                    entries_.back()->dev = opened[i];
                    entries_.back()->ydrop = cuda::ydrop_arena_open();
                    indices_.push_back(devices[i]);
                }
            } catch (...) {
                for (; i < devices.size(); ++i) cuda::device_close(opened[i]);  // those no entry holds
                throw;
            }
            for (auto &e : entries_) {
                Entry *raw = e.get();
                e->thread = std::thread([this, raw] { loop(*raw); });
            }
        } catch (...) {
            stop();
            throw;
        }
    }
    ~CudaBackend() override { stop(); }

    int id() const override { return GALE_BACKEND_CUDA; }
    std::vector<int> devices() const override { return indices_; }

    void start(gale_batch *b) override {
        const size_t n = b->tasks.size();
        // no GPU side, or one not yet cleared for use (GpuKind::experimental), or none for
        // these parameters (KindDef::cpu_only), or nothing to do: the CPU threads take it
        if (!b->kind->gpu || n == 0 || (b->kind->gpu->experimental && !cuda::experimental_gpu_enabled()) ||
            (b->kind->cpu_only && b->kind->cpu_only(b->params))) {
            cpu_start(pool_, b, n ? GALE_RF_CPU : 0);
            return;
        }
        std::vector<size_t> cuts{0, n};
        if (entries_.size() > 1) {
            std::vector<uint64_t> cells(n);
            for (size_t i = 0; i < n; ++i) cells[i] = b->kind->estimate_cells(b->tasks[i], b->params);
            cuts = split_by_weight(cells, entries_.size());
        }
        const size_t parts = cuts.size() - 1;
        {
            std::lock_guard<std::mutex> lock(b->mu);
            b->pending = (int)parts;
            b->parts.assign(parts, DevicePart{});  // (throws before anything is queued)
            for (size_t j = 0; j < parts; ++j) {
                b->parts[j].device = indices_[j];
                b->parts[j].first = cuts[j];
                b->parts[j].n = cuts[j + 1] - cuts[j];
            }
        }
        // From here the batch is taken: a part that cannot be queued fails the batch,
        // and the parts queued before it still end it.
        size_t queued = 0;
        try {
            for (; queued < parts; ++queued) {
                Entry &e = *entries_[queued];
                {
                    std::lock_guard<std::mutex> lock(e.mu);
                    e.queue.push_back(Part{b, queued, cuts[queued], cuts[queued + 1] - cuts[queued]});
                }
                e.cv.notify_one();
            }
        } catch (...) {
            batch_fail(b, GALE_E_NOMEM, "out of host memory while starting the batch");
            {
                std::lock_guard<std::mutex> lock(b->mu);
                b->pending -= (int)(parts - queued) - 1;
            }
            batch_part_done(b);  // the last of the parts never queued
        }
    }

    // The kernels of the entries running a part of b stop at their next poll (the
    // dispatchers see b->cancel themselves). Under the entry's lock, against a part
    // starting: either the part starts after this (and sees b->cancel at once, run()),
    // or this sees it running and raises the word after the part cleared it.
    void cancel(gale_batch *b) noexcept override {
        for (auto &e : entries_) {
            std::lock_guard<std::mutex> lock(e->mu);
            if (e->current == b && e->dev) cuda::device_cancel(e->dev, true);
        }
    }

    // LASTZ's phase 1 (lib/cpu/ydrop_parallel.cpp): each wave's anchors dealt out to the
    // entries in turn (anchor k to entry k mod E: the waves follow LASTZ's order, so
    // neighbours differ in cost alike), the wave done when all are. Each entry holds its own
    // copy of the sequences (YdropGpu). A wave's launches start on the entries' threads and
    // end on the caller's (cuda/ydrop.cu), so that the waves of calls made at once (gale
    // lastz's query strands) run on a device side by side, as far as its slots go.
    YdropDevice ydrop_device() override {
        // The call's state, freed on the entries' threads once the walk is done with it.
        struct State {
            CudaBackend *be;
            std::vector<cuda::YdropGpu *> g;  // per entry
            std::vector<size_t> capacity;     // per entry, as it last reported (0: not yet)
            ~State() {
                for (size_t e = 0; e < g.size(); ++e) {
                    cuda::YdropGpu *gp = g[e];
                    try {
                        be->on_entry(e, [gp](cuda::Device *) { cuda::ydrop_gpu_close(gp); });
                    } catch (...) {
                        cuda::ydrop_gpu_close(gp);
                    }
                }
            }
        };
        auto st = std::make_shared<State>();
        st->be = this;
        st->capacity.assign(entries_.size(), 0);
        for (size_t e = 0; e < entries_.size(); ++e) st->g.push_back(cuda::ydrop_gpu_open());
        return [st](YdropDeviceWave &w) {
            const size_t E = std::min(st->g.size(), std::max<size_t>(w.n, 1));
            std::vector<YdropDeviceWave> parts(E, w);
            std::vector<std::vector<uint32_t>> a1(E), a2(E);
            std::vector<std::vector<ydrop_run::SideRec *>> sides(E);
            for (size_t k = 0; k < w.n; ++k) {
                const size_t e = k % E;
                a1[e].push_back(w.anchor1[k]);
                a2[e].push_back(w.anchor2[k]);
                sides[e].push_back(w.sides[2 * k]);
                sides[e].push_back(w.sides[2 * k + 1]);
            }
            // per entry: the halves not launched yet, those to launch again in large slots
            std::vector<std::vector<uint32_t>> todo(E), retry(E);
            std::vector<size_t> launched(E, 0);
            std::vector<char> large(E, 0);
            for (size_t e = 0; e < E; ++e) {
                YdropDeviceWave &pw = parts[e];
                pw.anchor1 = a1[e].data();
                pw.anchor2 = a2[e].data();
                pw.sides = sides[e].data();
                pw.n = a1[e].size();
                pw.kernel_ns = 0;
                pw.capacity = 0;
                for (uint32_t h = 0; h < 2 * pw.n; ++h) todo[e].push_back(h);
            }
            for (;;) {
                std::vector<size_t> which;
                std::vector<std::function<void(cuda::Device *)>> calls;
                for (size_t e = 0; e < E; ++e) {
                    launched[e] = 0;
                    if (todo[e].empty() && retry[e].empty()) continue;
                    which.push_back(e);
                    large[e] = !retry[e].empty();
                    const std::vector<uint32_t> *list = large[e] ? &retry[e] : &todo[e];
                    YdropDeviceWave &pw = parts[e];
                    cuda::YdropGpu *g = st->g[e];
                    cuda::YdropArena *arena = st->be->entries_[e]->ydrop;
                    size_t *count = &launched[e];
                    const bool big = large[e] != 0;
                    calls.push_back([g, arena, &pw, count, list, big](cuda::Device *dev) {
                        *count = cuda::ydrop_gpu_launch(dev, arena, g, pw, *list, big);
                    });
                }
                if (which.empty()) break;
                std::exception_ptr failed;
                try {
                    st->be->on_entries(which, calls);
                } catch (...) {
                    failed = std::current_exception();
                }
                for (size_t e : which) {  // (every launch that started ends, even when another failed)
                    std::vector<uint32_t> &list = large[e] ? retry[e] : todo[e];
                    std::vector<uint32_t> again;
                    try {
                        cuda::ydrop_gpu_finish(st->be->entries_[e]->dev, st->g[e], parts[e], list, launched[e], again);
                    } catch (...) {
                        if (!failed) failed = std::current_exception();
                    }
                    list.erase(list.begin(), list.begin() + (std::ptrdiff_t)std::min(launched[e], list.size()));
                    retry[e].insert(retry[e].end(), again.begin(), again.end());
                }
                if (failed) std::rethrow_exception(failed);
                for (size_t e : which)  // (no slot was free: other calls' launches hold them all)
                    if (launched[e] == 0) cuda::ydrop_arena_wait_free(st->be->entries_[e]->ydrop, large[e] != 0);
            }
            w.kernel_ns = 0;
            w.capacity = 0;
            for (size_t e = 0; e < E; ++e) {
                w.kernel_ns = std::max(w.kernel_ns, parts[e].kernel_ns);
                if (parts[e].capacity) st->capacity[e] = parts[e].capacity;
            }
            for (size_t c : st->capacity) w.capacity += c;
        };
    }

    // LASTZ's seeding (cuda/lastz_seed.cu): each find on the next entry in turn (gale
    // lastz's query strands, found at once, go to two GPUs where there are two), each
    // entry with its own copy of the target and its table, taken at its first find there.
    std::unique_ptr<LastzSeedDevice> lastz_seed_device(const LastzSeedView &v) override {
        class Seeding final : public LastzSeedDevice {
        public:
            Seeding(CudaBackend *be, const LastzSeedView &v) : be_(be), v_(v), g_(be->entries_.size(), nullptr) {}
            ~Seeding() override {
                for (size_t e = 0; e < g_.size(); ++e) {
                    cuda::LastzSeedGpu *gp = g_[e];
                    if (!gp) continue;
                    try {
                        be_->on_entry(e, [gp](cuda::Device *) { cuda::lastz_seed_gpu_close(gp); });
                    } catch (...) {
                        cuda::lastz_seed_gpu_close(gp);
                    }
                }
            }
            bool find(const uint8_t *query, uint32_t query_len, std::vector<LastzCandidate> &out, uint64_t *hits,
                      double *device_seconds) override {
                const size_t e = next_.fetch_add(1) % g_.size();
                bool taken = true;
                be_->on_entry(e, [&](cuda::Device *dev) {
                    try {
                        if (!g_[e]) g_[e] = cuda::lastz_seed_gpu_open(dev, v_);
                        cuda::lastz_seed_gpu_find(dev, g_[e], query, query_len, out, hits, device_seconds);
                    } catch (const cuda::DeviceFault &f) {
                        if (!cuda::device_settle(dev, f)) throw;  // (memory: the seeder finds on the CPU)
                        out.clear();
                        taken = false;
                    }
                });
                return taken;
            }

        private:
            CudaBackend *be_;
            LastzSeedView v_;
            std::vector<cuda::LastzSeedGpu *> g_;  // per entry, used on its thread only
            std::atomic<size_t> next_{0};
        };
        return std::make_unique<Seeding>(this, v);
    }

    // gale compare (cuda/compare.cu): one call on the next entry in turn, on its thread
    // (after the parts queued there). Memory that runs out sends the call to the CPU
    // (GALE_E_NOMEM); another failure is the call's (device_settle: a lost device fails this
    // and every later use of the entry).
    gale_status compare_device(const CompareInput &in, std::vector<CompareFragment> &out) override {
        const size_t e = compare_next_.fetch_add(1) % entries_.size();
        const size_t before = out.size();
        gale_status taken = GALE_OK;
        on_entry(e, [&](cuda::Device *dev) {
            try {
                cuda::compare_gpu(dev, in, out);
            } catch (const cuda::DeviceFault &f) {
                if (!cuda::device_settle(dev, f)) throw;
                out.resize(before);
                taken = GALE_E_NOMEM;
            }
        });
        return taken;
    }

    // Runs calls[k] on entry which[k]'s thread, after the parts queued there before it, all
    // at once, and waits for all of them; then rethrows the first one's exception, if any.
    void on_entries(const std::vector<size_t> &which, const std::vector<std::function<void(cuda::Device *)>> &calls) {
        std::vector<std::promise<void>> done(calls.size());
        std::vector<std::future<void>> f;
        f.reserve(calls.size());
        std::exception_ptr first;
        try {
            for (size_t k = 0; k < calls.size(); ++k) {
                std::future<void> fk = done[k].get_future();
                Entry &e = *entries_[which[k]];
                {
                    std::lock_guard<std::mutex> lock(e.mu);
                    Part p{nullptr, 0, 0, 0};
                    p.call = &calls[k];
                    p.done = &done[k];
                    e.queue.push_back(p);
                }
                f.push_back(std::move(fk));  // (reserved: cannot throw once queued)
                e.cv.notify_one();
            }
        } catch (...) {
            first = std::current_exception();
        }
        for (std::future<void> &x : f) {  // every queued call ends before the promises go
            try {
                x.get();
            } catch (...) {
                if (!first) first = std::current_exception();
            }
        }
        if (first) std::rethrow_exception(first);
    }

    // Runs fn on entry e's thread, after the parts queued before it, and waits for it;
    // rethrows what it threw.
    void on_entry(size_t e, const std::function<void(cuda::Device *)> &fn) { on_entries({e}, {fn}); }

    void stop() noexcept override {
        for (auto &e : entries_) {
            if (!e->thread.joinable()) continue;
            {
                std::lock_guard<std::mutex> lock(e->mu);
                e->stop = true;
            }
            e->cv.notify_all();
            e->thread.join();
        }
        for (auto &e : entries_) {
            cuda::device_close(e->dev);
            e->dev = nullptr;
            cuda::ydrop_arena_close(e->ydrop);
            e->ydrop = nullptr;
        }
    }

private:
    // Opens an entry's device for each of `devices` (an index may repeat), one thread per
    // distinct device: starting CUDA on a device (its context, the pool's allocation) takes
    // a good part of a second, which several devices then pay once, not once each. The
    // default budget (gale.h) is one per device, shared by its entries: taken once, before
    // any entry of that device allocates (GALE_DEVICE_MEMORY_HALF_FREE: the same without
    // the default's 8 GiB cap); the default may be halved if it cannot be had. On failure
    // closes what was opened and rethrows the first device's error.
    static std::vector<cuda::Device *> open_devices(const std::vector<int> &devices, uint64_t budget,
                                                    const std::shared_ptr<cuda::FaultPlan> &fault) {
        const bool default_budget = budget == 0 || budget == GALE_DEVICE_MEMORY_HALF_FREE;
        std::vector<int> distinct;
        for (int d : devices)
            if (std::find(distinct.begin(), distinct.end(), d) == distinct.end()) distinct.push_back(d);
        std::vector<cuda::Device *> opened(devices.size(), nullptr);
        std::vector<std::exception_ptr> failed(distinct.size());
        auto open_one = [&](size_t k) noexcept {
            try {
                const size_t same = (size_t)std::count(devices.begin(), devices.end(), distinct[k]);
                const uint64_t share =
                    default_budget ? std::max<uint64_t>(cuda::device_default_budget(distinct[k], budget == 0) / same,
                                                        (uint64_t)1 << 20)
                                   : budget;
                for (size_t j = 0; j < devices.size(); ++j)
                    if (devices[j] == distinct[k]) opened[j] = cuda::device_open(devices[j], share, default_budget, fault);
            } catch (...) {
                failed[k] = std::current_exception();
            }
        };
        std::vector<std::thread> threads;
        try {
            for (size_t k = 1; k < distinct.size(); ++k) threads.emplace_back(open_one, k);
        } catch (...) {  // no thread for the rest: they open here, one after another
            for (size_t k = threads.size() + 1; k < distinct.size(); ++k) open_one(k);
        }
        open_one(0);
        for (std::thread &t : threads) t.join();
        for (const std::exception_ptr &e : failed) {
            if (!e) continue;
            for (cuda::Device *d : opened) cuda::device_close(d);
            std::rethrow_exception(e);
        }
        return opened;
    }

    void loop(Entry &e) {
        preload(e);
        for (;;) {
            Part part;
            {
                std::unique_lock<std::mutex> lock(e.mu);
                e.cv.wait(lock, [&e] { return e.stop || !e.queue.empty(); });
                if (e.queue.empty()) return;
                part = e.queue.front();
                e.queue.pop_front();
                e.current = part.b;
                cuda::device_cancel(e.dev, false);  // nothing runs on the device between two parts
            }
            if (part.call) {
                try {
                    (*part.call)(e.dev);
                    part.done->set_value();
                } catch (...) {
                    part.done->set_exception(std::current_exception());
                }
                continue;
            }
            cuda::ydrop_arena_wait_idle(e.ydrop);  // (LASTZ's launches in flight hold the pool)
            run(e, part);
        }
    }

    // Every GPU kind's kernels into the entry's device, before any work: CUDA would load
    // them at their first launch, which a first batch would wait for (GpuKind::preload).
    // A batch that comes meanwhile waits here instead, no longer.
    static void preload(Entry &e) noexcept {
        size_t n = 0;
        const KindDef *const *kinds = kinds_all(&n);
        for (size_t i = 0; i < n; ++i) {
            const cuda::GpuKind *g = kinds[i]->gpu;
            bool seen = false;  // kinds may share a GPU side (WFA and edit)
            for (size_t j = 0; j < i; ++j) seen = seen || kinds[j]->gpu == g;
            if (g && g->preload && !seen) g->preload(e.dev);
        }
    }

    void run(Entry &e, const Part &part) {
        gale_batch *b = part.b;
        DevicePart &mine = b->parts[part.index];  // this thread's alone until the part ends
        if (!b->cancel.load()) {
            run_recording_failure(b, "the GPU dispatcher", [&] {
                cuda::GpuJob job;
                job.tasks = b->tasks.data() + part.first;
                job.n = part.n;
                job.params = b->params;
                job.results = b->result(part.first);
                job.var = &b->var;
                job.cancel = &b->cancel;
                job.rescue = [this, b, first = part.first](std::vector<size_t> &&idx) {
                    for (size_t &i : idx) i += first;
                    cpu_rescue(pool_, b, std::move(idx), GALE_RF_RESCUED);
                };
                job.pack_threads = pool_.size();
                cuda::run_job(*b->kind->gpu, e.dev, job);  // its failures: cuda_backend.h
                mine.kernel_ns = job.kernel_ns;
                // The batch's kernel time is its longest device's.
                uint64_t seen = b->kernel_ns.load();
                while (job.kernel_ns > seen && !b->kernel_ns.compare_exchange_weak(seen, job.kernel_ns)) {
                }
            });
        }
        mine.elapsed_ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::steady_clock::now() - b->t_submit).count();
        {
            std::lock_guard<std::mutex> lock(e.mu);
            e.current = nullptr;  // before the part ends: the batch may be freed once it has
        }
        batch_part_done(b);
    }

    WorkerPool &pool_;
    std::vector<std::unique_ptr<Entry>> entries_;
    std::vector<int> indices_;
    std::atomic<size_t> compare_next_{0};  // the entry of the next gale_compare call
};

}  // namespace

std::unique_ptr<Backend> cuda_backend_open(const std::vector<int> &devices, uint64_t budget, WorkerPool &pool) {
    return std::unique_ptr<Backend>(new CudaBackend(devices, budget, pool));
}

}  // namespace gale
