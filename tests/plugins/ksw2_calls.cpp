// The ksw2 plugin call by call, against minimap2 2.24's ksw2 as Debian's libminimap2-dev
// builds it (libminimap2.a, linked here), with the caller's allocator in the picture.
//
// This program defines kalloc's kmalloc/kcalloc/krealloc/kfree itself (so libminimap2.a's
// kalloc.o is not linked): they are malloc's, and krealloc logs (km, size) per km. ksw2
// from libminimap2.a and the plugin (dlopen'ed; it binds to this program's exported
// krealloc) each get their own km per chain of calls, so for every call the test
// compares every field of ksw_extz_t - max, zdropped, max_q, max_t, mqe, mqe_t, mte,
// mte_q, score, reach_end, n_cigar, m_cigar, the CIGAR - and the krealloc calls made.
//   1. random calls of the three functions (seed printed; GALE_TEST_SEED replays),
//      chained as minimap2 chains them: one ez per "read", zeroed once, reused call
//      after call (the CIGAR buffer and m_cigar carried over), freed with kfree;
//      lengths 0-3,000 skewed short, divergence 0-30%, random tails, N bases, bands
//      from 0 to none, Z-drop from 0 to none, end bonus, minimap2's flag words and
//      random ones, simple and generic matrices, spliced pairs with a zeroed junction
//      array (minimap2 without --junc-bed) or one with junctions marked (since 0.7; any
//      byte, ksw2's four bits and the others it ignores) and junc_bonus 9 or random;
//   2. the same kind of calls as jobs of gale_ksw2_extend (CPU backend and AUTO), each
//      job's ez with a CIGAR buffer of its own (some empty, some with room);
//   3. errors: m = 4, a bad job in a batch (nothing written, nothing reallocated), a bad
//      backend; qlen 0, junc_bonus 0 and marked junctions are no errors;
//   4. two threads calling at once (results against ksw2's, computed first).
// Exit 1 on any difference.
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#define HAVE_KALLOC 1  // ksw2.h then declares kalloc.h's functions instead of mapping them to malloc's
extern "C" {
#include <ksw2.h>  // Debian's: ksw_extz_t, KSW_* and libminimap2.a's three functions
}

#include "gale_ksw2.h"  // after ksw2.h: adds gale's part only
#include "gale_plugin.h"
#include "testgen.h"

// ---- kalloc, as this program's: malloc with krealloc logged per km ----------------
namespace {
std::mutex log_mu;
std::map<void *, std::vector<size_t>> realloc_log;  // km -> sizes asked, in order
}  // namespace

extern "C" {
void *kmalloc(void *, size_t size) { return std::malloc(size); }
void *kcalloc(void *, size_t count, size_t size) { return std::calloc(count, size); }
void *krealloc(void *km, void *ptr, size_t size) {
    if (km) {
        std::lock_guard<std::mutex> lock(log_mu);
        realloc_log[km].push_back(size);
    }
    return std::realloc(ptr, size);
}
void kfree(void *, void *ptr) { std::free(ptr); }
}

namespace {

std::atomic<int> failures{0};
// counted from the test's threads too (part_threads)
std::atomic<long> compared{0}, seen_cigar{0}, seen_grow{0}, seen_zdropped{0}, seen_splice{0}, seen_marked{0};

#define FAILF(...)                                                   \
    do {                                                             \
        std::fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);    \
        std::fprintf(stderr, __VA_ARGS__);                           \
        std::fprintf(stderr, "\n");                                  \
        if (++failures > 20) std::exit(1);                           \
    } while (0)

struct Plugin {
    void *handle = nullptr;
    gale_ksw2_extz2_fn extz2;
    gale_ksw2_extd2_fn extd2;
    gale_ksw2_exts2_fn exts2;
    gale_status (*extend)(const gale_ksw2_job *, size_t, int, int);
    gale_status (*last_status)(void);
    const char *(*last_error)(void);
};
Plugin P;

template <class F>
void sym(F &f, const char *name) {
    f = reinterpret_cast<F>(dlsym(P.handle, name));
    if (!f) {
        std::fprintf(stderr, "FAIL: the plugin does not define %s\n", name);
        std::exit(1);
    }
}

// One call's arguments (a gale_ksw2_job without km and ez).
struct Call {
    int fn = 0;
    std::vector<uint8_t> q, t, junc;
    bool with_junc = false;
    int8_t m = 5, gapo = 4, gape = 2, gapo2 = 24, gape2 = 1, noncan = 9, junc_bonus = 9;
    int8_t mat[25];
    int w = 500, zdrop = 400, end_bonus = -1, flag = 0;
};

void simple_mat(int8_t *mat, int a, int b, int amb) {
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) mat[i * 5 + j] = (int8_t)(i == 4 || j == 4 ? -amb : i == j ? a : -b);
}

std::vector<uint8_t> codes(const std::string &s, tu::Rng &r, double n_rate) {
    std::vector<uint8_t> c(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        const char x = s[i];
        c[i] = x == 'A' ? 0 : x == 'C' ? 1 : x == 'G' ? 2 : x == 'T' ? 3 : 4;
        if (n_rate > 0 && r.chance(n_rate)) c[i] = 4;
    }
    return c;
}

Call random_call(tu::Rng &r) {
    Call c;
    c.fn = (int)r.below(3);
    const int64_t len = r.chance(0.05) ? r.range(0, 3) : r.logrange(1, r.chance(0.1) ? 3000 : 800);
    const std::string anc = tu::bases(r, len);
    const double div = r.chance(0.2) ? 0.0 : r.unit() * 0.3;
    std::string q = tu::mutate(r, anc, tu_mut_thirds(div)), t = tu::mutate(r, anc, tu_mut_thirds(div * 0.5));
    if (c.fn == 2 && r.chance(0.7) && t.size() > 40) {  // an intron in the target, GT..AG (or CT..AC)
        const size_t at = (size_t)r.range(10, (int64_t)t.size() - 10);
        std::string intron = tu::bases(r, r.range(30, 400));
        if (r.chance(0.5)) intron.replace(0, 2, "GT"), intron.replace(intron.size() - 2, 2, "AG");
        else intron.replace(0, 2, "CT"), intron.replace(intron.size() - 2, 2, "AC");
        t.insert(at, intron);
    }
    if (r.chance(0.2)) q += tu::bases(r, r.range(1, 300));  // random tails
    if (r.chance(0.2)) t += tu::bases(r, r.range(1, 300));
    const double n_rate = r.chance(0.1) ? 0.01 : 0.0;
    c.q = codes(q, r, n_rate);
    c.t = codes(t, r, n_rate);
    static const int kZdFlags[] = {0,
                                   KSW_EZ_EXTZ_ONLY | KSW_EZ_RIGHT | KSW_EZ_REV_CIGAR,
                                   KSW_EZ_APPROX_MAX,
                                   KSW_EZ_APPROX_MAX | KSW_EZ_APPROX_DROP,
                                   KSW_EZ_EXTZ_ONLY,
                                   KSW_EZ_SCORE_ONLY,
                                   KSW_EZ_RIGHT};
    if (c.fn == 2) {
        c.gapo = 2, c.gape = 1, c.gapo2 = 32, c.noncan = 9, c.zdrop = 200;
        simple_mat(c.mat, 1, 2, 1);
        const int strand = r.chance(0.5) ? KSW_EZ_SPLICE_FOR | KSW_EZ_SPLICE_REV
                           : r.chance(0.5) ? KSW_EZ_SPLICE_FOR
                                           : KSW_EZ_SPLICE_REV;
        c.flag = kZdFlags[r.below(7)] | strand | (r.chance(0.7) ? KSW_EZ_SPLICE_FLANK : 0);
        if (r.chance(0.5)) {  // minimap2's array without --junc-bed: zeros
            c.with_junc = true;
            c.junc.assign(c.t.size() + 1, 0);
            if (r.chance(0.6)) {  // with --junc-bed: marks (and bits ksw2 ignores)
                const double dense = r.chance(0.3) ? 0.3 : 0.02;
                for (size_t i = 0; i < c.t.size(); ++i)
                    if (r.chance(dense)) c.junc[i] = (uint8_t)(r.chance(0.8) ? r.range(1, 15) : r.range(0, 255));
                if (r.chance(0.5)) c.junc_bonus = (int8_t)r.range(-128, 127);
                ++seen_marked;
            }
        }
        ++seen_splice;
    } else {
        simple_mat(c.mat, 2, 4, r.chance(0.8) ? 1 : 0);
        if (c.fn == 0 && r.chance(0.3)) c.gapo = (int8_t)r.range(1, 8), c.gape = (int8_t)r.range(1, 4);
        if (c.fn == 1 && r.chance(0.3)) c.gapo2 = (int8_t)r.range(8, 40), c.gape2 = (int8_t)r.range(0, 2);
        c.flag = kZdFlags[r.below(7)];
        const int wr = (int)r.below(5);
        c.w = wr == 0 ? -1 : wr == 1 ? (int)r.range(0, 20) : wr == 2 ? 751 : 500;
        const int zr = (int)r.below(4);
        c.zdrop = zr == 0 ? -1 : zr == 1 ? (int)r.range(0, 100) : 400;
        c.end_bonus = r.chance(0.5) ? -1 : (int)r.range(0, 50);
    }
    if (r.chance(0.1)) {  // a generic matrix
        for (int i = 0; i < 25; ++i) c.mat[i] = (int8_t)r.range(-6, 3);
        for (int i = 0; i < 4; ++i) c.mat[i * 5 + i] = (int8_t)r.range(1, 4);
        if (r.chance(0.5)) c.flag |= KSW_EZ_GENERIC_SC;
    }
    if (r.chance(0.05)) c.flag |= (int)r.below(0x100) & 0xdf;  // random bits of those ksw2 takes
    return c;
}

void call_ksw2(const Call &c, void *km, ksw_extz_t *ez) {
    const int ql = (int)c.q.size(), tl = (int)c.t.size();
    if (c.fn == 0)
        ksw_extz2_sse(km, ql, c.q.data(), tl, c.t.data(), c.m, c.mat, c.gapo, c.gape, c.w, c.zdrop, c.end_bonus, c.flag,
                      ez);
    else if (c.fn == 1)
        ksw_extd2_sse(km, ql, c.q.data(), tl, c.t.data(), c.m, c.mat, c.gapo, c.gape, c.gapo2, c.gape2, c.w, c.zdrop,
                      c.end_bonus, c.flag, ez);
    else
        ksw_exts2_sse(km, ql, c.q.data(), tl, c.t.data(), c.m, c.mat, c.gapo, c.gape, c.gapo2, c.noncan, c.zdrop,
                      c.junc_bonus, c.flag, c.with_junc ? c.junc.data() : nullptr, ez);
}

void call_plugin(const Call &c, void *km, ksw_extz_t *ez) {
    const int ql = (int)c.q.size(), tl = (int)c.t.size();
    if (c.fn == 0)
        P.extz2(km, ql, c.q.data(), tl, c.t.data(), c.m, c.mat, c.gapo, c.gape, c.w, c.zdrop, c.end_bonus, c.flag, ez);
    else if (c.fn == 1)
        P.extd2(km, ql, c.q.data(), tl, c.t.data(), c.m, c.mat, c.gapo, c.gape, c.gapo2, c.gape2, c.w, c.zdrop,
                c.end_bonus, c.flag, ez);
    else
        P.exts2(km, ql, c.q.data(), tl, c.t.data(), c.m, c.mat, c.gapo, c.gape, c.gapo2, c.noncan, c.zdrop,
                c.junc_bonus, c.flag, c.with_junc ? c.junc.data() : nullptr, ez);
}

gale_ksw2_job job_of(const Call &c, void *km, ksw_extz_t *ez) {
    gale_ksw2_job j;
    std::memset(&j, 0, sizeof j);
    j.fn = c.fn;
    j.qlen = (int)c.q.size(), j.query = c.q.data(), j.tlen = (int)c.t.size(), j.target = c.t.data();
    j.m = c.m, j.mat = c.mat, j.gapo = c.gapo, j.gape = c.gape, j.gapo2 = c.gapo2, j.gape2 = c.gape2;
    j.noncan = c.noncan, j.junc_bonus = c.junc_bonus, j.w = c.w, j.zdrop = c.zdrop, j.end_bonus = c.end_bonus;
    j.flag = c.flag, j.junc = c.with_junc ? c.junc.data() : nullptr, j.km = km, j.ez = ez;
    return j;
}

std::string describe(const Call &c) {
    char b[256];
    std::snprintf(b, sizeof b, "%s qlen %zu tlen %zu q %d e %d q2 %d e2 %d w %d zdrop %d end_bonus %d flag 0x%x",
                  c.fn == 0 ? "extz2" : c.fn == 1 ? "extd2" : "exts2", c.q.size(), c.t.size(), c.gapo, c.gape,
                  c.gapo2, c.gape2, c.w, c.zdrop, c.end_bonus, c.flag);
    return b;
}

// Every field, the CIGAR and the krealloc calls made through km_a and km_b.
void compare(const char *what, const Call &c, const ksw_extz_t &a, const ksw_extz_t &b, void *km_a, void *km_b,
             size_t log_a0, size_t log_b0) {
    ++compared;
#define FIELD(f)                                                                                            \
    if ((long)a.f != (long)b.f)                                                                             \
        FAILF("%s: %s: " #f " ksw2 %ld, plugin %ld", what, describe(c).c_str(), (long)a.f, (long)b.f);
    FIELD(max) FIELD(zdropped) FIELD(max_q) FIELD(max_t) FIELD(mqe) FIELD(mqe_t) FIELD(mte) FIELD(mte_q)
    FIELD(score) FIELD(reach_end) FIELD(n_cigar) FIELD(m_cigar)
#undef FIELD
    if (a.n_cigar == b.n_cigar && a.n_cigar > 0 && std::memcmp(a.cigar, b.cigar, (size_t)a.n_cigar * 4) != 0)
        FAILF("%s: %s: the CIGARs differ", what, describe(c).c_str());
    std::lock_guard<std::mutex> lock(log_mu);
    const std::vector<size_t> la(realloc_log[km_a].begin() + (long)log_a0, realloc_log[km_a].end());
    const std::vector<size_t> lb(realloc_log[km_b].begin() + (long)log_b0, realloc_log[km_b].end());
    if (la != lb)
        FAILF("%s: %s: krealloc calls differ (ksw2 %zu, plugin %zu)", what, describe(c).c_str(), la.size(), lb.size());
    if (a.n_cigar > 0) ++seen_cigar;
    if (!la.empty()) ++seen_grow;
    if (a.zdropped) ++seen_zdropped;
}

size_t log_size(void *km) {
    std::lock_guard<std::mutex> lock(log_mu);
    return realloc_log[km].size();
}

// 1. Chains of single calls, as minimap2 makes them per read.
void part_single(uint64_t seed, long n) {
    tu::Rng r(seed, 1);
    static char km_ref_tag, km_plug_tag;
    void *km_a = &km_ref_tag, *km_b = &km_plug_tag;
    ksw_extz_t a, b;
    std::memset(&a, 0, sizeof a);
    std::memset(&b, 0, sizeof b);
    for (long i = 0; i < n; ++i) {
        if (r.chance(0.05)) {  // next read
            kfree(km_a, a.cigar);
            kfree(km_b, b.cigar);
            std::memset(&a, 0, sizeof a);
            std::memset(&b, 0, sizeof b);
        }
        const Call c = random_call(r);
        const size_t la = log_size(km_a), lb = log_size(km_b);
        call_ksw2(c, km_a, &a);
        call_plugin(c, km_b, &b);
        if (P.last_status() != GALE_OK) FAILF("single %ld: %s: %s", i, describe(c).c_str(), P.last_error());
        compare("single", c, a, b, km_a, km_b, la, lb);
    }
    kfree(km_a, a.cigar);
    kfree(km_b, b.cigar);
}

// 2. Batches through gale_ksw2_extend.
void part_batch(uint64_t seed, int backend, long n) {
    tu::Rng r(seed, 2 + (uint64_t)backend);
    std::vector<Call> calls;
    for (long i = 0; i < n; ++i) calls.push_back(random_call(r));
    std::vector<ksw_extz_t> a(n), b(n);
    std::vector<char> km_tags(2 * n);
    std::vector<gale_ksw2_job> jobs;
    for (long i = 0; i < n; ++i) {
        std::memset(&a[i], 0, sizeof a[i]);
        std::memset(&b[i], 0, sizeof b[i]);
        if (r.chance(0.5)) {  // a buffer left by earlier calls
            const int m = (int)r.range(1, 64);
            a[i].m_cigar = b[i].m_cigar = m;
            a[i].cigar = (uint32_t *)std::malloc((size_t)m * 4);
            b[i].cigar = (uint32_t *)std::malloc((size_t)m * 4);
        }
        jobs.push_back(job_of(calls[i], &km_tags[2 * i + 1], &b[i]));
    }
    for (long i = 0; i < n; ++i) call_ksw2(calls[i], &km_tags[2 * i], &a[i]);
    const gale_status st = P.extend(jobs.data(), jobs.size(), backend, 2);
    if (st != GALE_OK) {
        FAILF("gale_ksw2_extend (backend %d): %s: %s", backend, gale_status_string(st), P.last_error());
    } else {
        for (long i = 0; i < n; ++i) compare("batch", calls[i], a[i], b[i], &km_tags[2 * i], &km_tags[2 * i + 1], 0, 0);
    }
    for (long i = 0; i < n; ++i) std::free(a[i].cigar), std::free(b[i].cigar);
}

// 3. Errors.
void part_errors(tu::Rng &r) {
    static char km_tag;
    void *km = &km_tag;
    Call c;
    c.fn = 1;
    c.q = codes(tu::bases(r, 100), r, 0);
    c.t = c.q;
    simple_mat(c.mat, 2, 4, 1);
    ksw_extz_t e0;
    std::memset(&e0, 0, sizeof e0);
    uint32_t buf[4] = {0x11, 0x22, 0x33, 0x44};
    ksw_extz_t e = e0;
    e.cigar = buf, e.m_cigar = 4, e.max = 77, e.score = 5;

    // m = 4: gale takes m = 5 only; ez reset with zdropped set, the buffer untouched.
    c.m = 4;
    size_t l0 = log_size(km);
    call_plugin(c, km, &e);
    if (P.last_status() != GALE_E_UNSUPPORTED || !std::strstr(P.last_error(), "m = 4"))
        FAILF("m = 4: status %d, message '%s'", (int)P.last_status(), P.last_error());
    if (e.zdropped != 1 || e.max != 0 || e.score != KSW_NEG_INF || e.max_q != -1 || e.n_cigar != 0 ||
        e.cigar != buf || e.m_cigar != 4 || buf[0] != 0x11 || log_size(km) != l0)
        FAILF("m = 4: ez is not ksw_reset_extz's with zdropped set, or the CIGAR buffer was touched");
    c.m = 5;

    // A successful call after it clears the status.
    call_plugin(c, km, &e);
    if (P.last_status() != GALE_OK) FAILF("a good call after a failing one: status %d", (int)P.last_status());
    if (e.n_cigar != 1 || e.cigar[0] != (100u << 4) || (int)e.max != 200)
        FAILF("100 matches: n_cigar %d, cigar[0] 0x%x, max %d (expected 1, 100M, 200)", e.n_cigar,
              e.n_cigar ? e.cigar[0] : 0, (int)e.max);

    // qlen 0: ksw2 resets ez and returns; no error.
    {
        Call z = c;
        z.q.clear();
        ksw_extz_t x = e0, y = e0;
        x.max = y.max = 9;
        call_ksw2(z, km, &x);
        call_plugin(z, km, &y);
        if (P.last_status() != GALE_OK) FAILF("qlen 0: status %d", (int)P.last_status());
        compare("qlen 0", z, x, y, km, km, 0, 0);
    }

    // Junctions (since 0.7): marked ones, and bytes with bits ksw2 ignores, equal ksw2;
    // so do junc_bonus 0 and the other strand's marks.
    Call s = c;
    s.fn = 2, s.gapo = 2, s.gape = 1, s.gapo2 = 32, s.zdrop = 200, s.flag = KSW_EZ_SPLICE_FOR;
    simple_mat(s.mat, 1, 2, 1);
    s.with_junc = true;
    s.junc.assign(s.t.size(), 0);
    s.junc[10] = 1, s.junc[60] = 2;
    ksw_extz_t y = e0;
    for (int high = 0; high < 2; ++high) {
        if (high) s.junc[10] = 0xf1, s.junc[20] = 0x80, s.junc[60] = 0x42;  // the same marks to ksw2
        ksw_extz_t x = e0;
        y = e0;
        call_ksw2(s, km, &x);
        call_plugin(s, km, &y);
        if (P.last_status() != GALE_OK) FAILF("marked junctions%s: %s", high ? " (high bits)" : "", P.last_error());
        compare(high ? "marked junctions, high bits" : "marked junctions", s, x, y, km, km, 0, 0);
        std::free(x.cigar), std::free(y.cigar);
    }
    s.junc[10] = 1, s.junc[20] = 0, s.junc[60] = 2;
    s.flag = KSW_EZ_SPLICE_REV;  // bits 1 and 2 are the forward strand's: not read
    {
        ksw_extz_t x = e0;
        y = e0;
        call_ksw2(s, km, &x);
        call_plugin(s, km, &y);
        if (P.last_status() != GALE_OK) FAILF("forward junctions, reverse flag: %s", P.last_error());
        compare("junctions not read", s, x, y, km, km, 0, 0);
        std::free(x.cigar), std::free(y.cigar);
    }
    s.flag = KSW_EZ_SPLICE_FOR;
    s.junc_bonus = 0;
    {
        ksw_extz_t x = e0;
        y = e0;
        call_ksw2(s, km, &x);
        call_plugin(s, km, &y);
        if (P.last_status() != GALE_OK) FAILF("junc_bonus 0: %s", P.last_error());
        compare("junc_bonus 0", s, x, y, km, km, 0, 0);
        std::free(x.cigar), std::free(y.cigar);
    }

    // A batch with one bad job (index 2): nothing written, nothing reallocated.
    std::vector<ksw_extz_t> ez(4, e0);
    for (auto &x : ez) x.max = 123;
    std::vector<gale_ksw2_job> jobs;
    for (int i = 0; i < 4; ++i) jobs.push_back(job_of(c, km, &ez[(size_t)i]));
    jobs[2].m = 3;
    l0 = log_size(km);
    gale_status st = P.extend(jobs.data(), jobs.size(), GALE_BACKEND_CPU, 1);
    if (st != GALE_E_UNSUPPORTED || !std::strstr(P.last_error(), "job 2"))
        FAILF("a bad job in a batch: status %d, message '%s'", (int)st, P.last_error());
    for (auto &x : ez)
        if (x.max != 123 || x.cigar || x.n_cigar) FAILF("a failed batch wrote an ez");
    if (log_size(km) != l0) FAILF("a failed batch called krealloc");
    st = P.extend(jobs.data(), jobs.size(), 7, 1);
    if (st != GALE_E_RANGE) FAILF("backend 7: status %d", (int)st);
    st = P.extend(nullptr, 0, GALE_BACKEND_CPU, 0);
    if (st != GALE_OK || P.last_status() != GALE_OK) FAILF("an empty batch: status %d", (int)st);
    std::free(e.cigar == buf ? nullptr : e.cigar);
}

// 4. Two threads at once, each against ksw2's results computed beforehand.
void part_threads(uint64_t seed, long n) {
    std::vector<std::thread> th;
    std::atomic<int> bad{0};
    for (int k = 0; k < 2; ++k)
        th.emplace_back([&, k] {
            tu::Rng r(seed, 10 + (uint64_t)k);
            std::vector<Call> calls;
            for (long i = 0; i < n; ++i) calls.push_back(random_call(r));
            std::vector<ksw_extz_t> a(n);
            for (long i = 0; i < n; ++i) {
                std::memset(&a[i], 0, sizeof a[i]);
                std::lock_guard<std::mutex> lock(log_mu);  // ksw2 itself is not what runs concurrently here
                call_ksw2(calls[i], nullptr, &a[i]);
            }
            for (long i = 0; i < n; ++i) {
                ksw_extz_t b;
                std::memset(&b, 0, sizeof b);
                call_plugin(calls[i], nullptr, &b);
                if (P.last_status() != GALE_OK || a[i].max != b.max || a[i].score != b.score ||
                    a[i].n_cigar != b.n_cigar || a[i].mqe != b.mqe || a[i].mte != b.mte ||
                    (a[i].n_cigar && std::memcmp(a[i].cigar, b.cigar, (size_t)a[i].n_cigar * 4)))
                    ++bad;
                std::free(b.cigar);
                std::free(a[i].cigar);
            }
        });
    for (auto &t : th) t.join();
    if (bad) FAILF("%d calls from two threads differ from ksw2", bad.load());
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s gale-ksw2.so\n", argv[0]);
        return 2;
    }
    P.handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!P.handle) {
        std::fprintf(stderr, "FAIL: dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    sym(P.extz2, "ksw_extz2_sse");
    sym(P.extd2, "ksw_extd2_sse");
    sym(P.exts2, "ksw_exts2_sse");
    sym(P.extend, "gale_ksw2_extend");
    sym(P.last_status, "gale_ksw2_last_status");
    sym(P.last_error, "gale_ksw2_last_error");
    const gale_plugin_info *(*entry)(void) = nullptr;
    sym(entry, "gale_plugin_entry");
    const gale_plugin_info *info = entry();
    const gale_ksw2_api *api = info ? static_cast<const gale_ksw2_api *>(info->api) : nullptr;
    if (!info || std::strcmp(info->name, "ksw2") != 0 || !api || api->size != sizeof(gale_ksw2_api) ||
        api->version != GALE_KSW2_API_VERSION || !api->extz2 || !api->extd2 || !api->exts2 || !api->extend ||
        !api->last_status || !api->last_error) {
        std::fprintf(stderr, "FAIL: the plugin's info or function table\n");
        return 1;
    }
    if (P.extz2 == ksw_extz2_sse) {
        std::fprintf(stderr, "FAIL: dlsym found libminimap2's ksw_extz2_sse, not the plugin's\n");
        return 1;
    }

    const uint64_t seed = tu_seed("ksw2_calls");
    part_single(seed, tu_scaled(8000, 200));
    part_batch(seed, GALE_BACKEND_CPU, tu_scaled(1500, 50));
    part_batch(seed, GALE_BACKEND_AUTO, tu_scaled(500, 30));
    tu::Rng r(seed, 99);
    part_errors(r);
    part_threads(seed, tu_scaled(150, 20));
    // Through the table too.
    P.extz2 = api->extz2, P.extd2 = api->extd2, P.exts2 = api->exts2;
    part_single(seed + 1, tu_scaled(300, 30));

    std::printf("ksw2_calls: %ld calls compared field by field (%ld with a CIGAR, %ld growing it through krealloc, "
                "%ld Z-dropped, %ld spliced calls drawn, %ld with junctions marked)\n",
                compared.load(), seen_cigar.load(), seen_grow.load(), seen_zdropped.load(), seen_splice.load(),
                seen_marked.load());
    if (seen_cigar < compared / 4 || seen_grow < 20 || seen_zdropped < 10 || seen_marked < 10) {
        std::fprintf(stderr, "FAIL: the random calls did not reach enough CIGARs, reallocations, Z-drops or marked "
                     "junctions\n");
        ++failures;
    }
    if (dlclose(P.handle) != 0) {
        std::fprintf(stderr, "FAIL: dlclose: %s\n", dlerror());
        ++failures;
    }
    if (failures) std::fprintf(stderr, "ksw2_calls: %d failure(s)\n", failures.load());
    return failures ? 1 : 0;
}
