// The `cuda` target: include/ninfer_conform/plugin.h's nc_plugin_v1 implemented by launching the
// kernels. Every output goes through a guarded device buffer (guarded_buffer.h): poisoned before
// the launch, fenced by sentinels, checked after it. A fault is printed on stderr and returned as
// kStatusKernelFault. Without a usable device every entry point prints why (once) and returns
// NC_EUNSUPPORTED, so the runner reports the target untested rather than failed.
//
// Built twice from the same sources: libnc_cuda_plugin.so (default nvcc flags: exact) and
// libnc_cuda_plugin_fastmath.so (--use_fast_math: the negative control, NC_CUDA_PLUGIN_VARIANT).
#include <cuda_runtime.h>

#include <cstdio>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "ninfer_conform/plugin.h"
#include "kernels/guarded_buffer.h"
#include "kernels/index_math.h"
#include "kernels/kernels.h"
#include "kernels/reconstruct.cuh"

#ifndef NC_CUDA_PLUGIN_VARIANT
#define NC_CUDA_PLUGIN_VARIANT "cuda"
#endif

namespace nc::kernels {
namespace {

// Not an ABI status: "the kernel misbehaved" (unwritten element, out-of-bounds write, CUDA error).
constexpr int kStatusKernelFault = 3;

bool device_available() {
  static const bool available = [] {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      std::fprintf(stderr,
                   "nc_cuda_plugin(%s): no usable CUDA device (%s); every entry point returns "
                   "NC_EUNSUPPORTED\n",
                   NC_CUDA_PLUGIN_VARIANT, e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
      return false;
    }
    return true;
  }();
  return available;
}

template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t n) : n_(n) {
    if (n && cudaMalloc(&p_, n * sizeof(T)) != cudaSuccess) p_ = nullptr;
  }
  DeviceArray(const T* host, size_t n) : DeviceArray(n) {
    if (p_ && host) cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~DeviceArray() { cudaFree(p_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return p_; }
  bool ok() const { return n_ == 0 || p_ != nullptr; }

 private:
  T* p_ = nullptr;
  size_t n_;
};

// One guarded output of a call. Run 0 records the suspects (payload words still holding poison 0);
// run 1, poisoned differently, confirms which of them were really never written.
class GuardedOutput {
 public:
  virtual ~GuardedOutput() = default;
  virtual bool fill(int poison) = 0;                            // upload sentinels + poison
  virtual bool fetch() = 0;                                     // copy the whole guarded region back
  virtual std::string check(int run, bool want_unwritten) = 0;  // "" when clean
  virtual bool has_suspects() const = 0;
  virtual void deliver() = 0;  // payload -> caller's host array
};

template <typename T>
class Guarded final : public GuardedOutput {
 public:
  Guarded(const char* what, T* host_out, size_t n) : what_(what), out_(host_out), n_(n), dev_(n + 2 * kGuardWords) {}
  T* payload() const { return dev_.get() + kGuardWords; }
  bool fill(int poison) override {
    host_ = make_guarded<T>(n_, poison_word<T>(poison));
    return dev_.ok() &&
           cudaMemcpy(dev_.get(), host_.data(), host_.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess;
  }
  bool fetch() override {
    return cudaMemcpy(host_.data(), dev_.get(), host_.size() * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess;
  }
  std::string check(int run, bool want_unwritten) override {
    const GuardReport r = check_guarded<T>(host_, n_, poison_word<T>(run));
    std::vector<size_t> unwritten;
    if (run == 0) suspects_ = r.suspects;
    else if (want_unwritten) unwritten = confirm_unwritten<T>(suspects_, host_, poison_word<T>(1));
    return describe_guard_failure(what_, n_, r.oob_offset, unwritten);
  }
  bool has_suspects() const override { return !suspects_.empty(); }
  void deliver() override {
    for (size_t i = 0; i < n_; ++i) out_[i] = host_[kGuardWords + i];
  }

 private:
  const char* what_;
  T* out_;
  size_t n_;
  DeviceArray<T> dev_;
  std::vector<T> host_;
  std::vector<size_t> suspects_;
};

int fault(const std::string& msg) {
  std::fprintf(stderr, "nc_cuda_plugin(%s): %s\n", NC_CUDA_PLUGIN_VARIANT, msg.c_str());
  return kStatusKernelFault;
}

int finish_launch(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return fault(std::string(what) + ": " + cudaGetErrorString(e));
  return NC_OK;
}

// Launch with poison 0; if an output that must be fully written still holds poison somewhere,
// launch again with poison 1 and report the elements that held the poison both times.
// must_write_all is asked after the first launch (the encoder's outputs are unspecified on failure).
int guarded_call(const char* what, std::initializer_list<GuardedOutput*> outs, const std::function<int()>& launch,
                 const std::function<bool()>& must_write_all) {
  std::string msg;
  for (int run = 0; run < 2; ++run) {
    for (auto* o : outs)
      if (!o->fill(run)) return fault(std::string(what) + ": device allocation or upload failed");
    if (int st = launch(); st != NC_OK) return st;
    if (int st = finish_launch(what); st != NC_OK) return st;
    const bool want_unwritten = must_write_all();
    bool any_suspects = false;
    for (auto* o : outs) {
      if (!o->fetch()) return fault(std::string(what) + ": download failed");
      const std::string m = o->check(run, want_unwritten);
      if (!m.empty()) msg += (msg.empty() ? "" : "; ") + m;
      any_suspects |= o->has_suspects();
    }
    if (!msg.empty()) return fault(msg);
    if (!want_unwritten || !any_suspects) break;  // nothing left to confirm
  }
  for (auto* o : outs) o->deliver();
  return NC_OK;
}

int nc_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  if (!device_available()) return NC_EUNSUPPORTED;
  if (n == 0) return NC_OK;
  DeviceArray<uint32_t> in(words, n);
  Guarded<uint32_t> g_out("decode out", out, n);
  Guarded<uint8_t> g_valid("decode valid", valid, n);
  return guarded_call(
      "decode", {&g_out, &g_valid}, [&] { return launch_decode(wt, in.get(), n, g_out.payload(), g_valid.payload()); },
      [] { return true; });
}

int nc_reconstruct(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor, size_t n,
                   uint32_t* out) {
  if (!device_available()) return NC_EUNSUPPORTED;
  if (n == 0) return NC_OK;
  if (scale && fmt > NC_FORMAT_I32 && fmt <= NC_FORMAT_FP8_E4M3FN_ROW_BF16S)
    for (size_t i = 0; i < n; ++i)
      if (!reconstructible(fmt, code[i], scale[i])) return NC_EINVALID;
  DeviceArray<uint32_t> c(code, n), s(scale, scale ? n : 0), d(divisor, divisor ? n : 0);
  Guarded<uint32_t> g_out("reconstruct out", out, n);
  return guarded_call(
      "reconstruct", {&g_out},
      [&] {
        return launch_reconstruct(fmt, c.get(), scale ? s.get() : nullptr, divisor ? d.get() : nullptr, n,
                                  g_out.payload());
      },
      [] { return true; });
}

int nc_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (!device_available()) return NC_EUNSUPPORTED;
  if (n == 0) return NC_OK;
  DeviceArray<uint32_t> in(src, n);
  Guarded<uint32_t> g_out("convert out", out, n);
  return guarded_call(
      "convert", {&g_out}, [&] { return launch_convert(recipe, in.get(), n, g_out.payload()); }, [] { return true; });
}

int nc_encode(nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows, size_t k, uint32_t* scales,
              int32_t* codes, uint32_t* /*trace: not reported*/, int32_t* outcome) {
  if (!device_available()) return NC_EUNSUPPORTED;
  const uint32_t group = fmt == NC_FORMAT_W8G32_F16S ? 32 : 64;
  if (rows == 0 || k == 0) return NC_EINVALID;
  const size_t n = rows * k, n_scales = rows * ((k + group - 1) / group);
  DeviceArray<uint64_t> in(src, n);
  DeviceArray<uint32_t> flags(1);
  uint32_t host_flags = 0;
  Guarded<uint32_t> g_scales("encode scales", scales, n_scales);
  Guarded<int32_t> g_codes("encode codes", codes, n);
  const int st = guarded_call(
      "encode", {&g_scales, &g_codes},
      [&] {
        if (cudaMemset(flags.get(), 0, sizeof(uint32_t)) != cudaSuccess) return kStatusKernelFault;
        return launch_encode(fmt, src_type, in.get(), rows, k, g_scales.payload(), g_codes.payload(), flags.get());
      },
      [&] {
        cudaMemcpy(&host_flags, flags.get(), sizeof host_flags, cudaMemcpyDeviceToHost);
        return host_flags == 0;
      });
  if (st != NC_OK) return st;
  *outcome = (host_flags & kEncodeFlagNonfinite)       ? NC_ENCODE_FAIL_NONFINITE
             : (host_flags & kEncodeFlagScaleOverflow) ? NC_ENCODE_FAIL_SCALE_OVERFLOW
                                                       : NC_ENCODE_OK;
  return NC_OK;
}

int nc_dequantize(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
                  const uint32_t* scales, size_t n_scales, const uint32_t* divisor, uint32_t* out) {
  if (!device_available()) return NC_EUNSUPPORTED;
  if (rank == 0 || shape[rank - 1] == 0) return NC_EINVALID;
  uint64_t total = 1;
  for (size_t i = 0; i < rank; ++i) total *= shape[i];
  if (total != n_codes) return NC_EINVALID;
  if (n_codes == 0) return NC_OK;
  const uint64_t k = shape[rank - 1], rows = total / k;
  // The scale plane must match the geometry, or the kernel would read past it.
  if (fmt > NC_FORMAT_I32) {
    const uint32_t group = fmt == NC_FORMAT_W8G32_F16S             ? 32
                           : fmt == NC_FORMAT_NVFP4                ? 16
                           : fmt == NC_FORMAT_FP8_E4M3FN_ROW_BF16S ? 0
                                                                   : 64;
    if (!scales || n_scales != rows * scales_per_row(ScaleGeometry{k, group})) return NC_EINVALID;
    if (fmt == NC_FORMAT_NVFP4 && !divisor) return NC_EINVALID;
    if (fmt == NC_FORMAT_NVFP4 && k % 16 != 0) return NC_EINVALID;  // spec 3.3: full 16-code blocks only
  }
  DeviceArray<uint32_t> c(codes, n_codes), s(scales, scales ? n_scales : 0), d(divisor, divisor ? 1 : 0);
  Guarded<uint32_t> g_out("dequantize out", out, n_codes);
  return guarded_call(
      "dequantize", {&g_out},
      [&] {
        return launch_dequantize(fmt, rows, k, c.get(), scales ? s.get() : nullptr, divisor ? d.get() : nullptr,
                                 g_out.payload());
      },
      [] { return true; });
}

// Where the kernels' NVFP4 block scales sit in the blockscale-k16-m128x4-v1 plane: the same
// host/device index function a scale-reading kernel uses (index_math.h), answered on the host.
int nc_layout_offsets(nc_format fmt, nc_layout layout, const uint64_t* rows, const uint64_t* k, const uint64_t* row,
                      const uint64_t* block, size_t n, uint64_t* offset, uint64_t* plane_bytes) {
  if (n && (!rows || !k || !row || !block || !offset || !plane_bytes)) return NC_EINVALID;
  if (fmt != NC_FORMAT_NVFP4 || layout != NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1) return NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    if (k[i] % 16 != 0) return NC_EINVALID;  // spec 3.3: no partial final block (FORMAT.md "Layout refusals")
    const BlockscaleTiles t = blockscale_tiles(rows[i], k[i]);
    if (row[i] >= rows[i] || block[i] >= t.blocks) return NC_EINVALID;
    offset[i] = blockscale_offset(t, row[i], block[i]);
    plane_bytes[i] = t.plane_bytes;
  }
  return NC_OK;
}

// validate_word, parse_format and validate_tensor are host bookkeeping, not GPU arithmetic: NULL,
// so the runner reports them untested for this target.
const nc_plugin_v1 kPlugin = {
    NC_PLUGIN_ABI_VERSION,
    "ninfer-" NC_CUDA_PLUGIN_VARIANT,
    "0.1.0",
    nc_decode,
    nullptr,
    nullptr,
    nc_reconstruct,
    nc_convert,
    nc_encode,
    nullptr,
    nc_dequantize,
    nc_layout_offsets,
};

}  // namespace
}  // namespace nc::kernels

extern "C" __attribute__((visibility("default"))) const nc_plugin_v1* ninfer_conform_plugin_v1(void) {
  return &nc::kernels::kPlugin;
}
