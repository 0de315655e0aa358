// CPU wavefront kernel, stage two: from the backtrace codes to the CIGAR. The
// backtrace walks the codes of lib/wfa.h back to score 0 (operations and the start
// diagonal); the replay rebuilds the CIGAR forwards from them (also for the GPU's
// operations, wfa_replay).
#include "wfa_core.h"

#include "errors.h"

namespace gale {
namespace wfacpu {

static_assert((int)kSrcD1 == cD1 && (int)kSrcI1 == cI1 && (int)kSrcD2 == cD2 && (int)kSrcI2 == cI2,
              "component numbers follow WfaSrc");

int32_t backtrace(const Dir &d, const CodeBuf &codes, const std::vector<CodeRow> &rows, int ce,
                  int64_t s_end, int32_t k_end, std::vector<WfaOp> &ops) {
    const Penalties &q = d.pen;
    ops.clear();
    int64_t s = s_end;
    int64_t k = k_end;
    int c = ce;
    uint32_t glen = 0;
    auto code_at = [&](int64_t sc, int64_t kk) -> uint8_t {
        const CodeRow &r = rows[(size_t)sc];
        if (kk < r.lo || kk > r.hi) fail(GALE_E_INTERNAL, "WFA backtrace left the wavefront (s %lld, k %lld)",
                                         (long long)sc, (long long)kk);
        return codes.at(r.off + (uint64_t)(kk - r.lo));
    };
    auto gap_piece = [&](int comp, int32_t &o, int32_t &e, uint8_t &bit, int &dk, uint32_t &opcode) {
        const bool two = comp == cD2 || comp == cI2;
        o = two ? q.o2 : q.o;
        e = two ? q.e2 : q.e;
        bit = comp == cD1 ? kExtD1 : comp == cI1 ? kExtI1 : comp == cD2 ? kExtD2 : kExtI2;
        const bool del = comp == cD1 || comp == cD2;  // consumes the text: SAM D, previous diagonal k - 1
        dk = del ? -1 : +1;
        opcode = del ? GALE_CIGAR_DEL : GALE_CIGAR_INS;
    };
    for (;;) {
        if (s == 0 && (c == cM || c == d.cs)) {
            if (c != cM) {
                int32_t o, e;
                uint8_t bit;
                int dk;
                uint32_t opc;
                gap_piece(c, o, e, bit, dk, opc);
                if (glen) ops.push_back(WfaOp{opc, glen});
            }
            break;
        }
        if (s < 0) fail(GALE_E_INTERNAL, "WFA backtrace went below score 0");
        const uint8_t code = code_at(s, k);
        if (c == cM) {
            const int src = code & 7;
            if (q.metric == kMetricEdit) {
                if (src == kSrcX) ops.push_back(WfaOp{GALE_CIGAR_DIFF, 1});
                else if (src == kSrcD1) { ops.push_back(WfaOp{GALE_CIGAR_DEL, 1}); k -= 1; }
                else { ops.push_back(WfaOp{GALE_CIGAR_INS, 1}); k += 1; }
                s -= 1;
            } else if (src == kSrcX) {
                ops.push_back(WfaOp{GALE_CIGAR_DIFF, 1});
                s -= q.x;
            } else {
                c = src;  // kSrcD1.. map to the component numbers
            }
        } else {
            int32_t o, e;
            uint8_t bit;
            int dk;
            uint32_t opc;
            gap_piece(c, o, e, bit, dk, opc);
            ++glen;
            k += dk;
            if (code & bit) {
                s -= e;
            } else {
                ops.push_back(WfaOp{opc, glen});
                glen = 0;
                s -= (int64_t)o + e;
                c = cM;
            }
        }
    }
    std::reverse(ops.begin(), ops.end());
    return (int32_t)k;
}

bool replay(const uint8_t *P, const uint8_t *T, int64_t m, int64_t n, bool nmis, int64_t h, int64_t v,
            bool extend_first, const WfaOp *ops, size_t n_ops, int64_t *h_end, int64_t *v_end,
            std::vector<uint32_t> &cigar, bool padded) {
    auto ext = [&]() {
        const int64_t h0 = h;
        if (padded)
            h = nmis ? extend_run_padded<true>(P, T, (int32_t)h, (int32_t)v)
                     : extend_run_padded<false>(P, T, (int32_t)h, (int32_t)v);
        else
            h = nmis ? extend_run<true>(P, T, (int32_t)h, (int32_t)v, (int32_t)n, (int32_t)m)
                     : extend_run<false>(P, T, (int32_t)h, (int32_t)v, (int32_t)n, (int32_t)m);
        v += h - h0;
        push_op(cigar, GALE_CIGAR_EQUAL, (uint64_t)(h - h0));
    };
    if (extend_first) ext();
    for (size_t i = 0; i < n_ops; ++i) {
        const WfaOp &op = ops[i];
        switch (op.code) {
        case GALE_CIGAR_DIFF:
            if (op.len != 1 || h >= n || v >= m || wfa_match(P[v], T[h], nmis ? 1 : 0)) return false;
            ++h;
            ++v;
            break;
        case GALE_CIGAR_DEL:
            if (op.len == 0 || (int64_t)op.len > n - h) return false;
            h += op.len;
            break;
        case GALE_CIGAR_INS:
            if (op.len == 0 || (int64_t)op.len > m - v) return false;
            v += op.len;
            break;
        default: return false;
        }
        push_op(cigar, op.code, op.len);
        ext();
    }
    *h_end = h;
    *v_end = v;
    return true;
}

}  // namespace wfacpu

bool wfa_replay(const PairTask &t, const WfaParams &p, int64_t k0, const WfaOp *ops, size_t n_ops, int64_t *h_end,
                int64_t *v_end, std::vector<uint32_t> &cigar) {
    if (k0 > t.h_len || -k0 > t.v_len) return false;
    const bool nmis = p.n_policy == GALE_N_MISMATCH;
    return wfacpu::replay(t.v, t.h, t.v_len, t.h_len, nmis, std::max<int64_t>(k0, 0), std::max<int64_t>(-k0, 0),
                          true, ops, n_ops, h_end, v_end, cigar);
}

}  // namespace gale
