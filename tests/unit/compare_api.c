/*
 * compare_api.c - the contract of gale_compare (since 0.7, doc/compare.md): the defaults
 * of gale_compare_params_init, bad arguments refused with their status and a message naming
 * the field (never a crash, nothing returned), gale.h's struct-size rule for
 * gale_compare_params, and small cases worked out by hand from the rules: a 40-base match
 * with one mismatch at position 35 (one hit extended: score 32 + 3 - 1 + 4 = 38, 39 matches;
 * the later hits on its diagonal skipped), the identity and length filters at their
 * boundaries (integers: 100 * 39 >= 97 * 40 but not >= 98 * 40), the minus strand, the
 * strand flags, and a record separator (byte 0) that no word spans. tests/cli/compare.sh
 * compares whole runs with the brute-force oracle tests/oracle/compare_ref.py.
 *
 * Suite 'unit'; CPU; no random input.
 */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

static const char kU[] = "GATTACAGGCTTAACCGTAGCATGCAAGTCCTGACCATGA"; /* 40 bases */

static void revcomp(const char *s, size_t n, char *out)
{
    for (size_t k = 0; k < n; k++) {
        const char c = s[n - 1 - k];
        out[k] = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'T' ? 'A' : c;
    }
}

int main(void)
{
    gale_ctx_opts o;
    gale_ctx *ctx = NULL;
    gale_compare_params p;
    gale_fragment *f = NULL;
    size_t n = 99;
    char b[41], rc[41];

    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 2;
    CHECK(gale_ctx_create(&ctx, &o) == GALE_OK);

    /* defaults */
    gale_compare_params_init(&p);
    CHECK(p.size == sizeof p);
    CHECK(p.word == 32 && p.match == 1 && p.mismatch == 1 && p.xdrop == 10);
    CHECK(p.min_length == 40 && p.min_identity == 60 && p.max_occ == 0 && p.flags == 0 && p.reserved0 == 0);
    gale_compare_params_init(NULL); /* no crash */

    /* the one-mismatch case, with the defaults (params NULL and initialised) */
    memcpy(b, kU, 40);
    b[35] = b[35] == 'A' ? 'C' : 'A';
    for (int pass = 0; pass < 2; pass++) {
        CHECK_ST(gale_compare(ctx, kU, 40, b, 40, pass ? &p : NULL, &f, &n), GALE_OK);
        CHECK_EQ_I64(n, 1);
        if (n == 1) {
            CHECK(f[0].strand == '+' && f[0].a_start == 0 && f[0].b_start == 0 && f[0].length == 40);
            CHECK_EQ_I64(f[0].score, 38);
            CHECK_EQ_I64(f[0].matches, 39);
        }
        gale_fragments_free(f);
    }
    /* identity 39/40: kept at 97%, dropped at 98%; length 40: dropped at 41 */
    p.min_identity = 97;
    CHECK_ST(gale_compare(ctx, kU, 40, b, 40, &p, &f, &n), GALE_OK);
    CHECK_EQ_I64(n, 1);
    gale_fragments_free(f);
    p.min_identity = 98;
    CHECK_ST(gale_compare(ctx, kU, 40, b, 40, &p, &f, &n), GALE_OK);
    CHECK(n == 0 && f == NULL);
    p.min_identity = 60;
    p.min_length = 41;
    CHECK_ST(gale_compare(ctx, kU, 40, b, 40, &p, &f, &n), GALE_OK);
    CHECK(n == 0 && f == NULL);
    p.min_length = 40;
    /* mismatch 0, xdrop 0: the mismatch costs nothing, 40 long, score 39 */
    p.mismatch = 0;
    p.xdrop = 0;
    CHECK_ST(gale_compare(ctx, kU, 40, b, 40, &p, &f, &n), GALE_OK);
    CHECK(n == 1 && f && f[0].score == 39 && f[0].length == 40 && f[0].matches == 39);
    gale_fragments_free(f);
    gale_compare_params_init(&p);

    /* the minus strand: B = revcomp(A) in lower case; b_start on B's reverse complement */
    revcomp(kU, 40, rc);
    for (int k = 0; k < 40; k++) rc[k] = (char)(rc[k] - 'A' + 'a');
    CHECK_ST(gale_compare(ctx, kU, 40, rc, 40, NULL, &f, &n), GALE_OK);
    CHECK(n == 1 && f && f[0].strand == '-' && f[0].a_start == 0 && f[0].b_start == 0 && f[0].length == 40 &&
          f[0].score == 40 && f[0].matches == 40);
    gale_fragments_free(f);
    p.flags = GALE_COMPARE_PLUS;
    CHECK_ST(gale_compare(ctx, kU, 40, rc, 40, &p, &f, &n), GALE_OK);
    CHECK(n == 0 && f == NULL);
    p.flags = GALE_COMPARE_MINUS;
    CHECK_ST(gale_compare(ctx, kU, 40, kU, 40, &p, &f, &n), GALE_OK);
    CHECK(n == 0 && f == NULL);
    gale_compare_params_init(&p);

    /* a byte 0 between two records: no word spans it, no extension crosses it */
    {
        char a2[81], b2[80];
        memcpy(a2, kU, 40);
        a2[40] = 0;
        memcpy(a2 + 41, kU, 40); /* A: U 0 U; B: U U (the 32-mers across U's junction do not occur in A) */
        memcpy(b2, kU, 40);
        memcpy(b2 + 40, kU, 40);
        CHECK_ST(gale_compare(ctx, a2, 81, b2, 80, NULL, &f, &n), GALE_OK);
        /* + strand: diagonals -40 (A's 1st U, B's 2nd), 0, 1 (A's 2nd U, B's 1st), 41 */
        CHECK_EQ_I64(n, 4);
        for (size_t k = 0; k < n; k++) CHECK(f[k].length == 40 && f[k].score == 40 && f[k].strand == '+');
        if (n == 4) {
            CHECK(f[0].a_start == 0 && f[0].b_start == 40);
            CHECK(f[1].a_start == 0 && f[1].b_start == 0);
            CHECK(f[2].a_start == 41 && f[2].b_start == 40);
            CHECK(f[3].a_start == 41 && f[3].b_start == 0);
        }
        gale_fragments_free(f);
    }

    /* shorter than a word, empty: nothing, OK */
    CHECK_ST(gale_compare(ctx, kU, 31, kU, 40, NULL, &f, &n), GALE_OK);
    CHECK(n == 0 && f == NULL);
    CHECK_ST(gale_compare(ctx, NULL, 0, NULL, 0, NULL, &f, &n), GALE_OK);
    CHECK(n == 0 && f == NULL);

    /* refusals: status, a message naming the field, nothing returned */
#define REFUSED(field, value, st, word)                                                          \
    do {                                                                                          \
        gale_compare_params_init(&p);                                                             \
        p.field = value;                                                                          \
        f = (gale_fragment *)&p;                                                                  \
        n = 7;                                                                                    \
        CHECK_ST(gale_compare(ctx, kU, 40, b, 40, &p, &f, &n), st);                               \
        CHECK(f == NULL && n == 0);                                                               \
        CHECK_MSG(strstr(gale_last_error(), word) != NULL, "message '%s' lacks '%s'", gale_last_error(), word); \
    } while (0)
    REFUSED(word, 11, GALE_E_RANGE, "word");
    REFUSED(word, 33, GALE_E_RANGE, "word");
    REFUSED(match, 0, GALE_E_RANGE, "match");
    REFUSED(match, (1 << 20) + 1, GALE_E_RANGE, "match");
    REFUSED(mismatch, -1, GALE_E_RANGE, "mismatch");
    REFUSED(xdrop, -1, GALE_E_RANGE, "xdrop");
    REFUSED(min_identity, 101, GALE_E_RANGE, "min_identity");
    REFUSED(flags, 8, GALE_E_RANGE, "flags");
    /* GALE_COMPARE_GPU_ONLY on this CPU context: refused, nothing computed on the CPU */
    REFUSED(flags, GALE_COMPARE_GPU_ONLY, GALE_E_UNSUPPORTED, "GALE_COMPARE_GPU_ONLY");
    REFUSED(reserved0, 1, GALE_E_RANGE, "reserved0");
    REFUSED(size, sizeof p - 8, GALE_E_INVALID, "gale_compare_params");
#undef REFUSED
    gale_compare_params_init(&p);
    CHECK_ST(gale_compare(NULL, kU, 40, b, 40, &p, &f, &n), GALE_E_HANDLE);
    CHECK_ST(gale_compare(ctx, kU, 40, b, 40, &p, NULL, &n), GALE_E_INVALID);
    CHECK_ST(gale_compare(ctx, kU, 40, b, 40, &p, &f, NULL), GALE_E_INVALID);
    CHECK_ST(gale_compare(ctx, NULL, 40, b, 40, &p, &f, &n), GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "a") != NULL);
    CHECK_ST(gale_compare(ctx, kU, -1, b, 40, &p, &f, &n), GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "a_len") != NULL);
    CHECK_ST(gale_compare(ctx, kU, 40, b, -5, &p, &f, &n), GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "b_len") != NULL);
    CHECK_ST(gale_compare(ctx, kU, 40, b, (int64_t)1 << 32, &p, &f, &n), GALE_E_LIMIT);

    /* struct sizes: a newer caller's larger struct with a zero tail is taken, a nonzero
     * byte there refused */
    {
        unsigned char big[sizeof(gale_compare_params) + 16];
        gale_compare_params *q = (gale_compare_params *)(void *)big;
        memset(big, 0, sizeof big);
        gale_compare_params_init(q);
        q->size = sizeof big;
        CHECK_ST(gale_compare(ctx, kU, 40, b, 40, q, &f, &n), GALE_OK);
        CHECK(n == 1);
        gale_fragments_free(f);
        big[sizeof(gale_compare_params) + 3] = 1;
        CHECK_ST(gale_compare(ctx, kU, 40, b, 40, q, &f, &n), GALE_E_INVALID);
    }
    gale_fragments_free(NULL);

    gale_ctx_destroy(ctx);
    return tu_finish("compare_api");
}
