// CPU wavefront kernel: WFA2-lib 2.3.3's heuristic cut-offs (gale/wfa.h, GALE_P_WFA_HEURISTIC).
// The rules themselves (wavefront_heuristic.c's, rule for rule) are lib/wfa_heuristic.h's
// wfa_cutoff, which the CUDA kernel's heuristic mode runs too; a heuristic alignment
// gives WFA2-lib's result: the same diagonals are cut at the same scores. What makes
// that possible is that gale's wavefronts hold the same non-null cells as WFA2-lib's at every score, and
// that in heuristic mode every component is trimmed to its first and last non-null
// cell after it is computed (Dir::step), as WFA2-lib's wavefront_compute_trim_ends
// does: the ranges the cut-offs see (their widths, their samples) are WFA2-lib's.
// WFA2-lib's "exact prune" of edit end-to-end wavefronts of 1,000 diagonals or more
// (wavefront_compute_edit_exact_prune), which moves the ends the heuristics then see,
// runs in Dir::step, before the extension, as WFA2-lib runs it (lib/wfa_heuristic.h).
#include "wfa_core.h"

namespace gale {
namespace wfacpu {

// Cuts M at the last score to [lo, hi] (empty when lo > hi) and the gap components
// at that score to the same range (wf_heuristic_equate); the cells cut become null,
// so that no later score reads them.
void Dir::cut_to(int32_t lo, int32_t hi) {
    for (int c = 0; c < kComps; ++c) {
        Wave &w = slot(s, c);
        if (!w.has) continue;
        const int32_t nlo = std::max(w.lo, lo), nhi = std::min(w.hi, hi);
        if (nlo > nhi) {
            std::fill(w.at(w.lo), w.at(w.hi) + 1, kNull);
            w.has = false;
            continue;
        }
        std::fill(w.at(w.lo), w.at(nlo), kNull);
        std::fill(w.at(nhi) + 1, w.at(w.hi) + 1, kNull);
        w.lo = nlo;
        w.hi = nhi;
    }
}

// wavefront_heuristic_cufoff, for M at score s (already trimmed by Dir::step).
void Dir::cutoff() {
    Wave *Mw = get(s, cM);
    if (!Mw) return;  // WFA2-lib: mwavefront == NULL || lo > hi: no step counted
    const auto O = [Mw](int32_t k) { return *Mw->at(k); };  // M's offset on diagonal k (within its range)
    int32_t lo = Mw->lo, hi = Mw->hi;
    wfa_cutoff(heur, s, m, n, O, lo, hi);
    // Always: WFA2-lib equates the gap components to M's range whether or not M was cut.
    cut_to(lo, hi);
}

}  // namespace wfacpu
}  // namespace gale
