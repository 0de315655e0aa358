// Running a batch, whatever the backend: completion accounting, failures, and the
// CPU computation of tasks (the CPU backend's whole work, the CUDA backend's rescue).
#ifndef GALE_RUN_H
#define GALE_RUN_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <new>

#include "errors.h"
#include "gale.h"

struct gale_batch;

namespace gale {

class WorkerPool;

// Records a failure of part of a batch (the first one wins).
void batch_fail(gale_batch *b, gale_status st, const std::string &msg);
// One part of a running batch has finished; the last one completes the batch.
void batch_part_done(gale_batch *b);

// Runs f, recording any exception it throws as the batch's failure (`where` names
// the thread in the message). For the threads that run a batch: nothing may escape.
template <class F>
void run_recording_failure(gale_batch *b, const char *where, F &&f) {
    try {
        f();
    } catch (const Error &e) {
        batch_fail(b, e.status, e.message);
    } catch (const std::bad_alloc &) {
        batch_fail(b, GALE_E_NOMEM, std::string("out of host memory in ") + where);
    } catch (...) {
        batch_fail(b, GALE_E_INTERNAL, std::string("unexpected exception in ") + where);
    }
}

// Computes tasks idx[0, n) on the calling thread with the kind's CPU kernel, adding
// flags to each result; a failure is recorded on the batch. Never throws.
void cpu_compute(gale_batch *b, const size_t *idx, size_t n, uint32_t flags);

// Starts the whole batch on the pool (workers share the batch's task counter), as
// one or more parts; flags are added to every result. Never throws.
void cpu_start(WorkerPool &pool, gale_batch *b, uint32_t flags);

// Hands tasks to the pool while the caller goes on: up to one job per worker shares
// the list. Adds its parts to the batch's pending count. Throws std::bad_alloc
// (the batch is then failed and the jobs already posted still finish).
void cpu_rescue(WorkerPool &pool, gale_batch *b, std::vector<size_t> &&idx, uint32_t flags);

}  // namespace gale

#endif
