// GALE_HD: a function the CPU kernels and the CUDA kernels share (inline in lib/, and
// __host__ __device__ where nvcc compiles it).
#ifndef GALE_HD_H
#define GALE_HD_H

#if defined(__CUDACC__)
#define GALE_HD __host__ __device__ __forceinline__
#else
#define GALE_HD inline
#endif

#endif
