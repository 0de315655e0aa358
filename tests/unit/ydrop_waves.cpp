// ydrop_waves.cpp - phase 1 in waves (lib/cpu/ydrop_parallel.cpp, the path a GPU takes) on a
// stand-in device: a host function that computes each wave's halves with the CPU's phase 1
// (Run::side, as the threads do) and fails some of them, as cuda/ydrop.cu fails a half past
// its large slot: those that would pass a traceback cap (LASTZ's long extensions) and a few
// at random. The
// walk must then compute the failed halves itself, phase 1 must wait for it there (and
// leave the anchors it postponed before them to the walk, or the two would wait for each
// other), and the alignments must be LASTZ's serial walk's, every field, in order. A wait
// that never ends shows as the test's timeout.
//
// Cases (seed printed, GALE_TEST_SEED reproduces, GALE_TEST_SCALE scales): pairs of 1 - 10
// kbp whose query is built from blocks of the target (substitutions and small indels in
// each, junk between them, some blocks twice: repeats), anchors of 30 bases on the blocks'
// diagonals (many on one alignment, as lastz's are) and a few anywhere; HOXD70 or varied
// gaps, ydrop and traceback memories (truncation); waves of 1 - 64 anchors; caps from 2,000
// bytes (most halves fail) to none. No GPU.
#include "testutil.h"
#include "testgen.h"

#include "cpu/ydrop_run.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace gale;

namespace {

struct Block {
    uint32_t t, q, len;  // the target's [t, t + len) copied to the query at q (its start)
};

void random_bases(tu_rng *r, tu_buf *out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) tu_buf_push(out, tu_base(r));
}

bool same_alignments(const std::vector<YdropAlignment> &a, const std::vector<YdropAlignment> &b, const char *ctx) {
    bool ok = a.size() == b.size();
    size_t k = 0;
    for (; ok && k < a.size(); ++k)
        ok = a[k].beg1 == b[k].beg1 && a[k].end1 == b[k].end1 && a[k].beg2 == b[k].beg2 && a[k].end2 == b[k].end2 &&
             a[k].score == b[k].score && a[k].script == b[k].script && a[k].anchor == b[k].anchor;
    if (!ok)
        tu_fail_at(__FILE__, __LINE__, "%s: the waves' alignments differ from the serial walk's (%zu against %zu, "
                   "first difference at %zu)", ctx, b.size(), a.size(), k ? k - 1 : 0);
    else
        tu_count_check();
    return ok;
}

}  // namespace

int main() {
    tu_rng rng;
    tu_rng_init(&rng, tu_seed("ydrop_waves"));
    const long pairs = tu_scaled(40, 6);
    uint64_t failed_total = 0, paused = 0, sides_total = 0;

    for (long p = 0; p < pairs; ++p) {
        tu_rng *r = &rng;
        auto sc = std::make_unique<YdropScoring>();
        const bool hoxd = tu_chance(r, 0.6);
        const int32_t open = hoxd ? kHoxd70Open : (int32_t)tu_range(r, 200, 800);
        const int32_t ext = hoxd ? kHoxd70Extend : (int32_t)tu_range(r, 15, 60);
        ydrop_scoring(*sc, kHoxd70, kHoxd70X, kHoxd70Fill, open, ext);
        YdropParams prm;
        prm.ydrop = open + (int32_t)(tu_chance(r, 0.6) ? 300 : tu_range(r, 20, 300)) * ext;  // (rows of 300 gaps at most)
        prm.gapped_thresh = tu_chance(r, 0.7) ? 3000 : (int32_t)tu_range(r, 0, 6000);
        prm.trim_to_peak = !tu_chance(r, 0.2);
        prm.traceback_bytes = tu_chance(r, 0.2) ? (uint64_t)tu_logrange(r, 20000, 2000000) : kYdropTracebackBytes;
        prm.device_wave = (size_t)tu_logrange(r, 1, 64);
        const uint64_t cap = tu_chance(r, 0.2) ? UINT64_MAX : (uint64_t)tu_logrange(r, 2000, 400000);
        const double fail_rate = tu_chance(r, 0.5) ? 0.0 : tu_unif(r) * 0.2;

        // the pair: the query from blocks of the target, some twice, junk between them
        std::string t((size_t)tu_logrange(r, 1000, 10000), 'A');
        tu_bases(r, &t[0], (int64_t)t.size());
        tu_buf qb = {nullptr, 0, 0};
        std::vector<Block> blocks;
        const int nblocks = (int)tu_range(r, 1, 12);
        for (int b = 0; b < nblocks; ++b) {
            const uint32_t len = (uint32_t)tu_range(r, 100, (int64_t)std::min<size_t>(t.size(), 3000));
            const uint32_t at = (uint32_t)tu_below(r, t.size() - len + 1);
            random_bases(r, &qb, tu_range(r, 0, 300));
            blocks.push_back(Block{at, (uint32_t)qb.n, len});
            // substitutions, and rarely an indel of 1 - 3 bases
            const double rate = tu_unif(r) * 0.15;
            const tu_mut m = {rate, rate * 0.05, rate * 0.05, 1.0, 3};
            tu_mutate_with(r, &qb, t.data() + at, len, &m);
        }
        random_bases(r, &qb, tu_range(r, 1, 300));
        const std::string q(qb.p, (size_t)qb.n);
        free(qb.p);
        // anchors: 30 bases on a block's diagonal (its indels move the true one a little), a few anywhere
        std::vector<YdropAnchor> anchors;
        const int nanchors = (int)tu_range(r, 1, 150);
        for (int a = 0; a < nanchors; ++a) {
            YdropAnchor an{};
            const Block &b = blocks[(size_t)tu_below(r, blocks.size())];
            if (tu_chance(r, 0.9) && b.len > 40) {
                const uint32_t u = (uint32_t)tu_below(r, b.len - 30);
                an.pos1 = b.t + u;
                an.pos2 = std::min<uint32_t>(b.q + u, (uint32_t)q.size() - 30);
            } else {
                an.pos1 = (uint32_t)tu_below(r, t.size() - 30);
                an.pos2 = (uint32_t)tu_below(r, q.size() - 30);
            }
            an.length = 30;
            an.score = (int32_t)tu_range(r, 1000, 3000);
            an.id = an.index = (uint32_t)a;
            anchors.push_back(an);
        }

        // the stand-in device: the CPU's phase 1, the halves past the cap (and some at random) failed
        uint64_t failed = 0;
        tu_rng dev_rng;
        tu_rng_init(&dev_rng, tu_next(r));
        YdropWorkspace dev_ws;
        YdropParams dev = prm;
        dev.device = [&](YdropDeviceWave &w) {
            // a slot of cap traceback bytes: a half that would pass it stops there (truncated
            // at the cap) and fails, as the kernel stops at its slot's capacity
            YdropParams slot = *w.params;
            const bool capped = slot.traceback_bytes == 0 || slot.traceback_bytes > cap;
            if (capped) slot.traceback_bytes = cap;
            ydrop_run::Run run(*w.scoring, slot, dev_ws);
            ydrop_run::AlignIo io{};
            io.seq1 = w.seq1;
            io.seq2 = w.seq2;
            io.rev1 = w.rev1;
            io.rev2 = w.rev2;
            io.len1 = io.high1 = w.len1;
            io.len2 = io.high2 = w.len2;
            for (size_t k = 0; k < 2 * w.n; ++k) {
                ydrop_run::SideRec &sr = *w.sides[k];
                io.anchor1 = w.anchor1[k / 2];
                io.anchor2 = w.anchor2[k / 2];
                sr = ydrop_run::SideRec();
                bool fail = false;
                try {
                    sr.score = run.side(io, k % 2 == 0, sr.script, &sr.end1, &sr.end2, &sr);
                } catch (...) {  // (a row's tail past a tiny memory: the CPU's phase 1 fails it too)
                    fail = true;
                }
                if (fail || (capped && sr.truncated) || tu_chance(&dev_rng, fail_rate)) {
                    sr = ydrop_run::SideRec();
                    sr.failed = true;
                    failed++;
                }
            }
            w.capacity = 128;
        };
        char ctx[240];
        std::snprintf(ctx, sizeof ctx, "pair %ld (%zu x %zu, %zu anchors), gap %d,%d ydrop %d thresh %d trim %d tb %llu, "
                      "waves of %zu, cap %llu bytes, fail rate %.3f", p, t.size(), q.size(), anchors.size(), open, ext,
                      prm.ydrop, prm.gapped_thresh, prm.trim_to_peak, (unsigned long long)prm.traceback_bytes,
                      prm.device_wave, (unsigned long long)cap, fail_rate);
        YdropParams serial = prm;
        serial.serial = true;
        YdropWorkspace ws_serial, ws_waves;
        const std::vector<YdropAlignment> want =
            ydrop_gapped_extend((const uint8_t *)t.data(), (uint32_t)t.size(), (const uint8_t *)q.data(),
                                (uint32_t)q.size(), anchors, *sc, serial, ws_serial);
        const std::vector<YdropAlignment> got =
            ydrop_gapped_extend((const uint8_t *)t.data(), (uint32_t)t.size(), (const uint8_t *)q.data(),
                                (uint32_t)q.size(), anchors, *sc, dev, ws_waves);
        same_alignments(got, want, ctx);
        CHECK_MSG(ws_waves.truncations == ws_serial.truncations, "%s: %llu truncations against the walk's %llu", ctx,
                  (unsigned long long)ws_waves.truncations, (unsigned long long)ws_serial.truncations);
        CHECK_MSG(ws_waves.stats.sides_device_failed == failed, "%s: %llu halves counted failed, %llu failed", ctx,
                  (unsigned long long)ws_waves.stats.sides_device_failed, (unsigned long long)failed);
        failed_total += failed;
        sides_total += ws_waves.stats.sides_device;
        if (failed && ws_waves.stats.serial_reruns == 0) paused++;
    }
    printf("%ld pairs: %llu halves on the stand-in device, %llu of them failed; %llu pairs with failed halves\n",
           pairs, (unsigned long long)sides_total, (unsigned long long)failed_total, (unsigned long long)paused);
    CHECK_MSG(failed_total > 0 && failed_total < sides_total, "the stand-in device failed %llu of %llu halves",
              (unsigned long long)failed_total, (unsigned long long)sides_total);
    return tu_finish("ydrop_waves");
}
