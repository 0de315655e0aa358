/*
 * fuzz_seq: WFA2-lib's .seq files ('>PATTERN' then '<TEXT' lines) through the CLI's
 * reader (tools/gale/input.c), as `gale wfa FILE.seq` reads them, each pair aligned
 * on the CPU and checked (fuzz_pairs.h).
 *
 * Input: byte 0 picks how the rest is written (bits 0-1: plain, gzip, BGZF, gzip cut
 * short; seeds use 'p', 'q', 'r', 's'), byte 1 the batch's options (fuzz_pairs.h;
 * '@': gap-affine with the CLI's defaults); the rest is the file.
 */
#include "fuzz_pairs.h"

static fz_file file;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    pairs_init();
    fz_file_init(&file, "gale-fuzz-seq");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *paths[1];
    int mode;
    if (size < 2)
        return 0;
    mode = data[0] & 3;
    fz_file_put(&file, mode, data + 2, size - 2);
    paths[0] = file.path;
    run_pairs(paths, 1, data[1], mode == FZ_GZIP_CUT);
    return 0;
}
