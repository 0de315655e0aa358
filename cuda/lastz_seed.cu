// CUDA kernels of LASTZ's seeding and gap-free extension (lib/lastz_seed.h; the rules:
// doc/lastz-seed.md), identical to the CPU's (lib/cpu/lastz_seed.cpp), whose parallel path
// they follow. A hit reads and writes only its hashed diagonal's record (diagEnd), so a
// window of the query is done as:
//   1. count_hits, a thread per query position: its seed hits (every lookup of its word:
//      exact, then the transition flips in LASTZ's order); an inclusive scan (CUB); the
//      window cut where its hits fill the buffers (cut_window);
//   2. fill_hits: each position's hits at its offset, in LASTZ's order, with their record
//      (the diagonal modulo 2^16);
//   3. a stable radix sort (CUB) of the hits by record: each record's hits in order;
//   4. speculate, a thread per hit: both halves of its X-drop extension as if no earlier
//      extension shared its record (the right half never depends on one; the left one
//      only stops earlier where one passed), a few steps at most (kSpecSteps: a hit
//      between unrelated sequences drops within some 20);
//   5. walk_records, a thread per record: its hits in order, LASTZ's check against the
//      record, each extension taken from step 4 where it provably equals LASTZ's (the left
//      half ended at or after where LASTZ's would have had to stop) and computed afresh
//      otherwise (homologous stretches: the first hit extends, the rest are skipped); an
//      extension scoring the threshold or more is a candidate, with the bases its entropy
//      needs counted (lib/lastz_seed.h, LastzCandidate: the host scales it, in doubles,
//      as lastz_seed.cpp does).
// The candidates are put in hit order on the host (a window's hit index each) and the
// windows follow each other, the records' diagEnd kept on the device between them.
//
// Memory: per entry, the target and LASTZ's scores go to the device once and the target's
// word table is built there (build_table: 4 bytes a position, more for wide seeds, and 16
// bytes a position while it is built; the host never builds it unless a find falls back to
// the CPU); each find takes the query and the window buffers, sized from the
// device's free memory (kHitBytes a hit) and kept for the entry's next find. A cudaMalloc
// that fails throws DeviceFault (memory): the seeder then finds on the CPU.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/device.cuh"
#include "cuda_backend.h"
#include "lastz_seed.h"
#include "ydrop.h"

namespace gale {
namespace cuda {

namespace {

constexpr uint32_t kDiagHash = 65536;  // LASTZ's diag hash (diag_hash.h), as lastz_seed.cpp
constexpr uint32_t kNone = 0xffffffffu;
constexpr int kSpecSteps = 128;        // speculate's steps a half
constexpr uint32_t kWindowPositions = 1u << 22;
constexpr int kSeedMax = 32;           // a seed's parts and flips (weights up to 28 bits)

// The seed as the kernels read it (a kernel argument).
struct SeedDev {
    int length, parts, nflips, transitions;
    int shift[kSeedMax];
    uint32_t mask[kSeedMax];
    uint32_t flips[kSeedMax];
    uint32_t bucket_mask;
    int wide;  // the table has words (seeds of more bits than its buckets)
};

// A hit after step 4 (in record order): where it is, its index in the window's hit
// order, and its halves as speculate found them (kNone: left to walk_records).
struct SpecHit {
    uint32_t pos1, pos2, order;
    LastzHalf left, right;  // end kNone: not done
};

struct DevCandidate {
    LastzCandidate c;
    uint32_t order;
};

// Bytes a hit of a window takes: hp1, hp2, key, sorted key, order, sorted order, SpecHit,
// and CUB's sort (its own copy of keys and values).
constexpr size_t kHitBytes = 4 + 4 + 2 + 2 + 4 + 4 + sizeof(SpecHit) + 2 + 4;

// The packed seed word of the window of the query ending at e (exclusive); false when a
// byte of it is no upper-case A C G T (lastz_seed.cpp, for_each_word and apply_seed).
__device__ bool word_at(const uint8_t *q, uint32_t e, const SeedDev &s, uint32_t *packed) {
    uint64_t w = 0;
    for (int i = 0; i < s.length; ++i) {
        const int b = lastz_upper_bits(q[e - (uint32_t)s.length + (uint32_t)i]);
        if (b < 0) return false;
        w = (w << 2) | (uint64_t)b;
    }
    uint32_t p = 0;
    for (int k = 0; k < s.parts; ++k) p |= (uint32_t)(w >> s.shift[k]) & s.mask[k];
    *packed = p;
    return true;
}

// The words a query word looks up, in LASTZ's order (lastz_seed.cpp, for_each_hit).
template <class F>
__device__ void for_each_lookup(uint32_t packed, const SeedDev &s, F &&f) {
    f(packed);
    if (s.transitions == 1) {
        for (int a = 0; a < s.nflips; ++a) f(packed ^ s.flips[a]);
    } else if (s.transitions >= 2) {
        for (int a = 0; a < s.nflips; ++a) {
            f(packed ^ s.flips[a]);
            for (int c = a + 1; c < s.nflips; ++c) f(packed ^ s.flips[a] ^ s.flips[c]);
        }
    }
}

struct Table {
    const uint32_t *start, *pos, *word;
};

__global__ void count_hits(const uint8_t *q, uint32_t from, uint32_t n, SeedDev s, Table t, uint64_t *cnt) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t e = from + 1 + i;
    uint64_t c = 0;
    uint32_t packed;
    if (e >= (uint32_t)s.length && word_at(q, e, s, &packed))
        for_each_lookup(packed, s, [&](uint32_t w) {
            const uint32_t b = w & s.bucket_mask;
            if (!s.wide) {
                c += t.start[b + 1] - t.start[b];
            } else {
                for (uint32_t k = t.start[b]; k < t.start[b + 1]; ++k) c += t.word[k] == w;
            }
        });
    cnt[i] = c;
}

// The positions [0, k) of the window whose hits fit cap, k as large as may be; out: k,
// their hits, the first position's hits.
__global__ void cut_window(const uint64_t *incl, uint32_t n, uint64_t cap, uint64_t *out) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo + 1) / 2;
        if (incl[mid - 1] <= cap) lo = mid;
        else hi = mid - 1;
    }
    out[0] = lo;
    out[1] = lo ? incl[lo - 1] : 0;
    out[2] = n ? incl[0] : 0;
}

__global__ void fill_hits(const uint8_t *q, uint32_t from, uint32_t n, SeedDev s, Table t, const uint64_t *incl,
                          uint32_t *hp1, uint32_t *hp2, uint16_t *key, uint32_t *order) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t off = i ? incl[i - 1] : 0;
    if (incl[i] == off) return;
    const uint32_t e = from + 1 + i;
    uint32_t packed;
    word_at(q, e, s, &packed);
    for_each_lookup(packed, s, [&](uint32_t w) {
        const uint32_t b = w & s.bucket_mask;
        for (uint32_t k = t.start[b]; k < t.start[b + 1]; ++k)
            if (!s.wide || t.word[k] == w) {
                const uint32_t p1 = t.pos[k];
                hp1[off] = p1;
                hp2[off] = e;
                key[off] = (uint16_t)((p1 - e) & (kDiagHash - 1));
                order[off] = (uint32_t)off;
                ++off;
            }
    });
}

template <class K>
__device__ __forceinline__ uint32_t lower_bound(const K *key, uint32_t n, uint32_t v) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (key[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// The target's table (lastz_seed.cpp's build_table, in parallel): target_words writes each
// position's word, from the highest position down (kNone: no word ends there, or not at a
// multiple of step), under a key whose high bits are the bucket (the word's low 24 bits) and
// whose low `rot` bits the rest of the word; a stable radix sort by that key then lays out
// each bucket's words by word, each word's ends highest first, as build_table does.
__global__ void target_words(const uint8_t *t, uint32_t len, uint32_t step, SeedDev s, int rot, uint32_t *key,
                             uint32_t *end) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len) return;
    const uint32_t e = i + 1;
    uint32_t k = kNone, packed;
    if (e >= (uint32_t)s.length && e % step == 0 && word_at(t, e, s, &packed))
        k = rot ? ((packed & s.bucket_mask) << rot) | (packed >> 24) : packed;
    key[len - 1 - i] = k;
    end[len - 1 - i] = e;
}

// start[b], b = 0..buckets: the first sorted key of bucket b or above (b = buckets: the
// number of words; kNone sorts after them).
__global__ void table_starts(const uint32_t *key_s, uint32_t n, uint32_t buckets, int rot, uint32_t *start) {
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > buckets) return;
    start[b] = lower_bound(key_s, n, b << rot);
}

// The words back from their keys (tables of words wider than the buckets).
__global__ void table_words(const uint32_t *key_s, uint32_t n, int rot, uint32_t *word) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    const uint32_t v = key_s[k];
    word[k] = (v >> rot) | ((v & ((1u << rot) - 1)) << 24);
}

struct Seqs {
    const uint8_t *t, *q;
    uint32_t len1, len2;
    const int32_t *sub;  // 256 x 256, LASTZ's masked scores
    int32_t xdrop;
};

// The loosest stop of a left half (no earlier extension on the record): LASTZ's
// max(block2 + diag, 0) with block2 = 0.
__global__ void speculate(const uint32_t *order_s, const uint32_t *hp1, const uint32_t *hp2, uint32_t total, Seqs S,
                          SpecHit *spec) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= total) return;
    SpecHit h;
    h.order = order_s[k];
    h.pos1 = hp1[h.order];
    h.pos2 = hp2[h.order];
    const int64_t diag = (int64_t)h.pos1 - (int64_t)h.pos2;
    if (!lastz_extend_left(S.t, S.q, S.sub, S.xdrop, h.pos1, h.pos2, diag > 0 ? diag : 0, kSpecSteps, &h.left))
        h.left.end = kNone;
    if (!lastz_extend_right(S.t, S.q, S.len1, S.len2, S.sub, S.xdrop, h.pos1, h.pos2, kSpecSteps, &h.right))
        h.right.end = kNone;
    spec[k] = h;
}

struct WalkParams {
    uint32_t seed_length;
    int32_t hsp_thresh;
    int entropy;
};

// Each record's hits in order, as lastz_seed.cpp's Search::hit and extend.
__global__ void walk_records(const uint16_t *key_s, uint32_t total, const SpecHit *spec, uint32_t *diag_end, Seqs S,
                             WalkParams W, DevCandidate *out, uint32_t *n_out, uint32_t out_cap) {
    const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= kDiagHash) return;
    const uint32_t lo = lower_bound(key_s, total, r), hi = lower_bound(key_s, total, r + 1);
    if (lo == hi) return;
    uint32_t de = diag_end[r];
    for (uint32_t k = lo; k < hi; ++k) {
        const SpecHit h = spec[k];
        if (de > h.pos2 - W.seed_length) continue;  // (process_for_simple_hit)
        const int64_t diag = (int64_t)h.pos1 - (int64_t)h.pos2;
        const int64_t stop = (int64_t)de + diag > 0 ? (int64_t)de + diag : 0;
        LastzHalf left = h.left, right = h.right;
        if (left.end == kNone || (int64_t)left.end < stop)
            lastz_extend_left(S.t, S.q, S.sub, S.xdrop, h.pos1, h.pos2, stop, INT_MAX, &left);
        if (right.end == kNone)
            lastz_extend_right(S.t, S.q, S.len1, S.len2, S.sub, S.xdrop, h.pos1, h.pos2, INT_MAX, &right);
        const uint32_t extent = (uint32_t)((int64_t)right.end - diag);
        if (extent > de) de = extent;
        const int32_t similarity = left.score + right.score;
        if (similarity < W.hsp_thresh) continue;
        DevCandidate c;
        c.order = h.order;
        c.c.length = right.best - left.best;
        c.c.pos1 = left.best;
        c.c.pos2 = (uint32_t)((int64_t)left.best - diag);
        c.c.similarity = similarity;
        c.c.matched[0] = c.c.matched[1] = c.c.matched[2] = c.c.matched[3] = 0;
        if (lastz_entropy_scales(W.entropy != 0, W.hsp_thresh, similarity))
            lastz_count_matched(S.t + c.c.pos1, S.q + c.c.pos2, c.c.length, c.c.matched);
        const uint32_t at = atomicAdd(n_out, 1u);
        if (at < out_cap) out[at] = c;
    }
    diag_end[r] = de;
}

}  // namespace

// One entry's state for one seeder: the target, its table and the scores (once), the
// buffers of its finds (grown as they need), the stream.
struct LastzSeedGpu {
    SeedDev seed{};
    LastzSeedParams params;
    uint32_t len1 = 0;
    const uint8_t *host_target = nullptr;
    DevBuf target, start, pos, word, sub;
    DevBuf query, diag_end, diag_saved, cnt, incl, hp1, hp2, key, key_s, order, order_s, spec, cand, small, temp;
    uint32_t window = kWindowPositions;  // query positions a window counts at most
    uint64_t hit_cap = 0;                // hits a window may hold
    uint32_t cand_cap = 0;               // candidates a window's walk may write
    cudaStream_t stream = nullptr;
    cudaEvent_t start_ev = nullptr, stop_ev = nullptr;
};

void lastz_seed_gpu_close(LastzSeedGpu *g) noexcept {
    if (g == nullptr) return;
    if (g->stream) cudaStreamSynchronize(g->stream);
    for (DevBuf *b : {&g->target, &g->start, &g->pos, &g->word, &g->sub, &g->query, &g->diag_end, &g->diag_saved,
                      &g->cnt, &g->incl, &g->hp1, &g->hp2, &g->key, &g->key_s, &g->order, &g->order_s, &g->spec,
                      &g->cand, &g->small, &g->temp})
        b->release();
    if (g->start_ev) cudaEventDestroy(g->start_ev);
    if (g->stop_ev) cudaEventDestroy(g->stop_ev);
    if (g->stream) cudaStreamDestroy(g->stream);
    cudaGetLastError();  // (a lost device fails these; nothing to do about it)
    delete g;
}

namespace {

// The target's table on the device, as build_table builds it on the CPU (target_words says
// how): start (buckets + 1), pos and, for wide seeds, word, each entry 4 bytes. Takes 16
// bytes a target position and CUB's sort storage while it runs.
// rot: the word's bits above the bucket's (wide seeds; else 0).
void build_table(Device *dev, LastzSeedGpu *g, int bucket_bits, int rot, uint32_t step) {
    const uint32_t n = g->len1, buckets = 1u << bucket_bits;
    cudaStream_t st = g->stream;
    constexpr unsigned kThreads = 256;
    g->start.reserve(dev, ((size_t)buckets + 1) * 4);
    g->pos.reserve(dev, std::max<size_t>((size_t)n * 4, 4));
    if (g->seed.wide) g->word.reserve(dev, std::max<size_t>((size_t)n * 4, 4));
    if (n == 0) {
        GALE_CUDA_CHECK(cudaMemsetAsync(g->start.p, 0, ((size_t)buckets + 1) * 4, st));
        return;
    }
    DevBuf key, key_s, end, temp;
    struct Release {  // (the temporaries go whatever happens)
        DevBuf *b[4];
        ~Release() {
            for (DevBuf *x : b) x->release();
        }
    } release{{&key, &key_s, &end, &temp}};
    key.reserve(dev, (size_t)n * 4);
    key_s.reserve(dev, (size_t)n * 4);
    end.reserve(dev, (size_t)n * 4);
    size_t temp_b = 0;
    GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_b, (const uint32_t *)nullptr, (uint32_t *)nullptr,
                                                    (const uint32_t *)nullptr, (uint32_t *)nullptr, (int64_t)n, 0, 32,
                                                    st));
    temp.reserve(dev, std::max<size_t>(temp_b, 4));
    target_words<<<blocks_of(n, kThreads), kThreads, 0, st>>>(g->target.as<uint8_t>(), n, step, g->seed, rot,
                                                              key.as<uint32_t>(), end.as<uint32_t>());
    GALE_CUDA_CHECK(cudaGetLastError());
    GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.p, temp_b, key.as<uint32_t>(), key_s.as<uint32_t>(),
                                                    end.as<uint32_t>(), g->pos.as<uint32_t>(), (int64_t)n, 0, 32, st));
    table_starts<<<blocks_of((uint64_t)buckets + 1, kThreads), kThreads, 0, st>>>(key_s.as<uint32_t>(), n, buckets,
                                                                                  rot, g->start.as<uint32_t>());
    GALE_CUDA_CHECK(cudaGetLastError());
    if (g->seed.wide) {
        table_words<<<blocks_of(n, kThreads), kThreads, 0, st>>>(key_s.as<uint32_t>(), n, rot, g->word.as<uint32_t>());
        GALE_CUDA_CHECK(cudaGetLastError());
    }
    GALE_CUDA_CHECK(cudaStreamSynchronize(st));  // (before the temporaries are freed)
}

}  // namespace

LastzSeedGpu *lastz_seed_gpu_open(Device *dev, const LastzSeedView &v) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    device_check(dev);
    const LastzSeed &sd = *v.seed;
    if (sd.parts > kSeedMax || (int)sd.flips.size() > kSeedMax)
        fail(GALE_E_INTERNAL, "seed of %d parts, %zu flips: the GPU takes %d", sd.parts, sd.flips.size(), kSeedMax);
    auto g = std::unique_ptr<LastzSeedGpu, void (*)(LastzSeedGpu *)>(new LastzSeedGpu, [](LastzSeedGpu *p) {
        lastz_seed_gpu_close(p);
    });
    g->seed.length = sd.length;
    g->seed.parts = sd.parts;
    g->seed.nflips = (int)sd.flips.size();
    g->seed.transitions = v.params->transitions;
    for (int k = 0; k < sd.parts; ++k) {
        g->seed.shift[k] = sd.shift[k];
        g->seed.mask[k] = sd.mask[k];
    }
    for (size_t k = 0; k < sd.flips.size(); ++k) g->seed.flips[k] = sd.flips[k];
    const int bucket_bits = lastz_table_bucket_bits(sd);
    g->seed.bucket_mask = (1u << bucket_bits) - 1;
    g->seed.wide = sd.weight > bucket_bits;
    g->params = *v.params;
    g->len1 = v.target_len;
    g->host_target = v.target;
    GALE_CUDA_CHECK(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
    GALE_CUDA_CHECK(cudaEventCreate(&g->start_ev));
    GALE_CUDA_CHECK(cudaEventCreate(&g->stop_ev));
    auto upload = [&](DevBuf &b, const void *src, size_t bytes) {
        b.reserve(dev, std::max<size_t>(bytes, 4));
        if (bytes) GALE_CUDA_CHECK(cudaMemcpyAsync(b.p, src, bytes, cudaMemcpyHostToDevice, g->stream));
    };
    upload(g->target, v.target, v.target_len);
    build_table(dev, g.get(), bucket_bits, sd.weight - bucket_bits, v.params->step);
    std::vector<int32_t> sub(256 * 256);
    for (int a = 0; a < 256; ++a)
        for (int b = 0; b < 256; ++b) sub[a * 256 + b] = v.masked->sub[a][b];
    upload(g->sub, sub.data(), sub.size() * 4);
    GALE_CUDA_CHECK(cudaStreamSynchronize(g->stream));
    // A window's hits: an eighth of what the device has free, at most 2^26
    size_t free_b = 0, total_b = 0;
    GALE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    g->hit_cap = std::max<uint64_t>((uint64_t)1 << 20, std::min<uint64_t>((uint64_t)1 << 26, free_b / 8 / kHitBytes));
    g->cand_cap = 1u << 16;
    // Test hooks (doc/testing.md), so that short queries cross windows and fill the buffers:
    // GALE_LASTZ_SEED_WINDOW (the CPU's too) and GALE_LASTZ_SEED_GPU_HITS (a window's hits;
    // the candidates' first capacity then 16)
    if (v.window < kSeedWindow) g->window = std::max<uint32_t>(v.window, 1);
    if (const char *h = std::getenv("GALE_LASTZ_SEED_GPU_HITS")) {
        const long long c = std::atoll(h);
        if (c > 0) {
            g->hit_cap = (uint64_t)c;
            g->cand_cap = 16;
        }
    }
    return g.release();
}

namespace {

// The window buffers for cap hits (CUB's temporary storage asked for first: its two-phase query).
void reserve_hits(Device *dev, LastzSeedGpu *g, uint64_t cap) {
    g->hp1.reserve(dev, cap * 4);
    g->hp2.reserve(dev, cap * 4);
    g->key.reserve(dev, cap * 2);
    g->key_s.reserve(dev, cap * 2);
    g->order.reserve(dev, cap * 4);
    g->order_s.reserve(dev, cap * 4);
    g->spec.reserve(dev, cap * sizeof(SpecHit));
    size_t sort_b = 0, scan_b = 0;
    GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_b, (const uint16_t *)nullptr, (uint16_t *)nullptr,
                                                    (const uint32_t *)nullptr, (uint32_t *)nullptr, (int64_t)cap, 0, 16,
                                                    g->stream));
    GALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_b, (const uint64_t *)nullptr, (uint64_t *)nullptr,
                                                  (int64_t)kWindowPositions, g->stream));
    g->temp.reserve(dev, std::max(sort_b, scan_b));
    g->hit_cap = cap;
}

}  // namespace

void lastz_seed_gpu_find(Device *dev, LastzSeedGpu *g, const uint8_t *query, uint32_t len2,
                         std::vector<LastzCandidate> &out, uint64_t *hits, double *device_seconds) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    device_check(dev);
    *hits = 0;
    *device_seconds = 0;
    try {
        g->query.reserve(dev, std::max<size_t>(len2, 4));
        g->diag_end.reserve(dev, kDiagHash * 4);
        g->diag_saved.reserve(dev, kDiagHash * 4);
        g->cnt.reserve(dev, (size_t)kWindowPositions * 8);
        g->incl.reserve(dev, (size_t)kWindowPositions * 8);
        g->small.reserve(dev, 64);
        reserve_hits(dev, g, g->hit_cap);
        g->cand.reserve(dev, (size_t)g->cand_cap * sizeof(DevCandidate));
        cudaStream_t st = g->stream;
        GALE_CUDA_CHECK(cudaEventRecord(g->start_ev, st));
        GALE_CUDA_CHECK(cudaMemcpyAsync(g->query.p, query, len2, cudaMemcpyHostToDevice, st));
        GALE_CUDA_CHECK(cudaMemsetAsync(g->diag_end.p, 0, kDiagHash * 4, st));
        const Table T{g->start.as<uint32_t>(), g->pos.as<uint32_t>(), g->seed.wide ? g->word.as<uint32_t>() : nullptr};
        const Seqs S{g->target.as<uint8_t>(), g->query.as<uint8_t>(), g->len1, len2, g->sub.as<int32_t>(),
                     g->params.xdrop};
        const WalkParams W{(uint32_t)g->seed.length, g->params.hsp_thresh, g->params.entropy ? 1 : 0};
        const uint8_t *q = g->query.as<uint8_t>();
        constexpr unsigned kThreads = 256;
        std::vector<DevCandidate> got;
        uint32_t from = 0;
        while (from < len2) {
            const uint32_t n = std::min<uint32_t>(g->window, len2 - from);
            count_hits<<<blocks_of(n, kThreads), kThreads, 0, st>>>(q, from, n, g->seed, T, g->cnt.as<uint64_t>());
            GALE_CUDA_CHECK(cudaGetLastError());
            size_t temp_b = g->temp.bytes;
            GALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(g->temp.p, temp_b, g->cnt.as<uint64_t>(),
                                                          g->incl.as<uint64_t>(), (int64_t)n, st));
            uint64_t cut[3];
            for (;;) {
                cut_window<<<1, 1, 0, st>>>(g->incl.as<uint64_t>(), n, g->hit_cap, g->small.as<uint64_t>());
                GALE_CUDA_CHECK(cudaGetLastError());
                GALE_CUDA_CHECK(cudaMemcpyAsync(cut, g->small.p, sizeof cut, cudaMemcpyDeviceToHost, st));
                GALE_CUDA_CHECK(cudaStreamSynchronize(st));
                if (cut[0] > 0) break;
                reserve_hits(dev, g, cut[2]);  // (one position alone has more hits than the buffers hold)
            }
            const uint32_t k = (uint32_t)cut[0];
            const uint32_t total = (uint32_t)cut[1];
            *hits += total;
            if (total > 0) {
                fill_hits<<<blocks_of(k, kThreads), kThreads, 0, st>>>(q, from, k, g->seed, T, g->incl.as<uint64_t>(),
                                                                       g->hp1.as<uint32_t>(), g->hp2.as<uint32_t>(),
                                                                       g->key.as<uint16_t>(), g->order.as<uint32_t>());
                GALE_CUDA_CHECK(cudaGetLastError());
                temp_b = g->temp.bytes;
                GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(g->temp.p, temp_b, g->key.as<uint16_t>(),
                                                                g->key_s.as<uint16_t>(), g->order.as<uint32_t>(),
                                                                g->order_s.as<uint32_t>(), (int64_t)total, 0, 16, st));
                speculate<<<blocks_of(total, kThreads), kThreads, 0, st>>>(
                    g->order_s.as<uint32_t>(), g->hp1.as<uint32_t>(), g->hp2.as<uint32_t>(), total, S,
                    g->spec.as<SpecHit>());
                GALE_CUDA_CHECK(cudaGetLastError());
                GALE_CUDA_CHECK(cudaMemcpyAsync(g->diag_saved.p, g->diag_end.p, kDiagHash * 4,
                                                cudaMemcpyDeviceToDevice, st));
                uint32_t n_cand = 0;
                for (;;) {  // (again, from the saved records, when the candidates overflowed)
                    GALE_CUDA_CHECK(cudaMemsetAsync(g->small.p, 0, 4, st));
                    walk_records<<<blocks_of(kDiagHash, 128), 128, 0, st>>>(
                        g->key_s.as<uint16_t>(), total, g->spec.as<SpecHit>(), g->diag_end.as<uint32_t>(), S, W,
                        g->cand.as<DevCandidate>(), g->small.as<uint32_t>(), g->cand_cap);
                    GALE_CUDA_CHECK(cudaGetLastError());
                    GALE_CUDA_CHECK(cudaMemcpyAsync(&n_cand, g->small.p, 4, cudaMemcpyDeviceToHost, st));
                    GALE_CUDA_CHECK(cudaStreamSynchronize(st));
                    if (n_cand <= g->cand_cap) break;
                    g->cand.reserve(dev, (size_t)n_cand * sizeof(DevCandidate));
                    g->cand_cap = n_cand;
                    GALE_CUDA_CHECK(cudaMemcpyAsync(g->diag_end.p, g->diag_saved.p, kDiagHash * 4,
                                                    cudaMemcpyDeviceToDevice, st));
                }
                got.resize(n_cand);
                if (n_cand)
                    GALE_CUDA_CHECK(cudaMemcpyAsync(got.data(), g->cand.p, (size_t)n_cand * sizeof(DevCandidate),
                                                    cudaMemcpyDeviceToHost, st));
                GALE_CUDA_CHECK(cudaStreamSynchronize(st));
                std::sort(got.begin(), got.end(),
                          [](const DevCandidate &a, const DevCandidate &b) { return a.order < b.order; });
                for (const DevCandidate &c : got) out.push_back(c.c);
            }
            from += k;
        }
        GALE_CUDA_CHECK(cudaEventRecord(g->stop_ev, st));
        GALE_CUDA_CHECK(cudaEventSynchronize(g->stop_ev));
        float ms = 0;
        GALE_CUDA_CHECK(cudaEventElapsedTime(&ms, g->start_ev, g->stop_ev));
        *device_seconds = ms / 1e3;
    } catch (...) {
        cudaStreamSynchronize(g->stream);  // (nothing of this find runs on once it has failed)
        throw;
    }
}

}  // namespace cuda
}  // namespace gale
