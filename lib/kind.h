// Task kinds, each described once by a table entry (lib/kinds.cpp), as zstd picks
// a block compressor from a table: the core (batch, scheduler, results, API) reads
// the entry and never branches on a kind. Adding an algorithm = its CPU kernel
// (lib/cpu/X.cpp), its GPU side (cuda/X.cu, optional) and one entry here.
#ifndef GALE_KIND_H
#define GALE_KIND_H

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>

#include "arena.h"
#include "gale.h"
#include "sequence.h"

namespace gale {

namespace cuda { struct GpuKind; }

// One parameter of a kind: its pinned id (gale.h), name, default and bounds.
struct ParamSpec {
    int id;
    const char *name;
    int64_t def, lo, hi;
};

// What a task of the kind is made of (which gale_batch_add* calls it takes).
enum TaskShape : uint32_t {
    kShapePair = 1u << 0,   // gale_batch_add: two sequences (inline or registered), optional seed
    kShapeGroup = 1u << 1,  // gale_batch_add_group: a group of sequences (POA)
    kShapeGraph = 1u << 2,  // registered graphs that tasks refer to (sequence-to-graph)
};

// One sequence of a group task (gale_batch_add_group): the task's PairTask has h
// pointing to h_len of these in the batch's arena (v unused, v_len the total bases).
// bases: encoded by the kind's encode; qual: NULL or len bytes '!'..'~' (Phred + 33);
// weight: the group's weight of the sequence (1 when the group gives none).
struct GroupSeq {
    const uint8_t *bases;
    int64_t len;
    const uint8_t *qual;
    int64_t weight;
};
inline const GroupSeq *group_seqs(const PairTask &t) { return reinterpret_cast<const GroupSeq *>(t.h); }

constexpr size_t kParamsBytes = 256;
constexpr int64_t kMaxTaskLen = INT32_MAX;      // a task's sequence (gale_task: 2^31 - 1 bases)
constexpr int kFirstExperimentalParam = 10000;  // gale/experimental.h: ids from here on  // room for any kind's parameter struct (checked in lib/kinds.cpp)

// Internal flag bit of a kind's result (never in gale_result.flags): the result was
// computed to its end. cpu_compute (lib/run.cpp) sets it when a CPU kernel returns
// true, a GPU side's collect when it writes a result. At the end of a cancelled batch a
// task without it was stopped or never started: it reads back as GALE_RF_CANCELED, and
// nothing of what its result struct holds is reported.
constexpr uint32_t kResultDone = 1u << 31;

// The batch's cancel flag as a CPU kernel sees it (gale_cancel, gale_batch_destroy and
// gale_ctx_destroy raise it). A kernel polls raised() in its long loops, at a coarse
// interval (X-drop: every 2^16 cells; WFA: every score), so that a cancel stops even a
// task of hours within milliseconds while the load, relaxed and of a line no one writes
// until then, costs nothing measurable; it then returns false at once, whatever its
// result struct holds.
struct CpuCancel {
    const std::atomic<bool> *flag = nullptr;  // nullptr: never raised
    bool raised() const { return flag && flag->load(std::memory_order_relaxed); }
};

struct KindDef {
    int id;                       // GALE_XDROP, ...
    const char *name;             // static; error messages and gale_kind_name()
    uint32_t shapes;              // TaskShape bits
    const ParamSpec *params;      // in id order
    size_t n_params;
    bool has_seed;                // pair tasks may carry a seed (else its fields must be 0)

    // Builds the kind's parameter struct (at most kParamsBytes) from the values of
    // params[], in the same order. Called after every change, so it may also derive
    // state (WFA's metric from the second gap piece).
    void (*configure)(const int64_t *values, void *params);
    // Checks what bounds alone cannot (a set of allowed values, a relation between
    // parameters) after each change; throws gale::Error (GALE_E_RANGE), and the change
    // is undone. May be nullptr.
    void (*check)(const void *params);
    // Checks one pair task beyond the generic checks (lengths, seed bounds); throws
    // gale::Error naming task `index`.
    void (*validate)(const PairTask &t, const void *params, size_t index);
    // Encodes n input bytes into the codes the kernels read (every sequence of the
    // batch, inline or registered, goes through it once); returns the index of the
    // first byte it refuses, or -1. Today's kinds encode by their alphabet policy
    // (lib/sequence.h: encode_bases, or encode_bytes under GALE_N_BYTES); a kind that
    // reads other bytes brings its own.
    int64_t (*encode)(const void *params, const char *in, int64_t n, uint8_t *out);
    // Which encoding encode applies under these parameters (nullptr: always the same
    // one). The stored codes cannot follow a change of it, so batch_set refuses a
    // parameter change that alters it while the batch holds sequences (GALE_E_STATE).
    int (*encoding)(const void *params);
    // Estimated DP cells of a task: splits a batch across devices (and CPU threads)
    // by work, not by task count. Only ratios matter.
    uint64_t (*estimate_cells)(const PairTask &t, const void *params);

    // Results: a trivially copyable struct of result_bytes (a multiple of 8) whose
    // all-zero bytes are the empty result, with flags and cells at these offsets.
    size_t result_bytes;
    size_t flags_offset, cells_offset;
    // CPU kernel: computes task t into result; scratch is this kind's per-thread
    // scratch (nullptr at first, freed with scratch_free); variable-size output
    // goes to var. Polls cancel (CpuCancel above) and returns false when it stopped
    // there (the task is then reported cancelled, its result discarded); true when the
    // result is complete. Throws gale::Error.
    bool (*cpu)(const PairTask &t, const void *params, void *result, void *&scratch, ResultArena &var,
                const CpuCancel &cancel);
    void (*scratch_free)(void *scratch);
    // Fills the public result (everything but size) from the kind's result.
    void (*fill)(const PairTask &t, const void *result, gale_result &out);
    // The result's CIGAR, or nullptr when the kind has none (gale_result_cigar refuses).
    VarSpan (*cigar)(const void *result);

    // GPU side (cuda/X.cu), or nullptr: then a CUDA context computes the kind on its
    // CPU threads and flags the results GALE_RF_CPU. Set through GALE_GPU_KIND
    // (lib/backend.h), the one place that knows whether CUDA is built.
    const cuda::GpuKind *gpu;

    // A kind's own results beyond gale_result, each read by its own getter, or nullptr
    // (the getter refuses). Last and defaulted, so that a kind without them ends its
    // entry at gpu: a positional slip cannot put one pointer in another's place (in a
    // CPU build GALE_GPU_KIND is nullptr, which converts to any pointer).
    // ksw2's fields (gale_result_zdrop: everything but size, user and flags).
    void (*fill_zdrop)(const void *result, gale_zdrop_result &out) = nullptr;
    // A group kind's results (gale_result_poa).
    void (*poa_fill)(const void *result, gale_poa_result &out) = nullptr;
    // Pair tasks may carry a junction array (gale_task.junc: h_len bytes, each a set of
    // GALE_ZD_JUNC_* bits, copied to PairTask::junc); other kinds refuse one.
    bool takes_junc = false;
    // Whether a batch with these parameters has no GPU side although the kind has one
    // (a CUDA context then runs it on its CPU threads, GALE_RF_CPU), or nullptr: never.
    // GALE_POA with strand_ambiguous (spoa -s).
    bool (*cpu_only)(const void *params) = nullptr;

    uint32_t &flags(void *result) const { return *reinterpret_cast<uint32_t *>((char *)result + flags_offset); }
    uint64_t cells(const void *result) const {
        return *reinterpret_cast<const uint64_t *>((const char *)result + cells_offset);
    }
    const ParamSpec *param(int param_id) const {
        for (size_t i = 0; i < n_params; ++i)
            if (params[i].id == param_id) return &params[i];
        return nullptr;
    }
};

// The kind with this id, or nullptr.
const KindDef *kind_find(int id);
// Every kind: kinds_all(&n)[0..n).
const KindDef *const *kinds_all(size_t *n);

// Per-thread scratch of the CPU kernels, one slot per kind, kept between tasks
// and batches; freed when the thread ends.
void *&cpu_scratch(const KindDef &kind);

}  // namespace gale

#endif
