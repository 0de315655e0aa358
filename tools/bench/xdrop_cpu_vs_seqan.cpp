// xdrop_cpu_vs_seqan - gale's CPU backend against SeqAn 2.4 on a gen.py / LOGAN-demo file.
//
//   xdrop_cpu_vs_seqan FILE [--n 10000] [--x 10,100,1000,5000] [--k 17] [--threads N]
//
// On the first N pairs of FILE (strand 'n' lines; 'c' lines are reverse-complemented as in
// xdrop_bench), per X: SeqAn 2.4 on one thread (the per-direction calls of the oracle test,
// tests/oracle/seqan_xdrop_ref.hpp, Score<int, Simple> +1/-1/-1, which is sound there), then
// gale's CPU backend with 1 worker thread and with all threads (--threads, default one per
// core). Every result must be identical to SeqAn's (scores and extended seeds). Prints the
// times and DP cells per second (cells as counted by gale; SeqAn computes the same cells).
// SeqAn's input is converted to Dna5String before its clock starts; gale's time runs from
// the first gale_batch_add (which copies and encodes the input) to the end of gale_wait.
#include "seqan_xdrop_ref.hpp"

#include <algorithm>
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

using namespace galeref;

namespace {

struct Pair {
    std::string h, v;
    long long h_pos = 0, v_pos = 0;
};

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void usage() {
    fprintf(stderr, "usage: xdrop_cpu_vs_seqan FILE [--n 10000] [--x 10,100,1000,5000] [--k 17] [--threads N]\n");
    exit(2);
}

void check(gale_status s, const char *what) {
    if (s != GALE_OK) {
        fprintf(stderr, "xdrop_cpu_vs_seqan: %s: %s (%s)\n", what, gale_status_string(s), gale_last_error());
        exit(1);
    }
}


std::vector<Pair> load(const char *path, size_t n, int k) {
    std::ifstream in(path);
    if (!in) {
        fprintf(stderr, "xdrop_cpu_vs_seqan: cannot open %s\n", path);
        exit(2);
    }
    std::vector<Pair> ps;
    std::string line;
    while (ps.size() < n && std::getline(in, line)) {
        if (line.empty()) continue;
        std::vector<std::string> f;
        size_t a = 0;
        for (;;) {
            size_t t = line.find('\t', a);
            f.push_back(line.substr(a, t == std::string::npos ? std::string::npos : t - a));
            if (t == std::string::npos) break;
            a = t + 1;
        }
        if (f.size() < 4) {
            fprintf(stderr, "xdrop_cpu_vs_seqan: line %zu: expected seqV posV seqH posH strand\n", ps.size() + 1);
            exit(2);
        }
        Pair p;
        p.v = f[0], p.v_pos = atoll(f[1].c_str()), p.h = f[2], p.h_pos = atoll(f[3].c_str());
        if (f.size() >= 5 && !f[4].empty() && f[4][0] == 'c') {
            p.h = galeref::revcomp(p.h);
            p.h_pos = (long long)p.h.size() - p.h_pos - k;
        }
        ps.push_back(std::move(p));
    }
    return ps;
}

struct GaleRun {
    double seconds = 0;
    uint64_t cells = 0;
    std::vector<gale_result> res;
};

GaleRun run_gale(int threads, const std::vector<Pair> &ps, int k, long long X) {
    gale_ctx *ctx = nullptr;
    check(tu_ctx_new(&ctx, GALE_BACKEND_CPU, threads), "gale_ctx_create");
    gale_batch *b = nullptr;
    check(gale_batch_create(ctx, GALE_XDROP, &b), "gale_batch_create");
    check(gale_batch_set(b, GALE_P_MATCH, 1), "set match");
    check(gale_batch_set(b, GALE_P_MISMATCH, -1), "set mismatch");
    check(gale_batch_set(b, GALE_P_GAP, -1), "set gap");
    check(gale_batch_set(b, GALE_P_XDROP, X), "set X");
    check(gale_batch_set(b, GALE_P_DIRECTION, GALE_DIR_BOTH), "set direction");
    GaleRun run;
    double t0 = now_s();
    for (size_t i = 0; i < ps.size(); ++i) {
        gale_task t;
        gale_task_init(&t);
        t.h = ps[i].h.data(), t.h_len = (int64_t)ps[i].h.size();
        t.v = ps[i].v.data(), t.v_len = (int64_t)ps[i].v.size();
        t.h_begin = ps[i].h_pos, t.h_end = ps[i].h_pos + k;
        t.v_begin = ps[i].v_pos, t.v_end = ps[i].v_pos + k;
        t.user = i;
        check(gale_batch_add(b, &t), "gale_batch_add");
    }
    check(gale_submit(b), "gale_submit");
    check(gale_wait(b), "gale_wait");
    run.seconds = now_s() - t0;
    gale_stats st;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    check(gale_batch_stats(b, &st), "gale_batch_stats");
    run.cells = st.cells;
    run.res.resize(ps.size());
    for (size_t i = 0; i < ps.size(); ++i) {
        run.res[i].size = sizeof(gale_result);
        check(gale_result_get(b, i, &run.res[i]), "gale_result_get");
    }
    gale_batch_destroy(b);
    gale_ctx_destroy(ctx);
    return run;
}

}  // namespace

int main(int argc, char **argv) {
    const char *file = nullptr;
    size_t n = 10000;
    int k = 17, threads = 0;
    std::string xarg = "10,100,1000,5000";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--n" && val) n = strtoull(val, nullptr, 10), ++i;
        else if (a == "--x" && val) xarg = val, ++i;
        else if (a == "--k" && val) k = atoi(val), ++i;
        else if (a == "--threads" && val) threads = atoi(val), ++i;
        else if (a[0] == '-') usage();
        else if (!file) file = argv[i];
        else usage();
    }
    if (!file) usage();
    std::vector<long long> xs;
    for (size_t a = 0; a < xarg.size();) {
        size_t c = xarg.find(',', a);
        xs.push_back(atoll(xarg.substr(a, c == std::string::npos ? std::string::npos : c - a).c_str()));
        if (c == std::string::npos) break;
        a = c + 1;
    }

    std::vector<Pair> ps = load(file, n, k);
    std::vector<seqan::Dna5String> H(ps.size()), V(ps.size());
    for (size_t i = 0; i < ps.size(); ++i) H[i] = ps[i].h.c_str(), V[i] = ps[i].v.c_str();
    int all = 0;
    {
        gale_ctx *ctx = nullptr;
        check(tu_ctx_new(&ctx, GALE_BACKEND_CPU, threads), "gale_ctx_create");
        gale_ctx_threads(ctx, &all);
        gale_ctx_destroy(ctx);
    }
    printf("file %s: first %zu pairs, k %d, scoring +1/-1/-1, extension both; SeqAn 1 thread, gale CPU 1 and %d "
           "threads\n",
           file, ps.size(), k, all);

    int bad = 0;
    struct Row { long long x; uint64_t cells; double seqan, g1, gn; };
    std::vector<Row> rows;
    for (long long X : xs) {
        SimpleScore<int> sc = simple_score<int>(1, -1, -1);
        long long longest = 0;
        for (const Pair &p : ps) longest = std::max<long long>(longest, (long long)std::max(p.h.size(), p.v.size()));
        if (!int_sound(1, -1, -1, X, longest, longest)) {
            fprintf(stderr, "xdrop_cpu_vs_seqan: X=%lld too large for SeqAn<int>\n", X);
            return 2;
        }
        std::vector<RefResult> ref(ps.size());
        double t0 = now_s();
        for (size_t i = 0; i < ps.size(); ++i)
            ref[i] = extend(H[i], V[i], ps[i].h_pos, ps[i].h_pos + k, ps[i].v_pos, ps[i].v_pos + k, DIR_BOTH, sc, (int)X);
        double t_seqan = now_s() - t0;
        GaleRun g1 = run_gale(1, ps, k, X);
        GaleRun gn = run_gale(threads, ps, k, X);
        long long diff = 0;
        for (size_t i = 0; i < ps.size(); ++i) {
            const RefResult &e = ref[i];
            for (const GaleRun *g : {&g1, &gn}) {
                const gale_result &r = g->res[i];
                if (r.score_left != e.score_left || r.score_right != e.score_right ||
                    r.score != e.score_left + e.score_right + k || r.h_begin != e.h_begin || r.h_end != e.h_end ||
                    r.v_begin != e.v_begin || r.v_end != e.v_end) {
                    if (++diff <= 5)
                        fprintf(stderr,
                                "X=%lld pair %zu: SeqAn left %lld right %lld h [%lld,%lld) v [%lld,%lld); gale left %d "
                                "right %d h [%" PRId64 ",%" PRId64 ") v [%" PRId64 ",%" PRId64 ")\n",
                                X, i, e.score_left, e.score_right, e.h_begin, e.h_end, e.v_begin, e.v_end,
                                r.score_left, r.score_right, r.h_begin, r.h_end, r.v_begin, r.v_end);
                }
            }
        }
        if (g1.cells != gn.cells) ++diff;
        bad |= diff != 0;
        const double c = (double)g1.cells;
        printf("X=%lld: cells %" PRIu64 "; SeqAn %.3f s (%.1f Mcells/s); gale 1 thread %.3f s (%.1f Mcells/s, %.2fx "
               "SeqAn); gale %d threads %.3f s (%.1f Mcells/s, %.2fx SeqAn); results %s\n",
               X, g1.cells, t_seqan, c / t_seqan / 1e6, g1.seconds, c / g1.seconds / 1e6, t_seqan / g1.seconds, all,
               gn.seconds, c / gn.seconds / 1e6, t_seqan / gn.seconds,
               diff ? "DIFFER" : "identical");
        rows.push_back({X, g1.cells, t_seqan, g1.seconds, gn.seconds});
    }
    printf("\n| X | pairs | cells | SeqAn 1 thread s | gale CPU 1 thread s | gale CPU %d threads s | time gale 1T / SeqAn | "
           "Mcells/s SeqAn | Mcells/s gale 1T | Mcells/s gale %dT |\n",
           all, all);
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row &r : rows)
        printf("| %lld | %zu | %" PRIu64 " | %.3f | %.3f | %.3f | %.2f | %.1f | %.1f | %.1f |\n", r.x, ps.size(),
               r.cells, r.seqan, r.g1, r.gn, r.g1 / r.seqan, r.cells / r.seqan / 1e6, r.cells / r.g1 / 1e6,
               r.cells / r.gn / 1e6);
    if (bad) fprintf(stderr, "xdrop_cpu_vs_seqan: gale and SeqAn DIFFER\n");
    return bad;
}
