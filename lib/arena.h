// Batch storage that never moves: a bump allocator over growing blocks, for the
// encoded bases of a batch's tasks and for the variable-size parts of its results
// (CIGARs today; alignment lists and MSA rows are kept the same way).
#ifndef GALE_ARENA_H
#define GALE_ARENA_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace gale {

// The blocks of a context's finished batches, kept for its next ones. glibc returns a
// freed block of more than 128 KiB to the system, and the next batch's would be
// page-faulted in again: that cost a C caller 30-40% of a 10,000-pair GPU batch
// (bench/RESULTS.md). Thread-safe; keeps at most cap bytes (the smallest blocks go first).
class BlockCache {
public:
    explicit BlockCache(size_t cap) : cap_(cap) {}
    // A kept block of at least n bytes (the smallest such), or nullptr; *size is its size.
    std::unique_ptr<uint8_t[]> take(size_t n, size_t *size);
    void give(std::unique_ptr<uint8_t[]> block, size_t size);

private:
    struct Kept {
        std::unique_ptr<uint8_t[]> mem;
        size_t size;
    };
    std::mutex mu_;
    std::vector<Kept> kept_;  // by size, ascending
    size_t bytes_ = 0;
    const size_t cap_;
};

// Pointers stay valid until clear(); growth allocates a new block, never copies.
// With a cache, blocks come from it when it has one large enough and go back to it
// on clear(). Not thread-safe (ResultArena below is).
class Arena {
public:
    Arena() = default;
    ~Arena() { clear(); }
    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;
    void set_cache(BlockCache *cache) { cache_ = cache; }
    uint8_t *alloc(size_t n, size_t align = 1);  // n bytes
    void undo(const uint8_t *p, size_t n);        // gives back the last allocation
    void clear();

private:
    struct Block {
        std::unique_ptr<uint8_t[]> mem;
        size_t size;
    };
    std::vector<Block> blocks_;
    size_t used_ = 0, cap_ = 0;                   // in the last block
    BlockCache *cache_ = nullptr;
};

// A run of 32-bit words of one result kept in a batch's ResultArena. All-zero is
// the empty run, so a zeroed result is a valid empty one.
struct VarSpan {
    const uint32_t *data = nullptr;
    uint64_t n = 0;
};

// The variable-size results of one batch, in one arena: any thread may put()
// while the batch runs (one short lock per result); readers come after the
// batch is done, without a lock.
class ResultArena {
public:
    void set_cache(BlockCache *cache) { arena_.set_cache(cache); }
    VarSpan put(const uint32_t *words, size_t n);
    void clear();

private:
    std::mutex mu_;
    Arena arena_;
};

}  // namespace gale

#endif
