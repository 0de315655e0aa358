#include "sequence.h"

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
    for (int64_t i = 0; i < n; ++i) {
        uint8_t c = table.code[(unsigned char)in[i]];
        if (c == kBaseInvalid) return i;
        out[i] = c;
    }
    return -1;
}

}  // namespace gale
