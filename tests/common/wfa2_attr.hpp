// wfa2_attr.hpp - WFA2-lib's aligner attributes for gale's penalties, shared by the
// programs that use WFA2-lib as the reference (tests/oracle/wfa_wfa2.cpp,
// tests/cli/wfa_ref.cpp, tools/bench/wfa_cpu_vs_wfa2.cpp).
//
// WFA2's headers need their own include directory (they include each other as
// "utils/commons.h"); the includer's build puts it on the path.
#ifndef GALE_WFA2_ATTR_HPP
#define GALE_WFA2_ATTR_HPP

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "utils/commons.h"
#include "wavefront/wavefront_align.h"
}

// WFA2's defaults with heuristics off and gale's metric: edit distance, gap-affine
// (x, o, e) or two-piece gap-affine (x, o, e, o2, e2), match 0. The caller sets the
// scope, span and memory mode.
inline wavefront_aligner_attr_t wfa2_attr(bool is_edit, bool two_piece, long long x, long long o, long long e,
                                          long long o2 = 0, long long e2 = 0) {
    wavefront_aligner_attr_t a = wavefront_aligner_attr_default;
    a.heuristic.strategy = wf_heuristic_none;
    if (is_edit) {
        a.distance_metric = edit;
    } else if (two_piece) {
        a.distance_metric = gap_affine_2p;
        a.affine2p_penalties.match = 0;
        a.affine2p_penalties.mismatch = (int)x;
        a.affine2p_penalties.gap_opening1 = (int)o;
        a.affine2p_penalties.gap_extension1 = (int)e;
        a.affine2p_penalties.gap_opening2 = (int)o2;
        a.affine2p_penalties.gap_extension2 = (int)e2;
    } else {
        a.distance_metric = gap_affine;
        a.affine_penalties.match = 0;
        a.affine_penalties.mismatch = (int)x;
        a.affine_penalties.gap_opening = (int)o;
        a.affine_penalties.gap_extension = (int)e;
    }
    return a;
}

// Pairs (pattern, text) from a file in WFA2-lib's .seq format ('>' pattern, '<' text lines),
// as tests/oracle/wfa_real_pairs.py writes them. Empty when the file cannot be read or holds
// an unpaired line (the caller fails then).
inline std::vector<std::pair<std::string, std::string>> read_seq_pairs(const char *path) {
    std::vector<std::pair<std::string, std::string>> out;
    FILE *f = std::fopen(path, "r");
    if (!f) return out;
    std::string line, pattern;
    bool have_pattern = false, bad = false;
    for (int c; (c = std::fgetc(f)) != EOF || !line.empty();) {
        if (c != EOF && c != '\n') {
            line.push_back((char)c);
            continue;
        }
        if (!line.empty() && line[0] == '>' && !have_pattern) {
            pattern = line.substr(1);
            have_pattern = true;
        } else if (!line.empty() && line[0] == '<' && have_pattern) {
            out.emplace_back(pattern, line.substr(1));
            have_pattern = false;
        } else if (!line.empty()) {
            bad = true;
        }
        line.clear();
        if (c == EOF) break;
    }
    std::fclose(f);
    if (bad || have_pattern) out.clear();
    return out;
}

#endif
