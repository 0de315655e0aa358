// The CPU backend: the context's worker threads take a batch's tasks off a shared
// counter (lib/run.cpp); several batches may be in flight at once.
#include "backend.h"
#include "context.h"
#include "run.h"

namespace gale {

namespace {
class CpuBackend final : public Backend {
public:
    explicit CpuBackend(WorkerPool &pool) : pool_(pool) {}
    int id() const override { return GALE_BACKEND_CPU; }
    void start(gale_batch *b) override { cpu_start(pool_, b, 0); }

private:
    WorkerPool &pool_;
};
}  // namespace

std::unique_ptr<Backend> cpu_backend_open(WorkerPool &pool) { return std::unique_ptr<Backend>(new CpuBackend(pool)); }

}  // namespace gale
