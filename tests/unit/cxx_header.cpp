// cxx_header.cpp - gale.h compiles as C++ (-Wall -Wextra -Wpedantic -Werror,
// see meson.build), its declarations have C linkage (the link succeeds against
// the C-built names of libgale), and its structs are usable from C++. Linked with
// it: each part of gale.h (include/gale/, GALE_PARTS_ALONE) compiled alone as C++
// the same way (header_alone.c.in).
#include "gale.h"
#include "gale_plugin.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

static_assert(std::is_standard_layout<gale_task>::value, "gale_task is plain data");
static_assert(std::is_standard_layout<gale_result>::value, "gale_result is plain data");
static_assert(std::is_standard_layout<gale_ctx_opts>::value, "gale_ctx_opts is plain data");
static_assert(std::is_standard_layout<gale_stats>::value, "gale_stats is plain data");
static_assert(std::is_trivially_copyable<gale_result>::value, "gale_result is trivially copyable");
static_assert(GALE_VERSION_NUMBER == GALE_VERSION_MAJOR * 10000 + GALE_VERSION_MINOR * 100 + GALE_VERSION_PATCH,
              "version number");

int main() {
    if (gale_version() != GALE_VERSION_NUMBER) return 1;
    if (!(gale_features() & GALE_FEATURE_CPU)) return 1;

    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1;
    gale_ctx *ctx = nullptr;
    if (gale_ctx_create(&ctx, &o) != GALE_OK) return 1;
    gale_batch *b = nullptr;
    if (gale_batch_create(ctx, GALE_XDROP, &b) != GALE_OK) return 1;

    gale_task t;
    gale_task_init(&t);
    const char *s = "ACGTACGTAC";
    t.h = s;
    t.v = s;
    t.h_len = t.v_len = 10;
    t.h_begin = t.v_begin = 4;
    t.h_end = t.v_end = 6;
    t.user = 42;
    if (gale_batch_add(b, &t) != GALE_OK) return 1;
    if (gale_submit(b) != GALE_OK || gale_wait(b) != GALE_OK) return 1;
    gale_result r;
    std::memset(&r, 0, sizeof r);
    r.size = sizeof r;
    if (gale_result_get(b, 0, &r) != GALE_OK) return 1;
    // identical 10-mers, seed [4,6) in the middle, defaults +1/-1/-1 X 100: the
    // whole pair, 4 + 4 + 2 (worked out in api_contract.c, hand case 1)
    if (r.score != 10 || r.user != 42 || r.h_begin != 0 || r.h_end != 10) return 1;
    if (gale_batch_destroy(b) != GALE_OK || gale_ctx_destroy(ctx) != GALE_OK) return 1;
    std::printf("gale.h as C++: ok (%s); alone: %s\n", gale_version_string(), GALE_PARTS_ALONE);
    return 0;
}
