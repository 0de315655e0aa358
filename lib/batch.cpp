// Batches: parameters, task validation and copying, submit/poll/cancel, results.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "context.h"
#include "errors.h"
#include "sequence.h"

namespace gale {

namespace {

constexpr int64_t kMaxLen = INT32_MAX;  // 2^31 - 1

const char *state_name(BatchState s) {
    switch (s) {
    case BatchState::Open: return "open";
    case BatchState::Running: return "running";
    case BatchState::Done: return "done";
    case BatchState::Canceled: return "cancelled";
    case BatchState::Failed: return "failed";
    }
    return "?";
}

// The best score any cell can reach must leave room in 32 bits (lib/xdrop.h): a path
// has at most min(h_len, v_len) substitutions, each worth at most max(match, mismatch).
void check_score_room(const XdropTask &t, const XdropParams &p, size_t index) {
    const int64_t shorter = std::min(t.h_len, t.v_len);
    const int64_t top = std::max({p.match, p.mismatch, 0});
    if (top * shorter > (int64_t)1 << 30)
        fail(GALE_E_LIMIT, "task %zu: substitution score %lld times sequence length %lld may overflow 32-bit scores",
             index, (long long)top, (long long)shorter);
}

// Wavefront alignment: the optimal penalty is at most that of the trivial
// alignments (substitute along the shorter sequence and gap the rest, or gap both
// whole), and it must leave room in 32 bits; offsets h + 1 must fit too.
constexpr int64_t kWfaMaxLen = (int64_t)1 << 30;

void check_wfa_room(const PairTask &t, const WfaParams &p, size_t index) {
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

const char *kind_name(int kind) {
    switch (kind) {
    case GALE_XDROP: return "X-drop";
    case GALE_WFA: return "WFA";
    case GALE_EDIT: return "edit";
    }
    return "?";
}

}  // namespace

gale_batch *batch_create(gale_ctx *ctx, int kind) {
    if (kind != GALE_XDROP && kind != GALE_WFA && kind != GALE_EDIT) fail(GALE_E_RANGE, "unknown task kind %d", kind);
    auto *b = new gale_batch;
    b->ctx = ctx;
    b->kind = kind;
    if (kind == GALE_EDIT) {
        b->wfa.metric = kMetricEdit;
        b->wfa.x = 1;
        b->wfa.o = 0;
        b->wfa.e = 1;
    }
    try {
        std::lock_guard<std::mutex> lock(ctx->mu);
        ctx->batches.insert(b);
    } catch (...) {
        delete b;
        throw;
    }
    handle_add(b);
    return b;
}

void batch_cancel(gale_batch *b) { b->cancel.store(true); }

void batch_destroy(gale_batch *b) {
    handle_remove(b);
    {
        std::unique_lock<std::mutex> lock(b->mu);
        if (b->state == BatchState::Running) {
            b->cancel.store(true);
            b->cv.wait(lock, [b] { return b->state != BatchState::Running; });
        }
    }
    {
        std::lock_guard<std::mutex> lock(b->ctx->mu);
        b->ctx->batches.erase(b);
    }
    delete b;
}

void batch_reset(gale_batch *b) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->state == BatchState::Running) fail(GALE_E_STATE, "cannot reset a batch in flight");
    b->state = BatchState::Open;
    b->fail_status = GALE_OK;
    b->fail_message.clear();
    b->arena.clear();
    b->var.clear();
    b->tasks.clear();
    b->results.clear();
    b->wfa_results.clear();
    b->cancel.store(false);
    b->next.store(0);
    b->kernel_ns.store(0);
    b->stats = gale_stats{};
}

void batch_set(gale_batch *b, int param, int64_t v) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->state != BatchState::Open) fail(GALE_E_STATE, "parameters can only be set before submit (batch is %s)",
                                           state_name(b->state));
    auto in = [&](int64_t lo, int64_t hi, const char *name) {
        if (v < lo || v > hi)
            fail(GALE_E_RANGE, "%s must be in [%lld, %lld] (got %lld)", name, (long long)lo, (long long)hi,
                 (long long)v);
        return v;
    };
    if (b->is_wfa()) {
        WfaParams &w = b->wfa;
        const bool affine = b->kind == GALE_WFA;
        switch (param) {
        case GALE_P_PENALTY_MISMATCH: if (affine) { w.x = (int32_t)in(1, kPenaltyBound, "mismatch penalty"); return; } break;
        case GALE_P_PENALTY_GAP_OPEN: if (affine) { w.o = (int32_t)in(0, kPenaltyBound, "gap-open penalty"); return; } break;
        case GALE_P_PENALTY_GAP_EXTEND: if (affine) { w.e = (int32_t)in(1, kPenaltyBound, "gap-extend penalty"); return; } break;
        case GALE_P_PENALTY_GAP_OPEN2: if (affine) { w.o2 = (int32_t)in(0, kPenaltyBound, "second gap-open penalty"); return; } break;
        case GALE_P_PENALTY_GAP_EXTEND2:
            if (affine) {
                w.e2 = (int32_t)in(0, kPenaltyBound, "second gap-extend penalty");
                w.metric = w.e2 > 0 ? kMetricAffine2p : kMetricAffine;
                return;
            }
            break;
        case GALE_P_SCOPE: w.scope = (int32_t)in(GALE_SCOPE_SCORE, GALE_SCOPE_ALIGNMENT, "scope"); return;
        case GALE_P_PATTERN_BEGIN_FREE: w.pattern_begin_free = in(0, kMaxLen, "pattern begin-free length"); return;
        case GALE_P_PATTERN_END_FREE: w.pattern_end_free = in(0, kMaxLen, "pattern end-free length"); return;
        case GALE_P_TEXT_BEGIN_FREE: w.text_begin_free = in(0, kMaxLen, "text begin-free length"); return;
        case GALE_P_TEXT_END_FREE: w.text_end_free = in(0, kMaxLen, "text end-free length"); return;
        case GALE_P_MEMORY_LIMIT: w.memory_limit_mib = in(1, 1 << 20, "memory limit (MiB)"); return;
        case GALE_P_EXPECTED_ERROR: w.expected_error = (int32_t)in(1, 1000, "expected error (per mille)"); return;
        case GALE_P_GPU_BACKTRACE:
            w.gpu_backtrace = (int32_t)in(GALE_GPU_BT_CODES, GALE_GPU_BT_PIGGYBACK, "GPU backtrace layout");
            return;
        case GALE_P_N_POLICY: w.n_policy = (int32_t)in(GALE_N_DNA5, GALE_N_MISMATCH, "N policy"); return;
        }
        fail(GALE_E_RANGE, "unknown parameter id %d for kind %s", param, kind_name(b->kind));
    }
    XdropParams &p = b->params;
    switch (param) {
    case GALE_P_MATCH: p.match = (int32_t)in(-kScoreBound, kScoreBound, "match score"); break;
    case GALE_P_MISMATCH: p.mismatch = (int32_t)in(-kScoreBound, kScoreBound, "mismatch score"); break;
    case GALE_P_GAP: p.gap = (int32_t)in(-kScoreBound, -1, "gap score"); break;
    case GALE_P_XDROP: p.xdrop = (int32_t)in(0, kXdropBound, "X"); break;
    case GALE_P_DIRECTION: p.direction = (int32_t)in(GALE_DIR_LEFT, GALE_DIR_BOTH, "direction"); break;
    case GALE_P_N_POLICY: p.n_policy = (int32_t)in(GALE_N_DNA5, GALE_N_MISMATCH, "N policy"); break;
    default: fail(GALE_E_RANGE, "unknown parameter id %d for kind X-drop", param);
    }
}

int64_t batch_get(const gale_batch *b, int param) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->is_wfa()) {
        const WfaParams &w = b->wfa;
        const bool affine = b->kind == GALE_WFA;
        switch (param) {
        case GALE_P_PENALTY_MISMATCH: if (affine) return w.x; break;
        case GALE_P_PENALTY_GAP_OPEN: if (affine) return w.o; break;
        case GALE_P_PENALTY_GAP_EXTEND: if (affine) return w.e; break;
        case GALE_P_PENALTY_GAP_OPEN2: if (affine) return w.o2; break;
        case GALE_P_PENALTY_GAP_EXTEND2: if (affine) return w.e2; break;
        case GALE_P_SCOPE: return w.scope;
        case GALE_P_PATTERN_BEGIN_FREE: return w.pattern_begin_free;
        case GALE_P_PATTERN_END_FREE: return w.pattern_end_free;
        case GALE_P_TEXT_BEGIN_FREE: return w.text_begin_free;
        case GALE_P_TEXT_END_FREE: return w.text_end_free;
        case GALE_P_MEMORY_LIMIT: return w.memory_limit_mib;
        case GALE_P_EXPECTED_ERROR: return w.expected_error;
        case GALE_P_GPU_BACKTRACE: return w.gpu_backtrace;
        case GALE_P_N_POLICY: return w.n_policy;
        }
        fail(GALE_E_RANGE, "unknown parameter id %d for kind %s", param, kind_name(b->kind));
    }
    const XdropParams &p = b->params;
    switch (param) {
    case GALE_P_MATCH: return p.match;
    case GALE_P_MISMATCH: return p.mismatch;
    case GALE_P_GAP: return p.gap;
    case GALE_P_XDROP: return p.xdrop;
    case GALE_P_DIRECTION: return p.direction;
    case GALE_P_N_POLICY: return p.n_policy;
    default: fail(GALE_E_RANGE, "unknown parameter id %d for kind X-drop", param);
    }
}

void batch_add(gale_batch *b, const gale_task &t) {
    std::lock_guard<std::mutex> lock(b->mu);
    const size_t index = b->tasks.size();
    if (b->state != BatchState::Open)
        fail(GALE_E_STATE, "cannot add a task to a batch that is %s", state_name(b->state));
    if (t.h_len < 0 || t.h_len > kMaxLen || t.v_len < 0 || t.v_len > kMaxLen)
        fail(GALE_E_INVALID, "task %zu: sequence lengths must be in [0, 2^31-1] (h %lld, v %lld)", index,
             (long long)t.h_len, (long long)t.v_len);
    if ((t.h_len > 0 && !t.h) || (t.v_len > 0 && !t.v))
        fail(GALE_E_INVALID, "task %zu: NULL sequence with a nonzero length", index);
    if (t.h_begin < 0 || t.h_begin > t.h_end || t.h_end > t.h_len || t.v_begin < 0 || t.v_begin > t.v_end ||
        t.v_end > t.v_len)
        fail(GALE_E_INPUT, "task %zu: seed [%lld,%lld) x [%lld,%lld) lies outside the sequences (lengths %lld, %lld)",
             index, (long long)t.h_begin, (long long)t.h_end, (long long)t.v_begin, (long long)t.v_end,
             (long long)t.h_len, (long long)t.v_len);
    if (t.h_end - t.h_begin != t.v_end - t.v_begin)
        fail(GALE_E_INPUT, "task %zu: seed lengths differ on h (%lld) and v (%lld)", index,
             (long long)(t.h_end - t.h_begin), (long long)(t.v_end - t.v_begin));
    if (b->is_wfa() && (t.h_begin || t.h_end || t.v_begin || t.v_end))
        fail(GALE_E_INPUT, "task %zu: a %s task has no seed: h_begin, h_end, v_begin and v_end must be 0", index,
             kind_name(b->kind));

    PairTask x{};
    x.h_len = t.h_len;
    x.v_len = t.v_len;
    x.h_begin = t.h_begin;
    x.h_end = t.h_end;
    x.v_begin = t.v_begin;
    x.v_end = t.v_end;
    x.user = t.user;
    if (b->is_wfa()) check_wfa_room(x, b->wfa, index);
    else check_score_room(x, b->params, index);

    const size_t total = (size_t)t.h_len + (size_t)t.v_len;
    uint8_t *mem = b->arena.alloc(total);
    x.h = mem;
    x.v = mem + t.h_len;
    const char *names[2] = {"h", "v"};
    const char *seqs[2] = {t.h, t.v};
    const int64_t lens[2] = {t.h_len, t.v_len};
    uint8_t *outs[2] = {mem, mem + t.h_len};
    for (int s = 0; s < 2; ++s) {
        int64_t bad = encode_bases(seqs[s], lens[s], outs[s]);
        if (bad >= 0) {
            b->arena.undo(mem, total);
            unsigned char c = (unsigned char)seqs[s][bad];
            fail(GALE_E_INPUT, "task %zu: invalid byte 0x%02x ('%c') at position %lld of sequence %s", index, c,
                 (c >= 32 && c < 127) ? c : '?', (long long)bad, names[s]);
        }
    }
    b->tasks.push_back(x);
}

size_t batch_count(const gale_batch *b) {
    std::lock_guard<std::mutex> lock(b->mu);
    return b->tasks.size();
}

void batch_submit(gale_batch *b) {
    {
        std::lock_guard<std::mutex> lock(b->mu);
        if (b->state != BatchState::Open)
            fail(GALE_E_STATE, "batch was already submitted (it is %s)", state_name(b->state));
        // Parameters may have changed since the tasks were added.
        for (size_t i = 0; i < b->tasks.size(); ++i) {
            if (b->is_wfa()) check_wfa_room(b->tasks[i], b->wfa, i);
            else check_score_room(b->tasks[i], b->params, i);
        }
        if (b->is_wfa()) {
            b->wfa_results.clear();
            b->wfa_results.resize(b->tasks.size());
        } else {
            b->results.assign(b->tasks.size(), XdropResult{});
        }
        b->cancel.store(false);
        b->next.store(0);
        b->t_submit = std::chrono::steady_clock::now();
        b->state = BatchState::Running;
    }
    try {
        schedule(b);
    } catch (...) {  // nothing was started: the batch must not look in flight forever
        std::lock_guard<std::mutex> lock(b->mu);
        b->state = BatchState::Failed;
        b->fail_status = GALE_E_NOMEM;
        b->fail_message = "could not start the batch";
        b->cv.notify_all();
        throw;
    }
}

gale_status batch_poll(gale_batch *b, int timeout_ms) {
    std::unique_lock<std::mutex> lock(b->mu);
    if (b->state == BatchState::Open) fail(GALE_E_STATE, "batch was not submitted");
    auto finished = [b] { return b->state != BatchState::Running; };
    if (timeout_ms < 0) b->cv.wait(lock, finished);
    else if (timeout_ms > 0) b->cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), finished);
    switch (b->state) {
    case BatchState::Running: return GALE_E_AGAIN;
    case BatchState::Done: return GALE_OK;
    case BatchState::Canceled: fail(GALE_E_CANCELED, "batch was cancelled");
    case BatchState::Failed: fail(b->fail_status, "batch failed: %s", b->fail_message.c_str());
    default: fail(GALE_E_INTERNAL, "bad batch state");
    }
}

namespace {
void require_done(const gale_batch *b) {
    switch (b->state) {
    case BatchState::Done: return;
    case BatchState::Canceled: fail(GALE_E_CANCELED, "batch was cancelled: no results");
    case BatchState::Failed: fail(b->fail_status, "batch failed: %s", b->fail_message.c_str());
    default: fail(GALE_E_STATE, "batch is %s: results are ready once gale_poll returns GALE_OK",
                  state_name(b->state));
    }
}
}  // namespace

void batch_result(const gale_batch *b, size_t i, gale_result *out) {
    std::lock_guard<std::mutex> lock(b->mu);
    require_done(b);
    if (i >= b->tasks.size()) fail(GALE_E_RANGE, "result index %zu out of range (%zu tasks)", i, b->tasks.size());
    const PairTask &t = b->tasks[i];
    gale_result o{};
    o.size = sizeof(gale_result);
    if (b->is_wfa()) {
        const WfaResult &w = b->wfa_results[i];
        o.flags = w.flags;
        o.score = w.score;
        o.h_begin = w.h_begin;
        o.h_end = w.h_end;
        o.v_begin = w.v_begin;
        o.v_end = w.v_end;
        o.cells = w.cells;
        o.user = t.user;
        std::memcpy(out, &o, sizeof o);
        return;
    }
    const XdropResult &r = b->results[i];
    o.flags = r.flags;
    o.score_left = r.score_left;
    o.score_right = r.score_right;
    o.score = (int64_t)r.score_left + r.score_right + (t.h_end - t.h_begin);
    o.h_begin = r.h_begin;
    o.h_end = r.h_end;
    o.v_begin = r.v_begin;
    o.v_end = r.v_end;
    o.cells = r.cells;
    o.user = t.user;
    std::memcpy(out, &o, sizeof o);
}

void batch_cigar(const gale_batch *b, size_t i, const uint32_t **cigar, size_t *n_ops) {
    std::lock_guard<std::mutex> lock(b->mu);
    require_done(b);
    if (!b->is_wfa()) fail(GALE_E_RANGE, "%s results have no CIGAR", kind_name(b->kind));
    if (i >= b->tasks.size()) fail(GALE_E_RANGE, "result index %zu out of range (%zu tasks)", i, b->tasks.size());
    const VarSpan &c = b->wfa_results[i].cigar;
    *cigar = c.data;
    *n_ops = (size_t)c.n;
}

void batch_stats(const gale_batch *b, gale_stats *out) {
    std::lock_guard<std::mutex> lock(b->mu);
    require_done(b);
    std::memcpy(out, &b->stats, sizeof(gale_stats));
    out->size = sizeof(gale_stats);
}

}  // namespace gale
