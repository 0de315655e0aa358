/* backend_check [cuda]: which backends the installed libgale has, and which one a
 * GALE_BACKEND_AUTO context takes on this machine. With "cuda", fails unless the
 * library has the CUDA backend and AUTO takes it (on a GPU machine: the packages'
 * CUDA flavour runs on the GPU, not on a silent CPU fallback). Built with
 * `pkg-config --cflags --libs gale` by tools/deb-test.sh. */
#include <gale.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int want_cuda = argc > 1 && strcmp(argv[1], "cuda") == 0;
    unsigned f = gale_features();
    gale_ctx *ctx;
    int backend = 0;
    if (gale_ctx_create(&ctx, NULL) != GALE_OK || gale_ctx_backend(ctx, &backend) != GALE_OK) {
        printf("gale_ctx_create: %s\n", gale_last_error());
        return 1;
    }
    gale_ctx_destroy(ctx);
    printf("libgale %s: backends cpu%s%s; CUDA devices %d; GALE_BACKEND_AUTO takes %s\n",
           gale_version_string(), f & GALE_FEATURE_CUDA ? ", cuda" : "",
           f & GALE_FEATURE_DPX ? " (DPX)" : "", gale_cuda_device_count(),
           backend == GALE_BACKEND_CUDA ? "cuda" : "cpu");
    return want_cuda && backend != GALE_BACKEND_CUDA ? 1 : 0;
}
