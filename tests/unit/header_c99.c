/*
 * header_c99.c - gale.h and gale_plugin.h compile as strict C99 with -Wall -Wextra -Wpedantic
 * -Werror (see meson.build), and every function it declares links against
 * libgale. Linked with it: each part of gale.h (include/gale/, GALE_PARTS_ALONE) compiled
 * alone the same way (header_alone.c.in).
 */
#include "gale.h"
#include "gale_plugin.h"

#include <stdio.h>

typedef void (*any_fn)(void);
#define FN(f) ((any_fn)(f))

int main(void)
{
    /* Every function of gale.h taken by address: a missing export fails the link. */
    const any_fn fns[] = {
        FN(gale_version),       FN(gale_version_string), FN(gale_features),    FN(gale_cuda_device_count),
        FN(gale_status_string), FN(gale_last_error),     FN(gale_ctx_opts_init), FN(gale_ctx_create),
        FN(gale_ctx_destroy),   FN(gale_ctx_backend),    FN(gale_ctx_threads), FN(gale_batch_create),
        FN(gale_batch_destroy), FN(gale_batch_reset),    FN(gale_batch_set),   FN(gale_batch_get),
        FN(gale_task_init),     FN(gale_batch_add),      FN(gale_batch_count), FN(gale_submit),
        FN(gale_poll),          FN(gale_wait),           FN(gale_cancel),      FN(gale_result_get),
        FN(gale_batch_stats),   FN(gale_result_cigar),   FN(gale_plugin_open), FN(gale_plugin_get_info),
        FN(gale_plugin_get_path), FN(gale_plugin_close), FN(gale_plugin_dir),
    };
    size_t i;
    gale_task t;
    gale_ctx_opts o;
    for (i = 0; i < sizeof fns / sizeof fns[0]; ++i)
        if (!fns[i]) return 1;
    gale_task_init(&t);
    gale_ctx_opts_init(&o);
    if (t.size != sizeof t || o.size != sizeof o) return 1;
    if (gale_version() != GALE_VERSION_NUMBER) return 1;
    printf("gale.h as C99: ok (%s); alone: %s\n", gale_version_string(), GALE_PARTS_ALONE);
    return 0;
}
