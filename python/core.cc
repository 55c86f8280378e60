// ninfer_conform._core: the CLI's commands run in process, and a Python object as a target.
//
// A Python target is an object (or a module) with methods that take and return arrays of words:
//   convert(recipe, words)             words: uint32 binary32 bits -> destination words
//   decode(word_type, words)           -> uint32 binary32 bits (or (bits, valid))
//   validate_word(format, component, words) -> 0/1 per word
//   reconstruct(format, code, scale, divisor or None) -> uint32 binary32 bits (or (bits, valid):
//                                      valid 0 where the pair has no value, FORMAT.md "Invalid pairs")
//   dequantize(format, shape, codes, scales, divisor) -> uint32 binary32 bits, one per code
//   validate_tensor(format, shape, codes, scales, divisor) -> "valid" or (rule, where)
//   encode(format, source_type, words)  words: uint64 [rows, K] -> (scales, codes) or "nonfinite"
//                                      or "scale-overflow"
//   parse_format(name)                 name: bytes -> the registry name (str), or False to reject
//   layout_offsets(format, layout, rows, k, row, block) -> (offset, plane_bytes) (or with a third
//                                      array, valid: 0 where the request has no position)
// The tensor ops take shape as a tuple of ints (the last is K), codes and scales as flat uint32
// arrays of the planes' words in row-major order (codes.reshape(shape) is a view: no copy), and
// divisor as NVFP4's d_w bits (an int) or None; where is the flat index of the offending word in
// its plane (rule names the plane), or None / -1 where it cannot be located. encode's words are
// the source words (FP32, BF16, F16: low bits; F64: all 64), every leading coordinate one row.
// Each becomes an entry of an nc_plugin_v1 table (include/ninfer_conform/plugin.h) registered
// under the spec "python:NAME" (runners/target_factory.h) for the length of one command, so
// replay, certify and sweep drive it exactly as they drive the built-in `cpu` table: same
// judging, same reports, and the same batches but a sweep's, which are longer (kSweepBatch). The
// runner's input buffers reach Python as read-only NumPy views (no copy; valid during the call
// only); a result may be any array nanobind reads (NumPy, or a DLPack tensor such as torch's or
// JAX's on the CPU) and is copied once into the runner's
// buffer (decode's and convert's after the call lets the GIL go: LaterCopies), or, a sweep's
// convert results, judged where they lie (py_convert_words). The command runs
// with the GIL released; every entry takes it for its call, so the runner's threads (--jobs) call
// Python one at a time, and Python code that releases the GIL (NumPy's casts) runs beside the
// runner's judging.
#include <fenv.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "cli/command.h"
#include "corpus/official.h"
#include "registry/registry.h"
#include "ninfer_conform/plugin.h"
#include "runners/target_factory.h"
#include "runners/vocabulary.h"

namespace nb = nanobind;

namespace {

template <typename T>
using ReadOnly1D = nb::ndarray<nb::numpy, const T, nb::ndim<1>>;

struct PyTarget {
  nb::object obj, unsupported;
  nb::object convert, decode, reconstruct, validate_word;
  nb::object dequantize, validate_tensor, encode, parse_format, layout_offsets;
  std::string name, version;
  nc_plugin_v1 table{};
  std::mutex errors_mutex;
  size_t errors = 0;
};

PyTarget* g_target = nullptr;  // the target of the command now running (one at a time)
std::mutex g_run_mutex;
constexpr size_t kErrorsShown = 5;
// A target error's status. Not NC_EINVALID: to reconstruct and layout_offsets that means "this
// element has no value" (abi_host retries the batch in halves and answers the refused ones
// `invalid`, a judged answer), and an exception must never be judged.
constexpr int kTargetError = 3;

// Words of the runner, of any width, as a NumPy array that shares their memory (read-only, no
// owner, no copy).
template <typename T>
nb::object view(const T* words, size_t n) {
  return nb::cast(ReadOnly1D<T>(words, {n}, nb::handle()), nb::rv_policy::reference);
}

// A Python exception (or a result we cannot read) is a target error: the batch is reported as such
// by replay and sweep, never judged. The first few are printed, as a pipe adapter's stderr is.
int target_error(const std::string& what, const std::string& why) {
  std::lock_guard lock(g_target->errors_mutex);
  if (++g_target->errors <= kErrorsShown)
    std::fprintf(stderr, "ninfer-conform: python target %s: %s: %s\n", g_target->name.c_str(), what.c_str(),
                 why.c_str());
  if (g_target->errors == kErrorsShown + 1)
    std::fprintf(stderr, "ninfer-conform: python target %s: further errors not shown\n", g_target->name.c_str());
  return kTargetError;
}

// out[i] = Out(element i of a) for the n elements of a, read as In (their width: the bits are
// kept, a signed word's too). One loop per width, not a switch per element: a contiguous result
// (the usual case) is a plain widening or narrowing copy the compiler vectorises, and a memcpy
// where the widths agree. The widening copy is bound by its stores, so it is cloned for AVX-512 and
// AVX2 (32 and 64 bytes a store, not the baseline's 16); integer code only, so no clone can change
// a word.
template <typename In, typename Out>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void copy_typed(const nb::ndarray<nb::ro, nb::device::cpu>& a, size_t n, Out* out) {
  if (n == 0) return;
  const In* in = static_cast<const In*>(a.data());
  const int64_t stride = n > 1 ? a.stride(0) : 1;  // in elements
  if constexpr (sizeof(In) == sizeof(Out)) {
    if (stride == 1) {
      std::memcpy(out, in, n * sizeof(Out));
      return;
    }
  }
  if (stride == 1) {
    for (size_t i = 0; i < n; ++i) out[i] = Out(in[i]);
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = Out(in[int64_t(i) * stride]);
  }
}

using Words = nb::ndarray<nb::ro, nb::device::cpu>;

// Reads a result as an array of n integer words (8 to 64 bits, signed or not, or bool), without
// copying them. false with *why otherwise.
bool read_words(nb::handle result, size_t n, Words* a, std::string* why) {
  if (!nb::try_cast(result, *a, false)) {
    *why = "returned " + std::string(nb::type_name(result.type()).c_str()) + ", not an array of words";
    return false;
  }
  if (a->ndim() != 1 || a->shape(0) != n) {
    *why = "returned an array of shape (";
    for (size_t i = 0; i < a->ndim(); ++i) *why += (i ? ", " : "") + std::to_string(a->shape(i));
    *why += a->ndim() == 1 ? ",)" : ")";
    *why += ", expected (" + std::to_string(n) + ",)";
    return false;
  }
  const nb::dlpack::dtype t = a->dtype();
  const bool integer = t.code == uint8_t(nb::dlpack::dtype_code::UInt) ||
                       t.code == uint8_t(nb::dlpack::dtype_code::Int) ||
                       t.code == uint8_t(nb::dlpack::dtype_code::Bool);
  if (!integer || t.lanes != 1 || (t.bits != 8 && t.bits != 16 && t.bits != 32 && t.bits != 64)) {
    *why = "returned an array of " +
           std::string(t.code == uint8_t(nb::dlpack::dtype_code::Float) ? "floats" : "a non-integer type") +
           " (return the words' bit patterns as unsigned integers, e.g. x.view(np.uint32))";
    return false;
  }
  return true;
}

// Copies the n words of an array read_words accepted into out (a signed word keeps its bits: int8
// -1 is 0xff). Needs no GIL.
template <typename Out>
void copy_array(const Words& a, size_t n, Out* out) {
  switch (a.dtype().bits) {
    case 8:
      copy_typed<uint8_t>(a, n, out);
      break;
    case 16:
      copy_typed<uint16_t>(a, n, out);
      break;
    case 32:
      copy_typed<uint32_t>(a, n, out);
      break;
    default:
      copy_typed<uint64_t>(a, n, out);
      break;
  }
}

// read_words, then copy_array, under the GIL.
template <typename Out>
bool copy_words(nb::handle result, size_t n, Out* out, std::string* why) {
  Words a;
  if (!read_words(result, n, &a, why)) return false;
  copy_array(a, n, out);
  return true;
}

// The result words of one call (decode's and convert's: the ones sweeps ask for billions of) that
// are copied into the runner's buffers after the call lets the GIL go, so the other runner thread
// calls Python meanwhile. The arrays stay referenced until the thread's next call, or the command's
// end, takes the GIL again: dropping the last reference to one takes the GIL, which would cost
// the hand-over this saves.
class LaterCopies {
 public:
  template <typename Out>
  bool add(nb::handle result, size_t n, Out* out, std::string* why) {
    Words a;
    if (!read_words(result, n, &a, why)) return false;
    copies_.push_back({a, n, out, [](const Words& w, size_t k, void* o) { copy_array(w, k, static_cast<Out*>(o)); }});
    return true;
  }
  // Keeps a result whose words are read where they lie (py_convert_words), uncopied.
  void hold(const Words& a) { held_.push_back(a); }
  void run() const {
    for (const Copy& c : copies_) c.copy(c.words, c.n, c.out);
  }
  void clear() {  // under the GIL
    copies_.clear();
    held_.clear();
  }

 private:
  struct Copy {
    Words words;
    size_t n;
    void* out;
    void (*copy)(const Words&, size_t, void*);
  };
  std::vector<Copy> copies_;
  std::vector<Words> held_;
};

// Thrown by a result reader for an element without a value (reconstruct, layout_offsets): the
// call answers NC_EINVALID, which abi_host reads as "refused", not as a target error.
struct Refused {};

// Reads a validity array of n flags; throws Refused when one is 0 (the ABI's "this element has no
// value": abi_host retries the batch in halves down to the refused elements). false with *why
// when it is not such an array.
bool refuse_unless_all_valid(nb::handle flags, size_t n, std::string* why) {
  std::vector<uint8_t> valid(n);
  if (!copy_words(flags, n, valid.data(), why)) return false;
  if (std::find(valid.begin(), valid.end(), 0) != valid.end()) throw Refused();
  return true;
}

// What a thread that calls the target keeps between calls: its Python thread state and the
// arrays of its last result (LaterCopies). A runner thread's state is made on its first call into
// Python and kept until the thread ends (the runner joins its threads before the command returns).
// Without it, each call's gil_scoped_acquire on a thread Python does not know made a thread state
// and deleted it again on release, unmapping its frame stack: a munmap per call whose TLB
// shootdowns, with the context switches around them, cost an in-process PyTorch sweep more CPU
// than the casts. The thread that runs the command has a state of its own; its arrays are dropped
// when the command ends (CommandEnd).
class PythonThread {
 public:
  PythonThread() {
    if (PyGILState_GetThisThreadState() != nullptr) return;
    ensured_ = PyGILState_Ensure();  // makes this thread's state, and takes the GIL
    saved_ = PyEval_SaveThread();    // lets the GIL go, keeping the state
  }
  ~PythonThread() {
    if (saved_ == nullptr) return;
    PyEval_RestoreThread(saved_);
    later.clear();
    PyGILState_Release(ensured_);  // the last release: the state is deleted
  }
  PythonThread(const PythonThread&) = delete;
  PythonThread& operator=(const PythonThread&) = delete;

  LaterCopies later;
  std::vector<uint32_t> widened;  // py_convert_words' results of a width it does not read in place

 private:
  PyGILState_STATE ensured_{};
  PyThreadState* saved_ = nullptr;
};

PythonThread& this_python_thread() {
  thread_local PythonThread self;
  return self;
}

// Drops the command thread's last result arrays when the command ends, under the GIL (declared
// before the command lets the GIL go, so it ends after the GIL is taken back).
struct CommandEnd {
  ~CommandEnd() { this_python_thread().later.clear(); }
};

// Calls fn under the GIL; None or ninfer_conform.Unsupported -> NC_EUNSUPPORTED. `use(result,
// later, why)` reads the result, leaving in `later` the words to copy once the GIL is let go;
// false with *why is a target error.
template <typename Call, typename Use>
int call_python(const std::string& what, Call&& fn, Use&& use) {
  LaterCopies& later = this_python_thread().later;
  std::string why;
  {
    nb::gil_scoped_acquire gil;
    later.clear();
    bool ok = false;
    try {
      nb::object result = fn();
      if (result.is_none()) return NC_EUNSUPPORTED;
      ok = use(result, later, &why);
    } catch (nb::python_error& e) {
      if (e.matches(g_target->unsupported)) return NC_EUNSUPPORTED;
      // The exception's last line ("ValueError: ..."), not the traceback before it.
      why = e.what();
      while (!why.empty() && why.back() == '\n') why.pop_back();
      if (const size_t nl = why.rfind('\n'); nl != std::string::npos) why = why.substr(nl + 1);
    } catch (const Refused&) {
      return NC_EINVALID;
    } catch (const std::exception& e) {
      why = e.what();
    }
    if (!ok) return target_error(what, why);
  }
  later.run();
  return NC_OK;
}

int py_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  const std::string r(nc::runners::recipe_name(recipe));
  return call_python(
      "convert(" + r + ")", [&] { return g_target->convert(r, view(src, n)); },
      [&](nb::handle res, LaterCopies& later, std::string* why) { return later.add(res, n, out, why); });
}

// convert for a sweep (runners/table_calls.h): a contiguous result of 8, 16 or 32-bit words is
// judged where it lies, held until the thread's next call (no widening pass, and a half or a
// quarter of the bytes read: perf showed the widening copy and the judging's reads at a fifth of
// an in-process PyTorch F16 sweep's CPU); any other (64-bit, strided) is widened as py_convert does.
int py_convert_words(nc_recipe recipe, const uint32_t* src, size_t n, nc::runners::WordResults* out) {
  const std::string r(nc::runners::recipe_name(recipe));
  PythonThread& self = this_python_thread();
  return call_python(
      "convert(" + r + ")", [&] { return g_target->convert(r, view(src, n)); },
      [&](nb::handle res, LaterCopies& later, std::string* why) {
        Words a;
        if (!read_words(res, n, &a, why)) return false;
        const unsigned bits = a.dtype().bits;
        if (bits <= 32 && (n <= 1 || a.stride(0) == 1)) {
          later.hold(a);
          *out = {a.data(), bits / 8};
          return true;
        }
        self.widened.resize(n);
        *out = {self.widened.data(), 4};
        return later.add(res, n, self.widened.data(), why);
      });
}

int py_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  const std::string w(nc::runners::word_type_name(wt));
  return call_python(
      "decode(" + w + ")", [&] { return g_target->decode(w, view(words, n)); },
      [&](nb::handle res, LaterCopies& later, std::string* why) {
        // (bits, valid) for the word types with words that have no value (W8's 0x80); bits alone
        // means every word is valid.
        if (nb::isinstance<nb::tuple>(res) && nb::len(res) == 2) {
          const nb::tuple pair = nb::borrow<nb::tuple>(res);
          return later.add(pair[0], n, out, why) && later.add(pair[1], n, valid, why);
        }
        std::memset(valid, 1, n);
        return later.add(res, n, out, why);
      });
}

int py_validate_word(nc_format fmt, nc_component comp, const uint32_t* words, size_t n, uint8_t* valid) {
  static const char* const kComponents[] = {"word", "code", "scale", "divisor"};
  const std::string f(nc::runners::format_name(fmt)), c = unsigned(comp) < 4 ? kComponents[comp] : "?";
  return call_python(
      "validate_word(" + f + "." + c + ")", [&] { return g_target->validate_word(f, c, view(words, n)); },
      [&](nb::handle res, LaterCopies&, std::string* why) { return copy_words(res, n, valid, why); });
}

int py_reconstruct(nc_format fmt, const uint32_t* code, const uint32_t* scale, const uint32_t* divisor, size_t n,
                   uint32_t* out) {
  const std::string f(nc::runners::format_name(fmt));
  return call_python(
      "reconstruct(" + f + ")",
      [&] {
        return g_target->reconstruct(f, view(code, n), view(scale, n),
                                     divisor ? view(divisor, n) : nb::object(nb::none()));
      },
      [&](nb::handle res, LaterCopies&, std::string* why) {
        // (bits, valid): an element without a value (valid 0) fails the batch with NC_EINVALID,
        // as the ABI asks, and abi_host retries it in halves down to the refused elements.
        if (nb::isinstance<nb::tuple>(res) && nb::len(res) == 2) {
          const nb::tuple pair = nb::borrow<nb::tuple>(res);
          return copy_words(pair[0], n, out, why) && refuse_unless_all_valid(pair[1], n, why);
        }
        return copy_words(res, n, out, why);
      });
}

// --- The tensor ops, parse_format and layout_offsets (plugin.h's other entry points) ---

nb::object shape_tuple(size_t rank, const uint64_t* shape) {
  nb::list l;
  for (size_t i = 0; i < rank; ++i) l.append(nb::int_(shape[i]));
  return nb::tuple(l);
}

// A result of several dimensions (a tensor op's matrix) read as the flat row-major array of its
// words: `.reshape(-1)` (NumPy, torch and JAX arrays all have it; a view where it can be one).
nb::object flat(nb::handle result) {
  if (nb::hasattr(result, "ndim") && nb::hasattr(result, "reshape") && nb::cast<int>(result.attr("ndim")) != 1)
    return result.attr("reshape")(-1);
  return nb::borrow(result);
}

template <typename T>
int64_t load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return int64_t(v);
}

// Copies n signed integers (8 to 64 bits, or unsigned ones) into out, keeping their value: int8 -1
// is -1 here (encode's codes are signed values, not words).
bool copy_signed(nb::handle result, size_t n, int32_t* out, std::string* why) {
  nb::ndarray<nb::ro, nb::device::cpu> a;
  if (!nb::try_cast(flat(result), a, false) || a.ndim() != 1 || a.shape(0) != n) {
    // copy_words says which of those it is.
    std::vector<uint32_t> unused(n);
    if (!copy_words(flat(result), n, unused.data(), why)) return false;
    *why = "returned a result that is not an array of codes";
    return false;
  }
  const nb::dlpack::dtype t = a.dtype();
  const bool is_signed = t.code == uint8_t(nb::dlpack::dtype_code::Int);
  if ((!is_signed && t.code != uint8_t(nb::dlpack::dtype_code::UInt)) || t.lanes != 1 ||
      (t.bits != 8 && t.bits != 16 && t.bits != 32 && t.bits != 64)) {
    *why = "returned codes that are not integers (return the signed codes, e.g. as np.int32)";
    return false;
  }
  const char* base = static_cast<const char*>(a.data());
  const int64_t stride = a.stride(0) * int64_t(t.bits / 8);
  for (size_t i = 0; i < n; ++i) {
    const char* p = base + int64_t(i) * stride;
    int64_t v;
    if (is_signed)
      v = t.bits == 8    ? load<int8_t>(p)
          : t.bits == 16 ? load<int16_t>(p)
          : t.bits == 32 ? load<int32_t>(p)
                         : load<int64_t>(p);
    else if (t.bits == 64) {
      uint64_t u;
      std::memcpy(&u, p, sizeof u);
      v = u > uint64_t(INT32_MAX) ? int64_t(INT32_MAX) + 1 : int64_t(u);  // beyond int32 either way
    } else v = t.bits == 8 ? load<uint8_t>(p) : t.bits == 16 ? load<uint16_t>(p) : load<uint32_t>(p);
    if (v < INT32_MIN || v > INT32_MAX) {
      *why = "returned code " + std::to_string(v) + ", outside int32";
      return false;
    }
    out[i] = int32_t(v);
  }
  return true;
}

// A str result's text; false when the result is not a str.
bool text_of(nb::handle result, std::string* text) {
  if (!nb::isinstance<nb::str>(result)) return false;
  *text = nb::cast<std::string>(result);
  return true;
}

std::string type_of(nb::handle result) { return nb::type_name(result.type()).c_str(); }

// The tensor ops' divisor argument: NVFP4's d_w bits as an int, or None for the other formats.
nb::object divisor_arg(const uint32_t* divisor) {
  return divisor ? nb::object(nb::int_(*divisor)) : nb::object(nb::none());
}

int py_dequantize(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
                  const uint32_t* scales, size_t n_scales, const uint32_t* divisor, uint32_t* out) {
  const std::string f(nc::runners::format_name(fmt));
  return call_python(
      "dequantize(" + f + ")",
      [&] {
        return g_target->dequantize(f, shape_tuple(rank, shape), view(codes, n_codes), view(scales, n_scales),
                                    divisor_arg(divisor));
      },
      [&](nb::handle res, LaterCopies&, std::string* why) { return copy_words(flat(res), n_codes, out, why); });
}

int py_validate_tensor(nc_format fmt, size_t rank, const uint64_t* shape, const uint32_t* codes, size_t n_codes,
                       const uint32_t* scales, size_t n_scales, const uint32_t* divisor, int32_t* rule,
                       int64_t* where) {
  const std::string f(nc::runners::format_name(fmt));
  return call_python(
      "validate_tensor(" + f + ")",
      [&] {
        return g_target->validate_tensor(f, shape_tuple(rank, shape), view(codes, n_codes), view(scales, n_scales),
                                         divisor_arg(divisor));
      },
      [&](nb::handle res, LaterCopies&, std::string* why) {
        std::string text;
        if (text_of(res, &text) && text == "valid") return *rule = NC_RULE_NONE, *where = -1, true;
        const bool pair = nb::isinstance<nb::tuple>(res) && nb::len(res) == 2;
        if (!pair || !text_of(nb::borrow<nb::tuple>(res)[0], &text)) {
          *why = "returned " + type_of(res) + ", not \"valid\" or a pair (rule, where)";
          return false;
        }
        *rule = -1;
        for (int r = NC_RULE_SHAPE; r <= NC_RULE_DIVISOR; ++r)
          if (nc::runners::rule_name(nc_rule(r)) == text) *rule = r;
        if (*rule < 0) {
          *why = "returned the rule '" + text + "' (rules: shape, code-illegal, scale-negative, scale-nonfinite, " +
                 "zero-scale-codes, divisor)";
          return false;
        }
        const nb::handle w = nb::borrow<nb::tuple>(res)[1];
        if (w.is_none()) return *where = -1, true;
        if (!nb::try_cast(w, *where, false) || *where < -1) {
          *why = "returned where " + nb::cast<std::string>(nb::repr(w)) + " (a flat index, or None or -1)";
          return false;
        }
        const size_t plane = nc::runners::rule_plane(nc_rule(*rule)) == 'c' ? n_codes : n_scales;
        if (*where >= 0 && (nc::runners::rule_plane(nc_rule(*rule)) == 0 || size_t(*where) >= plane)) {
          *why = "returned where " + std::to_string(*where) + ", not a word of the plane the rule names";
          return false;
        }
        return true;
      });
}

int py_encode(nc_format fmt, nc_source_type src_type, const uint64_t* src, size_t rows, size_t k, uint32_t* scales,
              int32_t* codes, uint32_t* trace, int32_t* outcome) {
  (void)trace;  // not reported: a Python target's trace is its own business (plugin.h allows that)
  static const char* const kSources[] = {"FP32", "BF16", "F16", "F64"};
  const std::string f(nc::runners::format_name(fmt)), t = unsigned(src_type) < 4 ? kSources[src_type] : "?";
  const uint32_t g = nc::info(nc::Format(int(fmt))).group_size;  // abi_host calls only with a grouped format
  const size_t n_scales = rows * ((k + g - 1) / g);
  return call_python(
      "encode(" + f + ", " + t + ")",
      [&] {
        using Matrix = nb::ndarray<nb::numpy, const uint64_t, nb::ndim<2>>;
        nb::object words = nb::cast(Matrix(src, {rows, k}, nb::handle()), nb::rv_policy::reference);
        return g_target->encode(f, t, words);
      },
      [&](nb::handle res, LaterCopies&, std::string* why) {
        std::string text;
        if (text_of(res, &text)) {
          if (text == "nonfinite") return *outcome = NC_ENCODE_FAIL_NONFINITE, true;
          if (text == "scale-overflow") return *outcome = NC_ENCODE_FAIL_SCALE_OVERFLOW, true;
          *why = "returned '" + text + "' (failures: \"nonfinite\", \"scale-overflow\")";
          return false;
        }
        if (!nb::isinstance<nb::tuple>(res) || nb::len(res) != 2) {
          *why = "returned " + type_of(res) + ", not a pair (scales, codes) or a failure";
          return false;
        }
        const nb::tuple pair = nb::borrow<nb::tuple>(res);
        if (!copy_words(flat(pair[0]), n_scales, scales, why)) return *why = "scales: " + *why, false;
        if (!copy_signed(pair[1], rows * k, codes, why)) return *why = "codes: " + *why, false;
        *outcome = NC_ENCODE_OK;
        return true;
      });
}

int py_parse_format(const char* name, size_t len, int32_t* out_format) {
  return call_python(
      "parse_format", [&] { return g_target->parse_format(nb::bytes(name, len)); },
      [&](nb::handle res, LaterCopies&, std::string* why) {
        if (nb::isinstance<nb::bool_>(res) && !nb::cast<bool>(res)) return *out_format = -1, true;
        std::string text;
        std::optional<nc_format> f;
        if (text_of(res, &text)) f = nc::runners::format_token(text);
        if (!f) {
          *why = "returned " + nb::cast<std::string>(nb::repr(res)) + ", not a registry format name or False";
          return false;
        }
        return *out_format = int32_t(*f), true;
      });
}

int py_layout_offsets(nc_format fmt, nc_layout layout, const uint64_t* rows, const uint64_t* k, const uint64_t* row,
                      const uint64_t* block, size_t n, uint64_t* offset, uint64_t* plane_bytes) {
  const std::string f(nc::runners::format_name(fmt));
  const std::string l = layout == NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1 ? "blockscale-k16-m128x4-v1" : "?";
  return call_python(
      "layout_offsets(" + f + ", " + l + ")",
      [&] { return g_target->layout_offsets(f, l, view(rows, n), view(k, n), view(row, n), view(block, n)); },
      [&](nb::handle res, LaterCopies&, std::string* why) {
        const size_t parts = nb::isinstance<nb::tuple>(res) ? nb::len(res) : 0;
        if (parts != 2 && parts != 3) {
          *why = "returned " + type_of(res) + ", not a pair (offset, plane_bytes) or a triple with valid";
          return false;
        }
        const nb::tuple t = nb::borrow<nb::tuple>(res);
        if (!copy_words(t[0], n, offset, why) || !copy_words(t[1], n, plane_bytes, why)) return false;
        return parts == 2 || refuse_unless_all_valid(t[2], n, why);
      });
}

// The method `name` of the target, or None when it has none (the capability is not provided).
nb::object method(nb::handle obj, const char* name) {
  if (!nb::hasattr(obj, name)) return nb::none();
  nb::object m = obj.attr(name);
  return m.is_none() ? nb::none() : m;
}

std::unique_ptr<PyTarget> make_target(nb::handle obj, nb::handle unsupported) {
  auto t = std::make_unique<PyTarget>();
  t->obj = nb::borrow(obj);
  t->unsupported = nb::borrow(unsupported);
  t->convert = method(obj, "convert");
  t->decode = method(obj, "decode");
  t->reconstruct = method(obj, "reconstruct");
  t->validate_word = method(obj, "validate_word");
  t->dequantize = method(obj, "dequantize");
  t->validate_tensor = method(obj, "validate_tensor");
  t->encode = method(obj, "encode");
  t->parse_format = method(obj, "parse_format");
  t->layout_offsets = method(obj, "layout_offsets");
  t->name = nb::hasattr(obj, "name") ? nb::cast<std::string>(nb::str(obj.attr("name"))) : "python";
  t->version = nb::hasattr(obj, "version") ? nb::cast<std::string>(nb::str(obj.attr("version"))) : "0";
  nc_plugin_v1& tb = t->table;
  tb.abi_version = NC_PLUGIN_ABI_VERSION;
  tb.name = t->name.c_str();
  tb.version = t->version.c_str();
  tb.convert = t->convert.is_none() ? nullptr : py_convert;
  tb.decode = t->decode.is_none() ? nullptr : py_decode;
  tb.validate_word = t->validate_word.is_none() ? nullptr : py_validate_word;
  tb.reconstruct = t->reconstruct.is_none() ? nullptr : py_reconstruct;
  tb.dequantize = t->dequantize.is_none() ? nullptr : py_dequantize;
  tb.validate_tensor = t->validate_tensor.is_none() ? nullptr : py_validate_tensor;
  tb.encode = t->encode.is_none() ? nullptr : py_encode;
  tb.parse_format = t->parse_format.is_none() ? nullptr : py_parse_format;
  tb.layout_offsets = t->layout_offsets.is_none() ? nullptr : py_layout_offsets;
  return t;
}

// The inputs a sweep hands a Python target in one call of convert or decode, four times the
// runner's unit of 65,536: each call pays for the GIL (taken, and handed between the runner's
// threads around every release inside the call) and for the interpreter, which a cast of 65,536
// words (tens of µs) does not hide. In interleaved runs (stride 17, 2 jobs) sweeps of PyTorch's
// E4M3FN and BF16 casts and JAX's BF16 ran 1.6, 2.4 and 1.8 times as fast as in batches of
// 65,536; 2^19 only sped BF16 up further (by a quarter, one run), and 2^20 slowed all three (a
// batch's buffers no longer fit a core's 1 MiB L2 cache).
constexpr size_t kSweepBatch = size_t(1) << 18;

// Runs one command (args[0] is its name) as the executable would, with `target` (when not None)
// registered as the in-process target `spec`. Returns the exit code.
int run(const std::vector<std::string>& args, nb::handle target, const std::string& spec, nb::handle unsupported) {
  std::unique_lock busy(g_run_mutex, std::try_to_lock);
  if (!busy.owns_lock())
    throw std::runtime_error("another ninfer_conform command is running in this process (one at a time)");
  if (args.empty() || !nc::cli::find_command(args[0]))
    throw std::invalid_argument("unknown ninfer-conform command '" + (args.empty() ? std::string() : args[0]) + "'");
  std::unique_ptr<PyTarget> t;
  if (!target.is_none()) {
    t = make_target(target, unsupported);
    const nc_plugin_v1& tb = t->table;
    if (!tb.convert && !tb.decode && !tb.validate_word && !tb.reconstruct && !tb.dequantize && !tb.validate_tensor &&
        !tb.encode && !tb.parse_format && !tb.layout_offsets)
      throw std::invalid_argument(
          "the target has none of the methods convert, decode, validate_word, reconstruct, dequantize, "
          "validate_tensor, encode, parse_format, layout_offsets");
    g_target = t.get();
    nc::runners::register_table_target(spec, &t->table, {kSweepBatch, t->table.convert ? py_convert_words : nullptr});
  }
  std::vector<std::string> copies = args;
  std::vector<char*> argv;
  for (std::string& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  int rc = nc::cli::kExitUsage;
  std::fflush(stdout);
  {
    CommandEnd end;
    nb::gil_scoped_release released;
    // Correct rounding is the product: the commands (and the runner threads they start, which
    // inherit it) work in IEEE 754's default environment whatever the interpreter's was.
    fenv_t saved;
    fegetenv(&saved);
    fesetenv(FE_DFL_ENV);
    try {
      rc = nc::cli::run_command(int(argv.size() - 1), argv.data());
    } catch (...) {
      fesetenv(&saved);
      std::fflush(stdout);
      if (t) nc::runners::register_table_target(spec, nullptr);
      g_target = nullptr;
      throw;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    fesetenv(&saved);
  }
  if (t) nc::runners::register_table_target(spec, nullptr);
  g_target = nullptr;
  return rc;
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "ninfer-conform in process: the CLI's commands and Python objects as targets";
  m.def("run", &run, nb::arg("args"), nb::arg("target").none(), nb::arg("spec"), nb::arg("unsupported"),
        "Runs one ninfer-conform command (args[0] is its name) in this process; the target, when not\n"
        "None, is registered as the in-process target `spec` for that command. Returns the exit code.");
  m.def("set_host_paths", &nc::cli::set_host_paths, nb::arg("executable"), nb::arg("build_object"),
        "The installed ninfer-conform executable (plugin: targets) and the file a certificate's\n"
        "identity hashes as the build.");
  m.def("version", [] { return std::string(nc::corpus::project_version()); });
  m.def("official_manifest_sha256", [] { return std::string(nc::corpus::official_manifest_sha256()); });
  m.def("default_corpus", [] { return std::string(NC_DEFAULT_CORPUS_DIR); });
}
