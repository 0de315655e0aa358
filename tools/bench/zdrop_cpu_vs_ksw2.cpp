// zdrop_cpu_vs_ksw2 - gale's CPU backend (the Z-drop kinds) against minimap2 2.24's ksw2
// (Debian's libminimap2-dev) per core, on a gen_pairs.py pair of FASTA files.
//
//   zdrop_cpu_vs_ksw2 Q.fa T.fa [--n N] [--threads T] [--flag HEX] [--w W] [--zdrop Z]
//                     [--extd2]
//
// Record i of Q.fa is the query, of T.fa the target (single-line records). Scoring as the
// issue's benchmark: minimap2's 2, 4, 4/2 (--extd2: 4,24 / 2,1), Z-drop 400, band 751,
// flags EXTZ_ONLY (0x40) unless --flag. ksw2 runs on one thread (ksw_extz2_sse or
// ksw_extd2_sse, its input encoded before its clock starts); then gale's CPU backend with
// 1 worker thread and with T (default: one per core); its time runs from the first
// gale_batch_add (which copies and encodes the input) to the end of gale_wait. Every
// result (max, max_q, max_t, mqe, mte, score, zdropped, reach_end, the CIGAR) must equal
// ksw2's. Prints alignments per second and the ratio per core.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

extern "C" {
#include <ksw2.h>
}

#include "gale.h"

namespace {

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<std::string> read_fasta(const char *path, size_t n) {
    std::ifstream f(path);
    std::vector<std::string> out;
    std::string line;
    while (out.size() < n && std::getline(f, line)) {
        if (line.empty() || line[0] == '>') continue;
        out.push_back(line);
    }
    return out;
}

uint8_t code(char c) {
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': return 3;
    default: return 4;
    }
}

void die(const char *what, gale_status st) {
    std::fprintf(stderr, "zdrop_cpu_vs_ksw2: %s: %s (%s)\n", what, gale_status_string(st), gale_last_error());
    std::exit(1);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: zdrop_cpu_vs_ksw2 Q.fa T.fa [--n N] [--threads T] [--flag HEX] [--w W] [--zdrop Z] [--extd2]\n");
        return 2;
    }
    size_t n = 2000;
    int threads = 0, flag = 0x40, w = 751, zdrop = 400;
    bool extd2 = false;
    for (int i = 3; i < argc; ++i) {
        const std::string o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : "0";
        if (o == "--n") n = (size_t)std::atol(v), ++i;
        else if (o == "--threads") threads = std::atoi(v), ++i;
        else if (o == "--flag") flag = (int)std::strtol(v, nullptr, 16), ++i;
        else if (o == "--w") w = std::atoi(v), ++i;
        else if (o == "--zdrop") zdrop = std::atoi(v), ++i;
        else if (o == "--extd2") extd2 = true;
    }
    const std::vector<std::string> Q = read_fasta(argv[1], n), T = read_fasta(argv[2], n);
    n = std::min(Q.size(), T.size());
    const int q = 4, e = 2, q2 = extd2 ? 24 : 4, e2 = extd2 ? 1 : 2;
    int8_t mat[25];
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) mat[i * 5 + j] = (int8_t)(i == 4 || j == 4 ? -1 : i == j ? 2 : -4);

    // ksw2, one thread
    std::vector<std::vector<uint8_t>> qs(n), ts(n);
    for (size_t i = 0; i < n; ++i) {
        for (char c : Q[i]) qs[i].push_back(code(c));
        for (char c : T[i]) ts[i].push_back(code(c));
    }
    std::vector<ksw_extz_t> ez(n);
    double t0 = now_s();
    for (size_t i = 0; i < n; ++i) {
        std::memset(&ez[i], 0, sizeof ez[i]);
        if (extd2)
            ksw_extd2_sse(nullptr, (int)qs[i].size(), qs[i].data(), (int)ts[i].size(), ts[i].data(), 5, mat, q, e, q2, e2,
                          w, zdrop, -1, flag, &ez[i]);
        else
            ksw_extz2_sse(nullptr, (int)qs[i].size(), qs[i].data(), (int)ts[i].size(), ts[i].data(), 5, mat, q, e, w,
                          zdrop, -1, flag, &ez[i]);
    }
    const double ksw2_s = now_s() - t0;
    std::printf("ksw2 %s, 1 thread: %zu alignments in %.3f s: %.1f aln/s\n", extd2 ? "ksw_extd2_sse" : "ksw_extz2_sse", n,
                ksw2_s, n / ksw2_s);

    for (int th : {1, threads}) {
        gale_ctx *ctx = nullptr;
        gale_ctx_opts o;
        gale_ctx_opts_init(&o);
        o.backend = GALE_BACKEND_CPU;
        o.threads = th;
        gale_status st = gale_ctx_create(&ctx, &o);
        if (st) die("gale_ctx_create", st);
        int got = 0;
        gale_ctx_threads(ctx, &got);
        gale_batch *b = nullptr;
        if ((st = gale_batch_create(ctx, extd2 ? GALE_ZDROP_EXTD2 : GALE_ZDROP_EXTZ2, &b))) die("gale_batch_create", st);
        const int64_t set[][2] = {{GALE_P_MATCH, 2}, {GALE_P_PENALTY_MISMATCH, 4}, {GALE_P_PENALTY_N, 1},
                                  {GALE_P_PENALTY_GAP_OPEN, q}, {GALE_P_PENALTY_GAP_EXTEND, e},
                                  {GALE_P_BAND, w}, {GALE_P_ZDROP, zdrop}, {GALE_P_END_BONUS, -1},
                                  {GALE_P_ZDROP_FLAGS, flag}};
        for (auto &kv : set)
            if ((st = gale_batch_set(b, (int)kv[0], kv[1]))) die("gale_batch_set", st);
        if (extd2) {
            gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN2, q2);
            gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND2, e2);
        }
        t0 = now_s();
        for (size_t i = 0; i < n; ++i) {
            gale_task t;
            gale_task_init(&t);
            t.v = Q[i].data(), t.v_len = (int64_t)Q[i].size(), t.h = T[i].data(), t.h_len = (int64_t)T[i].size();
            if ((st = gale_batch_add(b, &t))) die("gale_batch_add", st);
        }
        if ((st = gale_submit(b)) || (st = gale_wait(b))) die("gale_wait", st);
        const double s = now_s() - t0;
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i) {
            gale_zdrop_result z;
            std::memset(&z, 0, sizeof z);
            z.size = sizeof z;
            const uint32_t *c = nullptr;
            size_t nc = 0;
            gale_result_zdrop(b, i, &z);
            gale_result_cigar(b, i, &c, &nc);
            bad += !(z.max == (int)ez[i].max && z.max_q == ez[i].max_q && z.max_t == ez[i].max_t && z.mqe == ez[i].mqe &&
                     z.mte == ez[i].mte && z.score == ez[i].score && z.zdropped == (int)ez[i].zdropped &&
                     z.reach_end == ez[i].reach_end && (int)nc == ez[i].n_cigar &&
                     (nc == 0 || std::memcmp(c, ez[i].cigar, nc * 4) == 0));
        }
        std::printf("gale CPU, %d thread%s: %.3f s: %.1f aln/s (%.2f x ksw2's time per core)%s\n", got, got == 1 ? "" : "s",
                    s, n / s, s * got / ksw2_s, bad ? "  RESULTS DIFFER" : ", every result equal to ksw2's");
        gale_batch_destroy(b);
        gale_ctx_destroy(ctx);
        if (bad) return 1;
    }
    for (auto &x : ez) std::free(x.cigar);
    return 0;
}
