/*
 * gale/graph.h - sequence-to-graph alignment (gale_poa_graph_*).
 *
 * Part of gale's public C API: gale.h includes it at its end, so a program includes
 * gale.h alone. It may also be included by itself (#include <gale/graph.h>): it
 * includes gale.h, whose opening comment (struct sizes, life of a batch, errors,
 * thread safety) holds here too. Plain C99; compiles as C and as C++.
 *
 * Reads aligned to a fixed graph (a gale_graph, gale.h) with GALE_POA's engine
 * (gale/poa.h).
 */
#ifndef GALE_H_GRAPH
#define GALE_H_GRAPH

#ifndef GALE_H
#include "../gale.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Sequence-to-graph alignment (since 0.7)                              */
/* ------------------------------------------------------------------ */
/* Reads aligned one by one to a fixed graph with SPOA 4.0.8's recurrences and
 * tie-breaks (AlignmentEngine::Align against a graph that does not grow; the
 * GALE_POA kind's engine, doc/poa.md). Computed on the calling thread, CPU.
 *
 * gale_poa_graph_create: the graph is a gale_graph (nodes with their bytes, '!'..'~'
 * as GALE_POA takes them, each at least 1 byte; directed edges from the last byte of
 * `from` to the first byte of `to`). Each node's bytes become a chain of SPOA nodes, in
 * node order, then the edges in their order, then SPOA's TopologicalSort (without
 * aligned-node rings, which a graph given this way has none of). A cycle is refused
 * with GALE_E_INPUT naming the edge that closes it (found depth-first from node 0,
 * edges in order); *bad_edge (may be NULL) is then set to its index, else to SIZE_MAX.
 * The handle may be used by one thread at a time.
 *
 * gale_poa_graph_align: algorithm GALE_POA_LOCAL / GLOBAL / SEMI_GLOBAL and scores
 * (m, n, g, e, q, c) as GALE_POA's parameters (gale/poa.h; same bounds and defaults: 5 -4 -8 -6
 * -10 -4, the gap model inferred as SPOA does). Fills *out (size set by the caller);
 * its pointers belong to the handle, valid until the next align or the free. */
typedef struct gale_poa_graph gale_poa_graph;

typedef struct gale_poa_graph_alignment {
    size_t size;             /* sizeof(gale_poa_graph_alignment): set by the caller, kept by gale */
    int32_t score;           /* SPOA's score (0 where SPOA reports none: empty read, nothing aligned) */
    uint32_t n_path;         /* nodes on the path (0: nothing aligned) */
    const uint32_t *path;    /* gale_graph node indices, in path order */
    int64_t path_len;        /* bytes of the path's nodes */
    int64_t path_start;      /* aligned part of the path: [path_start, path_end) */
    int64_t path_end;
    int64_t query_start;     /* aligned part of the read: [query_start, query_end) */
    int64_t query_end;
    int64_t matches;         /* = columns */
    int64_t block_len;       /* columns of the alignment (=, X, I and D) */
    uint32_t n_ops;
    uint32_t reserved0;
    const uint32_t *cigar;   /* GALE_CIGAR_EQUAL, DIFF, INS (read only), DEL (path only) */
    uint64_t cells;          /* DP cells computed */
} gale_poa_graph_alignment;

GALE_API gale_status gale_poa_graph_create(const gale_graph *graph, gale_poa_graph **out, size_t *bad_edge);
GALE_API gale_status gale_poa_graph_align(gale_poa_graph *graph, int algorithm, int m, int n, int g, int e, int q,
                                          int c, const char *read, int64_t len, gale_poa_graph_alignment *out);
/* NULL: no-op. */
GALE_API void gale_poa_graph_free(gale_poa_graph *graph);

#ifdef __cplusplus
}
#endif

#endif /* GALE_H_GRAPH */
