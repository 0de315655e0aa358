// Base encoding shared by every kind: bytes to codes 0..3 (A C G T) and 4 (N), or
// under GALE_N_BYTES one code per byte (0..31).
#ifndef GALE_SEQUENCE_H
#define GALE_SEQUENCE_H

#include <cstddef>
#include <cstdint>

namespace gale {

constexpr uint8_t kBaseInvalid = 0xff;

// One task as a batch stores it, whatever its kind: h and v point into the batch's
// encoded arena (codes below). The seed fields are used by X-drop only. junc: the
// task's junction array (gale_task.junc, GALE_ZDROP_EXTS2), h_len bytes in the arena, or
// nullptr.
struct PairTask {
    const uint8_t *h, *v;
    int64_t h_len, v_len;
    int64_t h_begin, h_end, v_begin, v_end;
    uint64_t user;
    const uint8_t *junc = nullptr;
};

// Code of a byte: A/a 0, C/c 1, G/g 2, T/t/U/u 3, N and the IUPAC ambiguity codes
// (R Y S W K M B D H V, either case) 4, anything else kBaseInvalid. This is
// SeqAn's Dna5 conversion restricted to the bytes a nucleotide file may hold.
uint8_t encode_base(unsigned char c);

// Encodes n bytes into out; returns the index of the first invalid byte, or -1.
int64_t encode_bases(const char *in, int64_t n, uint8_t *out);

// Under GALE_N_BYTES (bytes compared exactly): the same bytes are valid, each with a
// code of its own, so that equal codes are equal bytes. A C G T N keep their codes
// 0..4; U and the other upper-case IUPAC codes, then the lower-case letters, take
// 5..31 (kByteCodes in all). Returns as encode_bases.
constexpr int kByteCodes = 32;
int64_t encode_bytes(const char *in, int64_t n, uint8_t *out);

}  // namespace gale

#endif
