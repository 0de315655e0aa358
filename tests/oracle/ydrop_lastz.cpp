// Driver of the LASTZ gapped-extension oracle (tests/oracle/ydrop_lastz.sh): runs gale's CPU
// kernel (lib/cpu/ydrop.cpp) on what `lastz TARGET QUERY --segments=FILE [options]` reads and
// writes what `lastz ... --format=general-:score,name1,strand1,size1,zstart1,end1,name2,
// strand2,size2,zstart2,end2,cigar,hspid` writes, so that the script compares the two byte for byte.
//
// usage: ydrop_lastz TARGET.fa QUERY.fa SEGMENTS [--ydrop=N] [--gappedthresh=N] [--gap=O,E]
//        [--noytrim] [--allgappedbounds] [--allocate:traceback=BYTES] [--notrivial]
// One record per FASTA file (the oracle's pairs); the segments file in LASTZ's format
// (+ strand lines first, as lastz --format=segments writes them).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ydrop.h"

namespace {

bool read_fasta(const char *path, std::string &name, std::string &seq) {
    std::ifstream f(path);
    if (!f) return false;
    std::string line;
    while (std::getline(f, line)) {
        if (!line.empty() && line[0] == '>') {
            std::istringstream h(line.substr(1));
            h >> name;
            continue;
        }
        for (char c : line)
            if (c != '\r' && c != ' ' && c != '\t') seq.push_back(c);
    }
    return true;
}

std::string revcomp(const std::string &s) {
    std::string r(s.rbegin(), s.rend());
    for (char &c : r) {
        switch (c) {
        case 'A': c = 'T'; break;
        case 'C': c = 'G'; break;
        case 'G': c = 'C'; break;
        case 'T': c = 'A'; break;
        case 'a': c = 't'; break;
        case 'c': c = 'g'; break;
        case 'g': c = 'c'; break;
        case 't': c = 'a'; break;
        default: break;
        }
    }
    return r;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: ydrop_lastz TARGET.fa QUERY.fa SEGMENTS [options]\n");
        return 2;
    }
    std::string tname, t, qname, q;
    if (!read_fasta(argv[1], tname, t) || !read_fasta(argv[2], qname, q)) {
        std::fprintf(stderr, "ydrop_lastz: cannot read %s or %s\n", argv[1], argv[2]);
        return 2;
    }
    gale::YdropParams prm;
    int32_t gap_open = gale::kHoxd70Open, gap_extend = gale::kHoxd70Extend;
    bool have_ydrop = false, stats = false;
    for (int k = 4; k < argc; ++k) {
        const char *a = argv[k];
        if (!std::strncmp(a, "--ydrop=", 8)) { prm.ydrop = std::atoi(a + 8); have_ydrop = true; }
        else if (!std::strncmp(a, "--gappedthresh=", 15)) prm.gapped_thresh = std::atoi(a + 15);
        else if (!std::strncmp(a, "--gap=", 6)) std::sscanf(a + 6, "%d,%d", &gap_open, &gap_extend);
        else if (!std::strcmp(a, "--noytrim")) prm.trim_to_peak = false;
        else if (!std::strcmp(a, "--allgappedbounds")) prm.all_bounds = true;
        else if (!std::strcmp(a, "--notrivial")) prm.inhibit_trivial = true;
        else if (!std::strncmp(a, "--allocate:traceback=", 21)) prm.traceback_bytes = std::strtoull(a + 21, nullptr, 10);
        // gale's own: the parallel scheme's threads, the serial path, the phases' figures on stderr
        else if (!std::strncmp(a, "--gale-threads=", 15)) prm.threads = std::atoi(a + 15);
        else if (!std::strcmp(a, "--gale-serial")) prm.serial = true;
        else if (!std::strcmp(a, "--gale-stats")) stats = true;
        else { std::fprintf(stderr, "ydrop_lastz: unknown option %s\n", a); return 2; }
    }
    if (!have_ydrop) prm.ydrop = gap_open + 300 * gap_extend;  // LASTZ's default
    static gale::YdropScoring sc;
    gale::ydrop_scoring(sc, gale::kHoxd70, gale::kHoxd70X, gale::kHoxd70Fill, gap_open, gap_extend);

    std::vector<gale::YdropAnchor> plus, minus;
    std::ifstream sf(argv[3]);
    std::string line;
    uint32_t id = 0;
    while (std::getline(sf, line)) {
        const size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream ls(line);
        std::string n1, n2, strand;
        long s1, e1, s2, e2, score = 0;
        if (!(ls >> n1 >> s1 >> e1 >> n2 >> s2 >> e2 >> strand)) continue;
        ls >> score;
        // index: the line's number among the file's segments, from 0 (LASTZ's hspid - 1)
        gale::YdropAnchor a{(uint32_t)(s1 - 1), (uint32_t)(s2 - 1), (uint32_t)(e1 + 1 - s1), (int32_t)score,
                            (uint32_t)(unsigned char)strand[0], (uint32_t)id};
        (strand == "-" ? minus : plus).push_back(a);
        ++id;
    }
    gale::YdropWorkspace ws;
    const auto t0 = std::chrono::steady_clock::now();
    double total_s = 0;
    for (int strand = 0; strand < 2; ++strand) {
        const std::string qs = strand == 0 ? q : revcomp(q);
        prm.same_strand = strand == 0;
        const auto out = gale::ydrop_gapped_extend((const uint8_t *)t.data(), (uint32_t)t.size(),
                                                   (const uint8_t *)qs.data(), (uint32_t)qs.size(),
                                                   strand == 0 ? plus : minus, sc, prm, ws);
        total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (const auto &a : out) {
            std::string cigar;
            for (uint32_t e : a.script) {
                const uint32_t op = e & 3, n = e >> 2;
                if (n == 0) continue;
                cigar += std::to_string(n) + (op == gale::kYdropSub ? "M" : op == gale::kYdropIns ? "I" : "D");
            }
            std::printf("%d\t%s\t+\t%zu\t%u\t%u\t%s\t%c\t%zu\t%u\t%u\t%s\t%llu\n", a.score, tname.c_str(), t.size(),
                        a.beg1 - 1, a.end1, qname.c_str(), strand == 0 ? '+' : '-', q.size(), a.beg2 - 1, a.end2,
                        cigar.c_str(), a.anchor == UINT32_MAX ? 0ull : (unsigned long long)a.anchor + 1);
        }
    }
    if (stats) {
        const auto &st = ws.stats;
        std::fprintf(stderr,
                     "ydrop_lastz: %s, %d threads: %.3f s in all; phase 1 %.3f s (%llu one-sided extensions), phase 2 "
                     "%.3f s (%llu walked, %llu redone, %.2f%%, %llu of them left out of phase 1; %llu anchors skipped; %llu "
                     "serial reruns)\n",
                     prm.serial ? "serial" : "two-phase", prm.threads, total_s, st.phase1_s,
                     (unsigned long long)st.sides_phase1, st.phase2_s, (unsigned long long)st.sides_walked,
                     (unsigned long long)st.sides_redone,
                     st.sides_walked ? 100.0 * (double)st.sides_redone / (double)st.sides_walked : 0.0,
                     (unsigned long long)st.sides_absent,
                     (unsigned long long)st.anchors_skipped, (unsigned long long)st.serial_reruns);
        std::fprintf(stderr, "ydrop_lastz: CPU time: phase 1 %.3f s, phase 2 %.3f s\n", st.phase1_cpu_s, st.phase2_cpu_s);
        std::fprintf(stderr, "ydrop_lastz: cells: phase 1 %llu (kept %llu, unused %llu; busiest thread %llu), redone in phase 2 %llu\n",
                     (unsigned long long)st.cells_phase1, (unsigned long long)st.cells_kept,
                     (unsigned long long)st.cells_unused, (unsigned long long)st.cells_phase1_busiest,
                     (unsigned long long)st.cells_redone);
    }
    if (ws.truncations) std::fprintf(stderr, "ydrop_lastz: %llu truncated extensions\n", (unsigned long long)ws.truncations);
    return 0;
}
