// gale_bella.hpp - LOGAN's host API (the one BELLA calls), computed by gale.
//
// Code written against LOGAN (logan.cuh / logan_functions.cuh with seed.cuh and
// score.cuh) compiles against this header unchanged: the same SeedL,
// ScoringSchemeL, ExtensionDirectionL and loganResult types, the same getters
// and setters, and
//
//   void extendSeedL(std::vector<SeedL> &seeds, ExtensionDirectionL direction,
//                    std::vector<std::string> &target, std::vector<std::string> &query,
//                    std::vector<ScoringSchemeL> &penalties, int const &XDrop,
//                    int const &kmer_length, int *res, int numAlignments,
//                    int ngpus, int n_threads);
//
// with LOGAN's arguments and meaning: for i < numAlignments, gapped X-drop
// extension of seeds[i] between target[i] (H, SeqAn's database) and query[i]
// (V); res[i] = left score + right score + kmer_length; seeds[i] updated in
// place (begin from the left extension, end from the right one). n_threads
// may be left out (older LOGAN, as BELLA calls it, has no such argument).
// What is computed exactly, where (GPUs or CPU) and how LOGAN's limits are
// lifted: gale_bella.h. In short: SeqAn 2.4 semantics with Dna5 letters,
// every scheme honoured per pair (penalties: 1 scheme for all pairs, or at
// least numAlignments), 32-bit scores, seeds at sequence ends handled, any
// number of pairs, up to ngpus GPUs (CPU when ngpus == 0 or none is usable,
// with n_threads worker threads, 0 = one per core).
//
// Differences a LOGAN caller may notice:
//   - target, query and penalties are taken by const reference (LOGAN: non-const
//     references, which it does not modify): every LOGAN call compiles unchanged,
//     only a function pointer spelled with LOGAN's exact type would not match;
//   - errors throw std::runtime_error (message from gale) instead of printing
//     and exiting; on error res and seeds are left untouched;
//   - ScoringSchemeL must have gap_open == gap_extend (linear gaps; LOGAN
//     silently uses the extension score);
//   - the direction is honoured (LOGAN always extends both ways);
//     EXTEND_NONEL is refused;
//   - SeedL's diagonal fields are left as they were (LOGAN's kernel widens
//     lowerDiagonal/upperDiagonal; BELLA does not read them); nothing is
//     printed.
//
// Linking: only `pkg-config --cflags --libs gale`. The header finds the plugin
// through libgale (gale_plugin_open("bella"): GALE_PLUGIN_PATH, then the
// installed plugin directory) on first use, keeps it loaded for the life of the
// process, and calls its function table; the alignments run in the plugin.
//
// Needs C++11. Everything LOGAN declares at global scope is declared at
// global scope here too (a LOGAN caller expects that); gale's own helpers are
// in namespace gale_bella.
#ifndef GALE_BELLA_HPP
#define GALE_BELLA_HPP

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gale.h"
#include "gale_bella.h"
#include "gale_plugin.h"

enum ExtensionDirectionL {
    EXTEND_NONEL = 0,
    EXTEND_LEFTL = 1,
    EXTEND_RIGHTL = 2,
    EXTEND_BOTHL = 3
};

// LOGAN's seed: [beginPositionH, endPositionH) on the target, [beginPositionV,
// endPositionV) on the query. Same members and constructors as LOGAN's.
struct SeedL {
    int beginPositionH;
    int beginPositionV;
    int endPositionH;
    int endPositionV;
    int seedLength;
    int lowerDiagonal;
    int upperDiagonal;
    int beginDiagonal;
    int endDiagonal;
    int score;

    SeedL()
        : beginPositionH(0), beginPositionV(0), endPositionH(0), endPositionV(0), seedLength(0), lowerDiagonal(0),
          upperDiagonal(0), beginDiagonal(0), endDiagonal(0), score(0) {}

    SeedL(int beginH, int beginV, int length)
        : beginPositionH(beginH), beginPositionV(beginV), endPositionH(beginH + length),
          endPositionV(beginV + length), seedLength(length), lowerDiagonal(beginH - beginV),
          upperDiagonal(beginH - beginV), beginDiagonal(beginH - beginV), endDiagonal(beginH - beginV), score(0) {}

    SeedL(int beginH, int beginV, int endH, int endV)
        : beginPositionH(beginH), beginPositionV(beginV), endPositionH(endH), endPositionV(endV),
          seedLength(endH - beginH),
          lowerDiagonal(beginH - beginV < endH - endV ? beginH - beginV : endH - endV),
          upperDiagonal(beginH - beginV < endH - endV ? endH - endV : beginH - beginV),
          beginDiagonal(beginH - beginV), endDiagonal(endH - endV), score(0) {}
};

inline int getAlignScore(SeedL const &s) { return s.score; }
inline int getBeginPositionH(SeedL const &s) { return s.beginPositionH; }
inline int getBeginPositionV(SeedL const &s) { return s.beginPositionV; }
inline int getEndPositionH(SeedL const &s) { return s.endPositionH; }
inline int getEndPositionV(SeedL const &s) { return s.endPositionV; }
inline int getSeedLLength(SeedL const &s) { return s.seedLength; }
inline int getLowerDiagonal(SeedL const &s) { return s.lowerDiagonal; }
inline int getUpperDiagonal(SeedL const &s) { return s.upperDiagonal; }
inline int getBeginDiagonal(SeedL const &s) { return s.beginDiagonal; }
inline int getEndDiagonal(SeedL const &s) { return s.endDiagonal; }
inline void setAlignScore(SeedL &s, int const value) { s.score = value; }
inline void setBeginPositionH(SeedL &s, int const value) { s.beginPositionH = value; }
inline void setBeginPositionV(SeedL &s, int const value) { s.beginPositionV = value; }
inline void setEndPositionH(SeedL &s, int const value) { s.endPositionH = value; }
inline void setEndPositionV(SeedL &s, int const value) { s.endPositionV = value; }
inline void setSeedLLength(SeedL &s, int const value) { s.seedLength = value; }
inline void setLowerDiagonal(SeedL &s, int const value) { s.lowerDiagonal = value; }
inline void setUpperDiagonal(SeedL &s, int const value) { s.upperDiagonal = value; }
inline void setBeginDiagonal(SeedL &s, int const value) { s.beginDiagonal = value; }
inline void setEndDiagonal(SeedL &s, int const value) { s.endDiagonal = value; }

// LOGAN's scoring scheme. gale's X-drop has linear gaps: gap_open must equal
// gap_extend when it is used.
struct ScoringSchemeL {
    int match_score;
    int mismatch_score;
    int gap_extend_score;
    int gap_open_score;

    ScoringSchemeL() : match_score(1), mismatch_score(-1), gap_extend_score(-1), gap_open_score(-1) {}
    ScoringSchemeL(int match, int mismatch, int gap)
        : match_score(match), mismatch_score(mismatch), gap_extend_score(gap), gap_open_score(gap) {}
    ScoringSchemeL(int match, int mismatch, int gap_extend, int gap_open)
        : match_score(match), mismatch_score(mismatch), gap_extend_score(gap_extend), gap_open_score(gap_open) {}
};

inline int scoreMatch(ScoringSchemeL const &me) { return me.match_score; }
inline void setScoreMatch(ScoringSchemeL &me, int const &value) { me.match_score = value; }
inline int scoreMismatch(ScoringSchemeL const &me) { return me.mismatch_score; }
inline void setScoreMismatch(ScoringSchemeL &me, int const &value) { me.mismatch_score = value; }
inline int scoreGapExtend(ScoringSchemeL const &me) { return me.gap_extend_score; }
inline void setScoreGapExtend(ScoringSchemeL &me, int const &value) { me.gap_extend_score = value; }
inline int scoreGapOpen(ScoringSchemeL const &me) { return me.gap_open_score; }
inline void setScoreGapOpen(ScoringSchemeL &me, int const &value) { me.gap_open_score = value; }
inline int scoreGap(ScoringSchemeL const &me) { return me.gap_extend_score; }
inline void setScoreGap(ScoringSchemeL &me, int const &value) {
    me.gap_extend_score = value;
    me.gap_open_score = value;
}
// LOGAN's byte comparison (kept for source compatibility; the extension itself
// reads letters as Dna5, see gale_bella.h).
inline int score(ScoringSchemeL const &me, char valH, char valV) {
    return valH == valV ? scoreMatch(me) : scoreMismatch(me);
}

// LOGAN's result record (logan.cuh): BELLA keeps one per pair, fills score
// from res[i] and seed from the updated seeds, and reads strand ("n" or "c")
// when it prints an overlap. Not used by extendSeedL itself.
struct loganResult {
    int score;
    std::string strand;
    SeedL seed;
};

namespace gale_bella {

// The plugin's function table, loaded on first use and kept for the life of the
// process (a failed load throws and is retried on the next call).
inline const gale_bella_api &api() {
    struct Loader {
        const gale_bella_api *table;
        Loader() : table(nullptr) {
            gale_plugin *p = nullptr;
            if (gale_plugin_open("bella", &p) != GALE_OK)
                throw std::runtime_error(std::string("gale: cannot load the bella plugin: ") + gale_last_error());
            const gale_plugin_info *info = nullptr;
            if (gale_plugin_get_info(p, &info) != GALE_OK) {
                std::string msg = gale_last_error();
                gale_plugin_close(p);
                throw std::runtime_error("gale: bella plugin: " + msg);
            }
            const gale_bella_api *t = static_cast<const gale_bella_api *>(info->api);
            if (t->size < sizeof(gale_bella_api) || !t->extend || !t->last_error) {
                gale_plugin_close(p);
                throw std::runtime_error("gale: the bella plugin found is older than this gale_bella.hpp");
            }
            table = t;  // p stays open: the table lives in the module
        }
    };
    static const Loader loader;
    return *loader.table;
}

}  // namespace gale_bella

inline void extendSeedL(std::vector<SeedL> &seeds, ExtensionDirectionL direction,
                        std::vector<std::string> const &target, std::vector<std::string> const &query,
                        std::vector<ScoringSchemeL> const &penalties, int const &XDrop, int const &kmer_length,
                        int *res, int numAlignments, int ngpus, int n_threads = 0) {
    if (numAlignments < 0) throw std::runtime_error("gale extendSeedL: numAlignments is negative");
    const std::size_t n = (std::size_t)numAlignments;
    if (n == 0) return;
    if (seeds.size() < n || target.size() < n || query.size() < n)
        throw std::runtime_error("gale extendSeedL: fewer seeds, targets or queries than numAlignments");
    if (!res) throw std::runtime_error("gale extendSeedL: res is NULL");
    if (penalties.empty() || (penalties.size() != 1 && penalties.size() < n))
        throw std::runtime_error(
            "gale extendSeedL: give 1 scoring scheme (for all pairs) or one per alignment in penalties");
    std::vector<gale_bella_scoring> sc(penalties.size() == 1 ? 1 : n);
    for (std::size_t i = 0; i < sc.size(); ++i) {
        const ScoringSchemeL &p = penalties[i];
        if (p.gap_open_score != p.gap_extend_score)
            throw std::runtime_error("gale extendSeedL: scoring scheme " + std::to_string(i) +
                                     " has gap_open != gap_extend; gale's X-drop has linear gaps");
        sc[i].match = p.match_score;
        sc[i].mismatch = p.mismatch_score;
        sc[i].gap = p.gap_extend_score;
    }
    std::vector<const char *> t(n), q(n);
    std::vector<int64_t> tl(n), ql(n);
    std::vector<gale_bella_seed> s(n);
    for (std::size_t i = 0; i < n; ++i) {
        t[i] = target[i].data();
        tl[i] = (int64_t)target[i].size();
        q[i] = query[i].data();
        ql[i] = (int64_t)query[i].size();
        s[i].begin_h = seeds[i].beginPositionH;
        s[i].begin_v = seeds[i].beginPositionV;
        s[i].end_h = seeds[i].endPositionH;
        s[i].end_v = seeds[i].endPositionV;
    }
    const gale_bella_api &a = gale_bella::api();
    static_assert(sizeof(int) == sizeof(int32_t), "res is passed as int32_t");
    gale_status st = a.extend(s.data(), (int)direction, t.data(), tl.data(), q.data(), ql.data(), sc.data(),
                              sc.size(), XDrop, kmer_length, reinterpret_cast<int32_t *>(res), n, ngpus, n_threads);
    if (st != GALE_OK)
        throw std::runtime_error(std::string("gale extendSeedL: ") + a.last_error() + " (" + gale_status_string(st) +
                                 ")");
    for (std::size_t i = 0; i < n; ++i) {
        seeds[i].beginPositionH = s[i].begin_h;
        seeds[i].beginPositionV = s[i].begin_v;
        seeds[i].endPositionH = s[i].end_h;
        seeds[i].endPositionV = s[i].end_v;
    }
}

#endif  // GALE_BELLA_HPP
