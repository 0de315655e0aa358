/*
 * gale CLI: a small PNG encoder (gale compare's dot plots).
 */
#ifndef GALE_CLI_PNG_H
#define GALE_CLI_PNG_H

#include <stdint.h>
#include <stdio.h>

/* The most colours a palette holds. */
#define PNG_MAX_COLOURS 256

/* Writes a w x h image of 8-bit palette indices (pix: h rows of w bytes, top row first)
 * to o as a PNG: IHDR (colour type 3, bit depth 8, no interlace), PLTE (rgb: n colours,
 * 3 bytes each, 1 <= n <= PNG_MAX_COLOURS, every index in pix below n), one or more IDAT
 * (a zlib stream of the rows, each with filter type 0), IEND. The zlib stream is zlib's
 * deflate at level 9 where the CLI is built with zlib (GALE_HAVE_ZLIB), else stored
 * blocks; the bytes depend on nothing but the arguments (and zlib's version). 0, or -1
 * after a message (out of memory, a zlib error). Write errors are left to the caller
 * (ferror on o; out_close reports them). */
int png_write_indexed(FILE *o, uint32_t w, uint32_t h, const uint8_t *rgb, int n, const uint8_t *pix);

#endif
