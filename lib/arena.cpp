#include "arena.h"

#include <algorithm>
#include <cstring>

namespace gale {

uint8_t *Arena::alloc(size_t n, size_t align) {
    // Blocks double from 64 KiB to 64 MiB: small batches stay small, large ones
    // take few allocations. A request larger than that gets a block of its own.
    constexpr size_t kFirst = (size_t)64 << 10, kLargest = (size_t)64 << 20;
    size_t at = (used_ + align - 1) / align * align;
    if (blocks_.empty() || at > cap_ || cap_ - at < n) {
        size_t size = blocks_.empty() ? kFirst : std::min(2 * cap_, kLargest);
        if (size < n) size = n;
        blocks_.emplace_back(new uint8_t[size]);  // new[] aligns for any fundamental type
        used_ = at = 0;
        cap_ = size;
    }
    uint8_t *p = blocks_.back().get() + at;
    used_ = at + n;
    return p;
}

void Arena::undo(const uint8_t *p, size_t n) {
    if (!blocks_.empty() && p + n == blocks_.back().get() + used_) used_ -= n;
}

void Arena::clear() {
    blocks_.clear();
    used_ = cap_ = 0;
}

VarSpan ResultArena::put(const uint32_t *words, size_t n) {
    VarSpan s;
    if (n == 0) return s;
    uint32_t *p;
    {
        std::lock_guard<std::mutex> lock(mu_);
        p = reinterpret_cast<uint32_t *>(arena_.alloc(n * sizeof(uint32_t), alignof(uint32_t)));
    }
    std::memcpy(p, words, n * sizeof(uint32_t));
    s.data = p;
    s.n = n;
    return s;
}

void ResultArena::clear() {
    std::lock_guard<std::mutex> lock(mu_);
    arena_.clear();
}

}  // namespace gale
