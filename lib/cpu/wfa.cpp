// CPU kernel of wavefront alignment (GALE_WFA, GALE_EDIT): the recurrence, ranges,
// tie-break and backtrace of lib/wfa.h, computed score by score. This file is the
// entry point: one task in its mode (score only, full memory, or low memory when
// the codes would pass the memory limit) and the thread's workspace. The stages
// are in lib/cpu/wfa_wavefront.cpp (the wavefronts), lib/cpu/wfa_backtrace.cpp
// (backtrace and CIGAR) and lib/cpu/wfa_biwfa.cpp (low-memory mode); their shared
// types, the layout and the memory bounds are in lib/cpu/wfa_core.h.
#include "wfa_core.h"

#include "errors.h"

namespace gale {
namespace wfacpu {

void trim(WfaWorkspace &ws) {
    if (ws.codes.reserved() + ws.rows.capacity() * sizeof(CodeRow) > kKeepBytes) {
        ws.codes.release();
        std::vector<CodeRow>().swap(ws.rows);
    }
    if (ws.fwd.held() + ws.rev.held() > kKeepBytes) {
        ws.fwd.release();
        ws.rev.release();
    }
}

}  // namespace wfacpu

using namespace wfacpu;

namespace {

// The low-memory begin search with a match score (a = -match > 0): b runs from the
// alignment's end backwards over the reversed sequences; a point of M at score s
// where the reversed text is consumed (its pattern left: the free begin j <= pb) or
// the reversed pattern (text left j <= tb) is the begin if s + a j == score, the
// forward penalty. The first such point, lowest diagonal first (as find_end).
void find_begin_paid(Dir &b, int64_t pb, int64_t tb, int32_t a, int64_t score, int32_t &k_out, int32_t &h_out) {
    b.init(nullptr, nullptr);
    for (;;) {
        if (b.s > score) fail(GALE_E_INTERNAL, "WFA low-memory: no begin at penalty %lld", (long long)score);
        int32_t lo, hi;
        if (b.m_range(lo, hi)) {
            for (int32_t k = lo; k <= hi; ++k) {
                const int32_t h = b.value(b.s, cM, k);
                if (h < 0) continue;
                const int64_t v = (int64_t)h - k;
                const bool at_t = h == b.n && b.m - v <= pb && b.s + a * (b.m - v) == score;
                const bool at_p = v == b.m && b.n - h <= tb && b.s + a * (b.n - h) == score;
                if (at_t || at_p) {
                    k_out = k;
                    h_out = h;
                    return;
                }
            }
        }
        b.step(nullptr, nullptr);
    }
}

// WFA2-lib's heuristic on the forward wavefronts (gale/wfa.h, GALE_P_WFA_HEURISTIC).
void set_heuristic(Dir &d, const WfaParams &p) { d.heur = wfa_heuristic_of(p); }

void align_task(const PairTask &t, const WfaParams &p, WfaResult &r, std::vector<uint32_t> &cigar,
                WfaWorkspace *ws) {
    cigar.clear();
    r.cigar = VarSpan{};
    r.flags = 0;
    r.cells = 0;
    const int64_t m = t.v_len, n = t.h_len;
    const WfaFree f = wfa_free(p, m, n);
    const Penalties q = penalties_of(p);
    const bool nmis = p.n_policy == GALE_N_MISMATCH && (has_n(t.v, m) || has_n(t.h, n));
    const int R = ring_len(q);
    const auto signed_score = [&](int64_t s) { return wfa_report_score(p, s, m, n); };
    // Sentinel copies of the sequences, unless they are huge (then the memory
    // matters more than the bound checks).
    const bool padded = m + n <= kMaxPadded;
    const uint8_t *P = t.v, *T = t.h;
    if (padded) {
        ws->pad.set(t.v, m, t.h, n);
        P = ws->pad.P;
        T = ws->pad.T;
    }
    Dir &d = ws->fwd;
    d.setup(P, T, (int32_t)m, (int32_t)n, nmis, q, R, cM, f.pb, f.tb);
    d.padded = padded;
    if (p.heuristic) {
        set_heuristic(d, p);
        // WFA2-lib's exact prune of edit end-to-end wavefronts: it moves the ranges the
        // cut-offs see.
        d.exact_prune = wfa_edit_exact_prune_on(p);
    }
    int32_t k_end = 0, h_end = 0;
    // A heuristic cut every path: no alignment (gale.h, GALE_RF_UNFEASIBLE).
    const auto unfeasible = [&] {
        r = WfaResult{};
        r.cells = d.cells;
        r.flags = GALE_RF_UNFEASIBLE;
        cigar.clear();
        trim(*ws);
    };

    if (p.scope == GALE_SCOPE_SCORE) {
        run_to_end(d, cM, f.pe, f.te, nullptr, nullptr, 0, k_end, h_end);
        if (d.unfeasible) return unfeasible();
        r.score = signed_score(d.s);
        r.cells = d.cells;
        r.h_end = h_end;
        r.v_end = (int64_t)h_end - k_end;
        const bool free_begin = f.pb > 0 || f.tb > 0;
        r.h_begin = free_begin ? -1 : 0;
        r.v_begin = free_begin ? -1 : 0;
        trim(*ws);
        return;
    }

    // With a heuristic there is no low-memory mode (gale/wfa.h): the limit does not apply.
    const uint64_t limit = p.heuristic ? UINT64_MAX : (uint64_t)p.memory_limit_mib << 20;
    if (run_to_end(d, cM, f.pe, f.te, &ws->codes, &ws->rows, limit, k_end, h_end)) {
        if (d.unfeasible) return unfeasible();
        r.cells = d.cells;
        r.score = signed_score(d.s);
        const int32_t k0 = backtrace(d, ws->codes, ws->rows, cM, d.s, k_end, ws->ops);
        int64_t he = -1, ve = -1;
        // As wfa_replay(), on the sentinel copies.
        if (k0 > n || -k0 > m ||
            !replay(P, T, m, n, nmis, q.split_x, std::max<int64_t>(k0, 0), std::max<int64_t>(-k0, 0), true,
                    ws->ops.data(), ws->ops.size(), &he, &ve, cigar, padded) ||
            he != h_end || ve != (int64_t)h_end - k_end)
            fail(GALE_E_INTERNAL, "WFA replay does not reach the end found by the wavefronts");
        r.h_begin = std::max<int64_t>(k0, 0);
        r.v_begin = std::max<int64_t>(-k0, 0);
        r.h_end = he;
        r.v_end = ve;
        trim(*ws);
        return;
    }

    // Low-memory mode.
    uint64_t cells = d.cells;
    ws->codes.release();
    std::vector<CodeRow>().swap(ws->rows);
    r.flags |= GALE_RF_LOWMEM;
    int64_t hb = 0, vb = 0, he = n, ve = m, score;
    const bool ends_free = f.pb || f.tb || f.pe || f.te;
    if (ends_free) {
        // The end (forward, score only), then the begin (backwards from that end).
        d.setup(t.v, t.h, (int32_t)m, (int32_t)n, nmis, q, R, cM, f.pb, f.tb);
        run_to_end(d, cM, f.pe, f.te, nullptr, nullptr, 0, k_end, h_end);
        cells += d.cells;
        he = h_end;
        ve = (int64_t)h_end - k_end;
        score = d.s;
        Bi bi(*ws, t, q, nmis, limit);  // builds the reversed sequences
        Dir &b = ws->rev;
        b.setup(ws->prev.data() + (m - ve), ws->trev.data() + (n - he), (int32_t)ve, (int32_t)he, nmis, q, R, cM, 0,
                0);
        int32_t kb, hb2;
        if (q.a > 0 && (f.pb || f.tb)) {
            // A match score: the forward start on diagonal j cost a |j| (lib/wfa.h), so
            // the begin is the first boundary point the reverse wavefronts reach at
            // s with s + a * (its free bases) == score.
            find_begin_paid(b, f.pb, f.tb, q.a, score, kb, hb2);
        } else {
            run_to_end(b, cM, f.pb, f.tb, nullptr, nullptr, 0, kb, hb2);
            if (b.s != score) fail(GALE_E_INTERNAL, "WFA low-memory: begin search scored %lld, end search %lld",
                                   (long long)b.s, (long long)score);
        }
        cells += b.cells;
        hb = he - hb2;
        vb = ve - ((int64_t)hb2 - kb);
        const int64_t paid = (int64_t)q.a * (hb + vb);  // one of them is 0
        const int64_t s2 = bi.solve(hb, vb, he, ve, cM, cM, -1, cigar);
        cells += bi.cells;
        if (s2 + paid != score) fail(GALE_E_INTERNAL, "WFA low-memory: aligned region scored %lld, expected %lld",
                                     (long long)s2, (long long)(score - paid));
    } else {
        Bi bi(*ws, t, q, nmis, limit);
        score = bi.solve(0, 0, n, m, cM, cM, -1, cigar);
        cells += bi.cells;
    }
    r.score = signed_score(score);
    r.cells = cells;
    r.h_begin = hb;
    r.v_begin = vb;
    r.h_end = he;
    r.v_end = ve;
    std::vector<uint8_t>().swap(ws->prev);
    std::vector<uint8_t>().swap(ws->trev);
    trim(*ws);
}

}  // namespace

bool wfa_task_cpu(const PairTask &t, const WfaParams &p, WfaResult &r, std::vector<uint32_t> &cigar,
                  WfaWorkspace *&ws, const std::atomic<bool> *cancel) {
    if (!ws) ws = new WfaWorkspace();
    ws->fwd.cancel = ws->rev.cancel = cancel;
    try {
        align_task(t, p, r, cigar, ws);
        return true;
    } catch (const Stopped &) {
        // Given back as after a task that ends: what a long task took does not stay held.
        cigar.clear();
        std::vector<uint8_t>().swap(ws->prev);
        std::vector<uint8_t>().swap(ws->trev);
        trim(*ws);
        return false;
    }
}

void wfa_workspace_free(WfaWorkspace *ws) { delete ws; }

}  // namespace gale
