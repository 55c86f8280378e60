#include "runners/target_factory.h"

#include <map>
#include <mutex>

#include "runners/abi_host.h"
#include "runners/pipe_target.h"
#ifdef NC_HAVE_CODEC_PLUGIN
#include "codec/codec_plugin.h"
#endif

namespace nc::runners {
namespace {

// In-process: the request line goes through the same translation plugin-host uses, so `cpu` and
// `plugin:` exercise one path.
class AbiTarget final : public Target {
 public:
  explicit AbiTarget(const nc_plugin_v1* t) : table_(t) {}
  bool start(std::string* why) override {
    if (!table_) return *why = "no ABI table", false;
    if (table_->abi_version < NC_PLUGIN_ABI_VERSION_MIN || table_->abi_version > NC_PLUGIN_ABI_VERSION)
      return *why = "ABI version " + std::to_string(table_->abi_version) + ", expected " +
                    std::to_string(NC_PLUGIN_ABI_VERSION_MIN) + " to " + std::to_string(NC_PLUGIN_ABI_VERSION),
             false;
    return true;
  }
  Response call(const Request& req) override {
    Response r;
    abi_answer(*table_, request_line(req), &r.line);
    if (r.line == "unsupported") return r.kind = Response::Kind::Unsupported, r;
    if (r.line.rfind("error ", 0) == 0) {
      r.kind = Response::Kind::Error;
      r.message = r.line.substr(6);
      return r;
    }
    r.index_tokens();
    if (r.token_count() != req.count) {
      r.kind = Response::Kind::Dead;
      r.message = "wrong result count";
    }
    return r;
  }
  std::string name() const override { return table_->name ? table_->name : "unnamed"; }
  std::string version() const override { return table_->version ? table_->version : "0"; }

 private:
  const nc_plugin_v1* table_;
};

struct Registered {
  const nc_plugin_v1* table;
  TableCalls calls;
};
std::mutex registered_mutex;
std::map<std::string, Registered>& registered() {
  static std::map<std::string, Registered> tables;
  return tables;
}
}  // namespace

void register_table_target(const std::string& spec, const nc_plugin_v1* table, const TableCalls& calls) {
  std::lock_guard lock(registered_mutex);
  if (table) registered()[spec] = {table, calls};
  else registered().erase(spec);
}

const nc_plugin_v1* registered_table_target(const std::string& spec, TableCalls* calls) {
  std::lock_guard lock(registered_mutex);
  const auto it = registered().find(spec);
  if (it == registered().end()) return nullptr;
  if (calls) *calls = it->second.calls;
  return it->second.table;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::unique_ptr<Target> make_abi_target(const nc_plugin_v1* table) { return std::make_unique<AbiTarget>(table); }

std::string named_plugin_target(const std::string& spec) {
#ifdef NC_CUDA_PLUGIN_PATH
  // Our CUDA kernels, and their --use_fast_math negative control (kernels/README.md).
  if (spec == "cuda") return std::string("plugin:") + NC_CUDA_PLUGIN_PATH;
  if (spec == "cuda-fastmath") return std::string("plugin:") + NC_CUDA_FASTMATH_PLUGIN_PATH;
#endif
  return spec;
}

std::unique_ptr<Target> make_target(const std::string& spec, const TargetOptions& o, std::string* why) {
  if (spec == "cpu") {
#ifdef NC_HAVE_CODEC_PLUGIN
    return make_abi_target(nc_codec_plugin_table());
#else
    *why = "target 'cpu' is not built in (codec/codec_plugin.h was not available at build time)";
    return nullptr;
#endif
  }
  if (const nc_plugin_v1* table = registered_table_target(spec)) return make_abi_target(table);
  if (std::string plugin = named_plugin_target(spec); plugin != spec) return make_target(plugin, o, why);
  if (spec.rfind("pipe:", 0) == 0 && spec.size() > 5) return std::make_unique<PipeTarget>(spec.substr(5), o.timeout_s);
  if (spec.rfind("plugin:", 0) == 0 && spec.size() > 7) {
    if (o.plugin_host.empty()) return *why = "no plugin host executable known", nullptr;
    return std::make_unique<PipeTarget>(
        "exec " + shell_quote(o.plugin_host) + " plugin-host " + shell_quote(spec.substr(7)), o.timeout_s);
  }
  *why = "unknown target '" + spec + "' (expected cpu, cuda, cuda-fastmath, pipe:COMMAND or plugin:PATH.so)";
  return nullptr;
}

}  // namespace nc::runners
