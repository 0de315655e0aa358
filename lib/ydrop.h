// LASTZ 1.04.22's gapped extension (Y-drop with traceback), as Debian's lastz computes
// it from anchors (`lastz T Q --segments=FILE`): the CPU kernel lib/cpu/ydrop.cpp, ydrop_run.h and ydrop_parallel.cpp.
// ../shared/ORACLES.md ("Y-drop") and doc/ydrop.md list the rules it reproduces and
// where; tests/oracle/ydrop_lastz.sh compares it with the Debian binary.
//
// Unlike the per-task kinds, one call covers one target, one query strand and all of
// that strand's anchors: LASTZ's result depends on the order in which the anchors are
// extended (an anchor on an earlier alignment's path is skipped, an extension may not
// cross an earlier alignment), so the unit of work is the anchor set.
//
// Positions are LASTZ's: 32-bit (its "sequence=31-bit" build), 0-based on the strand
// given (a minus-strand query is passed reverse-complemented, as LASTZ does).
#ifndef GALE_YDROP_H
#define GALE_YDROP_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gale {

namespace ydrop_run {
struct SideRec;  // lib/cpu/ydrop_run.h: what phase 1 computes for one half
}
struct YdropScoring;
struct YdropParams;

// Phase 1 on a device (doc/ydrop.md, "Parallel extension"; cuda/ydrop.cu): one wave of
// anchors, both halves of each computed without bounds. Called from the walk's thread.
struct YdropDeviceWave {
    // the sequences as the walk holds them: a 0 byte before and after each (seq1[-1])
    const uint8_t *seq1, *seq2, *rev1, *rev2;
    uint32_t len1, len2;
    const YdropScoring *scoring;
    const YdropParams *params;
    const uint32_t *anchor1, *anchor2;  // n anchors (their peaks)
    size_t n;
    ydrop_run::SideRec **sides;         // 2n: each anchor's left half, then its right; the device
                                        // marks failed the ones it could not take (the walk
                                        // computes them)
    uint64_t kernel_ns = 0;             // out: time in kernels
    size_t capacity = 0;                // out: halves the device computes at once for this call
                                        // (its share, beside the calls running at once)
};
// Throws gale::Error on a device failure other than memory (memory: the wave's halves failed).
using YdropDevice = std::function<void(YdropDeviceWave &)>;

// LASTZ's score set: a substitution score for every pair of bytes (LASTZ scores the bytes
// it read: lowercase like uppercase, N and other letters by the fill score, X and x by
// the bad score, byte 0 (a separator) very badly), and the gap penalties (positive
// numbers; a gap of length L costs open + L * extend).
struct YdropScoring {
    int32_t sub[256][256];
    int32_t gap_open = 400, gap_extend = 30;
};

// HOXD70, LASTZ's default matrix (rows and columns A C G T), its X and fill scores and gaps.
extern const int32_t kHoxd70[4][4];
constexpr int32_t kHoxd70Open = 400, kHoxd70Extend = 30, kHoxd70X = -1000, kHoxd70Fill = -100;

// LASTZ's new_dna_score_set: the 4x4 template (A C G T) on both cases, bad for X/x, fill
// for every other byte but 0. With from_file, LASTZ's read_score_set for a file whose
// matrix is A C G T (GALE_LASTZ_SCORES_FILE): bad for upper-case X only, and byte 0 very
// bad against everything, X included.
void ydrop_scoring(YdropScoring &s, const int32_t tmpl[4][4], int32_t bad, int32_t fill, int32_t gap_open,
                   int32_t gap_extend, bool from_file = false);
// A whole score set as the caller built it (GALE_LASTZ_SCORES_TABLE: 256 x 256, row the
// target's byte), with row and column 0 (LASTZ's terminator) very bad whatever it holds.
void ydrop_scoring_table(YdropScoring &s, const int32_t *table, int32_t gap_open, int32_t gap_extend);

// --ambiguous (lastz.c, after the score set is built: ambiguate_iupac for iupac, then
// ambiguate_n; dna_utilities.c): the rows and columns the set has (A C G T, either case)
// against N and n, and with iupac against the IUPAC codes, score n_other; an ambiguous
// code against itself (either case) n_n. Other bytes (X, fill letters, 0) keep their scores.
void ydrop_ambiguate_n(YdropScoring &s, int32_t n_n, int32_t n_other);
void ydrop_ambiguate_iupac(YdropScoring &s, int32_t n_n, int32_t n_other);

// LASTZ's traceback memory: --allocate:traceback's default (80 MiB), of which the
// tback header takes 8 bytes and one cell is counted in (new_traceback).
constexpr uint64_t kYdropTracebackBytes = 80ull * 1024 * 1024;

struct YdropParams {
    int32_t ydrop = 9400;              // --ydrop (LASTZ's default: open + 300 * extend)
    int32_t gapped_thresh = 3000;      // --gappedthresh (a score)
    bool trim_to_peak = true;          // false: --noytrim
    bool all_bounds = false;           // --allgappedbounds
    // Traceback memory in bytes as --allocate:traceback gives it; 0 = unlimited (gale's
    // flag that lifts LASTZ's truncation of long extensions).
    uint64_t traceback_bytes = kYdropTracebackBytes;
    // The query strand is the target's (LASTZ's identical_sequences looks for a trivial
    // self-alignment only then) and --notrivial (drop that self-alignment from the output).
    bool same_strand = true;
    bool inhibit_trivial = false;
    // Phase 1 of the parallel scheme (doc/ydrop.md, "Parallel extension"): every anchor's two
    // one-sided extensions computed independently on this many threads (0 or 1: the calling
    // thread alone), then LASTZ's serial walk keeps those it can prove equal to what the walk
    // would compute and redoes the others. serial: LASTZ's walk alone (the reference path;
    // the environment variable GALE_LASTZ_SERIAL=1 selects it too, for the tests).
    int threads = 1;
    bool serial = false;
    // Phase 1 on a GPU instead of the threads (lib/api.cpp sets it on a CUDA context), in
    // waves in LASTZ's order: the first of 8 anchors, each next one twice as large, at most
    // device_wave anchors and what the device holds at once.
    YdropDevice device;
    size_t device_wave = 256;
};

// An anchor as LASTZ reads it from --segments: an ungapped segment (pos1 on the target,
// pos2 on the query strand, length), its score and its index in the file (the id that
// breaks the last sorting ties).
struct YdropAnchor {
    uint32_t pos1, pos2, length;
    int32_t score;
    uint32_t id;
    uint32_t index;  // in the caller's array (what YdropAlignment::anchor reports)
};

// Edit operations as LASTZ's edit scripts: (op | rpt << 2), op 1 = insertion (the query
// has extra bases), 2 = deletion (the target has extra bases), 3 = substitution.
constexpr uint32_t kYdropIns = 1, kYdropDel = 2, kYdropSub = 3;

struct YdropAlignment {
    uint32_t beg1, end1, beg2, end2;   // 1-based, inclusive (LASTZ's alignel)
    int32_t score;
    std::vector<uint32_t> script;      // run-length operations, target start to end
    uint32_t anchor = UINT32_MAX;      // the anchor's index (YdropAnchor::index); none: the trivial one
};

// What a run keeps between calls, as LASTZ keeps it for a whole run (its traceback cells are
// never cleared between extensions, so reads of cells an extension did not write see what an
// earlier one left).
struct YdropWorkspace {
    std::vector<uint8_t> tb;
    std::vector<uint32_t> tb_row;
    uint64_t truncations = 0;          // extensions cut where the traceback memory ran out
    // What the two-phase path did (summed over calls; the serial path leaves them as they are):
    // one-sided extensions computed in phase 1, those of anchors the walk reached, those it
    // had to compute itself (their region met an earlier alignment's bounds, or phase 1 left
    // them out: sides_absent, its guess that the walk skips them was wrong), anchors skipped (on an
    // earlier path), calls rerun serially (an extension read a traceback cell it had not
    // written, which depends on the extensions before it), and the time of each phase.
    struct Stats {
        uint64_t sides_phase1 = 0, sides_walked = 0, sides_redone = 0, sides_absent = 0, anchors_skipped = 0;
        uint64_t serial_reruns = 0;
        // DP cells: swept in phase 1; of those, the ones the walk kept and the ones it did not use
        // (redone, or of an anchor it skipped; what phase 1 still had at the end is neither);
        // swept by the walk's redone halves.
        uint64_t cells_phase1 = 0, cells_kept = 0, cells_unused = 0, cells_redone = 0;
        uint64_t cells_phase1_busiest = 0;  // the most one phase-1 thread swept, summed over calls (the span)
        double phase1_s = 0, phase2_s = 0;  // wall time
        double phase1_cpu_s = 0, phase2_cpu_s = 0;  // the process's CPU time (all threads)
        uint64_t device_waves = 0, sides_device = 0, sides_device_failed = 0;  // phase 1 on a GPU
        double phase1_kernel_s = 0;
    } stats;
};

// LASTZ's gapped_extend for one target and one query strand (seq1 = target, seq2 = query,
// the bytes as LASTZ holds them). anchors are taken by value: they are reduced to points
// and sorted as LASTZ does. Returns the alignments in LASTZ's reporting order.
std::vector<YdropAlignment> ydrop_gapped_extend(const uint8_t *target, uint32_t target_len, const uint8_t *query,
                                                uint32_t query_len, std::vector<YdropAnchor> anchors,
                                                const YdropScoring &scoring, const YdropParams &params,
                                                YdropWorkspace &ws);

// score_alignment: the score of an edit script from (pos1, pos2), 0-based.
int32_t ydrop_score_script(const YdropScoring &scoring, const uint8_t *seq1, uint32_t pos1, const uint8_t *seq2,
                           uint32_t pos2, const std::vector<uint32_t> &script);

}  // namespace gale

#endif
