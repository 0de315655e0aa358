// gale-lastz.so: LASTZ 1.04.22's gapped stage from a caller's anchor table, on gale's
// public API (gale_lastz_extend). Semantics, ownership and errors: gale_lastz_plugin.h.
// Only gale_plugin_entry and the header's C functions are exported (lastz.map).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gale.h"
#include "gale_lastz_plugin.h"
#include "gale_plugin.h"
#include "../common/plugin_errors.hpp"

struct gale_lastz_session {
    gale_lastz_params params{};
    gale_ctx *ctx = nullptr;
    struct Seq {
        const char *seq;
        int64_t len;
        std::vector<char> rc;  // the reverse complement (queries), made on first need
    };
    std::vector<Seq> targets, queries;
    ~gale_lastz_session() { gale_ctx_destroy(ctx); }
};

struct gale_lastz_hits {
    struct Hit {
        gale_lastz_hit h;
        size_t op0;  // its CIGAR in ops
    };
    std::vector<Hit> hits;
    std::vector<uint32_t> ops;
    uint64_t truncations = 0;
};

namespace {

char complement(char c) {
    switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    case 'a': return 't';
    case 'c': return 'g';
    case 'g': return 'c';
    case 't': return 'a';
    default: return c;  // N, X and the other letters, as lastz leaves them
    }
}

struct ResultGuard {
    gale_lastz_result *r = nullptr;
    ~ResultGuard() { gale_lastz_result_free(r); }
};

uint32_t add(std::vector<gale_lastz_session::Seq> &v, const char *seq, int64_t len, const char *kind) {
    if (!seq && len != 0) fail(GALE_E_INVALID, "gale_lastz_session_add_%s: NULL sequence", kind);
    if (len < 0) fail(GALE_E_INVALID, "gale_lastz_session_add_%s: length %lld < 0", kind, (long long)len);
    if (v.size() >= UINT32_MAX) fail(GALE_E_LIMIT, "gale_lastz_session_add_%s: too many sequences", kind);
    v.push_back({seq, len, {}});
    return (uint32_t)(v.size() - 1);
}

void run(gale_lastz_session *s, const gale_lastz_seed *seeds, size_t n, gale_lastz_hits **out) {
    if (!s || !out || (!seeds && n)) fail(GALE_E_INVALID, "gale_lastz_session_run: NULL argument");
    // the anchors grouped by (target, query, strand), in lastz's order of those
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; i++) {
        const gale_lastz_seed &g = seeds[i];
        if (g.target >= s->targets.size() || g.query >= s->queries.size())
            fail(GALE_E_INPUT, "anchor %zu: target %u or query %u is not registered (%zu targets, %zu queries)", i,
                 g.target, g.query, s->targets.size(), s->queries.size());
        if (g.strand != '+' && g.strand != '-')
            fail(GALE_E_INPUT, "anchor %zu: strand '%c', not '+' or '-'", i, g.strand);
        if (g.length == 0 || g.start1 == 0 || g.start2 == 0 ||
            (int64_t)g.start1 - 1 + g.length > s->targets[g.target].len ||
            (int64_t)g.start2 - 1 + g.length > s->queries[g.query].len)
            fail(GALE_E_INPUT, "anchor %zu: %u..%u on target %u or %u..%u on query %u%c lies outside it", i, g.start1,
                 g.start1 + g.length - 1, g.target, g.start2, g.start2 + g.length - 1, g.query, g.strand);
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const gale_lastz_seed &x = seeds[a], &y = seeds[b];
        if (x.target != y.target) return x.target < y.target;
        if (x.query != y.query) return x.query < y.query;
        return x.strand == '+' && y.strand == '-';
    });
    std::unique_ptr<gale_lastz_hits> hits(new gale_lastz_hits);
    std::vector<gale_lastz_anchor> an;
    for (size_t i = 0; i < n;) {
        const gale_lastz_seed &g0 = seeds[order[i]];
        an.clear();
        size_t j = i;
        for (; j < n; j++) {
            const gale_lastz_seed &g = seeds[order[j]];
            if (g.target != g0.target || g.query != g0.query || g.strand != g0.strand) break;
            an.push_back({g.start1 - 1, g.start2 - 1, g.length, g.score});
        }
        i = j;
        const auto &t = s->targets[g0.target];
        auto &q = s->queries[g0.query];
        const char *qs = q.seq;
        if (g0.strand == '-') {
            if (q.rc.size() != (size_t)q.len) {
                q.rc.resize((size_t)q.len);
                for (int64_t k = 0; k < q.len; k++) q.rc[(size_t)k] = complement(q.seq[q.len - 1 - k]);
            }
            qs = q.rc.data();
        }
        gale_lastz_params p = s->params;
        p.flags = (p.flags & ~GALE_LASTZ_MINUS) | (g0.strand == '-' ? GALE_LASTZ_MINUS : 0u);
        ResultGuard r;
        check(gale_lastz_extend(s->ctx, t.seq, t.len, qs, q.len, an.data(), an.size(), &p, &r.r),
              "gapped extension");
        hits->truncations += gale_lastz_result_truncations(r.r);
        for (size_t k = 0; k < gale_lastz_result_count(r.r); k++) {
            gale_lastz_alignment a;
            a.size = sizeof a;
            check(gale_lastz_result_get(r.r, k, &a), "reading an alignment");
            gale_lastz_hits::Hit h{};
            h.h.target = g0.target;
            h.h.query = g0.query;
            h.h.strand = g0.strand;
            h.h.beg1 = a.beg1;
            h.h.end1 = a.end1;
            h.h.beg2 = a.beg2;
            h.h.end2 = a.end2;
            h.h.score = a.score;
            h.h.n_ops = a.n_ops;
            h.op0 = hits->ops.size();
            hits->ops.insert(hits->ops.end(), a.cigar, a.cigar + a.n_ops);
            hits->hits.push_back(h);
        }
    }
    *out = hits.release();
}


}  // namespace

extern "C" {

GALE_LASTZ_PLUGIN_FN const char *gale_lastz_plugin_last_error(void) { return tls_error; }

#define LZ_GUARD(body) \
    guard("lastz", [&] { body; }, [](gale_status, const char *message) { set_error("%s", message); })

GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_create(const gale_lastz_params *params, gale_lastz_session **out) {
    return LZ_GUARD({
        if (!out) fail(GALE_E_INVALID, "gale_lastz_session_create: NULL out");
        std::unique_ptr<gale_lastz_session> s(new gale_lastz_session);
        gale_lastz_params_init(&s->params);
        if (params) {
            if (params->size != sizeof(gale_lastz_params))
                fail(GALE_E_INVALID, "gale_lastz_params.size %zu, the plugin's is %zu", params->size,
                     sizeof(gale_lastz_params));
            s->params = *params;
        }
        check(gale_ctx_create(&s->ctx, nullptr), "creating a gale context");
        *out = s.release();
    });
}

GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_add_target(gale_lastz_session *s, const char *seq, int64_t len,
                                                              uint32_t *id) {
    return LZ_GUARD({
        if (!s) fail(GALE_E_INVALID, "gale_lastz_session_add_target: NULL session");
        const uint32_t k = add(s->targets, seq, len, "target");
        if (id) *id = k;
    });
}

GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_add_query(gale_lastz_session *s, const char *seq, int64_t len,
                                                             uint32_t *id) {
    return LZ_GUARD({
        if (!s) fail(GALE_E_INVALID, "gale_lastz_session_add_query: NULL session");
        const uint32_t k = add(s->queries, seq, len, "query");
        if (id) *id = k;
    });
}

GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_run(gale_lastz_session *s, const gale_lastz_seed *seeds, size_t n,
                                                       gale_lastz_hits **out) {
    return LZ_GUARD(run(s, seeds, n, out));
}

GALE_LASTZ_PLUGIN_FN void gale_lastz_session_destroy(gale_lastz_session *s) { delete s; }

GALE_LASTZ_PLUGIN_FN size_t gale_lastz_hits_count(const gale_lastz_hits *h) { return h ? h->hits.size() : 0; }

GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_hits_get(const gale_lastz_hits *h, size_t i, gale_lastz_hit *out) {
    return LZ_GUARD({
        if (!h || !out) fail(GALE_E_INVALID, "gale_lastz_hits_get: NULL argument");
        if (i >= h->hits.size()) fail(GALE_E_RANGE, "gale_lastz_hits_get: %zu of %zu alignments", i, h->hits.size());
        *out = h->hits[i].h;
        out->cigar = h->ops.data() + h->hits[i].op0;
    });
}

GALE_LASTZ_PLUGIN_FN uint64_t gale_lastz_hits_truncations(const gale_lastz_hits *h) { return h ? h->truncations : 0; }

GALE_LASTZ_PLUGIN_FN void gale_lastz_hits_free(gale_lastz_hits *h) { delete h; }

}  // extern "C"

namespace {
const gale_lastz_plugin_api kApi = {
    sizeof(gale_lastz_plugin_api),
    GALE_LASTZ_PLUGIN_API_VERSION,
    gale_lastz_session_create,
    gale_lastz_session_add_target,
    gale_lastz_session_add_query,
    gale_lastz_session_run,
    gale_lastz_session_destroy,
    gale_lastz_hits_count,
    gale_lastz_hits_get,
    gale_lastz_hits_truncations,
    gale_lastz_hits_free,
    gale_lastz_plugin_last_error,
};

const gale_plugin_info kInfo = {
    GALE_PLUGIN_ABI,
    sizeof(gale_plugin_info),
    "lastz",
    GALE_LASTZ_PLUGIN_VERSION,
    "LASTZ 1.04.22's gapped stage (lastz --segments) from the caller's anchors: register sequences, pass anchors, "
    "get lastz's alignments",
    &kApi,
};
}  // namespace

extern "C" GALE_PLUGIN_EXPORT const gale_plugin_info *gale_plugin_entry(void) { return &kInfo; }
