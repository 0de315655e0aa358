// cuda_startup - the CUDA runtime's own start-up in a new process, without gale: the
// first runtime call that creates the primary context (cudaFree(0)) on device 0, and
// the process's peak resident memory after it. The floor under ctx_startup's figures.
#include <cuda_runtime.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>

int main() {
    auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        std::printf("cuda_startup: no CUDA device\n");
        return 1;
    }
    auto t1 = std::chrono::steady_clock::now();
    cudaSetDevice(0);
    cudaError_t e = cudaFree(0);
    auto t2 = std::chrono::steady_clock::now();
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::printf("cuda_startup: device count %.1f ms, context on device 0 %.1f ms (%s), total %.1f ms; peak RSS %ld MB\n",
                std::chrono::duration<double, std::milli>(t1 - t0).count(),
                std::chrono::duration<double, std::milli>(t2 - t1).count(), cudaGetErrorString(e),
                std::chrono::duration<double, std::milli>(t2 - t0).count(), u.ru_maxrss / 1024);
    return e == cudaSuccess ? 0 : 1;
}
