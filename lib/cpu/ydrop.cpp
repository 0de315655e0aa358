// LASTZ 1.04.22's gapped extension from anchors (lib/ydrop.h), reproducing Debian's
// lastz bit for bit: gapped_extend.c's gapped_extend, reduce_to_points, ydrop_align,
// ydrop_one_sided_align and their bound-keeping helpers, with LASTZ's 32-bit positions
// (unspos/sgnpos), its int scores and its sentinels. Each function below names the
// LASTZ function it follows; the comments say why a line is as it is where the reason
// is a LASTZ quirk (doc/ydrop.md lists them all).
#include "ydrop.h"

#include <cstring>
#include <vector>

#include "ydrop_run.h"

namespace gale {

const int32_t kHoxd70[4][4] = {
    {91, -114, -31, -123},
    {-114, 100, -125, -31},
    {-31, -125, 100, -114},
    {-123, -31, -114, 91},
};

using namespace ydrop_run;

void ydrop_scoring(YdropScoring &s, const int32_t tmpl[4][4], int32_t bad, int32_t fill, int32_t gap_open,
                   int32_t gap_extend, bool from_file) {
    static const char nuc[4] = {'A', 'C', 'G', 'T'};
    const int kX = 'X', kx = 'x';  // rows and columns by int: a char subscript warns
    if (from_file) {
        // read_score_set's order: fill everywhere, the matrix, its lower-case columns and
        // then rows, the bad row and column (X), then row and column 0 very bad
        for (int r = 0; r < 256; ++r)
            for (int c = 0; c < 256; ++c) s.sub[r][c] = fill;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) {
                const int R = nuc[r], C = nuc[c];
                s.sub[R][C] = s.sub[R][C - 'A' + 'a'] = tmpl[r][c];
            }
        for (int r = 0; r < 4; ++r) std::memcpy(s.sub[nuc[r] - 'A' + 'a'], s.sub[(int)nuc[r]], sizeof s.sub[0]);
        for (int c = 0; c < 256; ++c) s.sub[kX][c] = s.sub[c][kX] = bad;
        for (int c = 0; c < 256; ++c) s.sub[0][c] = s.sub[c][0] = kVeryBad;
    } else {  // new_dna_score_set's
        for (int c = 0; c < 256; ++c) s.sub[0][c] = kVeryBad;
        s.sub[1][0] = kVeryBad;
        for (int c = 1; c < 256; ++c) s.sub[1][c] = fill;
        for (int r = 2; r < 256; ++r) std::memcpy(s.sub[r], s.sub[1], sizeof s.sub[r]);
        for (int c = 0; c < 256; ++c) s.sub[kX][c] = s.sub[kx][c] = s.sub[c][kX] = s.sub[c][kx] = bad;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) {
                const int R = nuc[r], C = nuc[c], r2 = R - 'A' + 'a', c2 = C - 'A' + 'a';
                s.sub[R][C] = s.sub[R][c2] = s.sub[r2][C] = s.sub[r2][c2] = tmpl[r][c];
            }
    }
    s.gap_open = gap_open;
    s.gap_extend = gap_extend;
}

void ydrop_scoring_table(YdropScoring &s, const int32_t *table, int32_t gap_open, int32_t gap_extend) {
    for (int r = 0; r < 256; ++r)
        for (int c = 0; c < 256; ++c) s.sub[r][c] = table[r * 256 + c];
    for (int c = 0; c < 256; ++c) s.sub[0][c] = s.sub[c][0] = kVeryBad;
    s.gap_open = gap_open;
    s.gap_extend = gap_extend;
}

// (the score sets' row and column characters: A C G T and their lower case, whether
// new_dna_score_set's or a scoring file's A C G T matrix; ambiguate_* set both cases)
static const char kDnaChars[] = "ACGT";

void ydrop_ambiguate_n(YdropScoring &s, int32_t n_n, int32_t n_other) {
    const int N = 'N', n = 'n';  // by int: a char subscript warns
    s.sub[N][N] = s.sub[N][n] = s.sub[n][N] = s.sub[n][n] = n_n;
    for (const char *p = kDnaChars; *p; ++p) {
        const int ch = *p, lo = ch - 'A' + 'a';
        s.sub[ch][N] = s.sub[ch][n] = s.sub[lo][N] = s.sub[lo][n] = n_other;
        s.sub[N][ch] = s.sub[n][ch] = s.sub[N][lo] = s.sub[n][lo] = n_other;
    }
}

void ydrop_ambiguate_iupac(YdropScoring &s, int32_t n_n, int32_t n_other) {
    static const char ambiggies[] = "NnBDHKMRSVWYbdhkmrsvwy";
    auto lower = [](int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; };
    for (const char *r = ambiggies; *r; ++r)
        for (const char *c = ambiggies; *c; ++c) s.sub[(int)*r][(int)*c] = lower(*r) == lower(*c) ? n_n : n_other;
    for (const char *p = kDnaChars; *p; ++p) {
        const int ch = *p, lo = ch - 'A' + 'a';
        for (const char *a = ambiggies; *a; ++a) {
            s.sub[ch][(int)*a] = s.sub[lo][(int)*a] = n_other;  // (no row or column is N: no N-N skip)
            s.sub[(int)*a][ch] = s.sub[(int)*a][lo] = n_other;
        }
    }
}

int32_t ydrop_score_script(const YdropScoring &scoring, const uint8_t *seq1, uint32_t pos1, const uint8_t *seq2,
                           uint32_t pos2, const std::vector<uint32_t> &script) {
    YdropParams p;
    YdropWorkspace w;
    Run run(scoring, p, w);
    Script s;
    s.op = script;
    return run.score_script(seq1, pos1, seq2, pos2, s);
}

}  // namespace gale
