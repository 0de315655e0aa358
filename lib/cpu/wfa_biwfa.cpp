// CPU wavefront kernel, stage three: the low-memory mode (BiWFA). Score-only
// wavefronts from both ends until they meet give a breakpoint on an optimal path;
// each half is solved the same way until it is small enough for a full-memory
// alignment with codes (lib/cpu/wfa_core.h, "Memory of one alignment").
#include "wfa_core.h"

#include "errors.h"

namespace gale {
namespace wfacpu {

Bi::Bi(WfaWorkspace &ws, const PairTask &t, const Penalties &q, bool nmis, uint64_t limit_bytes)
    : ws_(ws), t_(t), q_(q), nmis_(nmis) {
    m_ = t.v_len;
    n_ = t.h_len;
    R_ = ring_len(q);
    omax_ = q.metric == kMetricEdit ? 0 : (q.metric == kMetricAffine2p ? std::max(q.o, q.o2) : q.o);
    maxstep_ = R_ - 1;
    margin_ = maxstep_ + omax_;
    emin_ = q.metric == kMetricAffine2p ? std::min(q.e, q.e2) : q.e;
    if (q.metric == kMetricEdit) emin_ = 1;
    cap_ = std::min<uint64_t>(limit_bytes, (uint64_t)8 << 20);
    ws.prev.resize((size_t)m_);
    ws.trev.resize((size_t)n_);
    for (int64_t i = 0; i < m_; ++i) ws.prev[(size_t)i] = t.v[m_ - 1 - i];
    for (int64_t i = 0; i < n_; ++i) ws.trev[(size_t)i] = t.h[n_ - 1 - i];
}


// Aligns [h0, h1) x [v0, v1) from component cs to component ce; appends its CIGAR.
// est: an upper bound of its score (or -1: unknown). Returns its score.
int64_t Bi::solve(int64_t h0, int64_t v0, int64_t h1, int64_t v1, int cs, int ce, int64_t est,
              std::vector<uint32_t> &cigar) {
    const int64_t n = h1 - h0, m = v1 - v0;
    if (est >= 0 && (fits(est, n, m) || est <= 2 * margin_ || n == 0 || m == 0))
        return base(h0, v0, h1, v1, cs, ce, cigar);
    if (est < 0 && (n == 0 || m == 0)) return base(h0, v0, h1, v1, cs, ce, cigar);
    // Meet in the middle.
    Dir &F = ws_.fwd, &Rv = ws_.rev;
    const int ringb = R_ + omax_ + 2;
    F.setup(t_.v + v0, t_.h + h0, (int32_t)m, (int32_t)n, nmis_, q_, ringb, cs, 0, 0);
    Rv.setup(ws_.prev.data() + (m_ - v1), ws_.trev.data() + (n_ - h1), (int32_t)m, (int32_t)n, nmis_, q_, ringb,
             ce, 0, 0, false);
    const int64_t C = gap_open(ce);
    best_ = INT64_MAX;
    F.init(nullptr, nullptr);
    Rv.init(nullptr, nullptr);
    compare(F, Rv, 0, 0, C, ce);
    for (int turn = 0;; turn ^= 1) {
        if (best_ != INT64_MAX && F.s + Rv.s >= best_ + margin_) break;
        if (turn == 0) {
            F.step(nullptr, nullptr);
            for (int64_t b = std::max<int64_t>(0, Rv.s - ringb + 1); b <= Rv.s; ++b)
                compare(F, Rv, F.s, b, C, ce);
        } else {
            Rv.step(nullptr, nullptr);
            for (int64_t a = std::max<int64_t>(0, F.s - ringb + 1); a <= F.s; ++a)
                compare(F, Rv, a, Rv.s, C, ce);
        }
    }
    cells += F.cells + Rv.cells;
    const int64_t score = best_, a = bp_a_, b = bp_b_;
    const int c = bp_c_;
    const int64_t hb = h0 + bp_h_, vb = v0 + (int64_t)bp_h_ - bp_k_;
    const bool degenerate = (hb == h0 && vb == v0 && c == cs) || (hb == h1 && vb == v1 && c == ce);
    if (degenerate) return base(h0, v0, h1, v1, cs, ce, cigar);
    const int64_t left = solve(h0, v0, hb, vb, cs, c, a, cigar);
    const int64_t right = solve(hb, vb, h1, v1, c, ce, b + omax_, cigar);
    if (left + right != score)
        fail(GALE_E_INTERNAL, "WFA low-memory halves score %lld + %lld, expected %lld", (long long)left,
             (long long)right, (long long)score);
    return score;
}


inline int64_t Bi::gap_open(int c) const {
    if (c == cD1 || c == cI1) return q_.o;
    if (c == cD2 || c == cI2) return q_.o2;
    return 0;
}

// Provably at most cap_ bytes of codes: a range widens by at most one
// diagonal per side for each e of score.
inline bool Bi::fits(int64_t S, int64_t n, int64_t m) const {
    const double width = std::min<double>((double)(n + m + 1), 2.0 * (double)(S / emin_) + 3.0);
    return (double)(S + 1) * width <= (double)cap_;
}

// Forward wavefronts of score a against reverse ones of score b: an overlap on
// a diagonal in the same component is a path of penalty a + b (+ the open of
// the final gap the reverse start did not pay, - the open of a gap both paid).
void Bi::compare(Dir &F, Dir &Rv, int64_t a, int64_t b, int64_t C, int ce) {
    const int ncomp = q_.metric == kMetricEdit ? 1 : (q_.metric == kMetricAffine2p ? 5 : 3);
    const int64_t n = F.n, dk = (int64_t)F.n - F.m;
    for (int c = 0; c < ncomp; ++c) {
        const int64_t total = a + b + C - gap_open(c);
        if (total >= best_) continue;
        Wave *fw = F.get(a, c), *rw = Rv.get(b, c);
        if (!fw || !rw) continue;
        // forward diagonal k <-> reverse diagonal dk - k
        const int64_t lo = std::max<int64_t>(fw->lo, dk - rw->hi), hi = std::min<int64_t>(fw->hi, dk - rw->lo);
        for (int64_t k = lo; k <= hi; ++k) {
            const int32_t hf = *fw->at(k), hr = *rw->at(dk - k);
            if (hf >= 0 && hr >= 0 && (int64_t)hf + hr >= n) {
                // At the very end the path must be in ce: another component there
                // is no breakpoint (its right half would be empty yet end elsewhere).
                if (hf == n && (int64_t)hf - k == F.m && c != ce && ce != cM) continue;
                best_ = total;
                bp_a_ = a;
                bp_b_ = b;
                bp_k_ = (int32_t)k;
                bp_h_ = hf;
                bp_c_ = c;
                break;
            }
        }
    }
}

// Full-memory solve of a small (sub)problem from cs to ce.
int64_t Bi::base(int64_t h0, int64_t v0, int64_t h1, int64_t v1, int cs, int ce, std::vector<uint32_t> &cigar) {
    const int64_t n = h1 - h0, m = v1 - v0;
    Dir &d = ws_.fwd;
    d.setup(t_.v + v0, t_.h + h0, (int32_t)m, (int32_t)n, nmis_, q_, R_, cs, 0, 0);
    int32_t k_end = 0, h_end = 0;
    if (n == 0 || m == 0) {
        // One sequence is empty: the path is one gap whatever the codes say
        // (pieces of it merge in the CIGAR), so only its score is needed, and
        // the wavefronts run without codes. With codes this half would take
        // about L^2 / 4 bytes for a gap of L bases at e = 2 (128 MB for the
        // 16 kbp half of a 64 kbp insertion), far past the memory limit.
        if (!run_to_end(d, ce, 0, 0, nullptr, nullptr, 0, k_end, h_end) || k_end != n - m || h_end != n)
            fail(GALE_E_INTERNAL, "WFA low-memory gap half did not reach its end");
        cells += d.cells;
        push_op(cigar, n ? GALE_CIGAR_DEL : GALE_CIGAR_INS, (uint64_t)(n + m));
        return d.s;
    }
    // Unbounded codes: any other base case is small by construction (solve()).
    if (!run_to_end(d, ce, 0, 0, &ws_.codes, &ws_.rows, UINT64_MAX, k_end, h_end))
        fail(GALE_E_INTERNAL, "WFA low-memory base case ran out of code room");
    cells += d.cells;
    const int64_t score = d.s;
    const int32_t k0 = backtrace(d, ws_.codes, ws_.rows, ce, d.s, k_end, ws_.ops);
    int64_t he, ve;
    if (k0 != 0 || !replay(t_.v + v0, t_.h + h0, m, n, nmis_, 0, 0, cs == cM, ws_.ops.data(), ws_.ops.size(),
                           &he, &ve, cigar) ||
        he != n || ve != m)
        fail(GALE_E_INTERNAL, "WFA low-memory base case replay failed");
    return score;
}

}  // namespace wfacpu
}  // namespace gale
