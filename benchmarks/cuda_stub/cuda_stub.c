/* A stand-in CUDA driver for benchmarks/ptx_resources.py: the calls of the driver API that Taichi 1.7.4 makes (the
   cu* symbols its core library names), enough for it to start its CUDA backend and compile kernels to PTX on a
   machine without a GPU. It reports one device of compute capability 9.0 (an H100/H200: 132 SMs, 32 blocks, 2,048
   threads and 65,536 registers an SM); "device" memory is host memory, kernels are never run (cuLaunchKernel does
   nothing), so nothing a kernel would compute is ever read back: only the PTX is of use.
   Each PTX module passed to cuModuleLoadDataEx is written to $DEM_PTX_DIR/module_<n>.ptx (whole, then renamed); when
   a module's text holds $DEM_PTX_STOP_AT the process exits with status 0 right after writing it.
   Build: cc -shared -fPIC -o libcuda.so cuda_stub.c (ptx_resources.py does). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static int n_modules = 0;
static long fake = 0x1000;
static void *next_handle(void) { fake += 16; return (void *)fake; }
CUresult cuInit(unsigned f) { return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 12040; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int o) { *d = 0; return 0; }
CUresult cuDeviceGetName(char *name, int len, int d) { snprintf(name, len, "stub sm_90 (no GPU)"); return 0; }
CUresult cuDeviceGetAttribute(int *pi, int attrib, int dev) {
  switch (attrib) {
    case 1: *pi = 1024; break;             /* max threads per block */
    case 2: case 3: *pi = 1024; break;     /* max block dims */
    case 4: *pi = 2147483647; break; case 5: case 6: *pi = 65535; break;
    case 8: *pi = 49152; break;            /* shared memory per block */
    case 10: *pi = 32; break;              /* warp size */
    case 12: *pi = 65536; break;           /* registers per block */
    case 16: *pi = 132; break;             /* multiprocessors */
    case 39: *pi = 2048; break;            /* max threads per SM */
    case 75: *pi = 9; break; case 76: *pi = 0; break;   /* compute capability 9.0 */
    case 81: *pi = 233472; break; case 82: *pi = 65536; break;
    case 97: *pi = 232448; break;
    case 106: *pi = 32; break;           /* max blocks per SM */
    default: *pi = 0;
  }
  return 0;
}
CUresult cuCtxCreate_v2(void **c, unsigned f, int d) { *c = next_handle(); return 0; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { *c = next_handle(); return 0; }
static void *current = (void *)0x100;
CUresult cuCtxGetCurrent(void **c) { *c = current; return 0; }
CUresult cuCtxSetCurrent(void *c) { current = c; return 0; }
CUresult cuCtxSetLimit(int l, size_t v) { return 0; }
CUresult cuMemGetInfo_v2(size_t *fr, size_t *tot) { *fr = (size_t)8 << 30; *tot = (size_t)8 << 30; return 0; }
static void *alloc(size_t n) { void *p = NULL; if (posix_memalign(&p, 4096, n ? n : 8)) return NULL; return p; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { void *q = alloc(n); if (!q) return 2; *p = (CUdeviceptr)q; return 0; }
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned f) { return cuMemAlloc_v2(p, n); }
CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, void *s) { return cuMemAlloc_v2(p, n); }
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)p); return 0; }
CUresult cuMemFreeAsync(CUdeviceptr p, void *s) { return cuMemFree_v2(p); }
CUresult cuMemAdvise(CUdeviceptr p, size_t n, int a, int d) { return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)d, s, n); return 0; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, void *st) { return cuMemcpyHtoD_v2(d, s, n); }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)s, n); return 0; }
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, void *st) { return cuMemcpyDtoH_v2(d, s, n); }
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { memmove((void *)d, (void *)s, n); return 0; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { memset((void *)d, v, n); return 0; }
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n) { unsigned *p = (unsigned *)d; for (size_t i = 0; i < n; i++) p[i] = v; return 0; }
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, void *o, void **v) {
  const char *dir = getenv("DEM_PTX_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/module_%04d.ptx", dir ? dir : ".", n_modules++);
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.part", path);
  FILE *f = fopen(tmp, "w");
  if (f) { fputs((const char *)image, f); fclose(f); rename(tmp, path); }
  const char *stop = getenv("DEM_PTX_STOP_AT");
  if (stop && *stop && strstr((const char *)image, stop)) _exit(0);
  *m = next_handle();
  return 0;
}
CUresult cuModuleGetFunction(void **f, void *m, const char *name) { *f = next_handle(); return 0; }
CUresult cuFuncGetAttribute(int *pi, int a, void *f) { *pi = a == 0 ? 1024 : 0; return 0; }
CUresult cuFuncSetAttribute(void *f, int a, int v) { return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned sh, void *s, void **p, void **e) { return 0; }
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int b, size_t s) { *n = 1; return 0; }
CUresult cuStreamCreate(void **s, unsigned f) { *s = next_handle(); return 0; }
CUresult cuStreamSynchronize(void *s) { return 0; }
CUresult cuEventCreate(void **e, unsigned f) { *e = next_handle(); return 0; }
CUresult cuEventDestroy(void *e) { return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = 0.f; return 0; }
CUresult cuPointerGetAttribute(void *d, int a, CUdeviceptr p) { return 1; }
CUresult cuDeviceGetDefaultMemPool(void **p, int d) { *p = next_handle(); return 0; }
CUresult cuMemPoolSetAttribute(void *p, int a, void *v) { return 0; }
CUresult cuGetErrorName(CUresult r, const char **s) { *s = "CUDA_ERROR_STUB"; return 0; }
CUresult cuGetErrorString(CUresult r, const char **s) { *s = "stub driver: no GPU"; return 0; }
CUresult cuImportExternalMemory(void **m, const void *d) { return 801; }
CUresult cuExternalMemoryGetMappedBuffer(CUdeviceptr *p, void *m, const void *d) { return 801; }
CUresult cuExternalMemoryGetMappedMipmappedArray(void **a, void *m, const void *d) { return 801; }
CUresult cuImportExternalSemaphore(void **s, const void *d) { return 801; }
CUresult cuSignalExternalSemaphoresAsync(void *a, void *b, unsigned n, void *s) { return 801; }
CUresult cuWaitExternalSemaphoresAsync(void *a, void *b, unsigned n, void *s) { return 801; }
CUresult cuMipmappedArrayGetLevel(void **a, void *m, unsigned l) { return 801; }
CUresult cuSurfObjectCreate(unsigned long long *o, const void *d) { return 801; }
