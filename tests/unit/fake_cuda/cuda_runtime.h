// A fake CUDA runtime for tests/unit/pipeline_host.cpp: just the calls that
// cuda/device.cu and cuda/common/pipeline.cuh make, on the host. Streams are
// synchronous (a copy happens when it is queued), device memory is host memory, and
// a call can be made to fail as a real one fails (fake::fail): it returns the error
// and leaves it in the last-error state, and a sticky error makes every later call
// fail too, until fake::reset.
#ifndef GALE_TEST_FAKE_CUDA_RUNTIME_H
#define GALE_TEST_FAKE_CUDA_RUNTIME_H

#include <cstddef>
#include <cstdlib>
#include <cstring>

enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchFailure = 719,
};
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
enum cudaDeviceAttr { cudaDevAttrComputeCapabilityMajor = 75 };
#define cudaStreamNonBlocking 0x01
struct CUstream_st {
    int unused;
};
struct CUevent_st {
    int unused;
};
typedef CUstream_st *cudaStream_t;
typedef CUevent_st *cudaEvent_t;
struct cudaDeviceProp {
    int multiProcessorCount = 4;
};
struct cudaFuncAttributes {
    int binaryVersion = 0;
};

namespace fake {
// The state, defined by the test: the last error, a sticky error, the call that fails
// next (its name, which call of that name, the error), and what is allocated.
struct State {
    cudaError_t last = cudaSuccess, sticky = cudaSuccess;
    const char *fail_call = nullptr;
    int fail_nth = 0, seen = 0;
    cudaError_t fail_code = cudaSuccess;
    long objects = 0, host = 0;  // streams, events and device allocations; pinned allocations
};
extern State state;
inline void reset() { state = State{}; }
// The nth call named `call` from now on fails with e (sticky: cudaErrorIllegalAddress, cudaErrorLaunchFailure).
inline void fail(const char *call, int nth, cudaError_t e) {
    state.fail_call = call;
    state.fail_nth = nth;
    state.seen = 0;
    state.fail_code = e;
}
inline cudaError_t ret(const char *name) {
    if (state.sticky != cudaSuccess) return state.last = state.sticky;
    if (state.fail_call && std::strcmp(state.fail_call, name) == 0 && ++state.seen == state.fail_nth) {
        if (state.fail_code == cudaErrorIllegalAddress || state.fail_code == cudaErrorLaunchFailure)
            state.sticky = state.fail_code;
        return state.last = state.fail_code;
    }
    return cudaSuccess;
}
}  // namespace fake

inline const char *cudaGetErrorName(cudaError_t e) {
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    }
    return "?";
}
inline const char *cudaGetErrorString(cudaError_t) { return "fake"; }
inline cudaError_t cudaGetLastError() {
    const cudaError_t e = fake::state.last;
    fake::state.last = fake::state.sticky;
    return e;
}
inline cudaError_t cudaSetDevice(int) { return fake::ret("cudaSetDevice"); }
inline cudaError_t cudaGetDevice(int *d) {
    *d = 0;
    return fake::ret("cudaGetDevice");
}
inline cudaError_t cudaGetDeviceCount(int *n) {
    *n = 1;
    return fake::ret("cudaGetDeviceCount");
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
    *p = cudaDeviceProp{};
    return fake::ret("cudaGetDeviceProperties");
}
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr, int) {
    *v = 9;
    return fake::ret("cudaDeviceGetAttribute");
}
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *) {
    a->binaryVersion = 90;
    return fake::ret("cudaFuncGetAttributes");
}
inline cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b) {
    *free_b = (size_t)1 << 30;
    *total_b = (size_t)2 << 30;
    return fake::ret("cudaMemGetInfo");
}
template <class T>
cudaError_t cudaMalloc(T **p, size_t n) {
    const cudaError_t e = fake::ret("cudaMalloc");
    if (e == cudaSuccess) {
        *p = static_cast<T *>(std::malloc(n));
        ++fake::state.objects;
    }
    return e;
}
inline cudaError_t cudaFree(void *p) {
    std::free(p);
    --fake::state.objects;
    return fake::ret("cudaFree");
}
template <class T>
cudaError_t cudaMallocHost(T **p, size_t n) {
    const cudaError_t e = fake::ret("cudaMallocHost");
    if (e == cudaSuccess) {
        *p = static_cast<T *>(std::malloc(n));
        ++fake::state.host;
    }
    return e;
}
// The cancel word (cuda/device.cu): pinned and mapped; its device pointer is the host's.
constexpr unsigned cudaHostAllocMapped = 2;
inline cudaError_t cudaHostAlloc(void **p, size_t n, unsigned) {
    const cudaError_t e = fake::ret("cudaHostAlloc");
    if (e == cudaSuccess) {
        *p = std::calloc(1, n);
        ++fake::state.host;
    }
    return e;
}
inline cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned) {
    *dev = host;
    return fake::ret("cudaHostGetDevicePointer");
}
inline cudaError_t cudaFreeHost(void *p) {
    std::free(p);
    --fake::state.host;
    return fake::ret("cudaFreeHost");
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
    const cudaError_t e = fake::ret("cudaStreamCreateWithFlags");
    if (e == cudaSuccess) {
        *s = new CUstream_st{0};
        ++fake::state.objects;
    }
    return e;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
    delete s;
    --fake::state.objects;
    return fake::ret("cudaStreamDestroy");
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return fake::ret("cudaStreamSynchronize"); }
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
    const cudaError_t r = fake::ret("cudaEventCreate");
    if (r == cudaSuccess) {
        *e = new CUevent_st{0};
        ++fake::state.objects;
    }
    return r;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
    if (e) {
        delete e;
        --fake::state.objects;
    }
    return fake::ret("cudaEventDestroy");
}
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return fake::ret("cudaEventRecord"); }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
    *ms = 1;
    return fake::ret("cudaEventElapsedTime");
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind, cudaStream_t) {
    const cudaError_t e = fake::ret("cudaMemcpyAsync");
    if (e == cudaSuccess && n) std::memcpy(dst, src, n);
    return e;
}
inline cudaError_t cudaMemsetAsync(void *dst, int v, size_t n, cudaStream_t) {
    const cudaError_t e = fake::ret("cudaMemsetAsync");
    if (e == cudaSuccess) std::memset(dst, v, n);
    return e;
}

#endif
