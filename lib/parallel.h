// A fork-join loop for host-side work of the GPU dispatchers (packing, CIGAR
// rebuild). Worker exceptions are carried back to the caller, and every thread is
// joined before anything propagates: a throw never reaches std::terminate.
#ifndef GALE_PARALLEL_H
#define GALE_PARALLEL_H

#include <algorithm>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gale {

// Runs fn(lo, hi) over [0, n) split on up to `threads` threads, each with at least
// min_per_thread items (the calling thread takes the first part).
template <class F>
void parallel_for(size_t n, int threads, size_t min_per_thread, F fn) {
    const size_t workers =
        std::min<size_t>((size_t)std::max(threads, 1), n / std::max<size_t>(min_per_thread, 1) + 1);
    if (workers <= 1) {
        fn((size_t)0, n);
        return;
    }
    std::exception_ptr error;
    std::mutex mu;
    auto run = [&](size_t lo, size_t hi) {
        try {
            fn(lo, hi);
        } catch (...) {
            std::lock_guard<std::mutex> lock(mu);
            if (!error) error = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    try {
        for (size_t w = 1; w < workers; ++w) pool.emplace_back(run, n * w / workers, n * (w + 1) / workers);
    } catch (...) {  // could not start a thread: the threads started still finish their part
        for (auto &th : pool) th.join();
        throw;
    }
    run(0, n / workers);
    for (auto &th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace gale

#endif
