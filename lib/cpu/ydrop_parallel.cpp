// LASTZ 1.04.22's gapped extension, the walk over one strand's anchors (gapped_extend):
// LASTZ's serial walk, or the two phases of doc/ydrop.md "Parallel extension" (every
// anchor's one-sided extensions computed independently on threads, then the walk keeps
// those it can prove equal to its own). The extension itself is lib/cpu/ydrop_run.h's Run.
#include "ydrop.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "parallel.h"
#include "ydrop_run.h"

namespace gale {

using namespace ydrop_run;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
// the process's CPU time (all threads), for the phases' figures on a shared machine
double cpu_seconds() { return (double)std::clock() / CLOCKS_PER_SEC; }

// The walk of gapped_extend over the anchors; two_phase: phase 1 first, then the walk takes
// each precomputed one-sided extension it can prove equal to its own (Run::side_clean) and
// redoes the others. Returns false (nothing to use) where the two-phase path cannot be exact:
// an extension the walk needs read a traceback cell it had not written (LASTZ's shared buffer
// then holds what the extensions before it left, which phase 1 does not have).
bool extend(const uint8_t *target, uint32_t target_len, const uint8_t *query, uint32_t query_len,
            std::vector<YdropAnchor> &anchors, const YdropScoring &scoring, const YdropParams &params,
            YdropWorkspace &ws, bool two_phase, std::vector<YdropAlignment> &out) {
    Run run(scoring, params, ws);

    // LASTZ's sequences end in a 0 byte and its reversed copies too; one 0 byte before each
    // lets the reversed extension's pointer to "the character before A[1]" stay in bounds.
    std::vector<uint8_t> s1(target_len + 2, 0), s2(query_len + 2, 0), r1(target_len + 2, 0), r2(query_len + 2, 0);
    std::memcpy(s1.data() + 1, target, target_len);
    std::memcpy(s2.data() + 1, query, query_len);
    for (uint32_t k = 0; k < target_len; ++k) r1[1 + k] = target[target_len - 1 - k];
    for (uint32_t k = 0; k < query_len; ++k) r2[1 + k] = query[query_len - 1 - k];

    // reduce_to_points, then batched_segments' sort (qSegmentsByDecreasingScore: score down,
    // then length, pos2, pos1, id up; the length is 0 by then)
    for (YdropAnchor &a : anchors) {
        const unspos peak = segment_peak(scoring, s1.data() + 1 + a.pos1, s2.data() + 1 + a.pos2, a.length);
        a.pos1 += peak;
        a.pos2 += peak;
        a.length = 0;
    }
    std::stable_sort(anchors.begin(), anchors.end(), [](const YdropAnchor &x, const YdropAnchor &y) {
        if (x.score != y.score) return x.score > y.score;
        if (x.length != y.length) return x.length < y.length;
        if (x.pos2 != y.pos2) return x.pos2 < y.pos2;
        if (x.pos1 != y.pos1) return x.pos1 < y.pos1;
        return x.id < y.id;
    });

    std::vector<Galign> msp(anchors.size() + 1);
    for (size_t k = 0; k < msp.size(); ++k) {
        std::memset(&msp[k], 0, sizeof(Galign));
        msp[k].align = -1;
        if (k < anchors.size()) {
            msp[k].pos1 = anchors[k].pos1;
            msp[k].pos2 = anchors[k].pos2;
        }
    }

    AlignIo io{};
    io.seq1 = s1.data() + 1;
    io.seq2 = s2.data() + 1;
    io.rev1 = r1.data() + 1;
    io.rev2 = r2.data() + 1;
    io.low1 = 0;
    io.len1 = io.high1 = target_len;
    io.low2 = 0;
    io.len2 = io.high2 = query_len;

    // Phase 1: both halves of the anchors, without bounds (no alignment yet), on the threads;
    // each thread has its own traceback buffer (LASTZ restarts its buffer at every one-sided
    // extension, so its truncation depends on the extension alone). Most anchors lie on the
    // path of an earlier one's alignment and the walk skips them, so phase 1 goes in waves in
    // LASTZ's order and leaves out an anchor on the path of an alignment an earlier wave
    // predicts (its unbounded extension, when it reaches the threshold): a guess, which only
    // decides what phase 1 computes; the walk computes what it finds missing.
    std::vector<SideRec> pre;
    // Phase 1 runs beside the walk (a thread of its own, which drives the GPU or the worker
    // threads): the walk takes anchor k once phase 1 has decided it (computed both halves,
    // or left it out), so its time overlaps phase 1's. decided[k] is set after anchor k's
    // prediction, which reads its halves: the walk touches them only after that.
    // (a mutex, not atomics: TSan builds leave lib/cpu uninstrumented, and sees only the
    // synchronisation that goes through pthreads)
    std::vector<uint8_t> decided;  // guarded by dmu
    std::mutex dmu;
    std::condition_variable dcv;
    std::atomic<bool> stop_phase1{false};
    // A half the device could not take (past a large slot: doc/ydrop.md, "Phase 1 on the
    // GPU") the walk computes; phase 1 then waits until the walk is past its anchor
    // (walk_at, the anchor the walk is at) and predicts from the alignments the walk computed
    // a half of (walk_paths): without that alignment every later anchor on its path would
    // run as long.
    size_t walk_at = 0;  // guarded by dmu
    struct WalkPath {
        unspos start1, start2;
        std::vector<uint32_t> ops;
    };
    std::vector<WalkPath> walk_paths;  // guarded by dmu
    auto mark = [&](size_t j) {
        std::lock_guard<std::mutex> lock(dmu);
        decided[j] = 1;
    };
    auto announce = [&] {
        std::lock_guard<std::mutex> lock(dmu);
        dcv.notify_all();
    };
    std::thread producer;
    AlignIo base = io;  // (copied here: the walk changes io meanwhile)
    base.leftAlign = base.rightAlign = base.aboveList = base.belowList = nullptr;
    base.leftSeg = base.rightSeg = nullptr;
    if (two_phase) {
        pre.resize(2 * anchors.size());
        decided.assign(anchors.size(), 0);
        producer = std::thread([&, base] {
            try {
                const Clock::time_point t1 = Clock::now();
                const double c1 = cpu_seconds();
                std::vector<std::vector<unspos>> pred;  // query positions of predicted alignments by target position
                std::mutex mu;                          // guards pred
                auto on_pred = [&](unspos p1, unspos p2) {
                    return p1 < pred.size() && std::find(pred[p1].begin(), pred[p1].end(), p2) != pred[p1].end();
                };
                // an alignment's substitution cells as predictions
                auto add_path = [&](unspos p1, unspos p2, const std::vector<uint32_t> &ops, std::vector<uint64_t> &path) {
                    path.clear();
                    for (uint32_t e : ops) {
                        const uint32_t n = rpt_of(e);
                        if (op_of(e) == kYdropSub)
                            for (uint32_t t = 0; t < n && p1 + t < io.len1; ++t)
                                path.push_back((uint64_t)(p1 + t) << 32 | (p2 + t));
                        if (op_of(e) != kYdropIns) p1 += n;
                        if (op_of(e) != kYdropDel) p2 += n;
                    }
                    std::lock_guard<std::mutex> lock(mu);
                    if (pred.empty()) pred.resize(io.len1);
                    for (uint64_t c : path) pred[(size_t)(c >> 32)].push_back((unspos)c);
                };
                // Anchor j's unbounded alignment, if it reaches the threshold: its substitution cells
                // become predictions (a guess of what the walk skips; it decides only what phase 1
                // computes).
                auto predict = [&](Run &r, size_t j, std::vector<uint64_t> &path) {
                    const SideRec &l = pre[2 * j], &rr = pre[2 * j + 1];
                    if (l.failed || rr.failed) return;
                    AlignIo lio = base;
                    lio.anchor1 = anchors[j].pos1;
                    lio.anchor2 = anchors[j].pos2;
                    Script ls = l.script, rs = rr.script;
                    r.join(lio, l.score, ls, l.end1, l.end2, rr.score, rs, rr.end1, rr.end2);
                    if (lio.s < params.gapped_thresh && !params.all_bounds) return;
                    add_path(lio.start1, lio.start2, lio.script.op, path);
                };
                bool device_ok = (bool)params.device;
                if (device_ok) {
                    // On a GPU: waves of anchors in LASTZ's order. An anchor on a predicted path is
                    // left out; one close to an anchor of the same wave on nearly its diagonal waits
                    // for the next wave (it likely lies on that anchor's alignment, which the wave
                    // then predicts).
                    Run r(scoring, params, ws);
                    std::vector<uint64_t> path;
                    std::vector<size_t> wave;
                    std::vector<uint32_t> a1, a2;
                    std::vector<SideRec *> sides;
                    std::deque<size_t> waiting;
                    size_t next = 0;
                    // The first anchors (the best) lie on the longest alignments, whose predictions
                    // leave out most of the rest: small waves first, then twice as large each time.
                    size_t cap = std::min<size_t>(8, std::max<size_t>(1, params.device_wave));
                    while (device_ok && !stop_phase1.load() && (next < anchors.size() || !waiting.empty())) {
                        wave.clear();
                        std::deque<size_t> later;
                        auto consider = [&](size_t j) {
                            if (on_pred(anchors[j].pos1, anchors[j].pos2)) {
                                pre[2 * j].absent = pre[2 * j + 1].absent = true;
                                mark(j);
                                return;
                            }
                            const int64_t d = (int64_t)anchors[j].pos2 - anchors[j].pos1;
                            for (size_t k : wave) {
                                const int64_t dk = (int64_t)anchors[k].pos2 - anchors[k].pos1;
                                const int64_t gap = (int64_t)anchors[k].pos1 - anchors[j].pos1;
                                if (std::abs(d - dk) <= 64 && std::abs(gap) <= 100000) {
                                    later.push_back(j);
                                    return;
                                }
                            }
                            wave.push_back(j);
                        };
                        while (!waiting.empty() && wave.size() < cap) {
                            const size_t j = waiting.front();
                            waiting.pop_front();
                            consider(j);
                        }
                        while (next < anchors.size() && wave.size() < cap) consider(next++);
                        waiting.insert(waiting.end(), later.begin(), later.end());
                        announce();  // (the anchors left out)
                        if (wave.empty()) continue;
                        a1.resize(wave.size());
                        a2.resize(wave.size());
                        sides.resize(2 * wave.size());
                        for (size_t k = 0; k < wave.size(); ++k) {
                            a1[k] = anchors[wave[k]].pos1;
                            a2[k] = anchors[wave[k]].pos2;
                            sides[2 * k] = &pre[2 * wave[k]];
                            sides[2 * k + 1] = &pre[2 * wave[k] + 1];
                        }
                        YdropDeviceWave w{io.seq1, io.seq2, io.rev1, io.rev2, io.len1, io.len2, &scoring, &params,
                                          a1.data(), a2.data(), wave.size(), sides.data(), 0, 0};
                        try {
                            params.device(w);
                        } catch (...) {  // the device failed: the walk computes what is missing
                            for (SideRec *sr : sides) {
                                *sr = SideRec();
                                sr->failed = true;
                            }
                            device_ok = false;
                        }
                        ws.stats.device_waves++;
                        cap = std::min({std::max<size_t>(1, params.device_wave), 2 * cap,
                                        std::max<size_t>(1, w.capacity / 2)});
                        ws.stats.phase1_kernel_s += (double)w.kernel_ns * 1e-9;
                        uint64_t busiest = 0;
                        for (SideRec *sr : sides) {
                            ws.stats.sides_device++;
                            if (sr->failed) ws.stats.sides_device_failed++;
                            ws.stats.cells_phase1 += sr->cells;
                            busiest = std::max(busiest, sr->cells);
                        }
                        ws.stats.sides_phase1 += sides.size();
                        ws.stats.cells_phase1_busiest += busiest;
                        size_t last_failed = SIZE_MAX;  // (read before mark: the walk then takes the halves)
                        for (size_t k = 0; k < wave.size(); ++k)
                            if (sides[2 * k]->failed || sides[2 * k + 1]->failed)
                                last_failed = last_failed == SIZE_MAX ? wave[k] : std::max(last_failed, wave[k]);
                        for (size_t j : wave) {
                            predict(r, j, path);
                            mark(j);
                        }
                        if (last_failed != SIZE_MAX) {
                            // the walk computes the failed halves: the anchors before the last of them
                            // that wait for a later wave are left to it too (else it would wait for
                            // them while this waits for it), then this waits for the walk
                            std::deque<size_t> still;
                            for (size_t j : waiting) {
                                if (j < last_failed) {
                                    pre[2 * j].absent = pre[2 * j + 1].absent = true;
                                    mark(j);
                                } else {
                                    still.push_back(j);
                                }
                            }
                            waiting.swap(still);
                            std::unique_lock<std::mutex> lock(dmu);
                            dcv.notify_all();  // (the anchors decided above)
                            dcv.wait(lock, [&] { return walk_at > last_failed || stop_phase1.load(); });
                        } else {
                            announce();
                        }
                        std::vector<WalkPath> walked;
                        {
                            std::lock_guard<std::mutex> lock(dmu);
                            walked.swap(walk_paths);
                        }
                        for (const WalkPath &wp : walked) add_path(wp.start1, wp.start2, wp.ops, path);
                    }
                    // (what a failed device left out the walk computes: below, every anchor not
                    // decided is marked absent)
                } else {
                    const int threads = std::max(1, params.threads);
                    std::vector<YdropWorkspace> tws((size_t)threads);
                    std::vector<uint64_t> cells((size_t)threads, 0);
                    // A thread takes the next anchor in LASTZ's order as soon as it is free (no barrier:
                    // the extensions' costs differ by orders of magnitude), leaving out the anchors on a
                    // path already predicted, and adds its own prediction when done. Anchors in flight at
                    // once may lie on one alignment: the price of more threads (bench/RESULTS.md).
                    std::mutex next_mu;
                    size_t next = 0;
                    uint64_t computed = 0;
                    parallel_for((size_t)threads, threads, 1, [&](size_t lo, size_t hi) {
                        for (size_t w = lo; w < hi; ++w) {
                            Run r(scoring, params, tws[w]);
                            AlignIo lio = base;
                            std::vector<uint64_t> path;
                            for (;;) {
                                size_t j;
                                {
                                    std::lock_guard<std::mutex> lock(next_mu);
                                    for (;;) {
                                        bool on;
                                        {
                                            std::lock_guard<std::mutex> plock(mu);
                                            on = next < anchors.size() &&
                                                 on_pred(anchors[next].pos1, anchors[next].pos2);
                                        }
                                        if (!on) break;
                                        pre[2 * next].absent = pre[2 * next + 1].absent = true;
                                        mark(next);
                                        ++next;
                                    }
                                    if (next == anchors.size() || stop_phase1.load()) break;
                                    j = next++;
                                    ++computed;
                                }
                                lio.anchor1 = anchors[j].pos1;
                                lio.anchor2 = anchors[j].pos2;
                                for (int h = 0; h < 2; ++h) {
                                    SideRec &sr = pre[2 * j + (size_t)h];
                                    try {
                                        sr.score = r.side(lio, h == 0, sr.script, &sr.end1, &sr.end2, &sr);
                                        cells[w] += sr.cells;
                                    } catch (...) {  // the walk redoes it, and fails as LASTZ's order would
                                        sr = SideRec();
                                        sr.failed = true;
                                    }
                                }
                                predict(r, j, path);
                                mark(j);
                                announce();
                            }
                        }
                    });
                    ws.stats.sides_phase1 += 2 * computed;
                    for (uint64_t c : cells) ws.stats.cells_phase1 += c;
                    ws.stats.cells_phase1_busiest += *std::max_element(cells.begin(), cells.end());
                }
                ws.stats.phase1_s += seconds_since(t1);
                ws.stats.phase1_cpu_s += cpu_seconds() - c1;
    
            } catch (...) {  // (out of memory): the walk computes what phase 1 left
            }
            {
                std::lock_guard<std::mutex> lock(dmu);
                for (size_t k = 0; k < anchors.size(); ++k)
                    if (decided[k] == 0) {
                        pre[2 * k].absent = pre[2 * k + 1].absent = true;
                        decided[k] = 1;
                    }
                dcv.notify_all();
            }
        });
    }
    // joins phase 1 on every way out of the walk
    struct Join {
        std::thread &t;
        std::atomic<bool> &stop;
        std::mutex &mu;
        std::condition_variable &cv;
        ~Join() {
            {
                std::lock_guard<std::mutex> lock(mu);
                stop.store(true);
                cv.notify_all();  // (phase 1 may wait for the walk)
            }
            if (t.joinable()) t.join();
        }
    } join_phase1{producer, stop_phase1, dmu, dcv};
    // the walk at anchor k (those before it done): wakes phase 1, which may wait for that,
    // then waits until phase 1 has decided k
    auto await = [&](size_t k) {
        std::unique_lock<std::mutex> lock(dmu);
        walk_at = k;
        dcv.notify_all();
        dcv.wait(lock, [&] { return decided[k] != 0; });
    };
    const Clock::time_point t2 = Clock::now();
    const double c2 = cpu_seconds();

    AlignList found;  // the alignments so far

    // identical_sequences: a target and query strand identical but for case get the trivial
    // self-alignment first (it bounds the others); it is reported with at least the threshold.
    if (params.same_strand && target_len == query_len && target_len > 0) {
        bool same = true;
        int32_t s = 0;
        for (uint32_t k = 0; k < target_len && same; ++k) {
            const uint8_t a = up(target[k]), b = up(query[k]);
            if (a != b) { same = false; break; }
            const int32_t sub = scoring.sub[a][b];
            if (s == kBest) {
            } else if (sub <= 0 || s < kBest - sub) s += sub;
            else s = kBest;
        }
        if (same) {
            Galign *mp = &msp[anchors.size()];
            mp->pos1 = mp->pos2 = 0;
            mp->end1 = mp->end2 = target_len - 1;
            run.save_seg(mp, mp->pos1, mp->pos2, mp->end1, mp->end2);
            found.insert(mp);
            mp->lastSeg = mp->firstSeg;
            mp->firstSeg->prev = mp->lastSeg->next = nullptr;
            run.index_segs(mp);
            YdropAlignment a;
            a.beg1 = a.beg2 = 1;
            a.end1 = a.end2 = target_len;
            a.score = s < params.gapped_thresh ? params.gapped_thresh : s;
            a.script = {mk(kYdropSub, target_len)};
            mp->align = (int64_t)run.aligns.size();
            run.aligns.push_back(std::move(a));
        }
    }

    for (size_t k = 0; k < anchors.size(); ++k) {
        Galign *mp = &msp[k];
        bool walked_half = false;  // the walk computed a half of it (two phases)
        if (two_phase) await(k);
        if (!found.msp_left_right(mp)) {  // on an earlier alignment's path
            if (two_phase) {
                ws.stats.anchors_skipped++;
                ws.stats.cells_unused += pre[2 * k].cells + pre[2 * k + 1].cells;
                pre[2 * k] = SideRec();
                pre[2 * k + 1] = SideRec();
            }
            continue;
        }
        io.leftAlign = mp->leftAlign1;
        io.rightAlign = mp->rightAlign1;
        io.leftSeg = mp->leftSeg1;
        io.rightSeg = mp->rightSeg1;
        io.anchor1 = mp->pos1;
        io.anchor2 = mp->pos2;
        found.get_above_below(io);
        io.script = Script();
        if (!two_phase) {
            run.ydrop_align(io);
        } else {
            Script half[2];
            int32_t score[2];
            unspos e1[2], e2[2];
            for (int h = 0; h < 2; ++h) {
                SideRec &p = pre[2 * k + (size_t)h];
                ws.stats.sides_walked++;
                const bool left = h == 0;
                if (!p.failed && !p.absent && Run::side_clean(io, left, Run::side_N(io, left), p)) {
                    if (p.stale) return false;  // the walk's extension reads the same foreign cells
                    half[h] = std::move(p.script);
                    score[h] = p.score;
                    e1[h] = p.end1;
                    e2[h] = p.end2;
                    if (p.truncated) ws.truncations++;
                    ws.stats.cells_kept += p.cells;
                } else {
                    ws.stats.sides_redone++;
                    walked_half = true;
                    if (p.absent) ws.stats.sides_absent++;
                    SideRec r;
                    score[h] = run.side(io, left, half[h], &e1[h], &e2[h], &r);
                    if (r.stale) return false;
                    ws.stats.cells_unused += p.cells;
                    ws.stats.cells_redone += r.cells;
                }
                p = SideRec();  // (frees its rows)
            }
            run.join(io, score[0], half[0], e1[0], e2[0], score[1], half[1], e1[1], e2[1]);
        }
        YdropAlignment a = run.format_alignment(io, mp);
        a.anchor = anchors[k].index;
        mp->pos1 = io.start1;
        mp->pos2 = io.start2;
        mp->end1 = io.stop1;
        mp->end2 = io.stop2;
        if (mp->firstSeg == nullptr) continue;
        mp->lastSeg = mp->firstSeg->prev;
        mp->firstSeg->prev = mp->lastSeg->next = nullptr;
        if (!params.all_bounds && a.score < params.gapped_thresh) continue;
        found.align_left_right(mp);
        run.index_segs(mp);
        found.insert(mp);
        if (walked_half && params.device) {  // (phase 1's waves may not have predicted it: doc/ydrop.md)
            std::lock_guard<std::mutex> lock(dmu);
            walk_paths.push_back(WalkPath{a.beg1 - 1, a.beg2 - 1, a.script});
        }
        mp->align = (int64_t)run.aligns.size();
        run.aligns.push_back(std::move(a));
    }
    if (two_phase) {
        std::lock_guard<std::mutex> lock(dmu);
        walk_at = anchors.size();
        dcv.notify_all();
    }

    out.clear();
    for (Galign *mp = found.obi; mp != nullptr; mp = mp->next) {
        YdropAlignment &a = run.aligns[(size_t)mp->align];
        if (a.score < params.gapped_thresh) continue;
        if (params.inhibit_trivial && mp == &msp[anchors.size()]) continue;
        out.push_back(std::move(a));
    }
    if (two_phase) {
        ws.stats.phase2_s += seconds_since(t2);
        ws.stats.phase2_cpu_s += cpu_seconds() - c2;
    }
    return true;
}

}  // namespace

std::vector<YdropAlignment> ydrop_gapped_extend(const uint8_t *target, uint32_t target_len, const uint8_t *query,
                                                uint32_t query_len, std::vector<YdropAnchor> anchors,
                                                const YdropScoring &scoring, const YdropParams &params,
                                                YdropWorkspace &ws) {
    const char *env = std::getenv("GALE_LASTZ_SERIAL");
    const bool serial = params.serial || (env != nullptr && *env != 0 && std::strcmp(env, "0") != 0);
    std::vector<YdropAlignment> out;
    if (!serial) {
        const uint64_t truncations = ws.truncations;
        std::vector<YdropAnchor> copy = anchors;
        if (extend(target, target_len, query, query_len, copy, scoring, params, ws, true, out)) return out;
        ws.truncations = truncations;
        ws.stats.serial_reruns++;
    }
    extend(target, target_len, query, query_len, anchors, scoring, params, ws, false, out);
    return out;
}

}  // namespace gale
