#include "sequence.h"

#include <algorithm>

namespace gale {

namespace {

struct Table {
    uint8_t code[256];
    Table() {
        for (int i = 0; i < 256; ++i) code[i] = kBaseInvalid;
        const char *n = "NRYSWKMBDHV";
        for (const char *c = n; *c; ++c) {
            code[(unsigned char)*c] = 4;
            code[(unsigned char)(*c - 'A' + 'a')] = 4;
        }
        const char *acgtu = "ACGTU";
        const uint8_t v[] = {0, 1, 2, 3, 3};
        for (int i = 0; i < 5; ++i) {
            code[(unsigned char)acgtu[i]] = v[i];
            code[(unsigned char)(acgtu[i] - 'A' + 'a')] = v[i];
        }
    }
};

const Table table;

}  // namespace

uint8_t encode_base(unsigned char c) { return table.code[c]; }

int64_t encode_bases(const char *in, int64_t n, uint8_t *out) {
    // Branch-free pass (valid codes are < 0x80, kBaseInvalid has the top bit set),
    // then a search only when something was invalid.
    uint8_t any = 0;
    for (int64_t i = 0; i < n; ++i) {
        uint8_t c = table.code[(unsigned char)in[i]];
        out[i] = c;
        any |= c;
    }
    if (!(any & 0x80)) return -1;
    for (int64_t i = 0; i < n; ++i)
        if (out[i] == kBaseInvalid) return i;
    return -1;
}

uint8_t *SeqArena::alloc(size_t n) {
    // Blocks double from 64 KiB to 64 MiB: small batches stay small, large ones
    // take few allocations.
    constexpr size_t kFirst = (size_t)64 << 10, kLargest = (size_t)64 << 20;
    if (blocks_.empty() || cap_ - used_ < n) {
        size_t size = blocks_.empty() ? kFirst : std::min(2 * cap_, kLargest);
        if (size < n) size = n;
        blocks_.emplace_back(new uint8_t[size]);
        used_ = 0;
        cap_ = size;
    }
    uint8_t *p = blocks_.back().get() + used_;
    used_ += n;
    return p;
}

void SeqArena::undo(const uint8_t *p, size_t n) {
    if (!blocks_.empty() && p + n == blocks_.back().get() + used_) used_ -= n;
}

void SeqArena::clear() {
    blocks_.clear();
    used_ = cap_ = 0;
}

}  // namespace gale
