#include "arena.h"

#include <algorithm>
#include <cstring>

namespace gale {

std::unique_ptr<uint8_t[]> BlockCache::take(size_t n, size_t *size) {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < kept_.size(); ++i) {
        if (kept_[i].size < n) continue;
        std::unique_ptr<uint8_t[]> mem = std::move(kept_[i].mem);
        *size = kept_[i].size;
        bytes_ -= *size;
        kept_.erase(kept_.begin() + (ptrdiff_t)i);
        return mem;
    }
    return nullptr;
}

void BlockCache::give(std::unique_ptr<uint8_t[]> block, size_t size) {
    if (size > cap_) return;  // freed here
    std::lock_guard<std::mutex> lock(mu_);
    auto at = std::lower_bound(kept_.begin(), kept_.end(), size,
                               [](const Kept &k, size_t s) { return k.size < s; });
    kept_.insert(at, Kept{std::move(block), size});
    bytes_ += size;
    while (bytes_ > cap_) {  // the smallest go first: a large block serves any request
        bytes_ -= kept_.front().size;
        kept_.erase(kept_.begin());
    }
}

uint8_t *Arena::alloc(size_t n, size_t align) {
    // Blocks double from 64 KiB to 64 MiB: small batches stay small, large ones
    // take few allocations. A request larger than that gets a block of its own.
    constexpr size_t kFirst = (size_t)64 << 10, kLargest = (size_t)64 << 20;
    size_t at = (used_ + align - 1) / align * align;
    if (blocks_.empty() || at > cap_ || cap_ - at < n) {
        size_t size = blocks_.empty() ? kFirst : std::min(2 * cap_, kLargest);
        if (size < n) size = n;
        size_t got = 0;
        std::unique_ptr<uint8_t[]> mem = cache_ ? cache_->take(size, &got) : nullptr;
        if (!mem) {
            mem.reset(new uint8_t[size]);  // new[] aligns for any fundamental type
            got = size;
        }
        blocks_.push_back(Block{std::move(mem), got});
        used_ = at = 0;
        cap_ = got;
    }
    uint8_t *p = blocks_.back().mem.get() + at;
    used_ = at + n;
    return p;
}

void Arena::undo(const uint8_t *p, size_t n) {
    if (!blocks_.empty() && p + n == blocks_.back().mem.get() + used_) used_ -= n;
}

void Arena::clear() {
    if (cache_)
        for (Block &b : blocks_) cache_->give(std::move(b.mem), b.size);
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
