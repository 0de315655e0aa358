/*
 * fuzz_logan: LOGAN's TSV lines (seqV posV seqH posH strand) through the CLI's
 * reader (tools/gale/input.c: logan_open, logan_read_chunk, logan_close), as `gale
 * xdrop` reads them - in chunks of a few lines, parsed on two threads - and each
 * task it yields into an X-drop batch, run on the CPU.
 *
 * Input: byte 0 picks how the rest is written to the file the reader opens
 * (bits 0-1: plain, gzip, BGZF, gzip cut short; seeds use 'p', 'q', 'r', 's'),
 * byte 1 the seed length k; the rest is the file.
 *
 * Promises checked: the reader never reads or writes out of bounds and leaks
 * nothing; a task it yields has a seed of length k inside both sequences; the
 * library takes it or refuses it with GALE_E_INPUT (a base outside the alphabet)
 * or GALE_E_LIMIT; the batch runs to GALE_OK; every result is an extension of
 * its seed inside the sequences.
 */
#include "fuzz_common.h"

#include "input.h"

#define MAX_TASKS 256
#define CHUNK 7 /* lines per chunk: small, so that inputs span several */

static gale_ctx *ctx;
static fz_file file;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    gale_ctx_opts o;
    (void)argc;
    (void)argv;
    fz_init();
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1;
    FZ_CHECK(gale_ctx_create(&ctx, &o) == GALE_OK, "gale_ctx_create: %s", gale_last_error());
    fz_file_init(&file, "gale-fuzz-logan");
    return 0;
}

/* k: mostly small, sometimes at the edges of what the CLI accepts. */
static int64_t pick_k(uint8_t c)
{
    static const int64_t edge[] = {1, 2, INT32_MAX, (int64_t)INT32_MAX - 1, 1 << 30, 1 << 16};
    if (c >= 250)
        return edge[(c - 250) % 6];
    return 1 + c % 33;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    logan_reader rd;
    line_chunk lc;
    gale_task chunk[CHUNK], kept[MAX_TASKS];
    gale_batch *b = NULL;
    size_t n = 0, i;
    int64_t k, r, j;
    int mode, rc;

    if (size < 2)
        return 0;
    mode = data[0] & 3;
    k = pick_k(data[1]);
    fz_file_put(&file, mode, data + 2, size - 2);

    memset(&lc, 0, sizeof lc);
    rc = logan_open(&rd, file.path);
    FZ_CHECK(rc == 0 || mode == FZ_GZIP_CUT, "logan_open failed on an intact file (mode %d)", mode);
    if (rc != 0)
        return 0;
    FZ_CHECK(gale_batch_create(ctx, GALE_XDROP, &b) == GALE_OK, "gale_batch_create: %s", gale_last_error());
    FZ_CHECK(gale_batch_set(b, GALE_P_XDROP, 1 + data[1] % 40) == GALE_OK, "set xdrop");

    while (n < MAX_TASKS && (r = logan_read_chunk(&rd, &lc, k, chunk, CHUNK, 64 + (size_t)data[1] * 16, 2)) > 0) {
        FZ_CHECK(r <= CHUNK, "chunk of %" PRId64 " lines, at most %d asked", r, CHUNK);
        for (j = 0; j < r && n < MAX_TASKS; j++) {
            gale_task t = chunk[j];
            gale_status st;
            FZ_CHECK(t.size == sizeof t, "task size");
            FZ_CHECK(t.h_end - t.h_begin == k && t.v_end - t.v_begin == k, "seed of length k");
            FZ_CHECK(t.h_begin >= 0 && t.h_end <= t.h_len && t.v_begin >= 0 && t.v_end <= t.v_len,
                     "seed [%" PRId64 ",%" PRId64 ") x [%" PRId64 ",%" PRId64 ") outside lengths %" PRId64 ", %" PRId64,
                     t.h_begin, t.h_end, t.v_begin, t.v_end, t.h_len, t.v_len);
            FZ_CHECK(t.h_seq == 0 && t.v_seq == 0 && t.h_offset == 0 && t.v_offset == 0, "inline task");
            FZ_CHECK((t.h_len == 0 || t.h) && (t.v_len == 0 || t.v), "NULL sequence with a length");
            t.user = n;
            st = gale_batch_add(b, &t);
            FZ_CHECK(st == GALE_OK || st == GALE_E_INPUT || st == GALE_E_LIMIT, "gale_batch_add: %d (%s)", st,
                     gale_last_error());
            if (st != GALE_OK)
                continue; /* the CLI stops here; reading on exercises more lines */
            /* Its coordinates, for the checks (h and v change with the next chunk: the
             * batch holds its own copy, gale_batch_add's promise). */
            kept[n] = t;
            kept[n].h = kept[n].v = NULL;
            n++;
        }
    }
    logan_close(&rd, 1);
    line_chunk_free(&lc);

    FZ_CHECK(gale_submit(b) == GALE_OK, "gale_submit: %s", gale_last_error());
    FZ_CHECK(gale_wait(b) == GALE_OK, "gale_wait: %s", gale_last_error());
    for (i = 0; i < n; i++) {
        gale_result res;
        memset(&res, 0, sizeof res);
        res.size = sizeof res;
        FZ_CHECK(gale_result_get(b, i, &res) == GALE_OK, "gale_result_get(%zu): %s", i, gale_last_error());
        fz_check_xdrop(i, &res, &kept[i], GALE_DIR_BOTH);
    }
    gale_batch_destroy(b);
    return 0;
}
