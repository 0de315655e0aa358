// Running a batch, whatever the backend (lib/run.h).
#include "run.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>

#include "context.h"
#include "errors.h"

namespace gale {

void batch_fail(gale_batch *b, gale_status st, const std::string &msg) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->fail_status == GALE_OK) {
        b->fail_status = st;
        b->fail_message = msg;
    }
}

void batch_part_done(gale_batch *b) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (--b->pending > 0) return;
    gale_stats &s = b->stats;
    s = gale_stats{};
    s.size = sizeof(gale_stats);
    s.tasks = b->tasks.size();
    size_t undone = 0, first_undone = 0;
    for (size_t i = 0; i < b->tasks.size(); ++i) {
        const void *r = b->result(i);
        const uint32_t flags = b->kind->flags(const_cast<void *>(r));
        if (!(flags & kResultDone)) {
            if (undone++ == 0) first_undone = i;
            continue;
        }
        s.cells += b->kind->cells(r);
        s.rescued += (flags & (GALE_RF_RESCUED | GALE_RF_CPU)) ? 1 : 0;
    }
    for (DevicePart &p : b->parts) {
        p.cells = p.rescued = 0;
        for (size_t i = p.first; i < p.first + p.n; ++i) {
            const void *r = b->result(i);
            const uint32_t flags = b->kind->flags(const_cast<void *>(r));
            if (!(flags & kResultDone)) continue;
            p.cells += b->kind->cells(r);
            p.rescued += (flags & (GALE_RF_RESCUED | GALE_RF_CPU)) ? 1 : 0;
        }
    }
    s.kernel_ns = b->kernel_ns.load();
    s.elapsed_ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - b->t_submit).count();
    b->canceled = 0;
    if (b->fail_status != GALE_OK) {
        b->state = BatchState::Failed;
    } else if (undone == 0) {
        b->state = BatchState::Done;  // also when a cancel came after the last task had finished
    } else if (b->cancel.load()) {
        b->state = BatchState::Canceled;
        b->canceled = undone;
    } else {  // a task left without a result by a run that was not cancelled: never report it as one
        b->state = BatchState::Failed;
        b->fail_status = GALE_E_INTERNAL;
        b->fail_message = "task " + std::to_string(first_undone) + " (and " + std::to_string(undone - 1) +
                          " more) got no result, and the batch was not cancelled: a bug in gale, please report it";
    }
    b->cv.notify_all();
}

void cpu_compute(gale_batch *b, const size_t *idx, size_t n, uint32_t flags) {
    const KindDef &kind = *b->kind;
    const CpuCancel cancel{&b->cancel};
    run_recording_failure(b, "a CPU worker", [&] {
        void *&scratch = cpu_scratch(kind);
        for (size_t k = 0; k < n && !cancel.raised(); ++k) {
            const size_t i = idx[k];
            void *r = b->result(i);
            if (!kind.cpu(b->tasks[i], b->params, r, scratch, b->var, cancel)) {
                std::memset(r, 0, kind.result_bytes);  // stopped by the cancel: nothing of it is kept
                return;
            }
            kind.flags(r) |= flags | kResultDone;
        }
    });
}

namespace {
// A CPU worker: takes tasks off the batch's shared counter until none is left.
void cpu_worker(gale_batch *b, uint32_t flags) {
    const size_t n = b->tasks.size();
    for (;;) {
        if (b->cancel.load(std::memory_order_relaxed)) break;
        size_t i = b->next.fetch_add(1, std::memory_order_relaxed);
        if (i >= n) break;
        cpu_compute(b, &i, 1, flags);
    }
    batch_part_done(b);
}
}  // namespace

void cpu_start(WorkerPool &pool, gale_batch *b, uint32_t flags) {
    const int workers = (int)std::min<size_t>((size_t)pool.size(), b->tasks.size());
    if (workers == 0) {  // empty batch: done at once
        {
            std::lock_guard<std::mutex> lock(b->mu);
            b->pending = 1;
        }
        batch_part_done(b);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(b->mu);
        b->pending = workers;
    }
    int posted = 0;
    try {
        for (; posted < workers; ++posted) pool.post([b, flags] { cpu_worker(b, flags); });
    } catch (...) {  // out of memory while posting: the posted workers finish the batch, which fails
        batch_fail(b, GALE_E_NOMEM, "out of host memory while starting the batch");
        {
            std::lock_guard<std::mutex> lock(b->mu);
            b->pending -= workers - posted - 1;
        }
        batch_part_done(b);
    }
}

void cpu_rescue(WorkerPool &pool, gale_batch *b, std::vector<size_t> &&idx, uint32_t flags) {
    // A list is shared by up to one job per worker, each taking the next task, so
    // that one long list (a chunk the GPU cannot take) is not left to one thread.
    struct List {
        std::vector<size_t> idx;
        std::atomic<size_t> next{0};
    };
    auto list = std::make_shared<List>();
    list->idx = std::move(idx);
    const int jobs = (int)std::min<size_t>((size_t)pool.size(), list->idx.size());
    if (jobs == 0) return;
    {
        std::lock_guard<std::mutex> lock(b->mu);
        b->pending += jobs;
    }
    int posted = 0;
    try {
        for (; posted < jobs; ++posted)
            pool.post([b, list, flags] {
                for (size_t i; (i = list->next.fetch_add(1)) < list->idx.size();)
                    cpu_compute(b, &list->idx[i], 1, flags);
                batch_part_done(b);
            });
    } catch (...) {  // the jobs posted compute the whole list; the batch fails anyway
        batch_fail(b, GALE_E_NOMEM, "out of host memory while handing tasks to the CPU");
        std::lock_guard<std::mutex> lock(b->mu);
        b->pending -= jobs - posted;
        throw;
    }
}

}  // namespace gale
