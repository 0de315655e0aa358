// gale compare's GPU kernel (lib/compare.h, compare_gpu in lib/cuda_backend.h): the CPU
// kernel's fragments (lib/cpu/compare.cpp; the rules: doc/compare.md), the same ones in the
// same order. It follows the CPU's decomposition, whose header comment says why the result
// cannot depend on it:
//   1. A's words: a thread per position of A tells whether a word starts there (k bases, no
//      other byte), a scan (CUB) gives each its place, a second pass writes (key, position)
//      pairs in increasing position, and a stable radix sort (CUB) by key, bits [0, 2k),
//      keeps each key's positions increasing, as the CPU's table. An index of the keys' top
//      kBucketBits bits (a binary search per bucket) narrows each lookup.
//   2. Per strand (+: B; -: B' made on the device, compare_complement), B's positions a
//      window of chunk_words at a time: lookup_window, a thread per position: its word's
//      range of equal keys in A's table (none for a key of more than max_occ); an inclusive
//      scan of the counts; cut_run (one thread) cuts the window into runs of at most
//      chunk_hits hits, a position alone past it, exactly as the CPU does.
//   3. A run's hits (dk = i - j + ls, i) in order of j then i: each position with hits marks
//      the first of its hits (mark_heads), a max-scan (CUB) gives every hit its position
//      (load balanced however many hits a word has), fill_hits writes them; a stable radix
//      sort by dk (only the bits that ndiag needs): on one diagonal i increases with j, so
//      this is the order by (dk, i) the CPU sorts into.
//   4. walk_diagonals, a thread per hit, of which the first hit of each diagonal walks the
//      diagonal's hits in increasing i with its `covered` from covered[dk] (uint32: covered
//      <= la < 2^32; 0 = nothing yet), CompareStrand::extend and kept (lib/compare.h, the one
//      rule for both kernels), and writes `covered` back for the next runs. Kept fragments
//      go to a buffer of one slot per hit (a hit makes at most one), copied back per run.
//   5. Each strand's fragments sorted on the host by compare_fragment_before, as the CPU's.
//      No two compare equal (a diagonal's starts strictly increase), so the order written
//      by the walk's threads (atomics) does not matter.
//
// Memory (device): A and B (la + lb bytes, B' made in place of B), A's table: 12 bytes a
// word of A kept (key, position) plus 4 MiB of bucket index; while it is built, up to 25
// bytes a base of A (flags and places, 8 bytes a base, then the pairs and the sort's second
// copy, 24 bytes a word, and CUB's storage). Per strand covered[], 4 (la + lb + 1) bytes;
// per window 20 bytes a position (2^22: 80 MiB); per run 56 bytes a hit (dk and i, sorted
// copies, the position scan, the fragment slots; 2^24: about 0.9 GiB) and CUB's storage.
// Host: the fragments (24 bytes each while a run's are copied back, then the API's 48).
// Every buffer is taken per call and freed when it returns; a cudaMalloc that fails throws
// DeviceFault (memory), and gale_compare then runs on the CPU (lib/backend_cuda.cpp).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/device.cuh"
#include "compare.h"
#include "cuda_backend.h"

namespace gale {
namespace cuda {

namespace {

constexpr int kBucketBits = 20;  // A's lookup index: 2^20 + 1 offsets (k >= 12: 2k >= 24 bits)
constexpr unsigned kThreads = 256;

// The kernels' table of compare_base_code, in shared memory (a block of kThreads >= 256).
__device__ __forceinline__ void load_codes(uint8_t *code) {
    for (unsigned c = threadIdx.x; c < 256; c += blockDim.x) code[c] = compare_base_code((uint8_t)c);
    __syncthreads();
}

// The word of s starting at p (p + k <= the sequence's length): false when one of its k
// bytes is no base; else its key, 2 bits a base, the first base in the highest bits (as
// the CPU's for_each_word).
__device__ __forceinline__ bool word_at(const uint8_t *s, uint64_t p, int k, const uint8_t *code, uint64_t *key) {
    uint64_t w = 0;
    for (int t = 0; t < k; ++t) {
        const uint8_t c = code[s[p + t]];
        if (c > 3) return false;
        w = (w << 2) | c;
    }
    *key = w;
    return true;
}

__global__ void word_flags(const uint8_t *a, uint64_t npos, int k, uint32_t *flag) {
    __shared__ uint8_t code[256];
    load_codes(code);
    const uint64_t p = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npos) return;
    uint64_t key;
    flag[p] = word_at(a, p, k, code, &key) ? 1u : 0u;
}

// incl: the inclusive scan of word_flags: a word at p goes to incl[p] - 1.
__global__ void word_pairs(const uint8_t *a, uint64_t npos, int k, const uint32_t *incl, uint64_t *keys,
                           uint32_t *pos) {
    __shared__ uint8_t code[256];
    load_codes(code);
    const uint64_t p = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npos) return;
    uint64_t key;
    if (!word_at(a, p, k, code, &key)) return;
    keys[incl[p] - 1] = key;
    pos[incl[p] - 1] = (uint32_t)p;
}

// The first index in keys[lo, hi) whose key is not below v (after: above v).
__device__ __forceinline__ uint32_t bound(const uint64_t *keys, uint32_t lo, uint32_t hi, uint64_t v, bool after) {
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < v || (after && keys[mid] == v)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// bstart[b]: the first word whose key's top bits (key >> shift) are b or more.
__global__ void bucket_index(const uint64_t *keys, uint32_t n, int shift, uint32_t *bstart) {
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > (1u << kBucketBits)) return;
    bstart[b] = b == (1u << kBucketBits) ? n : bound(keys, 0, n, (uint64_t)b << shift, false);
}

struct TableDev {
    const uint64_t *keys;
    const uint32_t *pos, *bstart;
    int shift;
};

// Each position x of the window [w0, w0 + wn) of s: its word's range of A's words,
// [rlo[x], rlo[x] + rn[x]), rn[x] 0 for no word or a key of more than max_occ words.
__global__ void lookup_window(const uint8_t *s, uint64_t w0, uint64_t wn, int k, TableDev t, uint64_t max_occ,
                              uint32_t *rlo, uint64_t *rn) {
    __shared__ uint8_t code[256];
    load_codes(code);
    const uint64_t x = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= wn) return;
    uint64_t key;
    uint64_t n = 0;
    uint32_t lo = 0;
    if (word_at(s, w0 + x, k, code, &key)) {
        const uint32_t b = (uint32_t)(key >> t.shift);
        lo = bound(t.keys, t.bstart[b], t.bstart[b + 1], key, false);
        n = bound(t.keys, lo, t.bstart[b + 1], key, true) - lo;
        if (max_occ != 0 && n > max_occ) n = 0;
    }
    rlo[x] = lo;
    rn[x] = n;
}

// The run from position r0 of the window (incl: the scan of rn over its wn positions): the
// positions [r0, r1) whose hits fit cap, r1 as large as may be but at least r0 + 1 (the CPU's
// rule). out: r1, the run's hits, the hits before r0.
__global__ void cut_run(const uint64_t *incl, uint64_t wn, uint64_t r0, uint64_t cap, uint64_t *out) {
    const uint64_t base = r0 ? incl[r0 - 1] : 0;
    uint64_t lo = r0 + 1, hi = wn;  // the largest r1 in [lo, hi] with incl[r1 - 1] - base <= cap
    if (incl[r0] - base > cap) {
        hi = lo;
    } else {
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo + 1) / 2;
            if (incl[mid - 1] - base <= cap) lo = mid;
            else hi = mid - 1;
        }
    }
    out[0] = lo;
    out[1] = incl[lo - 1] - base;
    out[2] = base;
}

// Each position x of [r0, r1) with hits: its window index + 1 at the run's index of its
// first hit (heads zeroed before); a max-scan then gives each hit its position.
__global__ void mark_heads(const uint64_t *incl, const uint64_t *rn, uint64_t r0, uint64_t r1, uint64_t base,
                           uint32_t *heads) {
    const uint64_t x = r0 + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= r1 || rn[x] == 0) return;
    heads[incl[x] - rn[x] - base] = (uint32_t)(x + 1);
}

struct MaxOp {
    __device__ __forceinline__ uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

// Hit h of the run, in order of j then i (a key's positions in A increase): dk = i - j + ls.
__global__ void fill_hits(const uint32_t *pos_of, uint64_t nh, const uint64_t *incl, const uint64_t *rn,
                          const uint32_t *rlo, uint64_t base, uint64_t w0, uint64_t ls, const uint32_t *apos,
                          uint64_t *dk, uint32_t *hi) {
    const uint64_t h = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (h >= nh) return;
    const uint64_t x = pos_of[h] - 1;
    const uint64_t first = incl[x] - rn[x] - base;
    const uint32_t i = apos[rlo[x] + (h - first)];
    dk[h] = (uint64_t)i - (w0 + x) + ls;
    hi[h] = i;
}

// A kept fragment as the walk writes it (every coordinate < 2^32).
struct DevFragment {
    uint32_t a_start, b_start, length, matches;
    int64_t score;
};

// The CPU's step 4: the first hit of each diagonal of the run walks the diagonal's hits (by
// increasing i) from the diagonal's `covered`, and writes it back.
__global__ void walk_diagonals(const uint64_t *dk_s, const uint32_t *i_s, uint64_t nh, CompareStrand S,
                               uint32_t *covered, DevFragment *out, unsigned long long *n_out) {
    __shared__ uint8_t code[256];
    load_codes(code);
    const uint64_t h0 = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (h0 >= nh) return;
    const uint64_t dk = dk_s[h0];
    if (h0 > 0 && dk_s[h0 - 1] == dk) return;
    S.code = code;
    uint64_t cov = covered[dk];
    const uint64_t before = cov;
    for (uint64_t h = h0; h < nh && dk_s[h] == dk; ++h) {
        const uint64_t i = i_s[h];
        if (i < cov) continue;  // passed by the last rightward search
        CompareFragment f;
        cov = S.extend(i, i + S.ls - dk, cov, &f);
        if (!S.kept(f)) continue;
        const unsigned long long at = atomicAdd(n_out, 1ull);
        out[at] = DevFragment{(uint32_t)f.a_start, (uint32_t)f.b_start, (uint32_t)f.length, f.matches, f.score};
    }
    if (cov != before) covered[dk] = (uint32_t)cov;
}

// B' in place: s[x] <- complement(s[ls - 1 - x]) (the middle byte of an odd length with itself).
__global__ void reverse_complement(uint8_t *s, uint64_t ls) {
    const uint64_t x = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= (ls + 1) / 2) return;
    const uint64_t y = ls - 1 - x;
    const uint8_t u = compare_complement(s[x]), v = compare_complement(s[y]);
    s[x] = v;
    s[y] = u;
}

int bits_for(uint64_t v) {  // bits needed to hold v
    int b = 0;
    while (b < 64 && (v >> b) != 0) ++b;
    return b;
}

// One call's device state: every buffer and the stream, freed when it goes (after the
// stream has drained, also when the call failed).
struct Call {
    cudaStream_t st = nullptr;
    DevBuf a, s, flag, incl_a, keys, pos, keys2, pos2, bstart, temp, small;
    DevBuf covered, rlo, rn, incl, heads, pos_of, dk, ih, dk_s, i_s, frags;
    ~Call() {
        if (st) cudaStreamSynchronize(st);
        for (DevBuf *b : {&a, &s, &flag, &incl_a, &keys, &pos, &keys2, &pos2, &bstart, &temp, &small, &covered, &rlo,
                          &rn, &incl, &heads, &pos_of, &dk, &ih, &dk_s, &i_s, &frags})
            b->release();
        if (st) cudaStreamDestroy(st);
        cudaGetLastError();  // (a lost device fails these; nothing to do about it)
    }
};

}  // namespace

void compare_gpu(Device *dev, const CompareInput &in, std::vector<CompareFragment> &out) {
    const CompareParams &p = *in.params;
    const int k = p.word;
    if (in.la < (uint64_t)k || in.lb < (uint64_t)k || (!p.plus && !p.minus)) return;
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    device_check(dev);
    const uint64_t chunk_words = std::max<uint64_t>(in.chunk_words, 1), chunk_hits = std::max<uint64_t>(in.chunk_hits, 1);
    const size_t out_before = out.size();
    try {
        Call c;
        GALE_CUDA_CHECK(cudaStreamCreateWithFlags(&c.st, cudaStreamNonBlocking));
        cudaStream_t st = c.st;
        // CUB's storage for one call, asked for first (its two-phase query), then kept
        auto cub_temp = [&](size_t want) { c.temp.reserve(dev, std::max<size_t>(want, 16)); };
        c.small.reserve(dev, 64);
        uint64_t *small = c.small.as<uint64_t>();

        // 1. A's table
        const uint64_t la = in.la, lb = in.lb, npos_a = la - (uint64_t)k + 1;
        c.a.reserve(dev, la);
        GALE_CUDA_CHECK(cudaMemcpyAsync(c.a.p, in.a, la, cudaMemcpyHostToDevice, st));
        c.flag.reserve(dev, npos_a * 4);
        c.incl_a.reserve(dev, npos_a * 4);
        word_flags<<<blocks_of(npos_a, kThreads), kThreads, 0, st>>>(c.a.as<uint8_t>(), npos_a, k, c.flag.as<uint32_t>());
        GALE_CUDA_CHECK(cudaGetLastError());
        size_t tb = 0;
        GALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, tb, c.flag.as<uint32_t>(), c.incl_a.as<uint32_t>(),
                                                      (int64_t)npos_a, st));
        cub_temp(tb);
        tb = c.temp.bytes;
        GALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(c.temp.p, tb, c.flag.as<uint32_t>(), c.incl_a.as<uint32_t>(),
                                                      (int64_t)npos_a, st));
        uint32_t nwords = 0;
        GALE_CUDA_CHECK(cudaMemcpyAsync(&nwords, c.incl_a.as<uint32_t>() + (npos_a - 1), 4, cudaMemcpyDeviceToHost, st));
        GALE_CUDA_CHECK(cudaStreamSynchronize(st));
        c.flag.release();  // (buffers go only once the stream has done with them)
        if (nwords == 0) return;  // (no word in A: no hit)
        c.keys.reserve(dev, (size_t)nwords * 8);
        c.pos.reserve(dev, (size_t)nwords * 4);
        word_pairs<<<blocks_of(npos_a, kThreads), kThreads, 0, st>>>(c.a.as<uint8_t>(), npos_a, k, c.incl_a.as<uint32_t>(),
                                                                     c.keys.as<uint64_t>(), c.pos.as<uint32_t>());
        GALE_CUDA_CHECK(cudaGetLastError());
        GALE_CUDA_CHECK(cudaStreamSynchronize(st));  // (before its places go)
        c.incl_a.release();
        c.keys2.reserve(dev, (size_t)nwords * 8);
        c.pos2.reserve(dev, (size_t)nwords * 4);
        {
            cub::DoubleBuffer<uint64_t> kb(c.keys.as<uint64_t>(), c.keys2.as<uint64_t>());
            cub::DoubleBuffer<uint32_t> vb(c.pos.as<uint32_t>(), c.pos2.as<uint32_t>());
            tb = 0;
            GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tb, kb, vb, (int64_t)nwords, 0, 2 * k, st));
            cub_temp(tb);
            tb = c.temp.bytes;
            GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(c.temp.p, tb, kb, vb, (int64_t)nwords, 0, 2 * k, st));
            GALE_CUDA_CHECK(cudaStreamSynchronize(st));
            // the sorted pairs kept in keys and pos, the other copy freed
            if (kb.Current() != c.keys.as<uint64_t>()) std::swap(c.keys, c.keys2);
            if (vb.Current() != c.pos.as<uint32_t>()) std::swap(c.pos, c.pos2);
            c.keys2.release();
            c.pos2.release();
        }
        const int shift = 2 * k - kBucketBits;
        c.bstart.reserve(dev, (((size_t)1 << kBucketBits) + 1) * 4);
        bucket_index<<<blocks_of(((uint64_t)1 << kBucketBits) + 1, kThreads), kThreads, 0, st>>>(
            c.keys.as<uint64_t>(), nwords, shift, c.bstart.as<uint32_t>());
        GALE_CUDA_CHECK(cudaGetLastError());
        const TableDev T{c.keys.as<uint64_t>(), c.pos.as<uint32_t>(), c.bstart.as<uint32_t>(), shift};

        // 2.-4. each strand, B's positions a window at a time, a window's runs
        const uint64_t ls = lb, npos = ls - (uint64_t)k + 1, ndiag = la + ls + 1;
        const int dk_bits = bits_for(ndiag);
        const uint64_t wcap = std::min(chunk_words, npos);
        c.s.reserve(dev, ls);
        c.covered.reserve(dev, ndiag * 4);
        c.rlo.reserve(dev, wcap * 4);
        c.rn.reserve(dev, wcap * 8);
        c.incl.reserve(dev, wcap * 8);
        tb = 0;
        GALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, tb, c.rn.as<uint64_t>(), c.incl.as<uint64_t>(),
                                                      (int64_t)wcap, st));
        cub_temp(tb);
        GALE_CUDA_CHECK(cudaMemcpyAsync(c.s.p, in.b, ls, cudaMemcpyHostToDevice, st));
        uint64_t hit_cap = 0;  // the run buffers' hits
        std::vector<DevFragment> got;
        for (int strand = 0; strand < 2; ++strand) {
            if (strand == 0 ? !p.plus : !p.minus) continue;
            if (strand == 1) {
                reverse_complement<<<blocks_of((ls + 1) / 2, kThreads), kThreads, 0, st>>>(c.s.as<uint8_t>(), ls);
                GALE_CUDA_CHECK(cudaGetLastError());
            }
            const CompareStrand S{c.a.as<uint8_t>(), c.s.as<uint8_t>(), la, ls, nullptr, k, p.match, p.mismatch,
                                  p.xdrop, p.min_length, p.min_identity, strand == 0 ? '+' : '-'};
            GALE_CUDA_CHECK(cudaMemsetAsync(c.covered.p, 0, ndiag * 4, st));
            const size_t first_out = out.size();
            for (uint64_t w0 = 0; w0 < npos; w0 += chunk_words) {
                const uint64_t wn = std::min(npos - w0, chunk_words);
                lookup_window<<<blocks_of(wn, kThreads), kThreads, 0, st>>>(c.s.as<uint8_t>(), w0, wn, k, T, p.max_occ,
                                                                            c.rlo.as<uint32_t>(), c.rn.as<uint64_t>());
                GALE_CUDA_CHECK(cudaGetLastError());
                tb = c.temp.bytes;
                GALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(c.temp.p, tb, c.rn.as<uint64_t>(), c.incl.as<uint64_t>(),
                                                              (int64_t)wn, st));
                for (uint64_t r0 = 0; r0 < wn;) {
                    cut_run<<<1, 1, 0, st>>>(c.incl.as<uint64_t>(), wn, r0, chunk_hits, small);
                    GALE_CUDA_CHECK(cudaGetLastError());
                    uint64_t cut[3];
                    GALE_CUDA_CHECK(cudaMemcpyAsync(cut, small, sizeof cut, cudaMemcpyDeviceToHost, st));
                    GALE_CUDA_CHECK(cudaStreamSynchronize(st));
                    const uint64_t r1 = cut[0], nh = cut[1], base = cut[2];
                    if (nh == 0) {
                        r0 = r1;
                        continue;
                    }
                    if (nh > hit_cap) {  // (grown by doubling up to chunk_hits, or one position's hits past it)
                        hit_cap = std::max(nh, std::min(chunk_hits, 2 * hit_cap));
                        c.heads.reserve(dev, hit_cap * 4);
                        c.pos_of.reserve(dev, hit_cap * 4);
                        c.dk.reserve(dev, hit_cap * 8);
                        c.ih.reserve(dev, hit_cap * 4);
                        c.dk_s.reserve(dev, hit_cap * 8);
                        c.i_s.reserve(dev, hit_cap * 4);
                        c.frags.reserve(dev, hit_cap * sizeof(DevFragment));
                        size_t t1 = 0, t2 = 0;
                        GALE_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, t1, c.heads.as<uint32_t>(),
                                                                       c.pos_of.as<uint32_t>(), MaxOp{},
                                                                       (int64_t)hit_cap, st));
                        GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
                            nullptr, t2, c.dk.as<uint64_t>(), c.dk_s.as<uint64_t>(), c.ih.as<uint32_t>(),
                            c.i_s.as<uint32_t>(), (int64_t)hit_cap, 0, dk_bits, st));
                        cub_temp(std::max(t1, t2));
                    }
                    // 3. the run's hits, by j then i, then sorted by diagonal (stably)
                    GALE_CUDA_CHECK(cudaMemsetAsync(c.heads.p, 0, nh * 4, st));
                    mark_heads<<<blocks_of(r1 - r0, kThreads), kThreads, 0, st>>>(
                        c.incl.as<uint64_t>(), c.rn.as<uint64_t>(), r0, r1, base, c.heads.as<uint32_t>());
                    GALE_CUDA_CHECK(cudaGetLastError());
                    tb = c.temp.bytes;
                    GALE_CUDA_CHECK(cub::DeviceScan::InclusiveScan(c.temp.p, tb, c.heads.as<uint32_t>(),
                                                                   c.pos_of.as<uint32_t>(), MaxOp{}, (int64_t)nh, st));
                    fill_hits<<<blocks_of(nh, kThreads), kThreads, 0, st>>>(
                        c.pos_of.as<uint32_t>(), nh, c.incl.as<uint64_t>(), c.rn.as<uint64_t>(), c.rlo.as<uint32_t>(),
                        base, w0, ls, T.pos, c.dk.as<uint64_t>(), c.ih.as<uint32_t>());
                    GALE_CUDA_CHECK(cudaGetLastError());
                    tb = c.temp.bytes;
                    GALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(c.temp.p, tb, c.dk.as<uint64_t>(),
                                                                    c.dk_s.as<uint64_t>(), c.ih.as<uint32_t>(),
                                                                    c.i_s.as<uint32_t>(), (int64_t)nh, 0, dk_bits, st));
                    // 4. the diagonals walked
                    GALE_CUDA_CHECK(cudaMemsetAsync(small, 0, 8, st));
                    walk_diagonals<<<blocks_of(nh, kThreads), kThreads, 0, st>>>(
                        c.dk_s.as<uint64_t>(), c.i_s.as<uint32_t>(), nh, S, c.covered.as<uint32_t>(),
                        c.frags.as<DevFragment>(), (unsigned long long *)small);
                    GALE_CUDA_CHECK(cudaGetLastError());
                    uint64_t nf = 0;
                    GALE_CUDA_CHECK(cudaMemcpyAsync(&nf, small, 8, cudaMemcpyDeviceToHost, st));
                    GALE_CUDA_CHECK(cudaStreamSynchronize(st));
                    if (nf) {
                        got.resize(nf);
                        GALE_CUDA_CHECK(cudaMemcpyAsync(got.data(), c.frags.p, nf * sizeof(DevFragment),
                                                        cudaMemcpyDeviceToHost, st));
                        GALE_CUDA_CHECK(cudaStreamSynchronize(st));
                        for (const DevFragment &d : got)
                            out.push_back(CompareFragment{d.a_start, d.b_start, d.length, d.score, d.matches, S.strand});
                    }
                    r0 = r1;
                }
            }
            // 5. rule 7's order (lib/compare.h), as the CPU's final sort
            std::sort(out.begin() + (std::ptrdiff_t)first_out, out.end(), compare_fragment_before);
        }
    } catch (...) {
        out.resize(out_before);  // (the Call's buffers are freed, its stream drained)
        throw;
    }
}

}  // namespace cuda
}  // namespace gale
