// wfa_cpu_vs_wfa2 - gale's CPU wavefront alignment against WFA2-lib 2.3.3, per core.
//
//   wfa_cpu_vs_wfa2 FILE [--n N] [--x 2 --o 3 --e 1] [--edit] [--score-only] [--threads T]
//
// FILE is a WFA .seq file (">pattern" / "<text" lines; gen.py seq). On the first N
// pairs (default all): WFA2-lib on one thread (gap-affine x/o/e, or edit with
// --edit; end-to-end; heuristics off; high-memory mode; compute_alignment, or
// compute_score with --score-only), then gale's CPU backend with one worker thread
// and with T threads (default: one per core). Every gale score must equal WFA2's.
// Prints times, alignments per second and the ratio gale / WFA2 per core.
// gale's time runs from the first gale_batch_add (which copies and encodes the
// input) to the end of gale_wait; WFA2's covers its wavefront_align calls.
#include "wfa2_attr.hpp"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gale.h"
#include "testgale.h"

namespace {

struct Pair {
    std::string pattern, text;
};

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void usage() {
    fprintf(stderr, "usage: wfa_cpu_vs_wfa2 FILE [--n N] [--x X --o O --e E] [--edit] [--score-only] [--threads T]\n");
    exit(2);
}

#define OK(call)                                                                                   \
    do {                                                                                           \
        gale_status st_ = (call);                                                                  \
        if (st_ != GALE_OK) {                                                                      \
            fprintf(stderr, "%s: %s (%s)\n", #call, gale_status_string(st_), gale_last_error());   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// gale on `threads` workers; returns seconds and fills scores.
double run_gale(const std::vector<Pair> &pairs, bool edit, int x, int o, int e, bool score_only, int threads,
                std::vector<int64_t> &scores, uint64_t &cells) {
    gale_ctx *ctx = nullptr;
    OK(tu_ctx_new(&ctx, GALE_BACKEND_CPU, threads));
    gale_batch *b = nullptr;
    OK(gale_batch_create(ctx, edit ? GALE_EDIT : GALE_WFA, &b));
    if (!edit) {
        OK(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, x));
        OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN, o));
        OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, e));
    }
    OK(gale_batch_set(b, GALE_P_SCOPE, score_only ? GALE_SCOPE_SCORE : GALE_SCOPE_ALIGNMENT));
    const double t0 = now_s();
    for (const Pair &p : pairs) {
        gale_task t;
        tu_task_seqs(&t, p.text.data(), (int64_t)p.text.size(), p.pattern.data(), (int64_t)p.pattern.size());
        OK(gale_batch_add(b, &t));
    }
    OK(gale_submit(b));
    OK(gale_wait(b));
    const double t1 = now_s();
    scores.resize(pairs.size());
    cells = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        gale_result r;
        r.size = sizeof r;
        OK(gale_result_get(b, i, &r));
        scores[i] = r.score;
        cells += r.cells;
    }
    OK(gale_batch_destroy(b));
    OK(gale_ctx_destroy(ctx));
    return t1 - t0;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) usage();
    const char *path = argv[1];
    long n_max = -1;
    int x = 2, o = 3, e = 1, threads = 0;
    bool edit = false, score_only = false;
    for (int i = 2; i < argc; ++i) {
        auto val = [&]() -> const char * {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (!strcmp(argv[i], "--n")) n_max = atol(val());
        else if (!strcmp(argv[i], "--x")) x = atoi(val());
        else if (!strcmp(argv[i], "--o")) o = atoi(val());
        else if (!strcmp(argv[i], "--e")) e = atoi(val());
        else if (!strcmp(argv[i], "--threads")) threads = atoi(val());
        else if (!strcmp(argv[i], "--edit")) edit = true;
        else if (!strcmp(argv[i], "--score-only")) score_only = true;
        else usage();
    }
    std::ifstream in(path);
    if (!in) {
        fprintf(stderr, "cannot open %s\n", path);
        return 2;
    }
    std::vector<Pair> pairs;
    std::string a, b;
    while (std::getline(in, a) && std::getline(in, b) && (n_max < 0 || (long)pairs.size() < n_max)) {
        if (a.empty() || b.empty() || a[0] != '>' || b[0] != '<') {
            fprintf(stderr, "%s: not a .seq file (line pair %zu)\n", path, pairs.size() + 1);
            return 2;
        }
        pairs.push_back(Pair{a.substr(1), b.substr(1)});
    }
    printf("%zu pairs from %s; %s, %s\n", pairs.size(), path,
           edit ? "edit" : ("gap-affine x=" + std::to_string(x) + " o=" + std::to_string(o) + " e=" +
                            std::to_string(e)).c_str(),
           score_only ? "score only" : "with CIGAR");

    // WFA2-lib, one thread.
    wavefront_aligner_attr_t at = wfa2_attr(edit, false, x, o, e);
    at.alignment_scope = score_only ? compute_score : compute_alignment;
    at.alignment_form.span = alignment_end2end;
    at.memory_mode = wavefront_memory_high;
    wavefront_aligner_t *wf = wavefront_aligner_new(&at);
    std::vector<int64_t> ref(pairs.size());
    double t0 = now_s();
    for (size_t i = 0; i < pairs.size(); ++i) {
        wavefront_align(wf, pairs[i].pattern.data(), (int)pairs[i].pattern.size(), pairs[i].text.data(),
                        (int)pairs[i].text.size());
        ref[i] = wf->cigar->score;
    }
    const double t_wfa2 = now_s() - t0;
    wavefront_aligner_delete(wf);
    printf("WFA2-lib 1 thread : %8.3f s  %12.0f aln/s\n", t_wfa2, pairs.size() / t_wfa2);

    int bad = 0;
    uint64_t cells = 0;
    std::vector<int64_t> scores;
    const double t1 = run_gale(pairs, edit, x, o, e, score_only, 1, scores, cells);
    for (size_t i = 0; i < pairs.size(); ++i) bad += scores[i] != ref[i];
    printf("gale CPU 1 thread : %8.3f s  %12.0f aln/s  %.3f Gcells/s  time ratio gale/WFA2 %.2f\n", t1,
           pairs.size() / t1, cells / t1 * 1e-9, t1 / t_wfa2);
    const double tn = run_gale(pairs, edit, x, o, e, score_only, threads, scores, cells);
    for (size_t i = 0; i < pairs.size(); ++i) bad += scores[i] != ref[i];
    printf("gale CPU %d threads: %8.3f s  %12.0f aln/s\n", threads, tn, pairs.size() / tn);
    if (bad) {
        printf("%d scores differ from WFA2-lib\n", bad);
        return 1;
    }
    printf("all scores equal WFA2-lib's\n");
    return 0;
}
