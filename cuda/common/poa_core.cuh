// SPOA 4.0.8's partial-order alignment for the CUDA kernel (cuda/poa.cu): one window
// (a task: reads aligned one by one to a graph that grows) computed by a group of
// threads (a warp on the GPU), restated from lib/cpu/poa.cpp cell for cell, so that
// the same code runs on the host with emulated groups of 1, 4 and 32 threads
// (tests/unit/poa_core_host.cpp checks it against the CPU kernel, bit for bit, without
// a GPU).
//
// What the group shares and what one thread does:
//  - the DP fill, row by row in rank order: the diagonal and vertical moves of a row
//    (every predecessor's row, taken in in-edge order as the CPU kernel does) are
//    independent per column: the columns are split over the threads in uniform rounds;
//  - the horizontal moves of a row (linear and affine) as a two-pass scan: each thread
//    runs the recurrence over its own block of columns from "nothing carried in" (pass
//    1), the blocks' carries are chained (max-plus: carry' = max(A, carry + S), exact in
//    integers), and each thread reruns its block with the true carry (pass 2) with the
//    CPU kernel's very expressions, so every stored H and E is the CPU kernel's. Convex
//    gaps (SPOA's lane blocks, lib/poa.h) run the row's horizontal pass on thread 0;
//  - the row maximum as a group reduction (max is order-free);
//  - the backtrack, the graph insertion (SPOA's AddAlignment) and SPOA's topological
//    sort on thread 0: serial, O(nodes + read) per read against O(nodes x read) for the
//    fill.
// Uniform rounds (cuda/common/zdrop_core.cuh): every per-lane loop runs the same trip
// count on every lane with a guarded body, never a bound made of min/max chains.
//
// What comes out per read: its score (as CPU, left 0 where SPOA leaves it) and the
// alignment projected on the read: vfront..vback (the first and last aligned read
// positions, -1 for an empty alignment) and for each position in between the graph node
// it aligned to, or -1 (an insertion). That is all SPOA's AddAlignment reads of an
// alignment (it skips the pairs without a read position), so the host rebuilds the very
// graph (with its edge weights and labels, which the device does not keep) from it
// (poa::Graph::add_projected) and draws consensus, MSA and GFA from it.
//
// The graph on the device: nodes (code, in- and out-edge lists as linked lists in SPOA's
// order, the aligned-node ring as a fixed array of codes - 1 entries: the members of a
// ring have distinct codes), edges (tail, head, list links), SPOA's rank order. Every
// capacity is a bound computed on the host from the window (pg_layout); the core still
// checks each one and fails the task (kPgCapacity: the host rescues it on the CPU).
#ifndef GALE_CUDA_POA_CORE_CUH
#define GALE_CUDA_POA_CORE_CUH

#include <climits>
#include <cstdint>

#include "poa.h"

#if defined(__CUDACC__)
#define GALE_PG_HD __host__ __device__ __forceinline__
#define GALE_PG_SERIAL __host__ __device__
#define GALE_PG_GROUP __device__ __forceinline__
#else
#define GALE_PG_HD inline
#define GALE_PG_SERIAL inline
#define GALE_PG_GROUP inline
#endif

namespace gale {
namespace poag {

using poa::Params;

constexpr int32_t kNegInf = INT32_MIN + 1024;
enum : int32_t { kPgOk = 0, kPgOverflow = 1, kPgNoPred = 2, kPgCanceled = 3, kPgCapacity = 4 };
constexpr int kPgMaxGroup = 32;  // threads of a group at most (the scan's carries)

GALE_PG_HD int32_t mx(int32_t a, int32_t b) { return a > b ? a : b; }
GALE_PG_HD uint64_t al16(uint64_t b) { return (b + 15) / 16 * 16; }

// A max-plus affine form of two carries: max(k, cx + a, cy + b); kFormNone stands for
// minus infinity (far below any score, and no sum of it with scores comes near one).
struct PgForm {
    int64_t k, a, b;
};
constexpr int64_t kFormNone = -((int64_t)1 << 60);
GALE_PG_HD int64_t mx64(int64_t x, int64_t y) { return x > y ? x : y; }
GALE_PG_HD PgForm pf_const(int64_t k) { return PgForm{k, kFormNone, kFormNone}; }
GALE_PG_HD PgForm pf_add(PgForm f, int64_t d) { return PgForm{f.k + d, f.a + d, f.b + d}; }
GALE_PG_HD PgForm pf_max(PgForm x, PgForm y) { return PgForm{mx64(x.k, y.k), mx64(x.a, y.a), mx64(x.b, y.b)}; }
GALE_PG_HD int64_t pf_eval(int64_t k, int64_t a, int64_t b, int64_t cx, int64_t cy) {
    return mx64(k, mx64(cx + a, cy + b));
}

// A window's capacities and the byte offsets of its regions in the task's work memory.
struct PgLayout {
    uint64_t cap_n;   // nodes: the window's bases + 1, or less (node_cap)
    uint64_t cap_e;   // edges: the window's bases + 1, or twice cap_n if less
    uint64_t cap_a;   // aligned-ring entries per node: distinct bytes - 1 (at least 1)
    uint64_t cap_s;   // the topological sort's stack
    uint64_t codes;   // distinct bytes of the window
    uint64_t max_l;   // longest read
    uint64_t mat;     // cells of one DP matrix: max over reads of (nodes before + 1) x length
    int32_t n_mats;   // 1 linear, 3 affine, 5 convex
    int32_t pad;
    // byte offsets
    uint64_t o_state, o_code, o_in_head, o_in_tail, o_out_head, o_out_tail, o_n_al, o_al;
    uint64_t o_e_tail, o_e_head, o_e_next_in, o_e_next_out;
    uint64_t o_rtn, o_rank, o_marks, o_ignored, o_stack;
    uint64_t o_fcH, o_fcF, o_fcO, o_H1, o_prof, o_scan, o_mat;
    uint64_t bytes;  // all of it
};

// The few scalars of the graph.
struct PgState {
    uint32_t num_codes, n_nodes, n_edges, pad;
    int32_t coder[256];
    int32_t decoder[256];
};

// lens: the reads' lengths; codes: distinct bytes over the window. node_cap: 0 for the
// bound that always holds (every base a new node), else at most that many nodes (the
// DP matrices, the largest part, sized for it too): a window whose graph grows past it
// fails with kPgCapacity, and the host runs it again with the bound.
inline PgLayout pg_layout(const int64_t *lens, uint64_t n_reads, uint64_t codes, int32_t subtype,
                          uint64_t node_cap = 0) {
    PgLayout l{};
    uint64_t sum = 0, max_l = 0;
    for (uint64_t k = 0; k < n_reads; ++k) {
        const uint64_t L = (uint64_t)lens[k];
        if (L > max_l) max_l = L;
        sum += L;
    }
    l.cap_n = sum + 1;
    if (node_cap > 0 && node_cap < l.cap_n) l.cap_n = node_cap;
    l.cap_e = 2 * l.cap_n < sum + 1 ? 2 * l.cap_n : sum + 1;
    uint64_t mat = 0, before = 0;
    for (uint64_t k = 0; k < n_reads; ++k) {
        const uint64_t L = (uint64_t)lens[k];
        const uint64_t rows = (before < l.cap_n ? before : l.cap_n) + 1;
        if (L > 0 && rows * L > mat) mat = rows * L;
        before += L;
    }
    l.codes = codes < 1 ? 1 : codes;
    l.cap_a = codes > 1 ? codes - 1 : 1;
    // Each node is looked at (not yet sorted) at most twice, pushing its in-edges' tails
    // and its ring each time.
    l.cap_s = l.cap_n + 2 * l.cap_e + 2 * l.cap_n * l.cap_a + 16;
    l.max_l = max_l;
    l.mat = mat;
    l.n_mats = subtype == poa::kLinear ? 1 : subtype == poa::kAffine ? 3 : 5;
    uint64_t at = 0;
    auto take = [&](uint64_t &o, uint64_t b) {
        o = at;
        at += al16(b);
    };
    const uint64_t N = l.cap_n;
    take(l.o_state, sizeof(PgState));
    take(l.o_code, N * 4);
    take(l.o_in_head, N * 4);
    take(l.o_in_tail, N * 4);
    take(l.o_out_head, N * 4);
    take(l.o_out_tail, N * 4);
    take(l.o_n_al, N * 4);
    take(l.o_al, N * l.cap_a * 4);
    take(l.o_e_tail, l.cap_e * 4);
    take(l.o_e_head, l.cap_e * 4);
    take(l.o_e_next_in, l.cap_e * 4);
    take(l.o_e_next_out, l.cap_e * 4);
    take(l.o_rtn, N * 4);
    take(l.o_rank, N * 4);
    take(l.o_marks, N);
    take(l.o_ignored, N);
    take(l.o_stack, l.cap_s * 4);
    take(l.o_fcH, (N + 1) * 4);
    take(l.o_fcF, (N + 1) * 4);
    take(l.o_fcO, (N + 1) * 4);
    take(l.o_H1, (max_l + 1) * 4);
    take(l.o_prof, l.codes * (max_l + 1) * 4);
    take(l.o_scan, 6 * kPgMaxGroup * 8);  // the scans' per-thread carries
    take(l.o_mat, (uint64_t)l.n_mats * (mat + 1) * 4);
    l.bytes = at;
    return l;
}

// Pointers into one task's work memory.
struct PgMem {
    PgState *st;
    uint32_t *code, *n_al, *al;
    int32_t *in_head, *in_tail, *out_head, *out_tail;
    int32_t *e_tail, *e_head, *e_next_in, *e_next_out;
    uint32_t *rtn, *rank, *stack;
    uint8_t *marks, *ignored;
    int32_t *fcH, *fcF, *fcO, *H1, *prof, *scan;
    int32_t *H, *F, *E, *O, *Q;
};

GALE_PG_HD PgMem pg_mem(char *base, const PgLayout &l) {
    PgMem m;
    m.st = reinterpret_cast<PgState *>(base + l.o_state);
    m.code = reinterpret_cast<uint32_t *>(base + l.o_code);
    m.in_head = reinterpret_cast<int32_t *>(base + l.o_in_head);
    m.in_tail = reinterpret_cast<int32_t *>(base + l.o_in_tail);
    m.out_head = reinterpret_cast<int32_t *>(base + l.o_out_head);
    m.out_tail = reinterpret_cast<int32_t *>(base + l.o_out_tail);
    m.n_al = reinterpret_cast<uint32_t *>(base + l.o_n_al);
    m.al = reinterpret_cast<uint32_t *>(base + l.o_al);
    m.e_tail = reinterpret_cast<int32_t *>(base + l.o_e_tail);
    m.e_head = reinterpret_cast<int32_t *>(base + l.o_e_head);
    m.e_next_in = reinterpret_cast<int32_t *>(base + l.o_e_next_in);
    m.e_next_out = reinterpret_cast<int32_t *>(base + l.o_e_next_out);
    m.rtn = reinterpret_cast<uint32_t *>(base + l.o_rtn);
    m.rank = reinterpret_cast<uint32_t *>(base + l.o_rank);
    m.marks = reinterpret_cast<uint8_t *>(base + l.o_marks);
    m.ignored = reinterpret_cast<uint8_t *>(base + l.o_ignored);
    m.stack = reinterpret_cast<uint32_t *>(base + l.o_stack);
    m.fcH = reinterpret_cast<int32_t *>(base + l.o_fcH);
    m.fcF = reinterpret_cast<int32_t *>(base + l.o_fcF);
    m.fcO = reinterpret_cast<int32_t *>(base + l.o_fcO);
    m.H1 = reinterpret_cast<int32_t *>(base + l.o_H1);
    m.prof = reinterpret_cast<int32_t *>(base + l.o_prof);
    m.scan = reinterpret_cast<int32_t *>(base + l.o_scan);
    int32_t *mat = reinterpret_cast<int32_t *>(base + l.o_mat);
    const uint64_t sz = l.mat + 1;
    m.H = mat;
    m.F = l.n_mats >= 3 ? mat + sz : nullptr;
    m.E = l.n_mats >= 3 ? mat + 2 * sz : nullptr;
    m.O = l.n_mats >= 5 ? mat + 3 * sz : nullptr;
    m.Q = l.n_mats >= 5 ? mat + 4 * sz : nullptr;
    return m;
}

// ---------------------------------------------------------------- the graph (serial)

GALE_PG_SERIAL void pg_graph_init(const PgMem &M) {
    M.st->num_codes = M.st->n_nodes = M.st->n_edges = 0;
    for (int i = 0; i < 256; ++i) M.st->coder[i] = M.st->decoder[i] = -1;
}

GALE_PG_SERIAL int64_t pg_add_node(const PgLayout &l, const PgMem &M, uint32_t code) {
    const uint32_t id = M.st->n_nodes;
    if ((uint64_t)id + 1 > l.cap_n) return -1;
    M.st->n_nodes = id + 1;
    M.code[id] = code;
    M.in_head[id] = M.in_tail[id] = M.out_head[id] = M.out_tail[id] = -1;
    M.n_al[id] = 0;
    return id;
}

// Graph::add_edge without weights and labels (the host keeps those). False: capacity.
GALE_PG_SERIAL bool pg_add_edge(const PgLayout &l, const PgMem &M, uint32_t tail, uint32_t head) {
    for (int32_t e = M.out_head[tail]; e >= 0; e = M.e_next_out[e])
        if ((uint32_t)M.e_head[e] == head) return true;
    const uint32_t e = M.st->n_edges;
    if ((uint64_t)e + 1 > l.cap_e) return false;
    M.st->n_edges = e + 1;
    M.e_tail[e] = (int32_t)tail, M.e_head[e] = (int32_t)head;
    M.e_next_in[e] = M.e_next_out[e] = -1;
    if (M.out_tail[tail] < 0) M.out_head[tail] = (int32_t)e;
    else M.e_next_out[M.out_tail[tail]] = (int32_t)e;
    M.out_tail[tail] = (int32_t)e;
    if (M.in_tail[head] < 0) M.in_head[head] = (int32_t)e;
    else M.e_next_in[M.in_tail[head]] = (int32_t)e;
    M.in_tail[head] = (int32_t)e;
    return true;
}

// Graph::add_sequence: -1 for an empty range, -2 for capacity, else the first node.
GALE_PG_SERIAL int64_t pg_add_sequence(const PgLayout &l, const PgMem &M, const uint8_t *seq, uint32_t begin,
                                       uint32_t end) {
    if (begin == end) return -1;
    int64_t prev = -1;
    for (uint32_t i = begin; i < end; ++i) {
        const int64_t curr = pg_add_node(l, M, (uint32_t)M.st->coder[seq[i]]);
        if (curr < 0) return -2;
        if (prev >= 0 && !pg_add_edge(l, M, (uint32_t)prev, (uint32_t)curr)) return -2;
        prev = curr;
    }
    return (int64_t)M.st->n_nodes - (end - begin);
}

GALE_PG_SERIAL bool pg_al_push(const PgLayout &l, const PgMem &M, uint32_t node, uint32_t v) {
    if (M.n_al[node] >= l.cap_a) return false;
    M.al[(uint64_t)node * l.cap_a + M.n_al[node]++] = v;
    return true;
}

// Graph::topological_sort, the same depth-first walk. Also rank[] (the DP's rows).
GALE_PG_SERIAL bool pg_sort(const PgLayout &l, const PgMem &M) {
    const uint32_t N = M.st->n_nodes;
    for (uint32_t k = 0; k < N; ++k) M.marks[k] = 0, M.ignored[k] = 0;
    uint32_t n_rank = 0;
    uint64_t sp = 0;
    for (uint32_t n0 = 0; n0 < N; ++n0) {
        if (M.marks[n0] != 0) continue;
        M.stack[sp++] = n0;
        while (sp > 0) {
            const uint32_t curr = M.stack[sp - 1];
            bool valid = true;
            if (M.marks[curr] != 2) {
                for (int32_t e = M.in_head[curr]; e >= 0; e = M.e_next_in[e]) {
                    const uint32_t t = (uint32_t)M.e_tail[e];
                    if (M.marks[t] != 2) {
                        if (sp >= l.cap_s) return false;
                        M.stack[sp++] = t;
                        valid = false;
                    }
                }
                const uint32_t *ring = M.al + (uint64_t)curr * l.cap_a;
                if (!M.ignored[curr]) {
                    for (uint32_t k = 0; k < M.n_al[curr]; ++k) {
                        const uint32_t jt = ring[k];
                        if (M.marks[jt] != 2) {
                            if (sp >= l.cap_s) return false;
                            M.stack[sp++] = jt;
                            M.ignored[jt] = 1;
                            valid = false;
                        }
                    }
                }
                if (valid) {
                    M.marks[curr] = 2;
                    if (!M.ignored[curr]) {
                        M.rtn[n_rank++] = curr;
                        for (uint32_t k = 0; k < M.n_al[curr]; ++k) M.rtn[n_rank++] = ring[k];
                    }
                } else {
                    M.marks[curr] = 1;
                }
            }
            if (valid) --sp;
        }
    }
    for (uint32_t i = 0; i < n_rank; ++i) M.rank[M.rtn[i]] = i;
    return true;
}

// Graph::add_alignment from the projected alignment (proj[p] for vf <= p <= vb).
GALE_PG_SERIAL int32_t pg_add(const PgLayout &l, const PgMem &M, const uint8_t *seq, uint32_t len,
                              const int32_t *proj, int32_t vf, int32_t vb) {
    if (len == 0) return kPgOk;
    PgState &s = *M.st;
    for (uint32_t i = 0; i < len; ++i) {
        const uint8_t b = seq[i];
        if (s.coder[b] == -1) {
            s.coder[b] = (int32_t)s.num_codes;
            s.decoder[s.num_codes++] = b;
        }
    }
    if (vf < 0) {
        if (pg_add_sequence(l, M, seq, 0, len) == -2) return kPgCapacity;
        return pg_sort(l, M) ? kPgOk : kPgCapacity;
    }
    int64_t begin = pg_add_sequence(l, M, seq, 0, (uint32_t)vf);
    if (begin == -2) return kPgCapacity;
    int64_t prev = begin >= 0 ? (int64_t)s.n_nodes - 1 : -1;
    const int64_t last = pg_add_sequence(l, M, seq, (uint32_t)vb + 1, len);
    if (last == -2) return kPgCapacity;
    for (int32_t p = vf; p <= vb; ++p) {
        const uint32_t code = (uint32_t)s.coder[seq[p]];
        int64_t curr = -1;
        const int32_t jn = proj[p];
        if (jn == -1) {
            curr = pg_add_node(l, M, code);
            if (curr < 0) return kPgCapacity;
        } else {
            const uint32_t jt = (uint32_t)jn;
            const uint32_t *ring = M.al + (uint64_t)jt * l.cap_a;
            if (M.code[jt] == code) {
                curr = jt;
            } else {
                for (uint32_t k = 0; k < M.n_al[jt]; ++k)
                    if (M.code[ring[k]] == code) {
                        curr = ring[k];
                        break;
                    }
                if (curr < 0) {
                    curr = pg_add_node(l, M, code);
                    if (curr < 0) return kPgCapacity;
                    const uint32_t cu = (uint32_t)curr;
                    const uint32_t n_ring = M.n_al[jt];  // appending to the others leaves jt's alone
                    for (uint32_t k = 0; k < n_ring; ++k) {
                        const uint32_t kt = ring[k];
                        if (!pg_al_push(l, M, kt, cu) || !pg_al_push(l, M, cu, kt)) return kPgCapacity;
                    }
                    if (!pg_al_push(l, M, jt, cu) || !pg_al_push(l, M, cu, jt)) return kPgCapacity;
                }
            }
        }
        if (begin < 0) begin = curr;
        if (prev >= 0 && !pg_add_edge(l, M, (uint32_t)prev, (uint32_t)curr)) return kPgCapacity;
        prev = curr;
    }
    if (last >= 0 && !pg_add_edge(l, M, (uint32_t)prev, (uint32_t)last)) return kPgCapacity;
    return pg_sort(l, M) ? kPgOk : kPgCapacity;
}

// ---------------------------------------------------------------- alignment

// AlignmentEngine::WorstCaseAlignmentScore (lib/cpu/poa.cpp's worst_case).
GALE_PG_HD int64_t pg_worst_case(const Params &p, int64_t i, int64_t j) {
    auto gap = [&](int64_t len) -> int64_t {
        if (len == 0) return 0;
        const int64_t a = p.g + (len - 1) * p.e, b = p.q + (len - 1) * p.c;
        return a < b ? a : b;
    };
    const int64_t mn = i < j ? i : j, d = i > j ? i - j : j - i;
    const int64_t x = -1 * (p.m * mn + gap(d)), y = gap(i) + gap(j);
    return x < y ? x : y;
}

// The predecessor rows of a node as the CPU kernel takes them: its in-edges in order, or
// row 0 alone for a node without one. Iterate with e = pg_pred_first(...); e != -1;
// e = pg_pred_next(...).
GALE_PG_HD int32_t pg_pred_first(const PgMem &M, uint32_t node) {
    return M.in_head[node] < 0 ? -2 : M.in_head[node];
}
GALE_PG_HD int32_t pg_pred_next(const PgMem &M, int32_t e) { return e == -2 ? -1 : M.e_next_in[e]; }
GALE_PG_HD uint32_t pg_pred_row(const PgMem &M, int32_t e) {
    return e == -2 ? 0 : M.rank[M.e_tail[e]] + 1;
}

// The backtrack (lib/cpu/poa.cpp's, cell by cell), writing the projection. Serial.
GALE_PG_SERIAL int32_t pg_backtrack(const Params &P, const PgMem &M, uint32_t L, int64_t max_i, int64_t max_j,
                                    int32_t *proj, int32_t *vf, int32_t *vb) {
    const bool affine = P.subtype != poa::kLinear, convex = P.subtype == poa::kConvex;
    const int32_t g = P.g, e = P.e, q = P.q, c = P.c;
    const uint64_t Lw = L;
    const int32_t *H = M.H, *F = M.F, *E = M.E, *O = M.O, *Q = M.Q;
    const int32_t *fcH = M.fcH, *fcF = M.fcF, *fcO = M.fcO;
#define PG_AT(X, i, j) X[(uint64_t)(i) * Lw + (uint64_t)(j)]
    int64_t i = max_i, j = max_j, prev_i = 0, prev_j = 0;
    int32_t first_pos = -1, last_pos = -1;
    auto emit = [&](int32_t node, int32_t pos) {
        if (pos < 0) return;
        proj[pos] = node;
        if (first_pos < 0) first_pos = pos;
        last_pos = pos;
    };
    while (true) {
        if (j == -1 || i == 0) break;
        const uint32_t nd = M.rtn[i - 1];
        const int32_t h = PG_AT(H, i, j);
        if (P.type == poa::kSW && h == 0) break;
        bool found = false, extend_left = false, extend_up = false;
        const int32_t pc = M.prof[(uint64_t)M.code[nd] * Lw + (uint64_t)j];
        for (int32_t ed = pg_pred_first(M, nd); ed != -1; ed = pg_pred_next(M, ed)) {
            const uint32_t pr = pg_pred_row(M, ed);
            if (h == (j == 0 ? fcH[pr] : PG_AT(H, pr, j - 1)) + pc) {
                prev_i = pr, prev_j = j - 1, found = true;
                break;
            }
        }
        if (!found)
            for (int32_t ed = pg_pred_first(M, nd); ed != -1; ed = pg_pred_next(M, ed)) {
                const uint32_t pr = pg_pred_row(M, ed);
                const int32_t hp = PG_AT(H, pr, j);
                bool hit;
                if (!affine)
                    hit = h == hp + g;
                else if (!convex)
                    hit = (extend_up = h == PG_AT(F, pr, j) + e) || h == hp + g;
                else
                    hit = (extend_up = h == PG_AT(F, pr, j) + e) || h == hp + g ||
                          (extend_up = h == PG_AT(O, pr, j) + c) || h == hp + q;
                if (hit) {
                    prev_i = pr, prev_j = j, found = true;
                    break;
                }
            }
        if (!found) {
            const int32_t hl = j == 0 ? fcH[i] : PG_AT(H, i, j - 1);
            bool hit;
            if (!affine) {
                hit = h == hl + g;
            } else {
                const int32_t el = j == 0 ? fcH[i] : PG_AT(E, i, j - 1);
                if (!convex) {
                    hit = (extend_left = h == el + e) || h == hl + g;
                } else {
                    const int32_t ql = j == 0 ? fcH[i] : PG_AT(Q, i, j - 1);
                    hit = (extend_left = h == el + e) || h == hl + g || (extend_left = h == ql + c) || h == hl + q;
                }
            }
            if (hit) prev_i = i, prev_j = j - 1, found = true;
        }
        if (!found) return kPgNoPred;
        emit(i == prev_i ? -1 : (int32_t)nd, j == prev_j ? -1 : (int32_t)j);
        i = prev_i, j = prev_j;
        if (extend_left) {
            while (true) {
                emit(-1, (int32_t)j);
                --j;
                if (j == -1 || PG_AT(E, i, j) + e != PG_AT(E, i, j + 1) ||
                    (convex && PG_AT(Q, i, j) + c != PG_AT(Q, i, j + 1)))
                    break;
            }
        } else if (extend_up) {
            while (true) {
                const uint32_t n2 = M.rtn[i - 1];
                const int32_t fv = PG_AT(F, i, j), ov = convex ? PG_AT(O, i, j) : 0;
                bool stop;
                prev_i = 0;
                if (!convex) {
                    stop = false;
                    for (int32_t ed = M.in_head[n2]; ed >= 0; ed = M.e_next_in[ed]) {
                        const uint32_t pr = M.rank[M.e_tail[ed]] + 1;
                        if ((stop = fv == PG_AT(H, pr, j) + g) || fv == PG_AT(F, pr, j) + e) {
                            prev_i = pr;
                            break;
                        }
                    }
                } else {
                    stop = true;
                    for (int32_t ed = M.in_head[n2]; ed >= 0; ed = M.e_next_in[ed]) {
                        const uint32_t pr = M.rank[M.e_tail[ed]] + 1;
                        if (fv == PG_AT(F, pr, j) + e || ov == PG_AT(O, pr, j) + c) {
                            prev_i = pr, stop = false;
                            break;
                        }
                    }
                    if (stop)
                        for (int32_t ed = M.in_head[n2]; ed >= 0; ed = M.e_next_in[ed]) {
                            const uint32_t pr = M.rank[M.e_tail[ed]] + 1;
                            if (fv == PG_AT(H, pr, j) + g || ov == PG_AT(H, pr, j) + q) {
                                prev_i = pr;
                                break;
                            }
                        }
                }
                emit((int32_t)n2, -1);
                i = prev_i;
                if (stop || i == 0) break;
            }
        }
    }
    if (P.type == poa::kNW) {  // the backtrack stops on the first row or column
        while (i == 0 && j != -1) emit(-1, (int32_t)j--);
        while (i != 0 && j == -1) {
            const uint32_t n2 = M.rtn[i - 1];
            if (M.in_head[n2] < 0) {
                i = 0;
                continue;
            }
            bool moved = false;
            for (int32_t ed = M.in_head[n2]; ed >= 0; ed = M.e_next_in[ed]) {
                const uint32_t pr = M.rank[M.e_tail[ed]] + 1;
                const bool hit = !affine   ? fcH[i] == fcH[pr] + g
                                 : !convex ? fcH[i] == fcH[pr] + e
                                           : fcF[i] == fcF[pr] + e || fcO[i] == fcO[pr] + c;
                if (hit) {
                    i = pr, moved = true;
                    break;
                }
            }
            if (!moved) return kPgNoPred;
        }
    }
#undef PG_AT
    // The backtrack walks from the end: the first position it met is the last.
    *vb = first_pos, *vf = last_pos;
    return kPgOk;
}

// The first column of a gap function (SimdAlignmentEngine::Initialize). Serial.
GALE_PG_SERIAL void pg_first_col(const PgMem &M, uint32_t N, int32_t *fc, int32_t base, int32_t ext) {
    fc[0] = 0;
    for (uint32_t i = 1; i <= N; ++i) {
        const uint32_t nd = M.rtn[i - 1];
        int32_t pen = M.in_head[nd] < 0 ? base : kNegInf;
        for (int32_t ed = M.in_head[nd]; ed >= 0; ed = M.e_next_in[ed]) pen = mx(pen, fc[M.rank[M.e_tail[ed]] + 1]);
        fc[i] = pen + ext;
    }
}

// What a read's alignment reports.
struct PgRead {
    int32_t score;     // left 0 where SPOA leaves it
    int32_t vf, vb;    // aligned read positions, -1: none
    int32_t status;
    uint64_t cells;
};

// Aligns seq (L bytes) to the graph in M as poa::Engine::align; the group's threads all
// return the same status. proj: L entries.
// The group G: size, tid(), sync() (a barrier that also orders memory), max(v) (the
// group's maximum; also a barrier), bcast(v) (thread 0's v to all; a barrier), stop()
// (true on every thread once the batch is cancelled).
template <class G>
GALE_PG_GROUP int32_t pg_align(G &g, const Params &P, const PgLayout &l, const PgMem &M, const uint8_t *seq,
                               uint32_t L, int32_t *proj, PgRead &r) {
    const int T = G::size, tid = g.tid();
    r.vf = r.vb = -1;
    const uint32_t N = M.st->n_nodes;
    if (N == 0 || L == 0) return kPgOk;
    const int64_t worst = pg_worst_case(P, (int64_t)L + 8, N);
    if (worst < (int64_t)INT32_MIN + 1024) return kPgOverflow;
    if ((uint64_t)(N + 1) * L > l.mat + 1 || L > l.max_l || M.st->num_codes > l.codes) return kPgCapacity;
    const uint32_t W = worst < (int64_t)INT16_MIN + 1024 ? P.lanes32 : P.lanes16;
    const bool affine = P.subtype != poa::kLinear, convex = P.subtype == poa::kConvex;
    const int32_t m = P.m, n = P.n, g_ = P.g, e = P.e, q = P.q, c = P.c;
    const uint64_t Lw = L, rows = (uint64_t)N + 1;
    r.cells += (uint64_t)N * L;
    int32_t *H = M.H, *F = M.F, *E = M.E, *O = M.O, *Q = M.Q, *H1 = M.H1;
    int32_t *fcH = M.fcH, *fcF = M.fcF, *fcO = M.fcO;
    const uint32_t rounds = (L + T - 1) / T;  // columns per thread, strided

    // The profile and row 0.
    const uint32_t codes = M.st->num_codes;
    for (uint32_t k = 0; k < codes; ++k) {
        const uint32_t ch = (uint32_t)M.st->decoder[k];
        for (uint32_t rd = 0; rd < rounds; ++rd) {
            const uint32_t j = rd * T + tid;
            if (j < L) M.prof[k * Lw + j] = ch == seq[j] ? m : n;
        }
    }
    for (uint32_t rd = 0; rd < rounds; ++rd) {
        const uint32_t j = rd * T + tid;
        if (j >= L) continue;
        const int32_t jj = (int32_t)j;
        int32_t ev = 0, qv = 0;
        if (convex) O[j] = kNegInf, Q[j] = qv = q + jj * c;
        if (affine) F[j] = kNegInf, E[j] = ev = g_ + jj * e;
        if (P.type == poa::kSW) H[j] = 0;
        else H[j] = convex ? mx(ev, qv) : affine ? ev : g_ + jj * g_;
    }
    if (tid == 0) {
        if (convex) pg_first_col(M, N, fcO, q - c, c);
        if (affine) pg_first_col(M, N, fcF, g_ - e, e);
        if (P.type == poa::kSW || P.type == poa::kOV) {
            for (uint64_t i = 0; i < rows; ++i) fcH[i] = 0;
        } else if (convex) {
            for (uint64_t i = 0; i < rows; ++i) fcH[i] = mx(fcF[i], fcO[i]);
        } else if (affine) {
            for (uint64_t i = 0; i < rows; ++i) fcH[i] = fcF[i];
        } else {
            pg_first_col(M, N, fcH, 0, g_);
        }
    }
    g.sync();

    // The scan's blocks: thread t owns columns [t * B, t * B + B).
    const uint32_t B = (L + T - 1) / T;
    const uint32_t lo = (uint32_t)tid * B;
    int32_t max_score = P.type == poa::kSW ? 0 : kNegInf;
    int64_t max_i = -1;
    for (uint64_t i = 1; i < rows; ++i) {
        if ((i & 255) == 0 && g.stop()) return kPgCanceled;
        const uint32_t nd = M.rtn[i - 1];
        const int32_t *prof = M.prof + (uint64_t)M.code[nd] * Lw;
        int32_t *Hr = H + i * Lw;
        int32_t *Fr = affine ? F + i * Lw : nullptr, *Or = convex ? O + i * Lw : nullptr;
        // Diagonal and vertical moves, column by column (the CPU kernel's expressions).
        for (uint32_t rd = 0; rd < rounds; ++rd) {
            const uint32_t j = rd * T + tid;
            if (j >= L) continue;
            int32_t D = 0, fr = 0, orr = 0;
            bool first = true;
            for (int32_t ed = pg_pred_first(M, nd); ed != -1; ed = pg_pred_next(M, ed), first = false) {
                const uint64_t pr = pg_pred_row(M, ed);
                const int32_t *Hp = H + pr * Lw;
                if (!affine) {
                    const int32_t v = mx((j == 0 ? fcH[pr] : Hp[j - 1]) + prof[j], Hp[j] + g_);
                    D = first ? v : mx(D, v);
                    continue;
                }
                const int32_t d = (j == 0 ? fcH[pr] : Hp[j - 1]) + prof[j];
                D = first ? d : mx(D, d);
                const int32_t fv = mx(Hp[j] + (g_ - e), F[pr * Lw + j]) + e;
                fr = first ? fv : mx(fr, fv);
                if (convex) {
                    const int32_t ov = mx(Hp[j] + (q - c), O[pr * Lw + j]) + c;
                    orr = first ? ov : mx(orr, ov);
                }
            }
            if (affine) Fr[j] = fr;
            if (convex) Or[j] = orr;
            H1[j] = convex ? mx(D, mx(fr, orr)) : affine ? mx(D, fr) : D;
        }
        g.sync();
        int32_t row_max = 0;  // _mmxxx_max_value starts at 0
        if (!convex) {
            int32_t *Er = affine ? E + i * Lw : nullptr;
            // Pass 1: this block's recurrence from nothing carried in: A = its last value,
            // S = what a carry gains across the block. Linear: x_j = max(H1_j, x_{j-1} + g)
            // over hu; affine: E_j = max(H1_{j-1} + g, E_{j-1} + e) (g < e).
            int32_t A = 0, S = 0;
            bool has = false;
            for (uint32_t k = 0; k < B; ++k) {
                const uint32_t j = lo + k;
                if (j >= L) continue;
                if (!affine) {
                    A = has ? mx(H1[j], A + g_) : H1[j];
                    S += g_;
                } else if (j == 0) {
                    A = fcH[i] + g_;  // E_0 carries nothing in: the block's value is exact
                } else {
                    A = has ? mx(H1[j - 1] + g_, A + e) : H1[j - 1] + g_;
                    S += e;
                }
                has = true;
            }
            int32_t *sc = M.scan;
            sc[2 * tid] = has ? 1 : 0;
            sc[2 * tid + 1] = A;
            sc[2 * kPgMaxGroup + tid] = S;
            g.sync();
            // The carry into this block: the value at column lo - 1, chained over the
            // blocks before (uniform: every thread walks all T, guarded).
            int32_t carry = affine ? 0 : fcH[i];  // linear: x_{-1} = fcH[i]
            bool known = !affine;                 // affine: block 0 starts exact, no carry
            for (int t = 0; t < T; ++t) {
                if (t >= tid) continue;
                if (!sc[2 * t]) continue;
                const int32_t At = sc[2 * t + 1], St = sc[2 * kPgMaxGroup + t];
                if (affine && t == 0) {
                    carry = At, known = true;  // block 0's A is exact
                } else {
                    carry = known ? mx(At, carry + St) : At;
                    known = true;
                }
            }
            // Pass 2: the CPU kernel's loop over this block, from the true carry.
            if (!affine) {
                int32_t cr = carry + g_;
                for (uint32_t k = 0; k < B; ++k) {
                    const uint32_t j = lo + k;
                    if (j >= L) continue;
                    const int32_t hu = mx(H1[j], cr);
                    cr = hu + g_;
                    Hr[j] = P.type == poa::kSW ? mx(hu, 0) : hu;
                    row_max = mx(row_max, Hr[j]);
                }
            } else {
                int32_t hprev = lo == 0 ? fcH[i] : mx(H1[lo - 1], carry), eprev = carry;
                for (uint32_t k = 0; k < B; ++k) {
                    const uint32_t j = lo + k;
                    if (j >= L) continue;
                    const int32_t h1 = H1[j];
                    const int32_t ev = j == 0 ? hprev + g_ : mx(hprev + g_, eprev + e);
                    const int32_t hu = mx(h1, ev);
                    Er[j] = ev;
                    hprev = hu, eprev = ev;
                    Hr[j] = P.type == poa::kSW ? mx(hu, 0) : hu;
                    row_max = mx(row_max, Hr[j]);
                }
            }
        } else {
            // Convex: E and Q lane block by lane block (lib/poa.h). Each thread owns BB
            // consecutive lane blocks. A block maps its carries (cx, cy) to the next
            // block's by max-plus affine forms (every step is a max or an addition), so
            // pass 1 composes the thread's blocks into two forms, the threads' forms are
            // chained numerically, and pass 2 reruns the CPU kernel's loop from the true
            // carries.
            int32_t *Er = E + i * Lw, *Qr = Q + i * Lw;
            const uint32_t n_blocks = (L + W - 1) / W, BB = (n_blocks + T - 1) / T;
            const uint32_t b0 = (uint32_t)tid * BB;
            PgForm fx{kFormNone, 0, kFormNone}, fy{kFormNone, kFormNone, 0};  // identity
            for (uint32_t kb = 0; kb < BB; ++kb) {
                const uint32_t b = (b0 + kb) * W;
                if (b >= L) continue;
                PgForm ef{}, qf{}, hu{};
                for (uint32_t jj = 0; jj < W; ++jj) {
                    const uint32_t j = b + jj;
                    if (j >= L) continue;
                    if (jj == 0) {
                        ef = pf_add(fx, g_);
                        qf = pf_add(fy, q);
                    } else {
                        ef = pf_max(pf_const((int64_t)H1[j - 1] + g_), pf_add(ef, e));
                        qf = pf_max(pf_const((int64_t)H1[j - 1] + q), pf_add(qf, c));
                    }
                    hu = pf_max(pf_const(H1[j]), pf_max(ef, qf));
                }
                fx = pf_max(hu, pf_add(ef, -(int64_t)(g_ - e)));
                fy = pf_max(hu, pf_add(qf, -(int64_t)(q - c)));
            }
            int64_t *sc = reinterpret_cast<int64_t *>(M.scan);
            sc[6 * tid + 0] = fx.k, sc[6 * tid + 1] = fx.a, sc[6 * tid + 2] = fx.b;
            sc[6 * tid + 3] = fy.k, sc[6 * tid + 4] = fy.a, sc[6 * tid + 5] = fy.b;
            g.sync();
            int64_t cx64 = fcH[i], cy64 = fcH[i];
            for (int t = 0; t < T; ++t) {
                if (t >= tid) continue;
                const int64_t *f = sc + 6 * t;
                const int64_t nx = pf_eval(f[0], f[1], f[2], cx64, cy64);
                const int64_t ny = pf_eval(f[3], f[4], f[5], cx64, cy64);
                cx64 = nx, cy64 = ny;
            }
            int32_t cx = (int32_t)cx64, cy = (int32_t)cy64;
            for (uint32_t kb = 0; kb < BB; ++kb) {
                const uint32_t b = (b0 + kb) * W;
                if (b >= L) continue;
                uint32_t last = b;
                for (uint32_t jj = 0; jj < W; ++jj) {
                    const uint32_t j = b + jj;
                    if (j >= L) continue;
                    const int32_t ei = (j == b ? cx : H1[j - 1]) + (g_ - e) + e;
                    const int32_t qi = (j == b ? cy : H1[j - 1]) + (q - c) + c;
                    Er[j] = j == b ? ei : mx(ei, Er[j - 1] + e);
                    Qr[j] = j == b ? qi : mx(qi, Qr[j - 1] + c);
                }
                int32_t hv = 0;
                for (uint32_t jj = 0; jj < W; ++jj) {
                    const uint32_t j = b + jj;
                    if (j >= L) continue;
                    hv = mx(H1[j], mx(Er[j], Qr[j]));
                    Hr[j] = P.type == poa::kSW ? mx(hv, 0) : hv;
                    row_max = mx(row_max, Hr[j]);
                    last = j;
                }
                cx = mx(hv, Er[last] - (g_ - e));
                cy = mx(hv, Qr[last] - (q - c));
            }
        }
        row_max = g.max(row_max);
        const bool sink = M.out_head[nd] < 0;
        if (P.type == poa::kSW || (P.type == poa::kOV && sink)) {
            if (max_score < row_max) max_score = row_max, max_i = (int64_t)i;
        } else if (P.type == poa::kNW && sink) {
            if (max_score < Hr[L - 1]) max_score = Hr[L - 1], max_i = (int64_t)i;
        }
    }
    if (max_i < 0) return kPgOk;
    r.score = max_score;
    int32_t st = kPgOk;
    if (tid == 0) {
        int64_t max_j = (int64_t)L - 1;
        if (P.type != poa::kNW) {  // _mmxxx_index_of: the first column holding the score, or -1
            max_j = -1;
            const int32_t *Hr = H + (uint64_t)max_i * Lw;
            for (uint32_t j = 0; j < L; ++j)
                if (Hr[j] == max_score) {
                    max_j = j;
                    break;
                }
        }
        st = pg_backtrack(P, M, L, max_i, max_j, proj, &r.vf, &r.vb);
    }
    st = g.bcast(st);
    return st;
}

// One window: reads in order (their bytes one after the other in bases), each aligned
// then added. Thread 0 writes the reads' results (out[k]) and projections (proj + the
// read's offset: the lengths before it).
template <class G>
GALE_PG_GROUP int32_t pg_window(G &g, const Params &P, const PgLayout &l, const PgMem &M, uint32_t n_reads,
                                const uint8_t *bases, const int64_t *lens, int32_t *proj, PgRead *out,
                                uint64_t *cells) {
    if (g.tid() == 0) pg_graph_init(M);
    g.sync();
    uint64_t at = 0;
    *cells = 0;
    for (uint32_t k = 0; k < n_reads; ++k) {
        const uint32_t L = (uint32_t)lens[k];
        PgRead r{0, -1, -1, kPgOk, 0};
        int32_t st = pg_align(g, P, l, M, bases + at, L, proj + at, r);
        *cells += r.cells;
        if (st != kPgOk) return st;
        g.sync();  // every thread is done reading the graph (pg_align may return before any barrier)
        if (g.tid() == 0) {
            st = pg_add(l, M, bases + at, L, proj + at, r.vf, r.vb);
            out[k] = r;
        }
        st = g.bcast(st);
        if (st != kPgOk) return st;
        at += L;
    }
    return kPgOk;
}

}  // namespace poag
}  // namespace gale

#endif
