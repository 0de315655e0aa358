/*
 * wfa_check.h - checks of a wavefront-alignment result (GALE_WFA, GALE_EDIT) that
 * need no reference library: is the CIGAR a valid alignment of the aligned parts,
 * does it respect the ends-free limits, and what does it cost. Plus a plain O(nm)
 * dynamic program (Gotoh, two-piece, ends-free, either N policy) for the optimal
 * penalty of short pairs.
 *
 * Header-only, C99 (usable from C++). Sequences are the caller's bytes, read with
 * gale's alphabet rules (case folded, IUPAC codes and N as N, U as T).
 */
#ifndef GALE_WFA_CHECK_H
#define GALE_WFA_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define WC_UNUSED __attribute__((unused))
#else
#define WC_UNUSED
#endif

#define WC_AFFINE 0
#define WC_AFFINE2P 1
#define WC_EDIT 2

typedef struct wc_params {
    int metric;                 /* WC_AFFINE, WC_AFFINE2P, WC_EDIT */
    int64_t x, o, e, o2, e2;    /* edit: ignored (all 1, opens 0) */
    int n_policy;               /* GALE_N_DNA5 (0), GALE_N_MISMATCH (1) or GALE_N_BYTES (2) */
    int64_t pb, pe, tb, te;     /* free lengths as given (clamped here) */
} wc_params;

/* 0..3 for A C G T (U), 4 for N and the IUPAC codes, 5 for anything else. */
static WC_UNUSED int wc_code(char c)
{
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': case 'U': case 'u': return 3;
    case 'N': case 'n': case 'R': case 'r': case 'Y': case 'y': case 'S': case 's': case 'W': case 'w':
    case 'K': case 'k': case 'M': case 'm': case 'B': case 'b': case 'D': case 'd': case 'H': case 'h':
    case 'V': case 'v': return 4;
    default: return 5;
    }
}

static WC_UNUSED int wc_match(char a, char b, int n_policy)
{
    int x = wc_code(a), y = wc_code(b);
    if (n_policy == 2) return a == b; /* GALE_N_BYTES: bytes compared exactly */
    return x == y && (x != 4 || n_policy == 0);
}

static WC_UNUSED int64_t wc_min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Penalty of one gap of length len (edit: len). */
static WC_UNUSED int64_t wc_gap(const wc_params *p, int64_t len)
{
    int64_t g1;
    if (p->metric == WC_EDIT) return len;
    g1 = p->o + len * p->e;
    if (p->metric == WC_AFFINE2P) return wc_min64(g1, p->o2 + len * p->e2);
    return g1;
}

static WC_UNUSED int64_t wc_mismatch(const wc_params *p) { return p->metric == WC_EDIT ? 1 : p->x; }

/*
 * Checks a result: the CIGAR (BAM ops: 7 '=', 8 'X', 1 'I' = pattern only, 2 'D' =
 * text only) must cover exactly pattern[v_begin, v_end) and text[h_begin, h_end),
 * '=' on matching and 'X' on mismatching bases under the N policy, and the
 * unaligned ends must be allowed by the (clamped) free lengths the way an
 * ends-free wavefront alignment leaves them: at the begin, one sequence starts at
 * 0; at the end, one sequence is consumed whole. Two equal ops in a row, a zero
 * length or another op code are errors too. On success returns 1 and sets
 * *penalty (gaps: one per I or D op, two-piece: the cheaper piece); on failure
 * returns 0 with a message in msg.
 */
static WC_UNUSED int wc_check(const char *pattern, int64_t m, const char *text, int64_t n, const wc_params *p,
                              int64_t h_begin, int64_t h_end, int64_t v_begin, int64_t v_end,
                              const uint32_t *cigar, size_t n_ops, int64_t *penalty, char *msg, size_t msg_len)
{
    int64_t pb = wc_min64(p->pb, m), pe = wc_min64(p->pe, m), tb = wc_min64(p->tb, n), te = wc_min64(p->te, n);
    int64_t h = h_begin, v = v_begin, pen = 0;
    size_t i;
    if (h_begin < 0 || v_begin < 0 || h_end > n || v_end > m || h_begin > h_end || v_begin > v_end) {
        snprintf(msg, msg_len, "coordinates out of the sequences: h [%lld, %lld) of %lld, v [%lld, %lld) of %lld",
                 (long long)h_begin, (long long)h_end, (long long)n, (long long)v_begin, (long long)v_end, (long long)m);
        return 0;
    }
    if (!((h_begin == 0 && v_begin <= pb) || (v_begin == 0 && h_begin <= tb))) {
        snprintf(msg, msg_len, "begin (h %lld, v %lld) not allowed by begin-free lengths (text %lld, pattern %lld)",
                 (long long)h_begin, (long long)v_begin, (long long)tb, (long long)pb);
        return 0;
    }
    if (!((h_end == n && m - v_end <= pe) || (v_end == m && n - h_end <= te))) {
        snprintf(msg, msg_len, "end (h %lld of %lld, v %lld of %lld) not allowed by end-free lengths (text %lld, pattern %lld)",
                 (long long)h_end, (long long)n, (long long)v_end, (long long)m, (long long)te, (long long)pe);
        return 0;
    }
    for (i = 0; i < n_ops; ++i) {
        uint32_t op = cigar[i] & 0xf;
        int64_t len = (int64_t)(cigar[i] >> 4), j;
        if (len == 0 || (i > 0 && (cigar[i - 1] & 0xf) == op)) {
            snprintf(msg, msg_len, "op %zu: zero length or same op as the previous one", i);
            return 0;
        }
        switch (op) {
        case 7:
        case 8:
            if (len > h_end - h || len > v_end - v) {
                snprintf(msg, msg_len, "op %zu (%lld%c) runs past the aligned region", i, (long long)len, op == 7 ? '=' : 'X');
                return 0;
            }
            for (j = 0; j < len; ++j)
                if (wc_match(pattern[v + j], text[h + j], p->n_policy) != (op == 7)) {
                    snprintf(msg, msg_len, "op %zu: pattern[%lld] '%c' vs text[%lld] '%c' is not a %s", i,
                             (long long)(v + j), pattern[v + j], (long long)(h + j), text[h + j],
                             op == 7 ? "match" : "mismatch");
                    return 0;
                }
            if (op == 8) pen += len * wc_mismatch(p);
            h += len;
            v += len;
            break;
        case 1:
            if (len > v_end - v) {
                snprintf(msg, msg_len, "op %zu (%lldI) runs past the pattern's aligned part", i, (long long)len);
                return 0;
            }
            pen += wc_gap(p, len);
            v += len;
            break;
        case 2:
            if (len > h_end - h) {
                snprintf(msg, msg_len, "op %zu (%lldD) runs past the text's aligned part", i, (long long)len);
                return 0;
            }
            pen += wc_gap(p, len);
            h += len;
            break;
        default:
            snprintf(msg, msg_len, "op %zu: unexpected op code %u", i, op);
            return 0;
        }
    }
    if (h != h_end || v != v_end) {
        snprintf(msg, msg_len, "CIGAR ends at (h %lld, v %lld), the result at (h %lld, v %lld)", (long long)h,
                 (long long)v, (long long)h_end, (long long)v_end);
        return 0;
    }
    *penalty = pen;
    return 1;
}

/*
 * Optimal penalty by dynamic programming (Gotoh with two pieces), O(m n) time and
 * O(n) memory: the reference for short pairs. Ends-free as above. Returns -1 if
 * out of memory.
 */
static WC_UNUSED int64_t wc_dp_penalty(const char *pattern, int64_t m, const char *text, int64_t n, const wc_params *p)
{
    const int64_t INF = INT64_MAX / 4;
    int64_t pb = wc_min64(p->pb, m), pe = wc_min64(p->pe, m), tb = wc_min64(p->tb, n), te = wc_min64(p->te, n);
    int64_t x = wc_mismatch(p), o1, e1, o2, e2, best = INF, i, j;
    int two = p->metric == WC_AFFINE2P;
    int64_t *buf;
    int64_t *H0, *H1, *D1a, *D1b, *D2a, *D2b, *I1r, *I2r; /* rows over text positions 0..n */
    if (p->metric == WC_EDIT) { o1 = 0; e1 = 1; o2 = 0; e2 = 1; }
    else { o1 = p->o; e1 = p->e; o2 = two ? p->o2 : p->o; e2 = two ? p->e2 : p->e; }
    buf = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1) * 8);
    if (!buf) return -1;
    H0 = buf; H1 = buf + (n + 1); D1a = buf + 2 * (n + 1); D1b = buf + 3 * (n + 1);
    D2a = buf + 4 * (n + 1); D2b = buf + 5 * (n + 1); I1r = buf + 6 * (n + 1); I2r = buf + 7 * (n + 1);
    /* H[i][j]: best penalty of a path ending at (text j, pattern i) in any state;
     * D (text-only gap, along the row), I (pattern-only gap, along the column). */
    for (i = 0; i <= m; ++i) {
        int64_t *H = (i & 1) ? H1 : H0, *Hp = (i & 1) ? H0 : H1;
        int64_t dd1 = INF, dd2 = INF; /* D states along row i */
        for (j = 0; j <= n; ++j) {
            int64_t h = INF, i1 = INF, i2 = INF;
            if (i == 0 && j <= tb) h = 0;
            if (j == 0 && i <= pb) h = 0;
            if (j > 0) {
                int64_t prev = H[j - 1];
                dd1 = wc_min64(dd1 + e1, prev + o1 + e1);
                dd2 = wc_min64(dd2 + e2, prev + o2 + e2);
                h = wc_min64(h, wc_min64(dd1, dd2));
            }
            if (i > 0) {
                i1 = wc_min64(I1r[j] + e1, Hp[j] + o1 + e1);
                i2 = wc_min64(I2r[j] + e2, Hp[j] + o2 + e2);
                h = wc_min64(h, wc_min64(i1, i2));
                if (j > 0)
                    h = wc_min64(h, Hp[j - 1] + (wc_match(pattern[i - 1], text[j - 1], p->n_policy) ? 0 : x));
            }
            I1r[j] = i1;
            I2r[j] = i2;
            H[j] = h;
            if ((j == n && m - i <= pe) || (i == m && n - j <= te)) best = wc_min64(best, h);
        }
        (void)D1a; (void)D1b; (void)D2a; (void)D2b;
    }
    free(buf);
    return best;
}

#endif
