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

// Pointers stay valid until clear(); growth allocates a new block, never copies.
// Not thread-safe (ResultArena below is).
class Arena {
public:
    uint8_t *alloc(size_t n, size_t align = 1);  // n bytes
    void undo(const uint8_t *p, size_t n);        // gives back the last allocation
    void clear();

private:
    std::vector<std::unique_ptr<uint8_t[]>> blocks_;
    size_t used_ = 0, cap_ = 0;                   // in the last block
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
    VarSpan put(const uint32_t *words, size_t n);
    void clear();

private:
    std::mutex mu_;
    Arena arena_;
};

}  // namespace gale

#endif
