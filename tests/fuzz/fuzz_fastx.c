/*
 * fuzz_fastx: FASTA/FASTQ files (PATTERNS and TEXTS, record i with record i)
 * through the CLI's reader (tools/gale/input.c), as `gale wfa PATTERNS TEXTS` reads
 * them, each pair aligned on the CPU and checked (fuzz_pairs.h).
 *
 * Input: byte 0 picks how each file is written (bits 0-1 PATTERNS, bits 2-3 TEXTS:
 * plain, gzip, BGZF, gzip cut short; 'p': both plain, 'u': both gzip, 'z': both
 * BGZF), byte 1 the batch's options (fuzz_pairs.h; '@': the CLI's defaults); the
 * rest is PATTERNS, then the line "%%" and TEXTS. Without that line both files
 * hold the whole rest.
 */
#include "fuzz_pairs.h"

static fz_file file[2];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    pairs_init();
    fz_file_init(&file[0], "gale-fuzz-patterns");
    fz_file_init(&file[1], "gale-fuzz-texts");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char sep[] = "\n%%\n";
    const char *paths[2];
    const uint8_t *rest, *cut;
    size_t n, an, bn;
    const uint8_t *bp;
    int ma, mb;
    if (size < 2)
        return 0;
    ma = data[0] & 3;
    mb = (data[0] >> 2) & 3;
    rest = data + 2;
    n = size - 2;
    cut = fz_find(rest, n, sep, sizeof sep - 1);
    if (cut) {
        an = (size_t)(cut - rest) + 1; /* PATTERNS keeps its last newline */
        bp = cut + sizeof sep - 1;
        bn = n - (size_t)(bp - rest);
    } else {
        an = bn = n;
        bp = rest;
    }
    fz_file_put(&file[0], ma, rest, an);
    fz_file_put(&file[1], mb, bp, bn);
    paths[0] = file[0].path;
    paths[1] = file[1].path;
    run_pairs(paths, 2, data[1], ma == FZ_GZIP_CUT || mb == FZ_GZIP_CUT);
    return 0;
}
