// The table of kinds (lib/kind.h): one entry per algorithm, naming its parameters,
// its task checks, its CPU kernel (lib/cpu/X.cpp), its GPU side (cuda/X.cu) and how
// its results fill a gale_result. Nothing else in lib/ knows a kind by its id.
// The experimental (test-only) parameter ids live in gale.h's experimental section.
#define GALE_EXPERIMENTAL_API

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "backend.h"
#include "errors.h"
#include "kind.h"
#include "poa.h"
#include "wfa.h"
#include "xdrop.h"

namespace gale {

namespace {


template <class P>
const P &as(const void *params) { return *static_cast<const P *>(params); }

template <class R>
constexpr bool result_ok() {
    return std::is_trivially_copyable<R>::value && sizeof(R) % 8 == 0;
}

// ---- shared parameters and encoding ------------------------------------------------

int64_t encode_dna5(const void *, const char *in, int64_t n, uint8_t *out) { return encode_bases(in, n, out); }

constexpr ParamSpec kNPolicy = {GALE_P_N_POLICY, "n_policy", GALE_N_DNA5, GALE_N_DNA5, GALE_N_MISMATCH};

// ---- GALE_XDROP: SeqAn's gapped X-drop (lib/cpu/xdrop.cpp, cuda/xdrop.cu) -------

const ParamSpec kXdropParams[] = {
    {GALE_P_MATCH, "match", 1, -kScoreBound, kScoreBound},
    {GALE_P_MISMATCH, "mismatch", -1, -kScoreBound, kScoreBound},
    {GALE_P_GAP, "gap", -1, -kScoreBound, -1},
    {GALE_P_XDROP, "xdrop", 100, 0, kXdropBound},
    {GALE_P_DIRECTION, "direction", GALE_DIR_BOTH, GALE_DIR_LEFT, GALE_DIR_BOTH},
    kNPolicy,
};

void xdrop_configure(const int64_t *v, void *out) {
    XdropParams p;
    p.match = (int32_t)v[0];
    p.mismatch = (int32_t)v[1];
    p.gap = (int32_t)v[2];
    p.xdrop = (int32_t)v[3];
    p.direction = (int32_t)v[4];
    p.n_policy = (int32_t)v[5];
    new (out) XdropParams(p);
}

// The best score any cell can reach must leave room in 32 bits (lib/xdrop.h): a path
// has at most min(h_len, v_len) substitutions, each worth at most max(match, mismatch).
void xdrop_validate(const PairTask &t, const void *params, size_t index) {
    const XdropParams &p = as<XdropParams>(params);
    const int64_t shorter = std::min(t.h_len, t.v_len);
    const int64_t top = std::max({p.match, p.mismatch, 0});
    if (top * shorter > (int64_t)1 << 30)
        fail(GALE_E_LIMIT, "task %zu: substitution score %lld times sequence length %lld may overflow 32-bit scores",
             index, (long long)top, (long long)shorter);
}

// A side's band is about 2X / |gap| cells wide (less where a sequence ends first),
// for about as many anti-diagonals as the shorter remaining segment.
uint64_t xdrop_estimate(const PairTask &t, const void *params) {
    const XdropParams &p = as<XdropParams>(params);
    const uint64_t band = 1 + 2 * (uint64_t)p.xdrop / (uint64_t)std::max(1, -p.gap);
    const uint64_t left = (uint64_t)std::min(t.h_begin, t.v_begin);
    const uint64_t right = (uint64_t)std::min(t.h_len - t.h_end, t.v_len - t.v_end);
    return 1 + (left + right) * std::min<uint64_t>(band, 1 + (uint64_t)std::min(t.h_len, t.v_len));
}

bool xdrop_cpu(const PairTask &t, const void *params, void *result, void *&scratch, ResultArena &,
               const CpuCancel &cancel) {
    if (!scratch) scratch = new std::vector<int32_t>();
    return xdrop_task_cpu(t, as<XdropParams>(params), *static_cast<XdropResult *>(result),
                          *static_cast<std::vector<int32_t> *>(scratch), cancel.flag);
}

void xdrop_scratch_free(void *s) { delete static_cast<std::vector<int32_t> *>(s); }

void xdrop_fill(const PairTask &t, const void *result, gale_result &o) {
    const XdropResult &r = *static_cast<const XdropResult *>(result);
    o.flags = r.flags;
    o.score_left = r.score_left;
    o.score_right = r.score_right;
    o.score = (int64_t)r.score_left + r.score_right + (t.h_end - t.h_begin);
    o.h_begin = r.h_begin;
    o.h_end = r.h_end;
    o.v_begin = r.v_begin;
    o.v_end = r.v_end;
    o.cells = r.cells;
}

static_assert(result_ok<XdropResult>(), "XdropResult must be trivially copyable, a multiple of 8 bytes");
static_assert(sizeof(XdropParams) <= kParamsBytes, "XdropParams too large");

const KindDef kXdrop = {
    GALE_XDROP, "xdrop", kShapePair, kXdropParams, sizeof kXdropParams / sizeof kXdropParams[0], true,
    xdrop_configure, nullptr, xdrop_validate, encode_dna5, xdrop_estimate,
    sizeof(XdropResult), offsetof(XdropResult, flags), offsetof(XdropResult, cells),
    xdrop_cpu, xdrop_scratch_free, xdrop_fill, nullptr,
    GALE_GPU_KIND(kXdropGpu),
};

// ---- GALE_WFA, GALE_EDIT: WFA2-lib's wavefront alignment (lib/cpu/wfa.cpp, cuda/wfa.cu)

// The parameters both WFA kinds share, after the penalties.
#define GALE_WFA_COMMON_PARAMS                                                                          \
    kNPolicy, {GALE_P_SCOPE, "scope", GALE_SCOPE_ALIGNMENT, GALE_SCOPE_SCORE, GALE_SCOPE_ALIGNMENT},       \
        {GALE_P_PATTERN_BEGIN_FREE, "pattern_begin_free", 0, 0, kMaxTaskLen},                                  \
        {GALE_P_PATTERN_END_FREE, "pattern_end_free", 0, 0, kMaxTaskLen},                                      \
        {GALE_P_TEXT_BEGIN_FREE, "text_begin_free", 0, 0, kMaxTaskLen},                                        \
        {GALE_P_TEXT_END_FREE, "text_end_free", 0, 0, kMaxTaskLen},                                            \
        {GALE_P_MEMORY_LIMIT, "memory_limit_mib", 256, 1, 1 << 20},                                        \
        {GALE_P_EXPECTED_ERROR, "expected_error", 100, 1, 1000},                                           \
        {GALE_P_GPU_BACKTRACE, "gpu_backtrace", 0, 0, 1},                                                  \
        {GALE_PX_WFA_GROUP_THREADS, "x_wfa_group_threads", 0, 0, 256},                                      \
        {GALE_PX_WFA_UNITS_PER_SM, "x_wfa_units_per_sm", 0, 0, 64}

const ParamSpec kWfaParams[] = {
    {GALE_P_PENALTY_MISMATCH, "mismatch_penalty", 4, 1, kPenaltyBound},
    {GALE_P_PENALTY_GAP_OPEN, "gap_open_penalty", 6, 0, kPenaltyBound},
    {GALE_P_PENALTY_GAP_EXTEND, "gap_extend_penalty", 2, 1, kPenaltyBound},
    {GALE_P_PENALTY_GAP_OPEN2, "gap_open2_penalty", 0, 0, kPenaltyBound},
    {GALE_P_PENALTY_GAP_EXTEND2, "gap_extend2_penalty", 0, 0, kPenaltyBound},
    GALE_WFA_COMMON_PARAMS,
};
const ParamSpec kEditParams[] = {GALE_WFA_COMMON_PARAMS};
#undef GALE_WFA_COMMON_PARAMS
constexpr size_t kWfaCommon = sizeof kEditParams / sizeof kEditParams[0];

void wfa_common(const int64_t *v, WfaParams &p) {
    p.n_policy = (int32_t)v[0];
    p.scope = (int32_t)v[1];
    p.pattern_begin_free = v[2];
    p.pattern_end_free = v[3];
    p.text_begin_free = v[4];
    p.text_end_free = v[5];
    p.memory_limit_mib = v[6];
    p.expected_error = (int32_t)v[7];
    p.gpu_backtrace = (int32_t)v[8];
    p.test_group_threads = (int32_t)v[9];
    p.test_units_per_sm = (int32_t)v[10];
}

void wfa_configure(const int64_t *v, void *out) {
    WfaParams p;
    p.x = (int32_t)v[0];
    p.o = (int32_t)v[1];
    p.e = (int32_t)v[2];
    p.o2 = (int32_t)v[3];
    p.e2 = (int32_t)v[4];
    p.metric = p.e2 > 0 ? kMetricAffine2p : kMetricAffine;  // two-piece when the second piece extends
    wfa_common(v + 5, p);
    new (out) WfaParams(p);
}

void edit_configure(const int64_t *v, void *out) {
    WfaParams p;
    p.metric = kMetricEdit;
    p.x = 1;
    p.o = 0;
    p.e = 1;
    wfa_common(v, p);
    new (out) WfaParams(p);
}

// The experimental group shape (gale.h): the CUDA kernel has groups of 32, 128 and
// 256 threads.
void wfa_check(const void *params) {
    const int32_t t = as<WfaParams>(params).test_group_threads;
    if (t != 0 && t != 32 && t != 128 && t != 256)
        fail(GALE_E_RANGE, "x_wfa_group_threads must be 0 (automatic), 32, 128 or 256 (got %d)", t);
}

// The optimal penalty is at most that of the trivial alignments (substitute along the
// shorter sequence and gap the rest, or gap both whole), and it must leave room in 32
// bits; offsets h + 1 must fit too.
constexpr int64_t kWfaMaxLen = (int64_t)1 << 30;

void wfa_validate(const PairTask &t, const void *params, size_t index) {
    const WfaParams &p = as<WfaParams>(params);
    if (t.h_len > kWfaMaxLen || t.v_len > kWfaMaxLen)
        fail(GALE_E_LIMIT, "task %zu: wavefront alignment takes sequences of at most 2^30 bases (h %lld, v %lld)",
             index, (long long)t.h_len, (long long)t.v_len);
    const int64_t shorter = std::min(t.h_len, t.v_len), diff = std::llabs(t.h_len - t.v_len);
    const int64_t subst = p.x * shorter + (diff ? p.o + p.e * diff : 0);
    const int64_t gaps = (t.h_len ? p.o + p.e * t.h_len : 0) + (t.v_len ? p.o + p.e * t.v_len : 0);
    if (std::min(subst, gaps) > (int64_t)1 << 30)
        fail(GALE_E_LIMIT, "task %zu: the alignment penalty may exceed 2^30 (lengths %lld and %lld)", index,
             (long long)t.h_len, (long long)t.v_len);
}

// Cells: about (m + n) diagonals' worth of offsets per score over a band that grows
// with the expected penalty (GALE_P_EXPECTED_ERROR of the longer sequence).
uint64_t wfa_estimate(const PairTask &t, const void *params) {
    const WfaParams &p = as<WfaParams>(params);
    const uint64_t len = (uint64_t)std::max(t.h_len, t.v_len);
    const uint64_t edits = 1 + len * (uint64_t)p.expected_error / 1000;
    return 1 + (uint64_t)(t.h_len + t.v_len) + edits * edits;
}

struct WfaScratch {
    WfaWorkspace *ws = nullptr;
    std::vector<uint32_t> cigar;
    ~WfaScratch() { wfa_workspace_free(ws); }
};

bool wfa_cpu(const PairTask &t, const void *params, void *result, void *&scratch, ResultArena &var,
             const CpuCancel &cancel) {
    if (!scratch) scratch = new WfaScratch();
    WfaScratch &s = *static_cast<WfaScratch *>(scratch);
    WfaResult &r = *static_cast<WfaResult *>(result);
    if (!wfa_task_cpu(t, as<WfaParams>(params), r, s.cigar, s.ws, cancel.flag)) return false;
    r.cigar = var.put(s.cigar.data(), s.cigar.size());
    return true;
}

void wfa_scratch_free(void *s) { delete static_cast<WfaScratch *>(s); }

void wfa_fill(const PairTask &, const void *result, gale_result &o) {
    const WfaResult &w = *static_cast<const WfaResult *>(result);
    o.flags = w.flags;
    o.score = w.score;
    o.h_begin = w.h_begin;
    o.h_end = w.h_end;
    o.v_begin = w.v_begin;
    o.v_end = w.v_end;
    o.cells = w.cells;
}

VarSpan wfa_cigar(const void *result) { return static_cast<const WfaResult *>(result)->cigar; }

static_assert(result_ok<WfaResult>(), "WfaResult must be trivially copyable, a multiple of 8 bytes");
static_assert(sizeof(WfaParams) <= kParamsBytes, "WfaParams too large");

const KindDef kWfa = {
    GALE_WFA, "wfa", kShapePair, kWfaParams, sizeof kWfaParams / sizeof kWfaParams[0], false,
    wfa_configure, wfa_check, wfa_validate, encode_dna5, wfa_estimate,
    sizeof(WfaResult), offsetof(WfaResult, flags), offsetof(WfaResult, cells),
    wfa_cpu, wfa_scratch_free, wfa_fill, wfa_cigar,
    GALE_GPU_KIND(kWfaGpu),
};

const KindDef kEdit = {
    GALE_EDIT, "edit", kShapePair, kEditParams, kWfaCommon, false,
    edit_configure, wfa_check, wfa_validate, encode_dna5, wfa_estimate,
    sizeof(WfaResult), offsetof(WfaResult, flags), offsetof(WfaResult, cells),
    wfa_cpu, wfa_scratch_free, wfa_fill, wfa_cigar,
    GALE_GPU_KIND(kWfaGpu),
};


// ---- GALE_POA: SPOA 4.0.8's partial-order alignment (lib/cpu/poa.cpp; lib/poa.h) ------

const ParamSpec kPoaParams[] = {
    {GALE_P_MATCH, "match", 5, -128, 127},
    {GALE_P_MISMATCH, "mismatch", -4, -128, 127},
    {GALE_P_POA_ALGORITHM, "algorithm", GALE_POA_LOCAL, GALE_POA_LOCAL, GALE_POA_SEMI_GLOBAL},
    {GALE_P_POA_GAP_OPEN, "gap_open", -8, -128, 0},
    {GALE_P_POA_GAP_EXTEND, "gap_extend", -6, -128, 0},
    {GALE_P_POA_GAP_OPEN2, "gap_open2", -10, -128, 0},
    {GALE_P_POA_GAP_EXTEND2, "gap_extend2", -4, -128, 0},
    {GALE_P_POA_OUTPUT, "output", GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA, 0, 7},
};

struct PoaKindParams {
    poa::Params p;
    int32_t output;
};

void poa_configure(const int64_t *v, void *out) {
    PoaKindParams k{};
    const char *why = nullptr;
    // The bounds keep every value in SPOA's int8 and <= 0 where it must be: Create accepts.
    poa::make_params((int)v[2], (int8_t)v[0], (int8_t)v[1], (int8_t)v[3], (int8_t)v[4], (int8_t)v[5], (int8_t)v[6],
                     &k.p, &why);
    k.output = (int32_t)v[7];
    new (out) PoaKindParams(k);
}

void poa_validate(const PairTask &, const void *, size_t) {}

// SPOA compares bytes as they are; its coder indexes a table by (signed) char, so only
// printable ASCII is taken.
int64_t encode_poa(const void *, const char *in, int64_t n, uint8_t *out) {
    for (int64_t i = 0; i < n; ++i) {
        if (in[i] < '!' || in[i] > '~') return i;
        out[i] = (uint8_t)in[i];
    }
    return -1;
}

// Each sequence is aligned to a graph about as large as the bases before it.
uint64_t poa_estimate(const PairTask &t, const void *) {
    const GroupSeq *gs = group_seqs(t);
    uint64_t cells = 1, before = 0;
    for (int64_t i = 0; i < t.h_len; ++i) {
        cells += (uint64_t)gs[i].len * (before < 1 ? 1 : before);
        before += (uint64_t)gs[i].len;
        if (before > ((uint64_t)1 << 31)) before = (uint64_t)1 << 31;
    }
    return cells;
}

struct PoaResult {
    uint32_t flags;
    int32_t reserved;
    uint64_t cells;
    VarSpan scores, consensus, msa, gfa;
    int64_t n_seqs, consensus_len, n_rows, row_len, gfa_len;
};

struct PoaScratch {
    poa::Engine engine{poa::Params{}};
    std::vector<uint32_t> words;
    std::vector<uint32_t> weights;
    poa::Graph::Alignment aln;
};

VarSpan put_bytes(ResultArena &var, std::vector<uint32_t> &words, const char *p, size_t n) {
    words.assign((n + 3) / 4, 0);
    if (n) std::memcpy(words.data(), p, n);
    return var.put(words.data(), words.size());
}

bool poa_cpu(const PairTask &t, const void *params, void *result, void *&scratch, ResultArena &var,
             const CpuCancel &cancel) {
    if (!scratch) scratch = new PoaScratch();
    PoaScratch &s = *static_cast<PoaScratch *>(scratch);
    const PoaKindParams &k = as<PoaKindParams>(params);
    PoaResult &r = *static_cast<PoaResult *>(result);
    s.engine.set_params(k.p);
    const uint64_t cells0 = s.engine.cells();
    const GroupSeq *gs = group_seqs(t);
    const size_t n = (size_t)t.h_len;
    std::vector<int32_t> scores(n, 0);
    poa::Graph graph;
    for (size_t i = 0; i < n; ++i) {
        if (cancel.raised()) return false;
        const char *seq = reinterpret_cast<const char *>(gs[i].bases);
        const uint32_t len = (uint32_t)gs[i].len;
        if (!s.engine.align(seq, len, graph, &scores[i], &s.aln, cancel.flag)) {
            if (s.engine.cancelled()) return false;
            if (s.engine.overflowed())
                fail(GALE_E_LIMIT, "sequence %zu of the group: SPOA refuses it (its worst-case score overflows 32 bits)",
                     i);
            fail(GALE_E_INTERNAL, "sequence %zu of the group: the backtrack found no predecessor (SPOA would loop)", i);
        }
        s.weights.resize(len);
        for (uint32_t j = 0; j < len; ++j)
            s.weights[j] = gs[i].qual ? (uint32_t)(gs[i].qual[j] - 33) : (uint32_t)gs[i].weight;
        graph.add_alignment(s.aln, seq, len, s.weights);
    }
    std::string consensus;
    if (k.output) consensus = graph.generate_consensus();
    r.n_seqs = (int64_t)n;
    static_assert(sizeof(int32_t) == sizeof(uint32_t), "scores are stored as words");
    r.scores = var.put(reinterpret_cast<const uint32_t *>(scores.data()), n);
    if (k.output & GALE_POA_OUT_CONSENSUS) {
        r.consensus = put_bytes(var, s.words, consensus.data(), consensus.size());
        r.consensus_len = (int64_t)consensus.size();
    }
    if (k.output & GALE_POA_OUT_MSA) {
        std::vector<std::string> rows = graph.generate_msa(true);
        std::string all;
        for (const std::string &row : rows) all += row;
        r.msa = put_bytes(var, s.words, all.data(), all.size());
        r.n_rows = (int64_t)rows.size();
        r.row_len = rows.empty() ? 0 : (int64_t)rows[0].size();
    }
    if (k.output & GALE_POA_OUT_GFA) {
        const std::string g = graph.gfa();
        r.gfa = put_bytes(var, s.words, g.data(), g.size());
        r.gfa_len = (int64_t)g.size();
    }
    r.cells = s.engine.cells() - cells0;
    return true;
}

void poa_scratch_free(void *s) { delete static_cast<PoaScratch *>(s); }

void poa_fill(const PairTask &, const void *result, gale_result &o) {
    const PoaResult &r = *static_cast<const PoaResult *>(result);
    o.flags = r.flags;
    o.cells = r.cells;
    int64_t sum = 0;
    const int32_t *sc = reinterpret_cast<const int32_t *>(r.scores.data);
    for (uint64_t i = 0; i < r.scores.n; ++i) sum += sc[i];
    o.score = sum;
}

void poa_result_fill(const void *result, gale_poa_result &o) {
    const PoaResult &r = *static_cast<const PoaResult *>(result);
    o.flags = r.flags;
    o.n_seqs = (size_t)r.n_seqs;
    o.scores = reinterpret_cast<const int32_t *>(r.scores.data);
    o.consensus = reinterpret_cast<const char *>(r.consensus.data);
    o.consensus_len = r.consensus_len;
    o.msa = reinterpret_cast<const char *>(r.msa.data);
    o.n_rows = (size_t)r.n_rows;
    o.row_len = r.row_len;
    o.gfa = reinterpret_cast<const char *>(r.gfa.data);
    o.gfa_len = r.gfa_len;
    o.cells = r.cells;
}

static_assert(result_ok<PoaResult>(), "PoaResult must be trivially copyable, a multiple of 8 bytes");
static_assert(sizeof(PoaKindParams) <= kParamsBytes, "PoaKindParams too large");

const KindDef kPoa = {
    GALE_POA, "poa", kShapeGroup, kPoaParams, sizeof kPoaParams / sizeof kPoaParams[0], false,
    poa_configure, nullptr, poa_validate, encode_poa, poa_estimate,
    sizeof(PoaResult), offsetof(PoaResult, flags), offsetof(PoaResult, cells),
    poa_cpu, poa_scratch_free, poa_fill, nullptr,
    nullptr,  // no GPU side yet: a CUDA context computes it on its CPU threads (GALE_RF_CPU)
    poa_result_fill,
};

// ---- the table ---------------------------------------------------------------------

const KindDef *const kKinds[] = {&kXdrop, &kWfa, &kEdit, &kPoa};
constexpr size_t kNumKinds = sizeof kKinds / sizeof kKinds[0];

// Per-thread scratch, one slot per entry of kKinds, freed when the thread ends.
struct ScratchSlots {
    void *slot[kNumKinds] = {};
    ~ScratchSlots() {
        for (size_t i = 0; i < kNumKinds; ++i)
            if (slot[i]) kKinds[i]->scratch_free(slot[i]);
    }
};
thread_local ScratchSlots tls_scratch;

}  // namespace

const KindDef *const *kinds_all(size_t *n) {
    *n = kNumKinds;
    return kKinds;
}

const KindDef *kind_find(int id) {
    for (const KindDef *k : kKinds)
        if (k->id == id) return k;
    return nullptr;
}

void *&cpu_scratch(const KindDef &kind) {
    for (size_t i = 0; i < kNumKinds; ++i)
        if (kKinds[i] == &kind) return tls_scratch.slot[i];
    fail(GALE_E_INTERNAL, "kind %s is not in the table", kind.name);
}

}  // namespace gale
