// lib/split.h: how the CUDA backend cuts a batch for several device entries, tested
// without a GPU. Properties on fixed and random weights: the cuts cover every task in
// order, no part is empty, there are at most as many parts as asked for, and every
// part's weight stays within one task of an equal share.
#include "split.h"

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "testutil.h"

namespace {

void check_split(const std::vector<uint64_t> &w, size_t parts, const char *what) {
    const std::vector<size_t> c = gale::split_by_weight(w, parts);
    CHECK_MSG(!c.empty() && c.front() == 0 && c.back() == w.size(), "%s: cuts do not cover [0, %zu)", what, w.size());
    if (w.empty()) {
        CHECK_MSG(c.size() == 1, "%s: empty input gave %zu cuts", what, c.size());
        return;
    }
    CHECK_MSG(c.size() - 1 <= parts && c.size() >= 2, "%s: %zu parts for %zu asked", what, c.size() - 1, parts);
    long double total = 0;
    uint64_t heaviest = 0;
    for (uint64_t x : w) {
        total += (long double)x;
        heaviest = x > heaviest ? x : heaviest;
    }
    const long double share = total / (long double)parts;
    for (size_t j = 0; j + 1 < c.size(); ++j) {
        CHECK_MSG(c[j] < c[j + 1], "%s: part %zu is empty or reversed", what, j);
        long double part = 0;
        for (size_t i = c[j]; i < c[j + 1]; ++i) part += (long double)w[i];
        CHECK_MSG(part <= share + (long double)heaviest + 1e-6L, "%s: part %zu weighs %.0Lf, share %.0Lf, heaviest %" PRIu64,
                  what, j, part, share, heaviest);
    }
    // With uniform weights and enough tasks, every asked-for part exists and is
    // balanced to within one task (what keeps two GPUs within 10% of each other).
    bool uniform = true;
    for (uint64_t x : w) uniform = uniform && x == w[0];
    if (uniform && w.size() >= parts) {
        CHECK_MSG(c.size() - 1 == parts, "%s: %zu parts of uniform tasks, %zu asked", what, c.size() - 1, parts);
        for (size_t j = 0; j + 1 < c.size(); ++j) {
            const long double n = (long double)(c[j + 1] - c[j]), want = (long double)w.size() / (long double)parts;
            CHECK_MSG(n >= want - 1 && n <= want + 1, "%s: part %zu has %.0Lf tasks, want %.1Lf", what, j, n, want);
        }
    }
}

}  // namespace

int main() {
    tu_rng rng;
    tu_rng_init(&rng, tu_seed("split"));
    check_split({}, 2, "empty");
    check_split({5}, 2, "one task");
    check_split({1, 1}, 2, "two equal");
    check_split(std::vector<uint64_t>(1000, 3), 2, "uniform 1000 / 2");
    check_split(std::vector<uint64_t>(1001, 3), 3, "uniform 1001 / 3");
    check_split(std::vector<uint64_t>(7, 1), 8, "fewer tasks than parts");
    check_split({1000000, 1, 1, 1}, 2, "one heavy first");
    check_split({1, 1, 1, 1000000}, 2, "one heavy last");
    check_split({0, 0, 0, 0}, 2, "all zero");
    {   // the actual cut of a simple case, written out
        const std::vector<size_t> c = gale::split_by_weight({1, 1, 1, 1, 1, 1}, 2);
        CHECK_MSG(c.size() == 3 && c[1] == 3, "6 equal tasks on 2 parts: cut at %zu", c.size() > 1 ? c[1] : 0);
    }
    const long rounds = tu_scaled(2000, 100);
    for (long r = 0; r < rounds; ++r) {
        const size_t n = (size_t)tu_logrange(&rng, 0, 5000), parts = (size_t)tu_range(&rng, 1, 9);
        std::vector<uint64_t> w(n);
        const int shape = (int)tu_range(&rng, 0, 2);
        for (size_t i = 0; i < n; ++i)
            w[i] = shape == 0 ? 7 : shape == 1 ? (uint64_t)tu_range(&rng, 0, 1000) : (uint64_t)tu_logrange(&rng, 1, 1 << 30);
        char what[64];
        std::snprintf(what, sizeof what, "random %ld (n %zu, parts %zu)", r, n, parts);
        check_split(w, parts, what);
    }
    return tu_finish("split");
}
