// What the SPOA oracles (poa_spoa.cpp, graph_spoa.cpp) share: SPOA's scores as one
// value, the alignment types' names, a random scoring (one of the test's fixed ones or
// a random one, in one draw order, so that a seed gives the same cases as before), and
// CHECK, which counts failures and prints the first ten. Included once per test (an
// unnamed namespace: each test has its own failure count); it does not include SPOA,
// which graph_spoa.cpp includes its own way.
#ifndef GALE_TEST_SPOA_CASES_H
#define GALE_TEST_SPOA_CASES_H

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "testgen.h"

namespace {

int failures = 0;

// A failed check: counted, the first ten printed; the case returns false.
#define CHECK(cond, ...)                                         \
    do {                                                         \
        if (!(cond)) {                                           \
            if (failures++ < 10) {                               \
                std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                std::printf(__VA_ARGS__);                        \
                std::printf("\n");                               \
            }                                                    \
            return false;                                        \
        }                                                        \
    } while (0)

// spoa::AlignmentEngine::Create's scores: match, mismatch, gap open, extend, and the
// second affine function's open and extend.
struct Pen {
    int8_t m, n, g, e, q, c;
};

// spoa::AlignmentType's values, 0 1 2
const char *const kTypeName[] = {"local", "global", "semi-global"};

// Half the time one of fixed[0 .. n_fixed), else random scores (SPOA's ranges).
Pen random_pen(tu::Rng &r, const Pen *fixed, size_t n_fixed) {
    if (tu_chance(r.c(), 0.5)) return fixed[tu_below(r.c(), n_fixed)];
    Pen pn;
    pn.m = (int8_t)tu_range(r.c(), 1, 10);
    pn.n = (int8_t)-tu_range(r.c(), 1, 10);
    pn.g = (int8_t)-tu_range(r.c(), 1, 12);
    pn.e = (int8_t)-tu_range(r.c(), 1, 8);
    pn.q = (int8_t)-tu_range(r.c(), 1, 24);
    pn.c = (int8_t)-tu_range(r.c(), 1, 4);
    return pn;
}

}  // namespace

#endif
