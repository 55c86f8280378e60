// NC_HD marks functions compiled for both host and device, so the index math, launch geometry and
// word decoders that the kernels use are the very code the CPU tests exercise.
#pragma once
#if defined(__CUDACC__)
#define NC_HD __host__ __device__ __forceinline__
#else
#define NC_HD inline
#endif
