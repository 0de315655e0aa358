/*
 * gale CLI: a small PNG encoder (png.h). The image's rows go through a zlib stream
 * (zlib's deflate, or stored blocks without zlib) into IDAT chunks of at most IDAT_MAX
 * bytes, so that nothing but the caller's image and a chunk's buffer is held.
 */
#include "png.h"

#include <stdlib.h>
#include <string.h>

#ifdef GALE_HAVE_ZLIB
#include <zlib.h>
#endif

#include "options.h"

#define IDAT_MAX 32768u

/* ---- CRC-32 (ISO 3309, as PNG's chunks and zlib's crc32 compute it) ---- */

#ifdef GALE_HAVE_ZLIB
static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
    while (n > 0) { /* (zlib's length is a uInt) */
        const uInt m = n > 0x40000000u ? 0x40000000u : (uInt)n;
        crc = (uint32_t)crc32(crc, p, m);
        p += m;
        n -= m;
    }
    return crc;
}
#else
static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
    static uint32_t table[256];
    static int ready;
    if (!ready) {
        for (uint32_t k = 0; k < 256; k++) {
            uint32_t c = k;
            for (int b = 0; b < 8; b++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[k] = c;
        }
        ready = 1;
    }
    crc = ~crc;
    for (size_t k = 0; k < n; k++) crc = table[(crc ^ p[k]) & 0xff] ^ (crc >> 8);
    return ~crc;
}
#endif

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* One chunk: length, type, data, CRC of type and data. */
static void chunk(FILE *o, const char *type, const uint8_t *data, uint32_t n)
{
    uint8_t b[4];
    uint32_t crc = crc_update(0, (const uint8_t *)type, 4);
    if (n) crc = crc_update(crc, data, n);
    put32(b, n);
    fwrite(b, 1, 4, o);
    fwrite(type, 1, 4, o);
    if (n) fwrite(data, 1, n, o);
    put32(b, crc);
    fwrite(b, 1, 4, o);
}

/* The zlib stream's bytes, gathered into IDAT chunks. */
typedef struct idat {
    FILE *o;
    uint32_t n;
    uint8_t buf[IDAT_MAX];
} idat;

static void idat_flush(idat *d)
{
    if (d->n) chunk(d->o, "IDAT", d->buf, d->n);
    d->n = 0;
}

#ifndef GALE_HAVE_ZLIB
static void idat_put(idat *d, const uint8_t *p, size_t n)
{
    while (n > 0) {
        size_t m = IDAT_MAX - d->n;
        if (m > n) m = n;
        memcpy(d->buf + d->n, p, m);
        d->n += (uint32_t)m;
        p += m;
        n -= m;
        if (d->n == IDAT_MAX) idat_flush(d);
    }
}

/* ---- without zlib: stored deflate blocks (RFC 1951 3.2.4) and Adler-32 (RFC 1950) ---- */

#define STORED_MAX 65535u

typedef struct stored {
    idat *d;
    uint32_t a, b; /* Adler-32's two sums */
    uint32_t n;    /* bytes waiting for their block */
    uint8_t buf[STORED_MAX];
} stored;

static void stored_block(stored *s, int last)
{
    const uint8_t h[5] = {(uint8_t)(last ? 1 : 0), (uint8_t)(s->n & 0xff), (uint8_t)(s->n >> 8),
                          (uint8_t)(~s->n & 0xff), (uint8_t)((~s->n >> 8) & 0xff)};
    idat_put(s->d, h, 5);
    idat_put(s->d, s->buf, s->n);
    s->n = 0;
}

static void stored_put(stored *s, const uint8_t *p, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (s->n == STORED_MAX) stored_block(s, 0); /* (full and more to come: not the last) */
        s->buf[s->n++] = p[k];
        s->a = (s->a + p[k]) % 65521u;
        s->b = (s->b + s->a) % 65521u;
    }
}
#endif

int png_write_indexed(FILE *o, uint32_t w, uint32_t h, const uint8_t *rgb, int n, const uint8_t *pix)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const uint8_t filter = 0;
    uint8_t ihdr[13];
    idat *d;
    int rc = 0;

    if (w == 0 || h == 0 || w > 0x7fffffffu || h > 0x7fffffffu || n < 1 || n > PNG_MAX_COLOURS) {
        msg("PNG: bad image (%ux%u, %d colours)", (unsigned)w, (unsigned)h, n);
        return -1;
    }
    d = malloc(sizeof *d);
    if (!d) {
        msg("PNG: out of memory");
        return -1;
    }
    d->o = o;
    d->n = 0;
    fwrite(sig, 1, sizeof sig, o);
    put32(ihdr, w);
    put32(ihdr + 4, h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 3;  /* colour type: palette indices */
    ihdr[10] = 0; /* compression: deflate */
    ihdr[11] = 0; /* filter method 0 */
    ihdr[12] = 0; /* no interlace */
    chunk(o, "IHDR", ihdr, sizeof ihdr);
    chunk(o, "PLTE", rgb, (uint32_t)n * 3);
#ifdef GALE_HAVE_ZLIB
    {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit(&z, 9) != Z_OK) {
            msg("PNG: zlib: deflateInit failed");
            free(d);
            return -1;
        }
        /* each row: its filter byte, then its pixels; Z_FINISH after the last */
        for (uint32_t r = 0; r < h && rc == 0; r++) {
            for (int part = 0; part < 2 && rc == 0; part++) {
                const int end = part == 1 && r + 1 == h;
                z.next_in = (Bytef *)(part ? pix + (size_t)r * w : &filter);
                z.avail_in = part ? w : 1;
                for (;;) {
                    int zr;
                    z.next_out = d->buf + d->n;
                    z.avail_out = IDAT_MAX - d->n;
                    zr = deflate(&z, end ? Z_FINISH : Z_NO_FLUSH);
                    d->n = IDAT_MAX - z.avail_out;
                    /* (Z_BUF_ERROR: no progress this call, not fatal) */
                    if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
                        msg("PNG: zlib: deflate failed (%d)", zr);
                        rc = -1;
                        break;
                    }
                    if (d->n == IDAT_MAX) {
                        idat_flush(d);
                        continue;
                    }
                    if (end ? zr == Z_STREAM_END : z.avail_in == 0) break;
                }
            }
        }
        deflateEnd(&z);
    }
#else
    {
        static const uint8_t zhead[2] = {0x78, 0x01}; /* deflate, 32K window, no dictionary */
        uint8_t adler[4];
        stored *s = malloc(sizeof *s);
        if (!s) {
            msg("PNG: out of memory");
            free(d);
            return -1;
        }
        s->d = d;
        s->a = 1;
        s->b = 0;
        s->n = 0;
        idat_put(d, zhead, 2);
        for (uint32_t r = 0; r < h; r++) {
            stored_put(s, &filter, 1);
            stored_put(s, pix + (size_t)r * w, w);
        }
        stored_block(s, 1);
        put32(adler, s->b << 16 | s->a);
        idat_put(d, adler, 4);
        free(s);
    }
#endif
    if (rc == 0) {
        idat_flush(d);
        chunk(o, "IEND", NULL, 0);
    }
    free(d);
    return rc;
}
