// ninfer_conform._core: the CLI's commands run in process, and a Python object as a target.
//
// A Python target is an object (or a module) with methods that take and return arrays of words:
//   convert(recipe, words)             words: uint32 binary32 bits -> destination words
//   decode(word_type, words)           -> uint32 binary32 bits (or (bits, valid))
//   validate_word(format, component, words) -> 0/1 per word
//   reconstruct(format, code, scale, divisor or None) -> uint32 binary32 bits
// Each becomes an entry of an nc_plugin_v1 table (include/ninfer_conform/plugin.h) registered
// under the spec "python:NAME" (runners/target_factory.h) for the length of one command, so
// replay, certify and sweep drive it exactly as they drive the built-in `cpu` table: same
// batches, same judging, same reports. The runner's input buffers reach Python as read-only NumPy
// views (no copy; valid during the call only); a result may be any array nanobind reads (NumPy,
// or a DLPack tensor such as torch's or JAX's on the CPU) and is copied once into the runner's
// buffer. The command runs with the GIL released; every entry takes it for its call, so the
// runner's threads (--jobs) call Python one at a time, and Python code that releases the GIL
// (NumPy's casts) runs beside the runner's judging.
#include <fenv.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "cli/command.h"
#include "corpus/official.h"
#include "ninfer_conform/plugin.h"
#include "runners/target_factory.h"
#include "runners/vocabulary.h"

namespace nb = nanobind;

namespace {

using ReadOnlyWords = nb::ndarray<nb::numpy, const uint32_t, nb::ndim<1>>;

struct PyTarget {
  nb::object obj, unsupported;
  nb::object convert, decode, reconstruct, validate_word;
  std::string name, version;
  nc_plugin_v1 table{};
  std::mutex errors_mutex;
  size_t errors = 0;
};

PyTarget* g_target = nullptr;  // the target of the command now running (one at a time)
std::mutex g_run_mutex;
constexpr size_t kErrorsShown = 5;

// Words of the runner as a NumPy array that shares their memory (read-only, no owner).
nb::object view(const uint32_t* words, size_t n) {
  return nb::cast(ReadOnlyWords(words, {n}, nb::handle()), nb::rv_policy::reference);
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
  return NC_EINVALID;
}

// Copies a result array of n integer words (8 to 64 bits, signed or not, or bool) into out as
// 32-bit words (a signed word keeps its bits: int8 -1 is 0xff). false with *why otherwise.
template <typename Out>
bool copy_words(nb::handle result, size_t n, Out* out, std::string* why) {
  nb::ndarray<nb::ro, nb::device::cpu> a;
  if (!nb::try_cast(result, a, false)) {
    *why = "returned " + std::string(nb::type_name(result.type()).c_str()) + ", not an array of words";
    return false;
  }
  if (a.ndim() != 1 || a.shape(0) != n) {
    *why = "returned an array of shape (";
    for (size_t i = 0; i < a.ndim(); ++i) *why += (i ? ", " : "") + std::to_string(a.shape(i));
    *why += a.ndim() == 1 ? ",)" : ")";
    *why += ", expected (" + std::to_string(n) + ",)";
    return false;
  }
  const nb::dlpack::dtype t = a.dtype();
  const bool integer = t.code == uint8_t(nb::dlpack::dtype_code::UInt) ||
                       t.code == uint8_t(nb::dlpack::dtype_code::Int) ||
                       t.code == uint8_t(nb::dlpack::dtype_code::Bool);
  if (!integer || t.lanes != 1 || (t.bits != 8 && t.bits != 16 && t.bits != 32 && t.bits != 64)) {
    *why = "returned an array of " +
           std::string(t.code == uint8_t(nb::dlpack::dtype_code::Float) ? "floats" : "a non-integer type") +
           " (return the words' bit patterns as unsigned integers, e.g. x.view(np.uint32))";
    return false;
  }
  const char* base = static_cast<const char*>(a.data());
  const int64_t stride = a.stride(0) * int64_t(t.bits / 8);
  for (size_t i = 0; i < n; ++i) {
    const char* p = base + int64_t(i) * stride;
    uint64_t v = 0;
    switch (t.bits) {
      case 8:
        v = *reinterpret_cast<const uint8_t*>(p);
        break;
      case 16:
        v = *reinterpret_cast<const uint16_t*>(p);
        break;
      case 32:
        v = *reinterpret_cast<const uint32_t*>(p);
        break;
      default:
        v = *reinterpret_cast<const uint64_t*>(p);
        break;
    }
    out[i] = Out(v);
  }
  return true;
}

// Calls fn under the GIL; None or ninfer_conform.Unsupported -> NC_EUNSUPPORTED. `use` reads the
// result; false with *why is a target error.
template <typename Call, typename Use>
int call_python(const std::string& what, Call&& fn, Use&& use) {
  nb::gil_scoped_acquire gil;
  std::string why;
  try {
    nb::object result = fn();
    if (result.is_none()) return NC_EUNSUPPORTED;
    if (use(result, &why)) return NC_OK;
  } catch (nb::python_error& e) {
    if (e.matches(g_target->unsupported)) return NC_EUNSUPPORTED;
    // The exception's last line ("ValueError: ..."), not the traceback before it.
    why = e.what();
    while (!why.empty() && why.back() == '\n') why.pop_back();
    if (const size_t nl = why.rfind('\n'); nl != std::string::npos) why = why.substr(nl + 1);
  } catch (const std::exception& e) {
    why = e.what();
  }
  return target_error(what, why);
}

int py_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  const std::string r(nc::runners::recipe_name(recipe));
  return call_python(
      "convert(" + r + ")", [&] { return g_target->convert(r, view(src, n)); },
      [&](nb::handle res, std::string* why) { return copy_words(res, n, out, why); });
}

int py_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  const std::string w(nc::runners::word_type_name(wt));
  return call_python(
      "decode(" + w + ")", [&] { return g_target->decode(w, view(words, n)); },
      [&](nb::handle res, std::string* why) {
        // (bits, valid) for the word types with words that have no value (W8's 0x80); bits alone
        // means every word is valid.
        if (nb::isinstance<nb::tuple>(res) && nb::len(res) == 2) {
          const nb::tuple pair = nb::borrow<nb::tuple>(res);
          return copy_words(pair[0], n, out, why) && copy_words(pair[1], n, valid, why);
        }
        std::memset(valid, 1, n);
        return copy_words(res, n, out, why);
      });
}

int py_validate_word(nc_format fmt, nc_component comp, const uint32_t* words, size_t n, uint8_t* valid) {
  static const char* const kComponents[] = {"word", "code", "scale", "divisor"};
  const std::string f(nc::runners::format_name(fmt)), c = unsigned(comp) < 4 ? kComponents[comp] : "?";
  return call_python(
      "validate_word(" + f + "." + c + ")", [&] { return g_target->validate_word(f, c, view(words, n)); },
      [&](nb::handle res, std::string* why) { return copy_words(res, n, valid, why); });
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
      [&](nb::handle res, std::string* why) { return copy_words(res, n, out, why); });
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
  t->name = nb::hasattr(obj, "name") ? nb::cast<std::string>(nb::str(obj.attr("name"))) : "python";
  t->version = nb::hasattr(obj, "version") ? nb::cast<std::string>(nb::str(obj.attr("version"))) : "0";
  nc_plugin_v1& tb = t->table;
  tb.abi_version = 1;  // no layout_offsets
  tb.name = t->name.c_str();
  tb.version = t->version.c_str();
  tb.convert = t->convert.is_none() ? nullptr : py_convert;
  tb.decode = t->decode.is_none() ? nullptr : py_decode;
  tb.validate_word = t->validate_word.is_none() ? nullptr : py_validate_word;
  tb.reconstruct = t->reconstruct.is_none() ? nullptr : py_reconstruct;
  return t;
}

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
    if (!t->table.convert && !t->table.decode && !t->table.validate_word && !t->table.reconstruct)
      throw std::invalid_argument("the target has none of the methods convert, decode, validate_word, reconstruct");
    g_target = t.get();
    nc::runners::register_table_target(spec, &t->table);
  }
  std::vector<std::string> copies = args;
  std::vector<char*> argv;
  for (std::string& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  int rc = nc::cli::kExitUsage;
  std::fflush(stdout);
  {
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
