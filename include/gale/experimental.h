/*
 * gale/experimental.h - test and measuring hooks, outside the stable API.
 *
 * Part of gale's public C API: gale.h includes it at its end, outside its own include
 * guard, so that a second #include <gale.h> with GALE_EXPERIMENTAL_API defined still
 * brings it in. It may also be included by itself (it then includes gale.h first).
 * Its guard, GALE_H_EXPERIMENTAL, is set only once the section has been read with
 * GALE_EXPERIMENTAL_API defined. Macros only: no extern "C" block is needed.
 */
/* Seen only with GALE_EXPERIMENTAL_API defined before including gale.h or this header
 * (as zstd's ZSTD_STATIC_LINKING_ONLY). Ids 10000 and up may change or go in any
 * release; they never change a result, only how the GPU computes it (for benchmarks
 * and tests). */
#ifndef GALE_H
#include "../gale.h" /* which includes this file at its end */
#elif defined(GALE_EXPERIMENTAL_API) && !defined(GALE_H_EXPERIMENTAL)
#define GALE_H_EXPERIMENTAL /* its own guard, as zstd's: gale.h may have been included before without it */
/* GALE_WFA / GALE_EDIT: force the CUDA kernel's group shape (0 = the dispatcher's
 * choice, the default): threads per group, 32, 128 or 256; resident groups per SM, 1..64. */
#define GALE_PX_WFA_GROUP_THREADS 10000
#define GALE_PX_WFA_UNITS_PER_SM  10001
#endif /* GALE_EXPERIMENTAL_API && !GALE_H_EXPERIMENTAL */
