/*
 * fuzz_pairs.h - the part of fuzz_seq and fuzz_fastx after the files are written:
 * the CLI's pair reader (tools/gale/input.c: pair_open, pair_read_chunk - chunks of a few pairs, .seq
 * lines checked on two threads - and pair_close) as
 * `gale wfa` drives it, and every pair it yields into a GALE_WFA or GALE_EDIT batch,
 * run on the CPU and checked (fz_check_wfa).
 *
 * The options byte: bit 0 GALE_EDIT (else GALE_WFA), bit 1 the score scope, bits 2-3
 * ends-free (none, the pattern's ends, the text's, all four), bit 4 GALE_N_MISMATCH,
 * bit 5 two-piece gap-affine (GALE_WFA). '@' is the default of `gale wfa`.
 */
#ifndef GALE_FUZZ_PAIRS_H
#define GALE_FUZZ_PAIRS_H

#include "fuzz_common.h"

#include "input.h"

#define CHUNK 5 /* pairs per chunk: small, so that inputs span several */
#define MAX_PAIRS 256

static gale_ctx *ctx;

static void pairs_init(void)
{
    gale_ctx_opts o;
    fz_init();
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1;
    FZ_CHECK(gale_ctx_create(&ctx, &o) == GALE_OK, "gale_ctx_create: %s", gale_last_error());
}

/* A pair as the reader returned it. */
static void check_view(pair_reader *rd, const pair_view *v, int fastx)
{
    FZ_CHECK(v->p != NULL && v->t != NULL, "pair with no sequence");
    FZ_CHECK(v->p[v->plen] == '\0' && v->t[v->tlen] == '\0', "sequence not terminated at its length");
    FZ_CHECK(v->pline >= 1 && v->pline <= pair_file(rd, 0)->lineno, "pattern line %" PRIu64, v->pline);
    FZ_CHECK(v->tline >= 1 && v->tline <= pair_file(rd, 1)->lineno, "text line %" PRIu64, v->tline);
    FZ_CHECK(v->recno >= 1, "record number 0");
    if (!fastx) {
        FZ_CHECK(!v->qual && !v->pname && !v->tname, ".seq pair with a name or qualities");
        FZ_CHECK(v->tline == v->pline + 1, ".seq: text line %" PRIu64 " after pattern line %" PRIu64, v->tline,
                 v->pline);
        return;
    }
    if (v->qual) {
        size_t i, nq = strlen(v->qual);
        FZ_CHECK(nq == v->plen, "FASTQ: %zu qualities for %zu bases", nq, v->plen);
        for (i = 0; i < nq; i++)
            FZ_CHECK(v->qual[i] >= 33 && v->qual[i] <= 126, "quality byte 0x%02x", (unsigned char)v->qual[i]);
    }
    FZ_CHECK(v->pname && v->tname, "FASTA/FASTQ pair without names");
    FZ_CHECK(!strchr(v->pname, ' ') && !strchr(v->pname, '\t') && !strchr(v->tname, ' ') && !strchr(v->tname, '\t'),
             "name with a blank");
}

static void run_pairs(const char *const *paths, int nfiles, uint8_t opts, int may_fail_open)
{
    pair_reader rd;
    pair_view pv[CHUNK];
    line_chunk lc;
    kstring_t pool = {0, 0, NULL};
    gale_batch *b = NULL;
    char *kept[MAX_PAIRS][2];
    int64_t len[MAX_PAIRS][2];
    int kind = (opts & 1) ? GALE_EDIT : GALE_WFA;
    size_t n = 0, i;
    int64_t r, j;
    int rc;

    memset(&lc, 0, sizeof lc);
    rc = pair_open(&rd, paths, nfiles);
    FZ_CHECK(rc == 0 || may_fail_open, "pair_open failed on intact files");
    if (rc != 0) {
        pair_close(&rd, 0);
        return;
    }
    FZ_CHECK(gale_batch_create(ctx, kind, &b) == GALE_OK, "gale_batch_create: %s", gale_last_error());
    if (opts & 2)
        FZ_CHECK(gale_batch_set(b, GALE_P_SCOPE, GALE_SCOPE_SCORE) == GALE_OK, "scope");
    if ((opts >> 2) & 1) {
        FZ_CHECK(gale_batch_set(b, GALE_P_PATTERN_BEGIN_FREE, 3) == GALE_OK, "pbf");
        FZ_CHECK(gale_batch_set(b, GALE_P_PATTERN_END_FREE, 5) == GALE_OK, "pef");
    }
    if ((opts >> 3) & 1) {
        FZ_CHECK(gale_batch_set(b, GALE_P_TEXT_BEGIN_FREE, 4) == GALE_OK, "tbf");
        FZ_CHECK(gale_batch_set(b, GALE_P_TEXT_END_FREE, 2) == GALE_OK, "tef");
    }
    if (opts & 16)
        FZ_CHECK(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_MISMATCH) == GALE_OK, "n policy");
    if (kind == GALE_WFA && (opts & 32)) {
        FZ_CHECK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN2, 24) == GALE_OK, "o2");
        FZ_CHECK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND2, 1) == GALE_OK, "e2");
    }

    while (n < MAX_PAIRS && (r = pair_read_chunk(&rd, &lc, &pool, pv, CHUNK, 64 + opts * 8u, 2)) > 0) {
        FZ_CHECK(r <= CHUNK, "chunk of %" PRId64 " pairs, at most %d asked", r, CHUNK);
        for (j = 0; j < r && n < MAX_PAIRS; j++) {
            const pair_view *v = &pv[j];
            gale_task task;
            gale_status st;
            check_view(&rd, v, nfiles == 2);
            gale_task_init(&task);
            task.v = v->p;
            task.v_len = (int64_t)v->plen;
            task.h = v->t;
            task.h_len = (int64_t)v->tlen;
            task.user = n;
            st = gale_batch_add(b, &task);
            FZ_CHECK(st == GALE_OK || st == GALE_E_INPUT, "gale_batch_add: %d (%s)", st, gale_last_error());
            if (st != GALE_OK)
                continue; /* the CLI stops here; reading on exercises more records */
            /* The views point into the reader, overwritten by the next chunk: copies for the checks. */
            kept[n][0] = (char *)malloc(v->plen + 1);
            kept[n][1] = (char *)malloc(v->tlen + 1);
            FZ_CHECK(kept[n][0] && kept[n][1], "out of memory");
            memcpy(kept[n][0], v->p, v->plen + 1);
            memcpy(kept[n][1], v->t, v->tlen + 1);
            len[n][0] = (int64_t)v->plen;
            len[n][1] = (int64_t)v->tlen;
            n++;
        }
    }
    pair_close(&rd, 1);
    line_chunk_free(&lc);
    free(pool.s);

    FZ_CHECK(gale_submit(b) == GALE_OK, "gale_submit: %s", gale_last_error());
    FZ_CHECK(gale_wait(b) == GALE_OK, "gale_wait: %s", gale_last_error());
    for (i = 0; i < n; i++) {
        gale_result res;
        memset(&res, 0, sizeof res);
        res.size = sizeof res;
        FZ_CHECK(gale_result_get(b, i, &res) == GALE_OK, "gale_result_get(%zu): %s", i, gale_last_error());
        FZ_CHECK(res.user == i, "user");
        fz_check_wfa(b, kind, i, &res, kept[i][0], len[i][0], kept[i][1], len[i][1]);
        free(kept[i][0]);
        free(kept[i][1]);
    }
    gale_batch_destroy(b);
}

#endif
