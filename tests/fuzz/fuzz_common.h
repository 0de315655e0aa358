/*
 * fuzz_common.h - what gale's libFuzzer harnesses (tests/fuzz/fuzz_*.c) share:
 *   - checks that abort with a message (a failed promise is a crash to libFuzzer),
 *     written to a copy of stderr taken before libFuzzer's -close_fd_mask=2 hides
 *     the CLI's own messages;
 *   - UBSan set to stop at the first report (so that it counts as a crash);
 *   - in-memory files (memfd) that the CLI's reader opens by path, written plain,
 *     gzip, BGZF or as a truncated gzip stream;
 *   - a byte reader that turns the fuzz input into numbers and choices;
 *   - checks of results against gale's promises (WFA: a valid CIGAR of the right
 *     penalty, optimal by a plain DP on short pairs; X-drop: coordinates).
 *
 * Header-only, one harness per executable (it defines LLVMFuzzerInitialize's
 * helpers and the sanitizers' default options).
 */
#ifndef GALE_FUZZ_COMMON_H
#define GALE_FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <htslib/bgzf.h>
#include <zlib.h>

#include "gale.h"
#include "wfa_check.h"

#if defined(__GNUC__)
#define FZ_UNUSED __attribute__((unused))
#else
#define FZ_UNUSED
#endif

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

static int fz_report_fd = 2;

/* Sanitizer defaults for every run of a harness, reproductions included: UBSan
 * stops at its first report, with a stack. (Environment variables still win.) */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "halt_on_error=1:print_stacktrace=1"; }

/* Called from LLVMFuzzerInitialize, before libFuzzer closes stderr (-close_fd_mask). */
static FZ_UNUSED void fz_init(void)
{
    int fd = dup(2);
    if (fd >= 0)
        fz_report_fd = fd;
}

static void fz_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 3, 4)))
#endif
    ;
static void fz_fail(const char *file, int line, const char *fmt, ...)
{
    char buf[2048];
    int n = snprintf(buf, sizeof buf, "gale fuzz: promise broken at %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof buf)
        n += vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf - 1)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    if (write(fz_report_fd, buf, (size_t)n) < 0) { /* nothing more to do */ }
    abort();
}

#define FZ_CHECK(cond, ...)                                                                                  \
    do {                                                                                                     \
        if (!(cond))                                                                                         \
            fz_fail(__FILE__, __LINE__, __VA_ARGS__);                                                        \
    } while (0)

/* A status must be one of the pinned codes (gale.h). */
#define FZ_CHECK_STATUS_KNOWN(st, what)                                                                      \
    FZ_CHECK((st) >= GALE_OK && (st) <= GALE_E_ABI, "%s: status %d is not a pinned code", what, (int)(st))

/* ------------------------------------------------------------------ */
/* Bytes of the input                                                  */
/* ------------------------------------------------------------------ */

typedef struct fz_bytes {
    const uint8_t *p;
    size_t n;
} fz_bytes;

static FZ_UNUSED uint8_t fz_u8(fz_bytes *b)
{
    uint8_t v;
    if (b->n == 0)
        return 0;
    v = *b->p++;
    b->n--;
    return v;
}

static FZ_UNUSED uint16_t fz_u16(fz_bytes *b) { uint16_t lo = fz_u8(b); return (uint16_t)(lo | (uint16_t)fz_u8(b) << 8); }

static FZ_UNUSED uint32_t fz_u32(fz_bytes *b) { uint32_t lo = fz_u16(b); return lo | (uint32_t)fz_u16(b) << 16; }

static FZ_UNUSED uint64_t fz_u64(fz_bytes *b) { uint64_t lo = fz_u32(b); return lo | (uint64_t)fz_u32(b) << 32; }

/* Up to n bytes of the input (fewer at its end): *got of them, pointer into it. */
static FZ_UNUSED const uint8_t *fz_take(fz_bytes *b, size_t n, size_t *got)
{
    const uint8_t *p = b->p;
    if (n > b->n)
        n = b->n;
    b->p += n;
    b->n -= n;
    *got = n;
    return p;
}

/* ------------------------------------------------------------------ */
/* Files the CLI's reader opens by path                                */
/* ------------------------------------------------------------------ */

/* How a file's bytes are written: as they are, gzip (zlib), BGZF (htslib), or gzip
 * cut short (its last 1..16 bytes missing). */
enum { FZ_PLAIN = 0, FZ_GZIP = 1, FZ_BGZF = 2, FZ_GZIP_CUT = 3 };

typedef struct fz_file {
    int fd;
    char path[64];
} fz_file;

static FZ_UNUSED void fz_file_init(fz_file *f, const char *name)
{
    f->fd = memfd_create(name, 0);
    FZ_CHECK(f->fd >= 0, "memfd_create: %s", strerror(errno));
    snprintf(f->path, sizeof f->path, "/proc/self/fd/%d", f->fd);
}

static FZ_UNUSED void fz_write_all(int fd, const void *p, size_t n)
{
    const char *c = (const char *)p;
    off_t at = 0;
    FZ_CHECK(ftruncate(fd, 0) == 0, "ftruncate: %s", strerror(errno));
    while (n > 0) {
        ssize_t w = pwrite(fd, c, n, at);
        FZ_CHECK(w > 0, "pwrite: %s", strerror(errno));
        c += w;
        at += w;
        n -= (size_t)w;
    }
}

/* Gzip of p[0..n) into a malloc'd buffer (*out, *out_n). */
static FZ_UNUSED void fz_gzip(const void *p, size_t n, unsigned char **out, size_t *out_n)
{
    z_stream z;
    uLong cap = compressBound((uLong)n) + 64;
    unsigned char *buf = (unsigned char *)malloc(cap);
    FZ_CHECK(buf != NULL, "out of memory");
    memset(&z, 0, sizeof z);
    FZ_CHECK(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
    z.next_in = (Bytef *)(uintptr_t)p;
    z.avail_in = (uInt)n;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    FZ_CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
    *out_n = (size_t)z.total_out;
    deflateEnd(&z);
    *out = buf;
}

/* Writes p[0..n) to f in the given mode (FZ_*). */
static FZ_UNUSED void fz_file_put(fz_file *f, int mode, const void *p, size_t n)
{
    if (mode == FZ_GZIP || mode == FZ_GZIP_CUT) {
        unsigned char *gz;
        size_t gn, cut = mode == FZ_GZIP_CUT ? 1 + n % 16 : 0;
        fz_gzip(p, n, &gz, &gn);
        fz_write_all(f->fd, gz, gn > cut ? gn - cut : 0);
        free(gz);
    } else if (mode == FZ_BGZF) {
        BGZF *w = bgzf_open(f->path, "w");
        FZ_CHECK(w != NULL, "bgzf_open(%s, w)", f->path);
        FZ_CHECK(n == 0 || bgzf_write(w, p, n) == (ssize_t)n, "bgzf_write");
        FZ_CHECK(bgzf_close(w) == 0, "bgzf_close");
    } else {
        fz_write_all(f->fd, p, n);
    }
}

/* The separator between the two files of a two-file input (fuzz_fastx). */
static FZ_UNUSED const uint8_t *fz_find(const uint8_t *p, size_t n, const char *sep, size_t sep_n)
{
    return (const uint8_t *)memmem(p, n, sep, sep_n);
}

/* ------------------------------------------------------------------ */
/* Results against gale's promises                                     */
/* ------------------------------------------------------------------ */

/* Which WFA parameters a batch has, as wfa_check.h takes them. */
static FZ_UNUSED void fz_wc_params(gale_batch *b, int kind, wc_params *p)
{
    int64_t v;
    memset(p, 0, sizeof *p);
    p->metric = WC_EDIT;
    if (kind == GALE_WFA) {
        gale_batch_get(b, GALE_P_PENALTY_MISMATCH, &p->x);
        gale_batch_get(b, GALE_P_PENALTY_GAP_OPEN, &p->o);
        gale_batch_get(b, GALE_P_PENALTY_GAP_EXTEND, &p->e);
        gale_batch_get(b, GALE_P_PENALTY_GAP_OPEN2, &p->o2);
        gale_batch_get(b, GALE_P_PENALTY_GAP_EXTEND2, &p->e2);
        p->metric = p->e2 > 0 ? WC_AFFINE2P : WC_AFFINE;
    }
    gale_batch_get(b, GALE_P_N_POLICY, &v);
    p->n_policy = (int)v;
    gale_batch_get(b, GALE_P_PATTERN_BEGIN_FREE, &p->pb);
    gale_batch_get(b, GALE_P_PATTERN_END_FREE, &p->pe);
    gale_batch_get(b, GALE_P_TEXT_BEGIN_FREE, &p->tb);
    gale_batch_get(b, GALE_P_TEXT_END_FREE, &p->te);
}

/* Pairs whose DP (m * n cells) is at most this are checked for optimality. */
#define FZ_DP_CELLS 60000

/* Checks result r (and its CIGAR) of a GALE_WFA / GALE_EDIT task on pattern v[0..m)
 * and text h[0..n): with the alignment scope, a valid CIGAR of the aligned parts
 * whose penalty is the score; the score optimal (by DP) on short pairs. */
static FZ_UNUSED void fz_check_wfa(gale_batch *b, int kind, size_t i, const gale_result *r, const char *v, int64_t m,
                         const char *h, int64_t n)
{
    wc_params p;
    int64_t scope = GALE_SCOPE_ALIGNMENT, pen = 0, want;
    const uint32_t *cigar = NULL;
    size_t n_ops = 0;
    gale_status st;
    char msg[256];

    fz_wc_params(b, kind, &p);
    gale_batch_get(b, GALE_P_SCOPE, &scope);
    want = kind == GALE_EDIT ? r->score : -r->score;
    FZ_CHECK(want >= 0, "task %zu: score %" PRId64 " has the wrong sign for %s", i, r->score,
             gale_kind_name(kind));
    FZ_CHECK(r->score_left == 0 && r->score_right == 0, "task %zu: WFA side scores not 0", i);
    FZ_CHECK((r->flags & ~(uint32_t)GALE_RF_LOWMEM) == 0, "task %zu: flags 0x%x on the CPU backend", i, r->flags);
    st = gale_result_cigar(b, i, &cigar, &n_ops);
    FZ_CHECK(st == GALE_OK, "task %zu: gale_result_cigar: %d (%s)", i, st, gale_last_error());
    if (scope == GALE_SCOPE_ALIGNMENT) {
        FZ_CHECK(n_ops == 0 || cigar != NULL, "task %zu: %zu ops but no CIGAR", i, n_ops);
        FZ_CHECK(wc_check(v, m, h, n, &p, r->h_begin, r->h_end, r->v_begin, r->v_end, cigar, n_ops, &pen, msg,
                          sizeof msg),
                 "task %zu (m %" PRId64 ", n %" PRId64 "): %s", i, m, n, msg);
        FZ_CHECK(pen == want, "task %zu: CIGAR costs %" PRId64 ", score says %" PRId64, i, pen, want);
    } else {
        FZ_CHECK(n_ops == 0, "task %zu: %zu CIGAR ops with the score scope", i, n_ops);
        FZ_CHECK(r->h_end <= n && r->v_end <= m && r->h_end >= 0 && r->v_end >= 0,
                 "task %zu: ends (%" PRId64 ", %" PRId64 ") outside the sequences", i, r->h_end, r->v_end);
        FZ_CHECK(r->h_begin >= -1 && r->v_begin >= -1 && r->h_begin <= r->h_end && r->v_begin <= r->v_end,
                 "task %zu: begins (%" PRId64 ", %" PRId64 ")", i, r->h_begin, r->v_begin);
    }
    if (m * n <= FZ_DP_CELLS) {
        int64_t dp = wc_dp_penalty(v, m, h, n, &p);
        FZ_CHECK(dp == want, "task %zu (m %" PRId64 ", n %" PRId64 "): penalty %" PRId64 ", DP says %" PRId64, i, m,
                 n, want, dp);
    }
}

/* Checks result r of a GALE_XDROP task: the extended seed contains the seed and
 * lies in the sequences; a side not extended moves nothing; the score adds up. */
static FZ_UNUSED void fz_check_xdrop(size_t i, const gale_result *r, const gale_task *t, int64_t direction)
{
    FZ_CHECK(r->h_begin >= 0 && r->h_begin <= t->h_begin && r->h_end >= t->h_end && r->h_end <= t->h_len,
             "task %zu: h [%" PRId64 ", %" PRId64 ") vs seed [%" PRId64 ", %" PRId64 ") of %" PRId64, i, r->h_begin,
             r->h_end, t->h_begin, t->h_end, t->h_len);
    FZ_CHECK(r->v_begin >= 0 && r->v_begin <= t->v_begin && r->v_end >= t->v_end && r->v_end <= t->v_len,
             "task %zu: v [%" PRId64 ", %" PRId64 ") vs seed [%" PRId64 ", %" PRId64 ") of %" PRId64, i, r->v_begin,
             r->v_end, t->v_begin, t->v_end, t->v_len);
    if (!(direction & GALE_DIR_LEFT))
        FZ_CHECK(r->score_left == 0 && r->h_begin == t->h_begin && r->v_begin == t->v_begin,
                 "task %zu: left side moved without GALE_DIR_LEFT", i);
    if (!(direction & GALE_DIR_RIGHT))
        FZ_CHECK(r->score_right == 0 && r->h_end == t->h_end && r->v_end == t->v_end,
                 "task %zu: right side moved without GALE_DIR_RIGHT", i);
    FZ_CHECK(r->score == (int64_t)r->score_left + r->score_right + (t->h_end - t->h_begin),
             "task %zu: score %" PRId64 " != %d + %d + %" PRId64, i, r->score, r->score_left, r->score_right,
             t->h_end - t->h_begin);
    FZ_CHECK(r->flags == 0, "task %zu: flags 0x%x on the CPU backend", i, r->flags);
    FZ_CHECK(r->user == t->user, "task %zu: user %" PRIu64 " came back as %" PRIu64, i, t->user, r->user);
}

#endif
