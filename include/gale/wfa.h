/*
 * gale/wfa.h - wavefront alignment: GALE_WFA, GALE_EDIT, GALE_INDEL, GALE_WFA_LINEAR.
 *
 * Part of gale's public C API: gale.h includes it at its end, so a program includes
 * gale.h alone. It may also be included by itself (#include <gale/wfa.h>): it
 * includes gale.h, whose opening comment (struct sizes, life of a batch, errors,
 * thread safety) holds here too. Plain C99; compiles as C and as C++.
 *
 * The kinds' own parameter ids (115, 116, the 400s), WFA2-lib's heuristics, the scope
 * and the result notes (score, coordinates, CIGAR). The penalties 110..114 and
 * GALE_P_N_POLICY are gale.h's, shared with other kinds.
 */
#ifndef GALE_H_WFA
#define GALE_H_WFA

#ifndef GALE_H
#include "../gale.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 110s, the WFA kinds' own (110..114, which the Z-drop kinds share, are gale.h's). */
/* Match score of GALE_WFA and GALE_WFA_LINEAR (since 0.6), as WFA2-lib's `match`:
 * 0 (default) or negative, -m being the bonus of a match; [-4096, 0]. With m < 0
 * WFA2-lib aligns with Eizenga's penalties 2x - 2m, 2o, 2e - m (2o2, 2e2 - m;
 * gap-linear: 2i - m; at most 16384: the memory below grows with them), and the
 * score is WFA2-lib's: (-m (len(pattern) + len(text)) - P) / 2, rounded towards
 * zero, P the least transformed penalty (see "Wavefront alignment" below). */
#define GALE_P_PENALTY_MATCH      115
/* GALE_WFA_LINEAR's gap penalty per base (WFA2-lib's `indel`; since 0.6); default 2;
 * [1, 4096]. Its mismatch is GALE_P_PENALTY_MISMATCH. */
#define GALE_P_PENALTY_INDEL      116

/* 400s: wavefront alignment (GALE_WFA, GALE_EDIT, GALE_INDEL, GALE_WFA_LINEAR) */
#define GALE_P_SCOPE   400 /* GALE_SCOPE_*; default GALE_SCOPE_ALIGNMENT */
/* Ends-free span: leading/trailing bases of the pattern (v) or text (h) that may
 * stay unaligned at no cost. All 0 (default) = end-to-end (global). Each is
 * clamped per task to the sequence's length. [0, 2^31-1] */
#define GALE_P_PATTERN_BEGIN_FREE 401
#define GALE_P_PATTERN_END_FREE   402
#define GALE_P_TEXT_BEGIN_FREE    403
#define GALE_P_TEXT_END_FREE      404
/* Memory limit of the backtrace of one alignment, in MiB. Default 256;
 * [1, 2^20]. With GALE_SCOPE_ALIGNMENT a full-memory alignment keeps one byte
 * of backtrace code per wavefront cell (the result's cells); one whose codes
 * would exceed the limit is recomputed by the CPU in low-memory (BiWFA) mode
 * and flagged GALE_RF_LOWMEM (same score; the CIGAR may differ in ties). The
 * codes never exceed the limit. The limit covers the codes only; the rest of
 * an alignment's memory, for lengths m and n and penalty s, with
 * R = max(x, o+e, o2+e2) + 1 and C = 3 (edit: R = 2, C = 1;
 * two-piece: C = 5):
 *   wavefronts: at most R*C + 2 arrays of 4-byte offsets, each at most
 *     m + n + 18 long (about 1.5 times the widest diagonal range, at most
 *     2 s / min(e, e2) + 1 plus the begin-free lengths, when that is less);
 *   low-memory mode: instead of the codes, 2 ((R + max(o, o2) + 2) C + 1) + 1
 *     such arrays, m + n bytes, and at most min(limit, 8 MiB) of codes; more
 *     only with extreme penalties: a base case whose score is at most about 2 M,
 *     M = R - 1 + max(o, o2), runs in full memory whatever its codes, at most
 *     (2M + 1) (4M / min(e, e2) + 3) bytes (under 1 KB at the default penalties,
 *     0.5 GB at x = o = 4096, e = 1);
 *   GALE_SCOPE_SCORE: the wavefronts only (the limit does not apply);
 *   and 16 bytes per score, the sequences (m + n + 32 bytes), 8 bytes per
 *   backtrace operation and the CIGAR (4 bytes per op).
 * A CPU worker keeps these buffers for its next alignment, except codes or
 * wavefronts of more than 64 MiB, which it frees after the alignment. The GPU
 * sizes each alignment's memory from its lengths and GALE_P_EXPECTED_ERROR and
 * rescues on the CPU what outgrows it.
 * Example: a 1 Mbp pair at the default penalties and limit: codes <= 256 MiB,
 * wavefronts <= 232 MB (low-memory mode: <= 840 MB), bounds reached only when
 * the wavefronts span all 2,000,001 diagonals. At 0.4% divergence (s = 28,170):
 * 201 MB in full memory, 12 MB in low-memory mode, 6.5 MB for the score only.
 * This comment is the one statement of the WFA memory model; README.md and
 * lib/wfa.h refer to it. */
#define GALE_P_MEMORY_LIMIT 405
/* Expected divergence in per mille (default 100 = 10%; [1, 1000]). Sizes the
 * GPU's per-alignment memory; alignments that exceed it are rescued on the CPU.
 * Never changes a result. */
#define GALE_P_EXPECTED_ERROR 406
/* GALE_P_GPU_BACKTRACE (0.2) chose the GPU's backtrace layout. Deprecated since 0.3
 * and without effect: GALE_GPU_BT_CODES and GALE_GPU_BT_PIGGYBACK are still
 * accepted (other values give GALE_E_RANGE) and read back, and every backend keeps
 * one code byte per wavefront cell. It never changed a result. WFA-GPU's piggybacked
 * layout measured 2.9-11x slower than the codes on an H100; its code and figures are
 * in bench/experiments/ and bench/RESULTS.md. */
#define GALE_P_GPU_BACKTRACE 407 /* deprecated since 0.3: see above */
/* WFA2-lib 2.3.3's heuristics (since 0.7), its wf_heuristic_strategy and parameters, for
 * GALE_WFA, GALE_EDIT, GALE_INDEL and GALE_WFA_LINEAR. GALE_P_WFA_HEURISTIC is a set of
 * GALE_WFA_H_* bits, WFA2-lib's own values, combined as WFA2-lib combines them: at most
 * one of WFADAPTIVE / WFMASH (WFADAPTIVE wins), one of XDROP / ZDROP (XDROP wins), one of
 * BANDED_STATIC / BANDED_ADAPTIVE (STATIC wins), applied in that order. The default is
 * GALE_WFA_H_NONE: gale stays exact unless asked. WFA2-lib's own default
 * (wavefront_aligner_attr_default) is GALE_WFA_H_WFADAPTIVE with 10, 50, 1: to get the
 * results of a WFA2-lib aligner built with its defaults, set GALE_P_WFA_HEURISTIC to
 * GALE_WFA_H_WFADAPTIVE. XDROP and ZDROP are refused on GALE_EDIT and GALE_INDEL (as
 * WFA2-lib refuses them: their upper bound is 0x47 there); any bit not below gives
 * GALE_E_RANGE.
 * Semantics, exactly WFA2-lib 2.3.3's (wavefront/wavefront_heuristic.c): after score s is
 * extended and has not reached the end, M's diagonal range at s (trimmed to its first and
 * last non-null cells) is cut; the gap components at s are cut to the same range. All
 * strategies but banded-static run only every steps_between_cutoffs scores (one counter,
 * counted on scores where M is not empty). With WF-adaptive, M is cut when it is at least
 * min_wavefront_length wide: from each end, diagonals whose distance to the end
 * (max of the pattern and text left; wfmash: each scaled by the mean length over its own
 * length, as WFA2-lib's floats) exceeds the least distance by more than
 * max_distance_threshold, keeping the diagonal n - m. X-drop and Z-drop compare the
 * Smith-Waterman score of a cell ((v + h) - s with match 0; (-m (v + h) - s) / 2 with a
 * match score m < 0) with the best seen at earlier cut-offs: X-drop cuts, from each end,
 * cells more than xdrop below it (WFA2-lib's strict "< xdrop" keeps), Z-drop drops the
 * whole wavefront when the best of this score lies more than zdrop + e * |gap| below
 * it (e: the gap extension, 1 for gap-linear). Banded-static keeps [band_min_k,
 * band_max_k]; banded-adaptive keeps band_max_k - band_min_k + 1 diagonals placed by
 * WFA2-lib's four samples. In heuristic mode the cells also follow WFA2-lib's kernel to
 * the letter (an M cell whose best candidate runs past a sequence is dropped), so that
 * the cut-offs see WFA2-lib's ranges. An alignment whose every path was cut ends without
 * a result, flagged GALE_RF_UNFEASIBLE (WFA2-lib's WF_STATUS_UNFEASIBLE; with edit and
 * indel WFA2-lib 2.3.3 never stops there, gale does). With a heuristic the score is
 * WFA2-lib's and need not be optimal; the CIGAR is an alignment of that score, breaking
 * ties as gale does without heuristics (not always as WFA2-lib), and since a pruned path
 * may take two gaps of one kind back to back, which a CIGAR shows as one gap, it may
 * rescore above the score. WFA2-lib's exact prune of edit end-to-end wavefronts of 1,000
 * diagonals or more (wavefront_compute_edit_exact_prune), which moves the ranges its
 * heuristics then see, is reproduced under a heuristic (since 0.7). There is no low-memory mode under a heuristic (WFA2-lib's heuristics run
 * unidirectionally): GALE_P_MEMORY_LIMIT does not apply. The CUDA backend computes
 * heuristic batches on the GPU with the CPU backend's results, bit for bit; a task past
 * its score budget is rescued on the CPU (GALE_RF_RESCUED). */
#define GALE_P_WFA_HEURISTIC          408 /* GALE_WFA_H_* bits; default GALE_WFA_H_NONE; [0, 0x77] (edit, indel: 0x47) */
#define GALE_P_WFA_MIN_WAVEFRONT_LENGTH 409 /* WF-adaptive, wfmash; default 10; [0, 2^30] */
#define GALE_P_WFA_MAX_DISTANCE_THRESHOLD 410 /* WF-adaptive, wfmash; default 50; [0, 2^30] */
#define GALE_P_WFA_STEPS_BETWEEN_CUTOFFS 411 /* all but banded-static; default 1; [0, 2^30] */
#define GALE_P_WFA_XDROP              412 /* default 100; [0, 2^30] */
#define GALE_P_WFA_ZDROP              413 /* default 100; [0, 2^30] */
#define GALE_P_WFA_BAND_MIN_K         414 /* banded; default -100; [-2^30, 2^30] */
#define GALE_P_WFA_BAND_MAX_K         415 /* banded; default 100; [-2^30, 2^30] */

#define GALE_WFA_H_NONE            0x00
#define GALE_WFA_H_BANDED_STATIC   0x01
#define GALE_WFA_H_BANDED_ADAPTIVE 0x02
#define GALE_WFA_H_WFADAPTIVE      0x04
#define GALE_WFA_H_XDROP           0x10
#define GALE_WFA_H_ZDROP           0x20
#define GALE_WFA_H_WFMASH          0x40

#define GALE_SCOPE_SCORE     0 /* score and end coordinates only; no CIGAR */
#define GALE_SCOPE_ALIGNMENT 1 /* score, coordinates and CIGAR */

#define GALE_GPU_BT_CODES     0
#define GALE_GPU_BT_PIGGYBACK 1

/* Wavefront alignment (GALE_WFA, GALE_EDIT, GALE_INDEL, GALE_WFA_LINEAR)
 *
 * score: as WFA2-lib 2.3.3 reports it (cigar->score) with heuristics off (or, since 0.7,
 * with the same heuristic, GALE_P_WFA_HEURISTIC): the
 * distance for GALE_EDIT and GALE_INDEL (0 or positive); minus the penalty for
 * GALE_WFA and GALE_WFA_LINEAR with match score 0 (0 or negative); with a match
 * score m < 0 (since 0.6), WFA2-lib's translation of its transformed penalty P
 * (GALE_P_PENALTY_MATCH): (-m (len(pattern) + len(text)) - P) / 2, rounded towards
 * zero, with the whole lengths also when ends are free (so a free end's bases
 * count as half matches there, as in WFA2-lib; a free begin costs -m per base in P
 * and nets out).
 * Free end gaps of an ends-free span are not counted.
 * v_begin, v_end / h_begin, h_end: the aligned part of the pattern / text (end
 * exclusive). End-to-end: the whole sequences. Ends-free: the unaligned ends
 * are outside it. With GALE_SCOPE_SCORE and a free begin, the begins are -1.
 * score_left, score_right: 0. cells: wavefront cells computed.
 *
 * CIGAR (GALE_SCOPE_ALIGNMENT): BAM-style (GALE_INDEL: no 'X'), each op (len << 4) | code with
 * htslib's codes: GALE_CIGAR_EQUAL '=', GALE_CIGAR_DIFF 'X', GALE_CIGAR_INS
 * 'I' (consumes the pattern only), GALE_CIGAR_DEL 'D' (consumes the text only) -
 * the SAM convention, where the pattern is the read. It covers exactly the aligned part above.
 * Among optimal alignments gale picks one by a fixed rule (documented in
 * README.md, "Wavefront alignment"): the GPU and CPU backends give the same.
 * gale_result_cigar (gale.h) gives it. */

#ifdef __cplusplus
}
#endif

#endif /* GALE_H_WFA */
