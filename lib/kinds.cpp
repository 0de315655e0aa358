// The table of kinds (lib/kind.h): one entry per algorithm, naming its parameters,
// its task checks, its CPU kernel (lib/cpu/X.cpp), its GPU side (cuda/X.cu) and how
// its results fill a gale_result. Nothing else in lib/ knows a kind by its id.
// The experimental (test-only) parameter ids live in gale/experimental.h.
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
#include "zdrop.h"

namespace gale {

namespace {


template <class P>
const P &as(const void *params) { return *static_cast<const P *>(params); }

template <class R>
constexpr bool result_ok() {
    return std::is_trivially_copyable<R>::value && sizeof(R) % 8 == 0;
}

// ---- shared parameters and encoding ------------------------------------------------

// The alphabet policy (gale.h, GALE_N_DNA5) decides the codes: GALE_N_BYTES keeps
// one code per byte (encode_bytes), the folding policies share Dna5's codes.
template <class P>
int policy_encoding(const void *params) {
    return as<P>(params).n_policy == GALE_N_BYTES ? 1 : 0;
}
// Kinds the policy does not apply to (Z-drop: ksw2's 5-letter matrix) always take Dna5's codes.
int64_t encode_dna5(const void *, const char *in, int64_t n, uint8_t *out) { return encode_bases(in, n, out); }
template <class P>
int64_t encode_policy(const void *params, const char *in, int64_t n, uint8_t *out) {
    return policy_encoding<P>(params) ? encode_bytes(in, n, out) : encode_bases(in, n, out);
}

constexpr ParamSpec kNPolicy = {GALE_P_N_POLICY, "n_policy", GALE_N_DNA5, GALE_N_DNA5, GALE_N_BYTES};

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
    xdrop_configure, nullptr, xdrop_validate, encode_policy<XdropParams>, policy_encoding<XdropParams>, xdrop_estimate,
    sizeof(XdropResult), offsetof(XdropResult, flags), offsetof(XdropResult, cells),
    xdrop_cpu, xdrop_scratch_free, xdrop_fill, nullptr,
    GALE_GPU_KIND(kXdropGpu),
};

// ---- GALE_WFA, GALE_EDIT: WFA2-lib's wavefront alignment (lib/cpu/wfa.cpp, cuda/wfa.cu)

// WFA2-lib's wf_heuristic_strategy bits (gale/wfa.h, GALE_P_WFA_HEURISTIC).
constexpr int64_t kWfaHeuristicBits = GALE_WFA_H_BANDED_STATIC | GALE_WFA_H_BANDED_ADAPTIVE | GALE_WFA_H_WFADAPTIVE |
                                      GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP | GALE_WFA_H_WFMASH;

// The parameters both WFA kinds share, after the penalties.
#define GALE_WFA_COMMON_PARAMS(HBITS)                                                                   \
    kNPolicy, {GALE_P_SCOPE, "scope", GALE_SCOPE_ALIGNMENT, GALE_SCOPE_SCORE, GALE_SCOPE_ALIGNMENT},       \
        {GALE_P_PATTERN_BEGIN_FREE, "pattern_begin_free", 0, 0, kMaxTaskLen},                                  \
        {GALE_P_PATTERN_END_FREE, "pattern_end_free", 0, 0, kMaxTaskLen},                                      \
        {GALE_P_TEXT_BEGIN_FREE, "text_begin_free", 0, 0, kMaxTaskLen},                                        \
        {GALE_P_TEXT_END_FREE, "text_end_free", 0, 0, kMaxTaskLen},                                            \
        {GALE_P_MEMORY_LIMIT, "memory_limit_mib", 256, 1, 1 << 20},                                        \
        {GALE_P_EXPECTED_ERROR, "expected_error", 100, 1, 1000},                                           \
        {GALE_P_GPU_BACKTRACE, "gpu_backtrace", 0, 0, 1},                                                  \
        {GALE_PX_WFA_GROUP_THREADS, "x_wfa_group_threads", 0, 0, 256},                                      \
        {GALE_PX_WFA_UNITS_PER_SM, "x_wfa_units_per_sm", 0, 0, 64},                                        \
        {GALE_P_WFA_HEURISTIC, "heuristic", GALE_WFA_H_NONE, 0, HBITS},                                      \
        {GALE_P_WFA_MIN_WAVEFRONT_LENGTH, "min_wavefront_length", 10, 0, 1 << 30},                         \
        {GALE_P_WFA_MAX_DISTANCE_THRESHOLD, "max_distance_threshold", 50, 0, 1 << 30},                     \
        {GALE_P_WFA_STEPS_BETWEEN_CUTOFFS, "steps_between_cutoffs", 1, 0, 1 << 30},                        \
        {GALE_P_WFA_XDROP, "xdrop", 100, 0, 1 << 30},                                                        \
        {GALE_P_WFA_ZDROP, "zdrop", 100, 0, 1 << 30},                                                        \
        {GALE_P_WFA_BAND_MIN_K, "band_min_k", -100, -(1 << 30), 1 << 30},                                    \
        {GALE_P_WFA_BAND_MAX_K, "band_max_k", 100, -(1 << 30), 1 << 30}

const ParamSpec kWfaParams[] = {
    {GALE_P_PENALTY_MISMATCH, "mismatch_penalty", 4, 1, kPenaltyBound},
    {GALE_P_PENALTY_GAP_OPEN, "gap_open_penalty", 6, 0, kPenaltyBound},
    {GALE_P_PENALTY_GAP_EXTEND, "gap_extend_penalty", 2, 1, kPenaltyBound},
    {GALE_P_PENALTY_GAP_OPEN2, "gap_open2_penalty", 0, 0, kPenaltyBound},
    {GALE_P_PENALTY_GAP_EXTEND2, "gap_extend2_penalty", 0, 0, kPenaltyBound},
    {GALE_P_PENALTY_MATCH, "match_penalty", 0, -kPenaltyBound, 0},
    GALE_WFA_COMMON_PARAMS(kWfaHeuristicBits),
};
// WFA2-lib's linear_penalties_t defaults (align_benchmark: match 0, mismatch 4, indel 2).
const ParamSpec kLinearParams[] = {
    {GALE_P_PENALTY_MISMATCH, "mismatch_penalty", 4, 1, kPenaltyBound},
    {GALE_P_PENALTY_MATCH, "match_penalty", 0, -kPenaltyBound, 0},
    {GALE_P_PENALTY_INDEL, "indel_penalty", 2, 1, kPenaltyBound},
    GALE_WFA_COMMON_PARAMS(kWfaHeuristicBits),
};
// Edit and indel: no x-drop or z-drop (WFA2-lib refuses them there).
const ParamSpec kEditParams[] = {GALE_WFA_COMMON_PARAMS(kWfaHeuristicBits & ~(GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP))};
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
    p.heuristic = (int32_t)v[11];
    p.h_min_wavefront_length = (int32_t)v[12];
    p.h_max_distance_threshold = (int32_t)v[13];
    p.h_steps_between_cutoffs = (int32_t)v[14];
    p.h_xdrop = (int32_t)v[15];
    p.h_zdrop = (int32_t)v[16];
    p.h_band_min_k = (int32_t)v[17];
    p.h_band_max_k = (int32_t)v[18];
}

// A match score m < 0: WFA2-lib's Eizenga transformation of the penalties (lib/wfa.h).
void wfa_match_transform(WfaParams &p) {
    if (p.match == 0) return;
    const int32_t m = p.match;
    p.x = 2 * p.x - 2 * m;
    p.o = 2 * p.o;
    p.e = 2 * p.e - m;
    if (p.metric == kMetricAffine2p) {
        p.o2 = 2 * p.o2;
        p.e2 = 2 * p.e2 - m;
    }
}

void wfa_configure(const int64_t *v, void *out) {
    WfaParams p;
    p.x = (int32_t)v[0];
    p.o = (int32_t)v[1];
    p.e = (int32_t)v[2];
    p.o2 = (int32_t)v[3];
    p.e2 = (int32_t)v[4];
    p.match = (int32_t)v[5];
    p.metric = p.e2 > 0 ? kMetricAffine2p : kMetricAffine;  // two-piece when the second piece extends
    p.kind_metric = p.metric == kMetricAffine2p ? kKindAffine2p : kKindAffine;
    wfa_match_transform(p);
    wfa_common(v + 6, p);
    new (out) WfaParams(p);
}

// Gap-linear runs as gap-affine with a free gap open (lib/wfa.h).
void linear_configure(const int64_t *v, void *out) {
    WfaParams p;
    p.metric = kMetricAffine;
    p.kind_metric = kKindLinear;
    p.x = (int32_t)v[0];
    p.match = (int32_t)v[1];
    p.o = 0;
    p.e = (int32_t)v[2];
    wfa_match_transform(p);  // 2i - m: the same as 2e - m with o = 0
    wfa_common(v + 3, p);
    new (out) WfaParams(p);
}

void edit_configure(const int64_t *v, void *out) {
    WfaParams p;
    p.metric = kMetricEdit;
    p.kind_metric = kKindEdit;
    p.x = 1;
    p.o = 0;
    p.e = 1;
    wfa_common(v, p);
    new (out) WfaParams(p);
}

// Indel runs as gap-affine with x = 2, o = 0, e = 1 (lib/wfa.h).
void indel_configure(const int64_t *v, void *out) {
    WfaParams p;
    p.metric = kMetricAffine;
    p.kind_metric = kKindIndel;
    p.x = 2;
    p.o = 0;
    p.e = 1;
    wfa_common(v, p);
    new (out) WfaParams(p);
}

// The experimental group shape (gale/experimental.h): the CUDA kernel has groups of 32, 128 and
// 256 threads.
// The heuristic: WFA2-lib's bits only, and no drop on edit or indel (WFA2-lib refuses those:
// wavefront_align_checks).
void wfa_check(const void *params) {
    const WfaParams &p = as<WfaParams>(params);
    const int32_t t = p.test_group_threads;
    if (t != 0 && t != 32 && t != 128 && t != 256)
        fail(GALE_E_RANGE, "x_wfa_group_threads must be 0 (automatic), 32, 128 or 256 (got %d)", t);
    if (p.heuristic & ~(int32_t)kWfaHeuristicBits)
        fail(GALE_E_RANGE, "heuristic 0x%x has bits that are not WFA2-lib's strategies (0x%x)", (unsigned)p.heuristic,
             (unsigned)(p.heuristic & ~(int32_t)kWfaHeuristicBits));
    if ((p.heuristic & (GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP)) &&
        (p.kind_metric == kKindEdit || p.kind_metric == kKindIndel))
        fail(GALE_E_RANGE, "the x-drop and z-drop heuristics need penalties: not on edit or indel (as in WFA2-lib)");
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
    wfa_configure, wfa_check, wfa_validate, encode_policy<WfaParams>, policy_encoding<WfaParams>, wfa_estimate,
    sizeof(WfaResult), offsetof(WfaResult, flags), offsetof(WfaResult, cells),
    wfa_cpu, wfa_scratch_free, wfa_fill, wfa_cigar,
    GALE_GPU_KIND(kWfaGpu),
    nullptr, nullptr, false, nullptr,
};

const KindDef kEdit = {
    GALE_EDIT, "edit", kShapePair, kEditParams, kWfaCommon, false,
    edit_configure, wfa_check, wfa_validate, encode_policy<WfaParams>, policy_encoding<WfaParams>, wfa_estimate,
    sizeof(WfaResult), offsetof(WfaResult, flags), offsetof(WfaResult, cells),
    wfa_cpu, wfa_scratch_free, wfa_fill, wfa_cigar,
    GALE_GPU_KIND(kWfaGpu),
    nullptr, nullptr, false, nullptr,
};

const KindDef kIndel = {
    GALE_INDEL, "indel", kShapePair, kEditParams, kWfaCommon, false,
    indel_configure, wfa_check, wfa_validate, encode_policy<WfaParams>, policy_encoding<WfaParams>, wfa_estimate,
    sizeof(WfaResult), offsetof(WfaResult, flags), offsetof(WfaResult, cells),
    wfa_cpu, wfa_scratch_free, wfa_fill, wfa_cigar,
    GALE_GPU_KIND(kWfaGpu),
    nullptr, nullptr, false, nullptr,
};

const KindDef kWfaLinear = {
    GALE_WFA_LINEAR, "wfa_linear", kShapePair, kLinearParams, sizeof kLinearParams / sizeof kLinearParams[0], false,
    linear_configure, wfa_check, wfa_validate, encode_policy<WfaParams>, policy_encoding<WfaParams>, wfa_estimate,
    sizeof(WfaResult), offsetof(WfaResult, flags), offsetof(WfaResult, cells),
    wfa_cpu, wfa_scratch_free, wfa_fill, wfa_cigar,
    GALE_GPU_KIND(kWfaGpu),
    nullptr, nullptr, false, nullptr,
};

// ---- GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2: ksw2's Z-drop extension (lib/cpu/zdrop.cpp) ------

// ksw2's int8_t arguments keep their C range; w and zdrop stay where ksw2's int
// arithmetic on them ((r + w) >> 1, zdrop + l * e) cannot overflow.
constexpr int64_t kZdBound = (int64_t)1 << 30;
constexpr int32_t kZdFlagsZD = GALE_ZD_SCORE_ONLY | GALE_ZD_RIGHT | GALE_ZD_GENERIC_SC | GALE_ZD_APPROX_MAX |
                               GALE_ZD_APPROX_DROP | GALE_ZD_EXTZ_ONLY | GALE_ZD_REV_CIGAR;
constexpr int32_t kZdFlagsS = kZdFlagsZD | GALE_ZD_SPLICE_FOR | GALE_ZD_SPLICE_REV | GALE_ZD_SPLICE_FLANK;
static_assert(GALE_ZD_SCORE_ONLY == kZdScoreOnly && GALE_ZD_RIGHT == kZdRight && GALE_ZD_GENERIC_SC == kZdGenericSc &&
                  GALE_ZD_APPROX_MAX == kZdApproxMax && GALE_ZD_APPROX_DROP == kZdApproxDrop &&
                  GALE_ZD_EXTZ_ONLY == kZdExtzOnly && GALE_ZD_REV_CIGAR == kZdRevCigar &&
                  GALE_ZD_SPLICE_FOR == kZdSpliceFor && GALE_ZD_SPLICE_REV == kZdSpliceRev &&
                  GALE_ZD_SPLICE_FLANK == kZdSpliceFlank && GALE_ZD_NEG_INF == kZdNegInf,
              "gale/zdrop.h's GALE_ZD_* are ksw2's values (lib/zdrop.h)");

#define GALE_ZD_MAT_ENTRY(t, q) {GALE_P_ZDROP_MAT(t, q), "mat_" #t #q, 0, -128, 127}
#define GALE_ZD_MAT_ROW(t)                                                                       \
    GALE_ZD_MAT_ENTRY(t, 0), GALE_ZD_MAT_ENTRY(t, 1), GALE_ZD_MAT_ENTRY(t, 2), GALE_ZD_MAT_ENTRY(t, 3), \
        GALE_ZD_MAT_ENTRY(t, 4)
#define GALE_ZD_MAT_ENTRIES \
    GALE_ZD_MAT_ROW(0), GALE_ZD_MAT_ROW(1), GALE_ZD_MAT_ROW(2), GALE_ZD_MAT_ROW(3), GALE_ZD_MAT_ROW(4)
#define GALE_ZD_MATRIX {GALE_P_ZDROP_MATRIX, "matrix", 0, 0, 1}, GALE_ZD_MAT_ENTRIES

// In id order; ksw2's names. zdrop_configure reads them by id.
const ParamSpec kExtz2Params[] = {
    {GALE_P_MATCH, "match", 2, -128, 127},
    {GALE_P_PENALTY_MISMATCH, "mismatch_penalty", 4, -127, 128},
    {GALE_P_PENALTY_GAP_OPEN, "q", 4, 0, 127},
    {GALE_P_PENALTY_GAP_EXTEND, "e", 2, 0, 127},
    {GALE_P_PENALTY_N, "sc_ambi", 1, -127, 128},
    {GALE_P_BAND, "w", 500, -1, kZdBound},
    {GALE_P_ZDROP, "zdrop", 400, -1, kZdBound},
    {GALE_P_END_BONUS, "end_bonus", -1, -kZdBound, kZdBound},
    {GALE_P_ZDROP_FLAGS, "flag", 0, 0, kZdFlagsZD},
    GALE_ZD_MATRIX,
};
const ParamSpec kExtd2Params[] = {
    {GALE_P_MATCH, "match", 2, -128, 127},
    {GALE_P_PENALTY_MISMATCH, "mismatch_penalty", 4, -127, 128},
    {GALE_P_PENALTY_GAP_OPEN, "q", 4, 0, 127},
    {GALE_P_PENALTY_GAP_EXTEND, "e", 2, 0, 127},
    {GALE_P_PENALTY_GAP_OPEN2, "q2", 24, 0, 127},
    {GALE_P_PENALTY_GAP_EXTEND2, "e2", 1, 0, 127},
    {GALE_P_PENALTY_N, "sc_ambi", 1, -127, 128},
    {GALE_P_BAND, "w", 500, -1, kZdBound},
    {GALE_P_ZDROP, "zdrop", 400, -1, kZdBound},
    {GALE_P_END_BONUS, "end_bonus", -1, -kZdBound, kZdBound},
    {GALE_P_ZDROP_FLAGS, "flag", 0, 0, kZdFlagsZD},
    GALE_ZD_MATRIX,
};
// exts2: e >= 1 (ksw2 divides by it).
const ParamSpec kExts2Params[] = {
    {GALE_P_MATCH, "match", 1, -128, 127},
    {GALE_P_PENALTY_MISMATCH, "mismatch_penalty", 2, -127, 128},
    {GALE_P_PENALTY_GAP_OPEN, "q", 2, 0, 127},
    {GALE_P_PENALTY_GAP_EXTEND, "e", 1, 1, 127},
    {GALE_P_PENALTY_GAP_OPEN2, "q2", 32, 0, 127},
    {GALE_P_PENALTY_N, "sc_ambi", 1, -127, 128},
    {GALE_P_ZDROP, "zdrop", 200, -1, kZdBound},
    {GALE_P_ZDROP_FLAGS, "flag", GALE_ZD_SPLICE_FOR | GALE_ZD_SPLICE_REV | GALE_ZD_SPLICE_FLANK, 0, kZdFlagsS},
    {GALE_P_NONCAN, "noncan", 9, 0, 127},
    {GALE_P_ZDROP_MATRIX, "matrix", 0, 0, 1},
    {GALE_P_JUNC_BONUS, "junc_bonus", 9, -128, 127},  // since 0.7; minimap2's splice preset
    GALE_ZD_MAT_ENTRIES,
};
#undef GALE_ZD_MATRIX
#undef GALE_ZD_MAT_ENTRIES
#undef GALE_ZD_MAT_ROW
#undef GALE_ZD_MAT_ENTRY

// values[] in the order of `specs`; the parameters a kind lacks keep ZdropParams' values.
void zdrop_configure_from(const ParamSpec *specs, size_t n, int32_t variant, const int64_t *v, void *out) {
    ZdropParams p;
    p.variant = variant;
    int64_t a = 0, b = 0, amb = 0, use_matrix = 0, m[25] = {};
    for (size_t i = 0; i < n; ++i) {
        const int id = specs[i].id;
        switch (id) {
        case GALE_P_MATCH: a = v[i]; break;
        case GALE_P_PENALTY_MISMATCH: b = v[i]; break;
        case GALE_P_PENALTY_N: amb = v[i]; break;
        case GALE_P_PENALTY_GAP_OPEN: p.q = (int8_t)v[i]; break;
        case GALE_P_PENALTY_GAP_EXTEND: p.e = (int8_t)v[i]; break;
        case GALE_P_PENALTY_GAP_OPEN2: p.q2 = (int8_t)v[i]; break;
        case GALE_P_PENALTY_GAP_EXTEND2: p.e2 = (int8_t)v[i]; break;
        case GALE_P_BAND: p.w = (int32_t)v[i]; break;
        case GALE_P_ZDROP: p.zdrop = (int32_t)v[i]; break;
        case GALE_P_END_BONUS: p.end_bonus = (int32_t)v[i]; break;
        case GALE_P_ZDROP_FLAGS: p.flag = (int32_t)v[i]; break;
        case GALE_P_NONCAN: p.noncan = (int8_t)v[i]; break;
        case GALE_P_JUNC_BONUS: p.junc_bonus = (int8_t)v[i]; break;
        case GALE_P_ZDROP_MATRIX: use_matrix = v[i]; break;
        default:
            if (id >= GALE_P_ZDROP_MAT(0, 0) && id <= GALE_P_ZDROP_MAT(4, 4)) m[id - GALE_P_ZDROP_MAT(0, 0)] = v[i];
        }
    }
    // minimap2's ksw_gen_simple_mat(5, mat, a, b, sc_ambi), or the 25 entries.
    for (int t = 0; t < kZdAlphabet; ++t)
        for (int q = 0; q < kZdAlphabet; ++q)
            p.mat[t * kZdAlphabet + q] = (int8_t)(use_matrix ? m[t * kZdAlphabet + q]
                                                  : t == kZdAlphabet - 1 || q == kZdAlphabet - 1 ? -amb
                                                  : t == q ? a : -b);
    new (out) ZdropParams(p);
}
void extz2_configure(const int64_t *v, void *out) {
    zdrop_configure_from(kExtz2Params, sizeof kExtz2Params / sizeof kExtz2Params[0], kZdExtz2, v, out);
}
void extd2_configure(const int64_t *v, void *out) {
    zdrop_configure_from(kExtd2Params, sizeof kExtd2Params / sizeof kExtd2Params[0], kZdExtd2, v, out);
}
void exts2_configure(const int64_t *v, void *out) {
    zdrop_configure_from(kExts2Params, sizeof kExts2Params / sizeof kExts2Params[0], kZdExts2, v, out);
}

// The flag word: only ksw2's bits for the kind (the bounds let some others through).
void zdrop_check(const void *params) {
    const ZdropParams &p = as<ZdropParams>(params);
    const int32_t allowed = p.variant == kZdExts2 ? kZdFlagsS : kZdFlagsZD;
    if (p.flag & ~allowed)
        fail(GALE_E_RANGE, "flag 0x%x has bits ksw2's %s does not take (0x%x)", (unsigned)p.flag,
             p.variant == kZdExtz2 ? "ksw_extz2_sse" : p.variant == kZdExtd2 ? "ksw_extd2_sse" : "ksw_exts2_sse",
             (unsigned)(p.flag & ~allowed));
}

// ksw2 counts anti-diagonals in an int (qlen + tlen - 1).
void zdrop_validate(const PairTask &t, const void *, size_t index) {
    if (t.h_len + t.v_len > (int64_t)INT32_MAX)
        fail(GALE_E_LIMIT, "task %zu: ksw2 takes pairs of at most 2^31-1 bases in all (h %lld + v %lld)", index,
             (long long)t.h_len, (long long)t.v_len);
}

// Cells: the band (2w + 1 wide, or the whole matrix) times the anti-diagonals, halved.
uint64_t zdrop_estimate(const PairTask &t, const void *params) {
    const ZdropParams &p = as<ZdropParams>(params);
    const uint64_t m = (uint64_t)t.v_len, n = (uint64_t)t.h_len, shorter = std::min(m, n);
    const uint64_t band = p.variant == kZdExts2 || p.w < 0 ? shorter : std::min<uint64_t>(shorter, (uint64_t)p.w + 1);
    return 1 + (m + n) * std::max<uint64_t>(band, 1);
}

struct ZdropCpuScratch {
    ZdropScratch *ws = zdrop_scratch_new();
    std::vector<uint32_t> cigar;
    ~ZdropCpuScratch() { zdrop_scratch_free(ws); }
};

bool zdrop_cpu(const PairTask &t, const void *params, void *result, void *&scratch, ResultArena &var,
               const CpuCancel &cancel) {
    if (!scratch) scratch = new ZdropCpuScratch();
    ZdropCpuScratch &s = *static_cast<ZdropCpuScratch *>(scratch);
    const ZdropParams &p = as<ZdropParams>(params);
    ZdropOut o;
    if (!zdrop_run(p, kZdAlphabet, p.mat, (int)t.v_len, t.v, (int)t.h_len, t.h, t.junc, o, s.cigar, *s.ws,
                   cancel.flag))
        return false;
    ZdropResult &r = *static_cast<ZdropResult *>(result);
    r.max = o.max, r.zdropped = o.zdropped, r.max_q = o.max_q, r.max_t = o.max_t, r.mqe = o.mqe,
    r.mqe_t = o.mqe_t, r.mte = o.mte, r.mte_q = o.mte_q, r.score = o.score, r.reach_end = o.reach_end;
    r.cells = o.cells;
    r.cigar = var.put(s.cigar.data(), s.cigar.size());
    return true;
}

void zdrop_scratch_release(void *s) { delete static_cast<ZdropCpuScratch *>(s); }

void zdrop_fill(const PairTask &, const void *result, gale_result &o) {
    const ZdropResult &r = *static_cast<const ZdropResult *>(result);
    o.flags = r.flags;
    o.score = r.score;
    o.score_left = r.max;
    o.h_end = r.max_t + 1;
    o.v_end = r.max_q + 1;
    o.cells = r.cells;
}

void zdrop_fill_fields(const void *result, gale_zdrop_result &o) {
    const ZdropResult &r = *static_cast<const ZdropResult *>(result);
    o.max = r.max, o.zdropped = r.zdropped, o.max_q = r.max_q, o.max_t = r.max_t, o.mqe = r.mqe, o.mqe_t = r.mqe_t,
    o.mte = r.mte, o.mte_q = r.mte_q, o.score = r.score, o.reach_end = r.reach_end;
    o.cells = r.cells;
}

VarSpan zdrop_cigar(const void *result) { return static_cast<const ZdropResult *>(result)->cigar; }

static_assert(result_ok<ZdropResult>(), "ZdropResult must be trivially copyable, a multiple of 8 bytes");
static_assert(sizeof(ZdropParams) <= kParamsBytes, "ZdropParams too large");

// JUNC: the kind takes gale_task.junc (exts2).
#define GALE_ZD_KIND(ID, NAME, PARAMS, CONFIGURE, JUNC)                                                        \
    {ID, NAME, kShapePair, PARAMS, sizeof PARAMS / sizeof PARAMS[0], false, CONFIGURE, zdrop_check,           \
     zdrop_validate, encode_dna5, nullptr, zdrop_estimate, sizeof(ZdropResult), offsetof(ZdropResult, flags),          \
     offsetof(ZdropResult, cells), zdrop_cpu, zdrop_scratch_release, zdrop_fill, zdrop_cigar,                   \
     GALE_GPU_KIND(kZdropGpu), zdrop_fill_fields, nullptr, JUNC}
const KindDef kExtz2 = GALE_ZD_KIND(GALE_ZDROP_EXTZ2, "zdrop_extz2", kExtz2Params, extz2_configure, false);
const KindDef kExtd2 = GALE_ZD_KIND(GALE_ZDROP_EXTD2, "zdrop_extd2", kExtd2Params, extd2_configure, false);
const KindDef kExts2 = GALE_ZD_KIND(GALE_ZDROP_EXTS2, "zdrop_exts2", kExts2Params, exts2_configure, true);
#undef GALE_ZD_KIND

// ---- GALE_POA: SPOA 4.0.8's partial-order alignment (lib/cpu/poa.cpp; lib/poa.h) ------

const ParamSpec kPoaParams[] = {
    {GALE_P_MATCH, "match", 5, -128, 127},
    {GALE_P_MISMATCH, "mismatch", -4, -128, 127},
    {GALE_P_POA_ALGORITHM, "algorithm", GALE_POA_LOCAL, GALE_POA_LOCAL, GALE_POA_SEMI_GLOBAL},
    {GALE_P_POA_GAP_OPEN, "gap_open", -8, -128, 0},
    {GALE_P_POA_GAP_EXTEND, "gap_extend", -6, -128, 0},
    {GALE_P_POA_GAP_OPEN2, "gap_open2", -10, -128, 0},
    {GALE_P_POA_GAP_EXTEND2, "gap_extend2", -4, -128, 0},
    {GALE_P_POA_OUTPUT, "output", GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA, 0, 15},
    {GALE_P_POA_STRAND_AMBIGUOUS, "strand_ambiguous", 0, 0, 1},
};

using PoaKindParams = poa::KindParams;

void poa_configure(const int64_t *v, void *out) {
    PoaKindParams k{};
    const char *why = nullptr;
    // The bounds keep every value in SPOA's int8 and <= 0 where it must be: Create accepts.
    poa::make_params((int)v[2], (int8_t)v[0], (int8_t)v[1], (int8_t)v[3], (int8_t)v[4], (int8_t)v[5], (int8_t)v[6],
                     &k.p, &why);
    k.output = (int32_t)v[7];
    k.strand_ambiguous = (int32_t)v[8];
    new (out) PoaKindParams(k);
}

void poa_validate(const PairTask &, const void *, size_t) {}

// The CUDA kernel aligns one strand; spoa -s batches run on a CUDA context's CPU threads.
bool poa_cpu_only(const void *params) { return as<poa::KindParams>(params).strand_ambiguous != 0; }

// SPOA compares bytes as they are; its coder indexes a table by (signed) char, so only
// printable ASCII is taken.
int64_t encode_poa(const void *, const char *in, int64_t n, uint8_t *out) {
    for (int64_t i = 0; i < n; ++i) {
        if (in[i] < '!' || in[i] > '~') return i;
        out[i] = (uint8_t)in[i];
    }
    return -1;
}

// Each sequence is aligned to a graph about as large as the bases before it (twice
// under spoa -s: both strands).
uint64_t poa_estimate(const PairTask &t, const void *params) {
    const GroupSeq *gs = group_seqs(t);
    const uint64_t strands = as<poa::KindParams>(params).strand_ambiguous ? 2 : 1;
    uint64_t cells = 1, before = 0;
    for (int64_t i = 0; i < t.h_len; ++i) {
        cells += strands * (uint64_t)gs[i].len * (before < 1 ? 1 : before);
        before += (uint64_t)gs[i].len;
        if (before > ((uint64_t)1 << 31)) before = (uint64_t)1 << 31;
    }
    return cells;
}

using PoaResult = poa::Result;

struct PoaScratch {
    poa::Engine engine{poa::Params{}};
    std::vector<uint32_t> words;
    std::vector<uint32_t> weights;
    poa::Graph::Alignment aln, aln_rev;
    std::string rc, fwd;
    std::vector<uint8_t> qual;
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
    std::vector<uint8_t> reversed(k.strand_ambiguous ? n : 0, 0);
    poa::Graph graph;
    auto align = [&](const char *seq, uint32_t len, int32_t *score, poa::Graph::Alignment *aln, size_t i) {
        if (s.engine.align(seq, len, graph, score, aln, cancel.flag)) return true;
        if (s.engine.cancelled()) return false;
        if (s.engine.overflowed())
            fail(GALE_E_LIMIT, "sequence %zu of the group: SPOA refuses it (its worst-case score overflows 32 bits)", i);
        fail(GALE_E_INTERNAL, "sequence %zu of the group: the backtrack found no predecessor (SPOA would loop)", i);
    };
    for (size_t i = 0; i < n; ++i) {
        if (cancel.raised()) return false;
        const char *seq = reinterpret_cast<const char *>(gs[i].bases);
        const uint8_t *qual = gs[i].qual;
        const uint32_t len = (uint32_t)gs[i].len;
        if (!align(seq, len, &scores[i], &s.aln, i)) return false;
        const poa::Graph::Alignment *aln = &s.aln;
        if (k.strand_ambiguous) {
            // spoa -s: the reverse complement, kept only if it scores strictly better;
            // else spoa complements it back, which leaves the bytes complemented twice.
            int32_t score_rev = 0;
            poa::reverse_complement(seq, len, s.rc);
            if (!align(s.rc.data(), len, &score_rev, &s.aln_rev, i)) return false;
            if (scores[i] >= score_rev) {
                poa::reverse_complement(s.rc.data(), len, s.fwd);
                seq = s.fwd.data();
            } else {
                seq = s.rc.data();
                scores[i] = score_rev;
                aln = &s.aln_rev;
                reversed[i] = 1;
                if (qual) {
                    s.qual.assign(qual, qual + len);
                    std::reverse(s.qual.begin(), s.qual.end());
                    qual = s.qual.data();
                }
            }
        }
        poa::weights_of(qual, gs[i].weight, len, s.weights);
        graph.add_alignment(*aln, seq, len, s.weights);
    }
    poa::finish(graph, scores, k.strand_ambiguous ? &reversed : nullptr, k.output, r, var, s.words);
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
    o.reversed = r.reversed.n ? reinterpret_cast<const uint8_t *>(r.reversed.data) : nullptr;
    o.dot = reinterpret_cast<const char *>(r.dot.data);
    o.dot_len = r.dot_len;
}

static_assert(result_ok<PoaResult>(), "PoaResult must be trivially copyable, a multiple of 8 bytes");
static_assert(sizeof(PoaKindParams) <= kParamsBytes, "PoaKindParams too large");

const KindDef kPoa = {
    GALE_POA, "poa", kShapeGroup, kPoaParams, sizeof kPoaParams / sizeof kPoaParams[0], false,
    poa_configure, nullptr, poa_validate, encode_poa, nullptr, poa_estimate,
    sizeof(PoaResult), offsetof(PoaResult, flags), offsetof(PoaResult, cells),
    poa_cpu, poa_scratch_free, poa_fill, nullptr,
    GALE_GPU_KIND(kPoaGpu),  // experimental until poa_gpu passes on a GPU (doc/poa.md, "GPU status")
    nullptr, poa_result_fill, false, poa_cpu_only,
};

// ---- the table ---------------------------------------------------------------------

const KindDef *const kKinds[] = {&kXdrop, &kWfa, &kEdit, &kIndel, &kWfaLinear, &kExtz2, &kExtd2, &kExts2, &kPoa};
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

namespace poa {

void finish(Graph &graph, const std::vector<int32_t> &scores, int32_t output, Result &r, ResultArena &var,
            std::vector<uint32_t> &words) {
    finish(graph, scores, nullptr, output, r, var, words);
}

void finish(Graph &graph, const std::vector<int32_t> &scores, const std::vector<uint8_t> *reversed, int32_t output,
            Result &r, ResultArena &var, std::vector<uint32_t> &words) {
    std::string consensus;
    if (output) consensus = graph.generate_consensus();
    const size_t n = scores.size();
    r.n_seqs = (int64_t)n;
    static_assert(sizeof(int32_t) == sizeof(uint32_t), "scores are stored as words");
    r.scores = var.put(reinterpret_cast<const uint32_t *>(scores.data()), n);
    if (output & GALE_POA_OUT_CONSENSUS) {
        r.consensus = put_bytes(var, words, consensus.data(), consensus.size());
        r.consensus_len = (int64_t)consensus.size();
    }
    if (output & GALE_POA_OUT_MSA) {
        std::vector<std::string> rows = graph.generate_msa(true);
        std::string all;
        for (const std::string &row : rows) all += row;
        r.msa = put_bytes(var, words, all.data(), all.size());
        r.n_rows = (int64_t)rows.size();
        r.row_len = rows.empty() ? 0 : (int64_t)rows[0].size();
    }
    if (output & GALE_POA_OUT_GFA) {
        const std::string g = graph.gfa(reversed);
        r.gfa = put_bytes(var, words, g.data(), g.size());
        r.gfa_len = (int64_t)g.size();
    }
    if (output & GALE_POA_OUT_DOT) {
        const std::string d = graph.dot();
        r.dot = put_bytes(var, words, d.data(), d.size());
        r.dot_len = (int64_t)d.size();
    }
    if (reversed) {
        r.reversed = put_bytes(var, words, reinterpret_cast<const char *>(reversed->data()), reversed->size());
    }
}

}  // namespace poa

}  // namespace gale
