// Splitting a batch into contiguous parts of about equal work (several devices of one
// context), as CUDASW++4 balances by characters rather than by task count.
#ifndef GALE_SPLIT_H
#define GALE_SPLIT_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gale {

// Boundaries b[0] = 0 < b[1] < ... < b[k] = weights.size() of k <= parts non-empty
// contiguous parts whose summed weights are as close to equal as cutting at task
// boundaries allows: part j ends at the first task where the running sum reaches
// (j + 1) / parts of the total. Empty input gives {0}.
inline std::vector<size_t> split_by_weight(const std::vector<uint64_t> &weights, size_t parts) {
    std::vector<size_t> cuts{0};
    const size_t n = weights.size();
    if (n == 0) return cuts;
    if (parts < 1) parts = 1;
    long double total = 0;
    for (uint64_t w : weights) total += (long double)w;
    long double run = 0;
    size_t j = 1;
    for (size_t i = 0; i < n && j < parts; ++i) {
        run += (long double)weights[i];
        // Cut after task i once the running sum reaches the j-th share; a task heavier
        // than a share may carry several shares at once (no empty parts).
        if (run * (long double)parts >= total * (long double)j && i + 1 < n) {
            cuts.push_back(i + 1);
            while (j < parts && run * (long double)parts >= total * (long double)j) ++j;
        }
    }
    cuts.push_back(n);
    return cuts;
}

}  // namespace gale

#endif
