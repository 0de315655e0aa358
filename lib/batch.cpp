// Batches: parameters, task validation and copying, submit/poll/cancel, results.
// Every kind-specific step goes through the batch's table entry (lib/kind.h).
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "context.h"
#include "errors.h"
#include "parallel.h"
#include "run.h"
#include "sequence.h"

namespace gale {

namespace {

constexpr int64_t kMaxRegistered = (int64_t)1 << 40;  // a registered sequence

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

void configure(gale_batch *b) { b->kind->configure(b->values.data(), b->params); }

void require_open(const gale_batch *b, const char *what) {
    if (b->state != BatchState::Open) fail(GALE_E_STATE, "cannot %s a batch that is %s", what, state_name(b->state));
}

void require_shape(const gale_batch *b, TaskShape shape, const char *call) {
    if (!(b->kind->shapes & shape))
        fail(GALE_E_UNSUPPORTED, "kind %s does not take %s", b->kind->name, call);
}

// The error for a bad byte at `bad` of `seq`, naming the record (e.g. "task" 5) and,
// when given, the sequence's name.
Error bad_byte(const char *record, size_t number, const char *seq, int64_t bad, const char *seq_name) {
    const unsigned char c = (unsigned char)seq[bad];
    return error_of(GALE_E_INPUT, "%s %zu: invalid byte 0x%02x ('%c') at position %lld%s%s", record, number, c,
                    (c >= 32 && c < 127) ? c : '?', (long long)bad, seq_name ? " of sequence " : "",
                    seq_name ? seq_name : "");
}

// Encodes n bytes of `seq` with the batch kind's encoder into fresh arena memory; a
// bad byte fails (bad_byte).
const uint8_t *encode_into(gale_batch *b, const char *seq, int64_t n, const char *record, size_t number,
                           const char *seq_name) {
    Arena &arena = b->arena;
    uint8_t *mem = arena.alloc((size_t)n);
    const int64_t bad = b->kind->encode(b->params, seq, n, mem);
    if (bad >= 0) {
        arena.undo(mem, (size_t)n);
        throw bad_byte(record, number, seq, bad, seq_name);
    }
    return mem;
}

// Makes room for one more element before anything is encoded, so that the push_back
// after the encoding cannot throw (and leave encoded bases behind). Geometric, as
// push_back's own growth: reserve(size + 1) alone would copy the vector every time.
template <class V>
void grow_for_one(V &v) {
    if (v.size() == v.capacity()) v.reserve(std::max<size_t>(16, 2 * v.capacity()));
}

}  // namespace

gale_batch *batch_create(gale_ctx *ctx, int kind_id) {
    const KindDef *kind = kind_find(kind_id);
    if (!kind) fail(GALE_E_RANGE, "unknown task kind %d", kind_id);
    auto *b = new gale_batch;
    b->ctx = ctx;
    b->kind = kind;
    b->arena.set_cache(&ctx->blocks);
    b->var.set_cache(&ctx->blocks);
    try {
        for (size_t i = 0; i < kind->n_params; ++i) b->values.push_back(kind->params[i].def);
        configure(b);
        std::lock_guard<std::mutex> lock(ctx->mu);
        ctx->batches.insert(b);
    } catch (...) {
        delete b;
        throw;
    }
    handle_add(b);
    return b;
}

// The flag is what the CPU kernels and the GPU dispatchers poll (lib/kind.h, CpuCancel;
// cuda_backend.h, GpuJob::cancel); the backend stops what does not poll it (the GPU
// kernels, through their device's cancel word).
void batch_cancel(gale_batch *b) {
    b->cancel.store(true);
    b->ctx->backend->cancel(b);
}

void batch_destroy(gale_batch *b) {
    handle_remove(b);
    {
        std::unique_lock<std::mutex> lock(b->mu);
        if (b->state == BatchState::Running) {
            lock.unlock();
            batch_cancel(b);  // not under b->mu: the backend takes its own locks
            lock.lock();
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
    b->seqs.clear();
    b->var.clear();
    b->tasks.clear();
    b->results.clear();
    b->cancel.store(false);
    b->next.store(0);
    b->kernel_ns.store(0);
    b->stats = gale_stats{};
    b->parts.clear();
}

void batch_set(gale_batch *b, int param, int64_t v) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->state != BatchState::Open) fail(GALE_E_STATE, "parameters can only be set before submit (batch is %s)",
                                           state_name(b->state));
    const ParamSpec *p = b->kind->param(param);
    if (!p) fail(GALE_E_RANGE, "unknown parameter id %d for kind %s", param, b->kind->name);
    if (v < p->lo || v > p->hi)
        fail(GALE_E_RANGE, "%s must be in [%lld, %lld] (got %lld)", p->name, (long long)p->lo, (long long)p->hi,
             (long long)v);
    int64_t &slot = b->values[(size_t)(p - b->kind->params)];
    const int64_t old = slot;
    const int old_encoding = b->kind->encoding ? b->kind->encoding(b->params) : 0;
    slot = v;
    configure(b);
    try {
        if (b->kind->check) b->kind->check(b->params);
        if (b->kind->encoding && b->kind->encoding(b->params) != old_encoding &&
            (!b->tasks.empty() || !b->seqs.empty()))
            fail(GALE_E_STATE, "%s = %lld would change how the batch stores its sequences: set it before adding "
                 "tasks or sequences (or after gale_batch_reset)", p->name, (long long)v);
    } catch (...) {  // undone: the batch keeps its last valid parameters
        slot = old;
        configure(b);
        throw;
    }
}

int64_t batch_get(const gale_batch *b, int param) {
    std::lock_guard<std::mutex> lock(b->mu);
    const ParamSpec *p = b->kind->param(param);
    if (!p) fail(GALE_E_RANGE, "unknown parameter id %d for kind %s", param, b->kind->name);
    return b->values[(size_t)(p - b->kind->params)];
}

uint32_t batch_add_sequence(gale_batch *b, const char *seq, int64_t len) {
    std::lock_guard<std::mutex> lock(b->mu);
    require_open(b, "add a sequence to");
    const size_t index = b->seqs.size();
    if (len < 0 || len > kMaxRegistered)
        fail(GALE_E_INVALID, "sequence %zu: length must be in [0, 2^40] (got %lld)", index + 1, (long long)len);
    if (len > 0 && !seq) fail(GALE_E_INVALID, "sequence %zu: NULL with a nonzero length", index + 1);
    if (index + 1 > UINT32_MAX) fail(GALE_E_LIMIT, "a batch holds at most 2^32 - 1 registered sequences");
    grow_for_one(b->seqs);  // may throw before anything is encoded
    const uint8_t *data = encode_into(b, seq, len, "registered sequence", index + 1, nullptr);
    b->seqs.push_back(SeqRef{data, len});
    return (uint32_t)(index + 1);
}

namespace {

// A pair task checked against the batch, its bases not copied yet: every check of
// gale_batch_add but the bytes themselves. refs[s] is the task's window of a registered
// sequence, or nullptr for an inline side (copied by the caller). Fails naming the task
// by `index`, its index in the batch. Reads b->seqs and b->params only: callers hold
// b->mu, and several threads may check tasks of one call at once (batch_add_tasks).
// junc is the task's junction array (gale_task.junc, or nullptr where the caller's struct
// predates it): checked here, byte by byte, copied by the caller.
PairTask check_pair(const gale_batch *b, const gale_task &t, const uint8_t *junc, size_t index,
                    const uint8_t *refs[2]) {
    if (t.h_len < 0 || t.h_len > kMaxTaskLen || t.v_len < 0 || t.v_len > kMaxTaskLen)
        fail(GALE_E_INVALID, "task %zu: sequence lengths must be in [0, 2^31-1] (h %lld, v %lld)", index,
             (long long)t.h_len, (long long)t.v_len);
    // Each side is either inline (copied) or a window of a registered sequence.
    const char *names[2] = {"h", "v"};
    const char *inl[2] = {t.h, t.v};
    const uint32_t ids[2] = {t.h_seq, t.v_seq};
    const int64_t offs[2] = {t.h_offset, t.v_offset}, lens[2] = {t.h_len, t.v_len};
    for (int s = 0; s < 2; ++s) {
        refs[s] = nullptr;
        if (ids[s] == 0) {
            if (lens[s] > 0 && !inl[s]) fail(GALE_E_INVALID, "task %zu: NULL sequence with a nonzero length", index);
            if (offs[s] != 0)
                fail(GALE_E_INVALID, "task %zu: %s_offset is %lld but %s is inline (%s_seq 0)", index, names[s],
                     (long long)offs[s], names[s], names[s]);
            continue;
        }
        if (inl[s]) fail(GALE_E_INVALID, "task %zu: %s is given both inline and as registered sequence %u", index,
                         names[s], ids[s]);
        if (ids[s] > b->seqs.size())
            fail(GALE_E_INVALID, "task %zu: %s_seq %u is not a registered sequence (%zu registered)", index,
                 names[s], ids[s], b->seqs.size());
        const SeqRef &r = b->seqs[ids[s] - 1];
        // The message gives the window as offset + length: offset + length itself may
        // not fit in 64 bits (an offset near INT64_MAX).
        if (offs[s] < 0 || offs[s] > r.len || lens[s] > r.len - offs[s])
            fail(GALE_E_INPUT, "task %zu: %s window [%lld, %lld + %lld) lies outside registered sequence %u (length %lld)",
                 index, names[s], (long long)offs[s], (long long)offs[s], (long long)lens[s], ids[s], (long long)r.len);
        refs[s] = r.data + offs[s];
    }
    if (t.h_begin < 0 || t.h_begin > t.h_end || t.h_end > t.h_len || t.v_begin < 0 || t.v_begin > t.v_end ||
        t.v_end > t.v_len)
        fail(GALE_E_INPUT, "task %zu: seed [%lld,%lld) x [%lld,%lld) lies outside the sequences (lengths %lld, %lld)",
             index, (long long)t.h_begin, (long long)t.h_end, (long long)t.v_begin, (long long)t.v_end,
             (long long)t.h_len, (long long)t.v_len);
    if (t.h_end - t.h_begin != t.v_end - t.v_begin)
        fail(GALE_E_INPUT, "task %zu: seed lengths differ on h (%lld) and v (%lld)", index,
             (long long)(t.h_end - t.h_begin), (long long)(t.v_end - t.v_begin));
    if (!b->kind->has_seed && (t.h_begin || t.h_end || t.v_begin || t.v_end))
        fail(GALE_E_INPUT, "task %zu: a %s task has no seed: h_begin, h_end, v_begin and v_end must be 0", index,
             b->kind->name);

    if (junc) {
        if (!b->kind->takes_junc)
            fail(GALE_E_UNSUPPORTED, "task %zu: kind %s takes no junction array (gale_task.junc must be NULL; only "
                 "GALE_ZDROP_EXTS2 takes one)", index, b->kind->name);
        for (int64_t k = 0; k < t.h_len; ++k)
            if (junc[k] & ~GALE_ZD_JUNC_MASK)
                fail(GALE_E_INPUT, "task %zu: junc[%lld] is 0x%02x: a junction byte holds only ksw2's bits "
                     "GALE_ZD_JUNC_* (0x01 0x02 0x04 0x08)", index, (long long)k, (unsigned)junc[k]);
    }

    PairTask x{};
    x.h_len = t.h_len;
    x.v_len = t.v_len;
    x.h_begin = t.h_begin;
    x.h_end = t.h_end;
    x.v_begin = t.v_begin;
    x.v_end = t.v_end;
    x.user = t.user;
    b->kind->validate(x, b->params, index);
    return x;
}

}  // namespace

void batch_add(gale_batch *b, const gale_task &t) {
    std::lock_guard<std::mutex> lock(b->mu);
    const size_t index = b->tasks.size();
    require_open(b, "add a task to");
    require_shape(b, kShapePair, "pair tasks (gale_batch_add)");
    const uint8_t *refs[2];
    PairTask x = check_pair(b, t, t.junc, index, refs);
    const char *inl[2] = {t.h, t.v}, *names[2] = {"h", "v"};
    const int64_t lens[2] = {t.h_len, t.v_len};

    grow_for_one(b->tasks);  // may throw before anything is encoded
    // the junction array first (checked already), so that a failure below gives back
    // the arena's allocations in reverse order
    uint8_t *junc = nullptr;
    if (t.junc && t.h_len > 0) {
        junc = b->arena.alloc((size_t)t.h_len);
        std::memcpy(junc, t.junc, (size_t)t.h_len);
    }
    const uint8_t *mem[2];
    for (int s = 0; s < 2; ++s) {
        if (refs[s]) {
            mem[s] = refs[s];
            continue;
        }
        try {
            mem[s] = encode_into(b, inl[s], lens[s], "task", index, names[s]);
        } catch (...) {
            if (s == 1 && !refs[0]) b->arena.undo(mem[0], (size_t)lens[0]);  // h was copied: give it back
            if (junc) b->arena.undo(junc, (size_t)t.h_len);
            throw;
        }
    }
    x.h = mem[0];
    x.v = mem[1];
    x.junc = junc;
    b->tasks.push_back(x);
}

// gale_batch_add for n tasks at once, all or none. The checks and the encoding of
// the bases are split over up to the context's thread count (as the CUDA packer
// splits its chunks), each part in task order, so that the failure reported is the
// first task's, as n gale_batch_add calls would report it. The inline bases of the
// tasks go into one arena allocation, given back whole on a failure.
void batch_add_tasks(gale_batch *b, const gale_task *tasks, size_t n, size_t stride) {
    std::lock_guard<std::mutex> lock(b->mu);
    const size_t first = b->tasks.size();
    require_open(b, "add tasks to");
    require_shape(b, kShapePair, "pair tasks (gale_batch_add_tasks)");
    if (n == 0) return;
    auto task = [&](size_t i) -> const gale_task & {
        return *reinterpret_cast<const gale_task *>(reinterpret_cast<const char *>(tasks) + i * stride);
    };
    // A caller built against 0.4 to 0.6 passes tasks without junc (lib/api.cpp takes that
    // stride): its tasks have none, and the bytes past their struct are not read.
    const bool has_junc = stride >= offsetof(gale_task, junc) + sizeof(const uint8_t *);
    auto junc_of = [&](size_t i) -> const uint8_t * { return has_junc ? task(i).junc : nullptr; };
    const int threads = b->ctx->pool->size();
    // Tasks per thread below which a thread costs more than it saves (its start is ~50 us).
    constexpr size_t kMinPerThread = 512;

    // The first failure of the parts (by task index), rethrown once all have stopped.
    struct Failure {
        size_t index = SIZE_MAX;
        Error error;
    };
    std::mutex fail_mu;
    Failure failure;
    auto record = [&](size_t i, Error &&e) {
        std::lock_guard<std::mutex> l(fail_mu);
        if (i < failure.index) failure = Failure{i, std::move(e)};
    };

    // 1. Checks, and where each task's inline bases go in one allocation.
    std::vector<PairTask> xs(n);
    std::vector<const uint8_t *> refs(2 * n);
    std::vector<size_t> at(n + 1, 0);  // inline bytes before task i
    parallel_for(n, threads, kMinPerThread, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) {
            try {
                xs[i] = check_pair(b, task(i), junc_of(i), first + i, &refs[2 * i]);
            } catch (Error &e) {
                record(i, std::move(e));
                return;  // the rest of this part comes after the failure
            }
            const gale_task &t = task(i);
            at[i + 1] = (refs[2 * i] ? 0 : (size_t)t.h_len) + (refs[2 * i + 1] ? 0 : (size_t)t.v_len) +
                        (junc_of(i) ? (size_t)t.h_len : 0);  // the junction array's copy
        }
    });
    // A check that failed at task k still lets a bad byte of a task before k be the
    // failure reported, as n gale_batch_add calls would: the bases of [0, k) are read.
    const size_t upto = std::min(n, failure.index);
    for (size_t i = 0; i < upto; ++i) at[i + 1] += at[i];
    if (upto == n) b->tasks.reserve(first + n);  // may throw before anything is encoded
    uint8_t *mem = at[upto] ? b->arena.alloc(at[upto]) : nullptr;

    // 2. The bases.
    parallel_for(upto, threads, kMinPerThread, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) {
            const gale_task &t = task(i);
            const char *inl[2] = {t.h, t.v}, *names[2] = {"h", "v"};
            const int64_t lens[2] = {t.h_len, t.v_len};
            uint8_t *out = mem + at[i];
            const uint8_t *side[2];
            for (int s = 0; s < 2; ++s) {
                if (refs[2 * i + s]) {
                    side[s] = refs[2 * i + s];
                    continue;
                }
                const int64_t bad = b->kind->encode(b->params, inl[s], lens[s], out);
                if (bad >= 0) {
                    record(i, bad_byte("task", first + i, inl[s], bad, names[s]));
                    return;
                }
                side[s] = out;
                out += lens[s];
            }
            xs[i].h = side[0];
            xs[i].v = side[1];
            if (const uint8_t *junc = junc_of(i)) {  // checked in part 1
                if (t.h_len > 0) {
                    std::memcpy(out, junc, (size_t)t.h_len);
                    xs[i].junc = out;
                }
            }
        }
    });
    if (failure.index != SIZE_MAX) {
        if (mem) b->arena.undo(mem, at[upto]);
        throw failure.error;
    }
    b->tasks.insert(b->tasks.end(), xs.begin(), xs.end());  // capacity reserved: cannot throw
}

namespace {
// Graphs are in the API for the coming sequence-to-graph kind; no kind of this release
// takes them, so every call ends in the shape check. The first kind with kShapeGraph
// replaces this with the storage it needs.
[[noreturn]] void refuse_shape(gale_batch *b, TaskShape shape, const char *what, const char *call) {
    std::lock_guard<std::mutex> lock(b->mu);
    require_open(b, what);
    require_shape(b, shape, call);
    fail(GALE_E_INTERNAL, "kind %s declares %s but the core stores none", b->kind->name, call);
}
}  // namespace

// A group: every check first (bytes included, through the kind's encode into a scratch
// buffer), then one arena block holding the GroupSeq array (lib/kind.h), the inline
// bases and the qualities, so that a failure leaves nothing behind.
void batch_add_group(gale_batch *b, const gale_group &g) {
    std::lock_guard<std::mutex> lock(b->mu);
    const size_t index = b->tasks.size();
    require_open(b, "add a task to");
    require_shape(b, kShapeGroup, "groups of sequences (gale_batch_add_group)");
    const size_t n = g.n;
    if (n > UINT32_MAX) fail(GALE_E_LIMIT, "task %zu: a group holds at most 2^32 - 1 sequences (got %zu)", index, n);
    if (n > 0 && !g.lens && !g.seq_ids) fail(GALE_E_INVALID, "task %zu: group of %zu sequences with NULL lens", index, n);
    std::vector<GroupSeq> gs(n);
    std::vector<uint8_t> scratch;
    size_t inline_bytes = 0;
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t id = g.seq_ids ? g.seq_ids[i] : 0;
        const char *seq = g.seqs ? g.seqs[i] : nullptr;
        GroupSeq &x = gs[i];
        if (id != 0) {
            if (seq) fail(GALE_E_INVALID, "task %zu: sequence %zu of the group is given both inline and as registered sequence %u", index, i, id);
            if (id > b->seqs.size())
                fail(GALE_E_INVALID, "task %zu: sequence %zu of the group: %u is not a registered sequence (%zu registered)",
                     index, i, id, b->seqs.size());
            x.bases = b->seqs[id - 1].data;
            x.len = b->seqs[id - 1].len;
        } else {
            if (!g.lens) fail(GALE_E_INVALID, "task %zu: sequence %zu of the group is inline but lens is NULL", index, i);
            x.len = g.lens[i];
            if (x.len > 0 && !seq) fail(GALE_E_INVALID, "task %zu: sequence %zu of the group: NULL with a nonzero length", index, i);
        }
        if (x.len < 0 || x.len > kMaxTaskLen)
            fail(GALE_E_INVALID, "task %zu: sequence %zu of the group: length must be in [0, 2^31-1] (got %lld)", index, i,
                 (long long)x.len);
        if (id == 0) {
            scratch.resize((size_t)x.len);
            const int64_t bad = b->kind->encode(b->params, seq, x.len, scratch.data());
            if (bad >= 0) {
                char name[48];
                std::snprintf(name, sizeof name, "%zu of the group", i);
                throw bad_byte("task", index, seq, bad, name);
            }
            inline_bytes += (size_t)x.len;
        }
        x.weight = 1;
        if (g.weights) {
            if (g.weights[i] < 0)
                fail(GALE_E_INVALID, "task %zu: sequence %zu of the group: negative weight %d", index, i, (int)g.weights[i]);
            x.weight = g.weights[i];
        }
        const char *q = g.quals ? g.quals[i] : nullptr;
        if (q) {
            for (int64_t k = 0; k < x.len; ++k)
                if (q[k] < '!' || q[k] > '~')
                    fail(GALE_E_INPUT, "task %zu: sequence %zu of the group: quality byte 0x%02x at position %lld is not '!'..'~'",
                         index, i, (unsigned char)q[k], (long long)k);
            inline_bytes += (size_t)x.len;
        }
        total += x.len;
    }
    grow_for_one(b->tasks);  // may throw before anything is stored
    const size_t head = n * sizeof(GroupSeq);
    uint8_t *mem = b->arena.alloc(head + inline_bytes, alignof(GroupSeq));
    uint8_t *out = mem + head;
    for (size_t i = 0; i < n; ++i) {  // cannot fail: every byte was checked above
        GroupSeq &x = gs[i];
        if (!(g.seq_ids && g.seq_ids[i])) {
            b->kind->encode(b->params, g.seqs ? g.seqs[i] : nullptr, x.len, out);
            x.bases = out;
            out += x.len;
        }
        const char *q = g.quals ? g.quals[i] : nullptr;
        if (q) {
            std::memcpy(out, q, (size_t)x.len);
            x.qual = out;
            out += x.len;
        }
    }
    if (head) std::memcpy(mem, gs.data(), head);
    PairTask t{};
    t.h = mem;
    t.h_len = (int64_t)n;
    t.v_len = total;
    t.user = g.user;
    try {
        b->kind->validate(t, b->params, index);
    } catch (...) {
        b->arena.undo(mem, head + inline_bytes);
        throw;
    }
    b->tasks.push_back(t);
}

uint32_t batch_add_graph(gale_batch *b, const gale_graph &) {
    refuse_shape(b, kShapeGraph, "add a graph to", "graphs (gale_batch_add_graph)");
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
        for (size_t i = 0; i < b->tasks.size(); ++i) b->kind->validate(b->tasks[i], b->params, i);
        // All-zero bytes are every kind's empty result (lib/kind.h).
        b->results.assign(b->tasks.size() * (b->kind->result_bytes / sizeof(uint64_t)), 0);
        b->var.clear();
        b->cancel.store(false);
        b->next.store(0);
        b->parts.clear();
        b->t_submit = std::chrono::steady_clock::now();
        b->state = BatchState::Running;
    }
    // Nothing was started when start throws: the batch must not look in flight forever,
    // and it reports what the caller was told.
    auto not_started = [b](gale_status st, const std::string &msg) {
        std::lock_guard<std::mutex> lock(b->mu);
        b->state = BatchState::Failed;
        b->fail_status = st;
        b->fail_message = msg;
        b->cv.notify_all();
    };
    try {
        b->ctx->backend->start(b);
    } catch (const Error &e) {
        not_started(e.status, e.message);
        throw;
    } catch (...) {
        not_started(GALE_E_NOMEM, "could not start the batch (out of host memory)");
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
    case BatchState::Running: {
        // Not a failure, but not GALE_OK either: the thread's message describes this call
        // (gale.h), not an older failure. Set directly, no throw: polling is a loop's job.
        char msg[96];
        if (timeout_ms == 0) std::snprintf(msg, sizeof msg, "batch is still running (gale_poll: timeout 0 ms, not waited)");
        else std::snprintf(msg, sizeof msg, "batch is still running after %d ms (gale_poll timeout)", timeout_ms);
        set_last_error(msg);
        return GALE_E_AGAIN;
    }
    case BatchState::Done: return GALE_OK;
    case BatchState::Canceled:
        fail(GALE_E_CANCELED, "batch was cancelled: %zu of its %zu tasks have no result (GALE_RF_CANCELED)",
             b->canceled, b->tasks.size());
    case BatchState::Failed: fail(b->fail_status, "batch failed: %s", b->fail_message.c_str());
    default: fail(GALE_E_INTERNAL, "bad batch state");
    }
}

namespace {
// Results are read without the batch's lock once it has ended: an ended batch changes
// only through reset or destroy, which the caller must not race with reads (gale.h).
// A cancelled batch's results are read too (those of the tasks that finished first)
// when `canceled_ok`; otherwise it gives GALE_E_CANCELED.
void require_ended(const gale_batch *b, bool canceled_ok) {
    BatchState s;
    {
        std::lock_guard<std::mutex> lock(b->mu);
        s = b->state;
    }
    switch (s) {
    case BatchState::Done: return;
    case BatchState::Canceled:
        if (canceled_ok) return;
        fail(GALE_E_CANCELED, "batch was cancelled: no statistics");
    case BatchState::Failed: {
        std::lock_guard<std::mutex> lock(b->mu);
        fail(b->fail_status, "batch failed: %s", b->fail_message.c_str());
    }
    default: fail(GALE_E_STATE, "batch is %s: results are ready once gale_poll returns GALE_OK", state_name(s));
    }
}

// Did task i finish? Every task of a done batch did; of a cancelled one, those that
// finished before the cancel (lib/kind.h, kResultDone).
bool task_done(const gale_batch *b, size_t i) {
    return (b->kind->flags(const_cast<void *>(b->result(i))) & kResultDone) != 0;
}
}  // namespace

void batch_results(const gale_batch *b, size_t first, size_t n, gale_result *out, size_t out_size) {
    require_ended(b, true);
    const size_t count = b->tasks.size();
    if (first > count || n > count - first) {
        if (n == 1) fail(GALE_E_RANGE, "result index %zu out of range (%zu tasks)", first, count);
        fail(GALE_E_RANGE, "results [%zu, %zu) out of range (%zu tasks)", first, first + n, count);
    }
    // out_size >= sizeof(gale_result) (lib/api.cpp checks it). Each element keeps the
    // caller's size, and the bytes past this library's struct read 0 (gale.h, "Struct sizes").
    // A task of a cancelled batch that did not finish reads as gale.h says (GALE_RF_CANCELED),
    // and the call then fails with GALE_E_CANCELED, every element written all the same.
    char *dst = reinterpret_cast<char *>(out);
    size_t canceled = 0, first_canceled = 0;
    for (size_t k = 0; k < n; ++k, dst += out_size) {
        const size_t i = first + k;
        gale_result o{};
        if (task_done(b, i)) {
            b->kind->fill(b->tasks[i], b->result(i), o);
            o.flags &= ~kResultDone;
        } else {
            o.flags = GALE_RF_CANCELED;
            if (canceled++ == 0) first_canceled = i;
        }
        o.size = out_size;
        o.user = b->tasks[i].user;
        std::memcpy(dst, &o, sizeof o);
        std::memset(dst + sizeof o, 0, out_size - sizeof o);
    }
    if (canceled == 1 && n == 1) fail(GALE_E_CANCELED, "batch was cancelled before task %zu finished", first_canceled);
    if (canceled)
        fail(GALE_E_CANCELED, "batch was cancelled before %zu of results [%zu, %zu) finished (the first: task %zu)",
             canceled, first, first + n, first_canceled);
}

void batch_cigar(const gale_batch *b, size_t i, const uint32_t **cigar, size_t *n_ops) {
    require_ended(b, true);
    if (!b->kind->cigar) fail(GALE_E_RANGE, "%s results have no CIGAR", b->kind->name);
    if (i >= b->tasks.size()) fail(GALE_E_RANGE, "result index %zu out of range (%zu tasks)", i, b->tasks.size());
    if (!task_done(b, i)) {
        *cigar = nullptr;
        *n_ops = 0;
        fail(GALE_E_CANCELED, "batch was cancelled before task %zu finished: no CIGAR", i);
    }
    const VarSpan c = b->kind->cigar(b->result(i));
    *cigar = c.data;
    *n_ops = (size_t)c.n;
}

void batch_result_zdrop(const gale_batch *b, size_t i, gale_zdrop_result *out) {
    require_ended(b, true);
    if (!b->kind->fill_zdrop) fail(GALE_E_RANGE, "%s results have no Z-drop fields (gale_result_zdrop)", b->kind->name);
    if (i >= b->tasks.size()) fail(GALE_E_RANGE, "result index %zu out of range (%zu tasks)", i, b->tasks.size());
    // As batch_results: the caller's size kept, the bytes past ours 0, a cancelled task
    // written as one all the same.
    const size_t size = out->size;
    gale_zdrop_result o{};
    const bool done = task_done(b, i);
    if (done) {
        b->kind->fill_zdrop(b->result(i), o);
        o.flags = b->kind->flags(const_cast<void *>(b->result(i))) & ~kResultDone;
    } else {
        o.flags = GALE_RF_CANCELED;
    }
    o.size = size;
    o.user = b->tasks[i].user;
    std::memcpy(out, &o, sizeof o);
    std::memset(reinterpret_cast<char *>(out) + sizeof o, 0, size - sizeof o);
    if (!done) fail(GALE_E_CANCELED, "batch was cancelled before task %zu finished", i);
}

void batch_poa_result(const gale_batch *b, size_t i, gale_poa_result *out) {
    require_ended(b, true);
    if (!b->kind->poa_fill) fail(GALE_E_RANGE, "%s results are not partial-order alignments", b->kind->name);
    if (i >= b->tasks.size()) fail(GALE_E_RANGE, "result index %zu out of range (%zu tasks)", i, b->tasks.size());
    const size_t size = out->size;  // the caller's, kept (gale.h, "Struct sizes")
    gale_poa_result o{};
    const bool done = task_done(b, i);
    if (done) {
        b->kind->poa_fill(b->result(i), o);
        o.flags &= ~kResultDone;
    } else {
        o.flags = GALE_RF_CANCELED;
    }
    o.user = b->tasks[i].user;
    std::memcpy(out, &o, size < sizeof o ? size : sizeof o);  // an older caller's struct is shorter
    out->size = size;
    if (!done) fail(GALE_E_CANCELED, "batch was cancelled before task %zu finished", i);
}

size_t batch_device_stats(const gale_batch *b, gale_device_stats *out, size_t cap, size_t stride) {
    require_ended(b, false);
    std::lock_guard<std::mutex> lock(b->mu);
    char *base = reinterpret_cast<char *>(out);
    for (size_t i = 0; i < b->parts.size() && i < cap; ++i) {
        const DevicePart &p = b->parts[i];
        gale_device_stats d{};
        d.size = stride;  // the caller's, kept
        d.device = p.device;
        d.first_task = p.first;
        d.tasks = p.n;
        d.cells = p.cells;
        d.rescued = p.rescued;
        d.kernel_ns = p.kernel_ns;
        d.elapsed_ns = p.elapsed_ns;
        std::memcpy(base + i * stride, &d, sizeof d);
        std::memset(base + i * stride + sizeof d, 0, stride - sizeof d);
    }
    return b->parts.size();
}

void batch_stats(const gale_batch *b, gale_stats *out) {
    require_ended(b, false);
    std::lock_guard<std::mutex> lock(b->mu);
    const size_t size = out->size;  // the caller's, kept (gale.h, "Struct sizes")
    std::memcpy(out, &b->stats, sizeof(gale_stats));
    out->size = size;
}

}  // namespace gale
