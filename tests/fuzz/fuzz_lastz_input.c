/*
 * fuzz_lastz_input: `gale lastz`'s readers (tools/gale/lastz_seqfile.c, lastz_scores.c, lastz_segments.c) on any bytes: the
 * sequence files (FASTA, FASTQ, 2bit or nib, told apart as lastz tells them; then the
 * record a FILE.2bit/NAME specifier picks), LASTZ's scoring files (--scores) and the segments file.
 * Each must return its records or say what is wrong, never crash, read out of bounds
 * or leak; what it returns is checked against its own promises.
 *
 * Input: byte 0 picks the reader (0 sequences, 1 scores, 2 segments; seeds use '0', '1',
 * '2'), the rest is the file (written plain).
 */
#include "fuzz_common.h"

#include "lastz_int.h"

static fz_file file;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_init();
    fz_file_init(&file, "gale-fuzz-lastz");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    fz_file_put(&file, FZ_PLAIN, data + 1, size - 1);
    switch (data[0] % 3) {
    case 0: {
        record *r = NULL;
        const long n = read_sequences(file.path, 0, NULL, NULL, &r);
        FZ_CHECK(n >= -1, "read_sequences returned %ld", n);
        for (long k = 0; k < n; k++) {
            FZ_CHECK(r[k].name && r[k].header, "record %ld without a name", k);
            FZ_CHECK(r[k].len == r[k].true_len && r[k].contig == k + 1, "record %ld: length or number", k);
            for (size_t i = 0; i < r[k].len; i++) FZ_CHECK(r[k].seq[i] != 0, "record %ld: byte 0 at %zu", k, i);
            FZ_CHECK(!r[k].qual == (r[k].format != SEQ_FASTQ), "record %ld: qualities without FASTQ, or none", k);
            for (size_t i = 0; r[k].qual && i < r[k].len; i++)
                FZ_CHECK(r[k].qual[i] >= '!' && r[k].qual[i] <= '~', "record %ld: quality byte 0x%02x at %zu", k,
                         (unsigned char)r[k].qual[i], i);
        }
        if (n > 0) {
            /* the same file with one record named (FILE.2bit/NAME): that record as the whole read gave it */
            record *o = NULL;
            long k1 = 0;
            while (strcmp(r[k1].header, r[n - 1].header) != 0) k1++;
            FZ_CHECK(read_sequences(file.path, 0, r[n - 1].header, NULL, &o) == n, "the read with a name gave another count");
            FZ_CHECK(o[k1].len == r[k1].len && (r[k1].len == 0 || memcmp(o[k1].seq, r[k1].seq, r[k1].len) == 0),
                     "record %ld read alone differs", k1);
            FZ_CHECK(keep_contig(file.path, r[n - 1].header, o, n) == 1, "keep_contig missed a record's own name");
            free_records(o, 1); /* keep_contig freed the others */
            free_records(r, n);
        } else {
            free(r);
        }
        break;
    }
    case 1: {
        lastz_scores sc;
        if (read_scores(file.path, &sc) == 0) {
            /* a DNA alphabet each way (A C G T, with N, a c g t or both), and the table
             * read_score_set builds: the lower case as the upper case, X's row and column bad */
            FZ_CHECK(sc.table != NULL, "no table");
            for (const char *p = "ACGT"; *p; p++)
                FZ_CHECK(strchr(sc.cols, *p) && strchr(sc.rows, *p), "%c missing: columns %s, rows %s", *p, sc.cols,
                         sc.rows);
            FZ_CHECK((sc.ncols == 4 || sc.ncols == 5 || sc.ncols == 8 || sc.ncols == 9) &&
                         (sc.nrows == 4 || sc.nrows == 5 || sc.nrows == 8 || sc.nrows == 9),
                     "%d columns, %d rows", sc.ncols, sc.nrows);
            for (int r = 0; r < sc.nrows && sc.table; r++)
                for (int c = 0; c < sc.ncols; c++) {
                    const int R = (unsigned char)sc.rows[r], C = (unsigned char)sc.cols[c];
                    if (R >= 'A' && R <= 'Z' && C >= 'A' && C <= 'Z')
                        FZ_CHECK(sc.table[(R + 32) * 256 + C + 32] == sc.table[R * 256 + C], "%c%c: lower case differs",
                                 R, C);
                }
            for (int k = 1; k < 256 && sc.table; k++)
                FZ_CHECK(sc.table['X' * 256 + k] == sc.bad && sc.table[k * 256 + 'X'] == sc.bad, "X's row or column");
            FZ_CHECK(!sc.have_gap_extend || sc.gap_extend >= 0, "a negative gap extension taken");
            free(sc.table);
        }
        break;
    }
    default: {
        seg_line *s = NULL;
        const long n = read_segments(file.path, &s);
        FZ_CHECK(n >= -1, "read_segments returned %ld", n);
        for (long k = 0; k < n; k++)
            FZ_CHECK(s[k].start1 <= s[k].end1 && s[k].start2 <= s[k].end2, "segment %ld: start after end", k);
        free_seg_lines(s, n);
        break;
    }
    }
    return 0;
}
