#include "generator/columns.h"

#include <string_view>

#include "registry/registry.h"

namespace nc::gen {

std::vector<std::string> OpColumns::all() const {
  std::vector<std::string> c{"id"};
  c.insert(c.end(), inputs.begin(), inputs.end());
  c.push_back("expect");
  c.push_back("accept");
  c.insert(c.end(), info.begin(), info.end());
  c.push_back("tags");
  c.push_back("comment");
  return c;
}

namespace {
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> w;
  while (!s.empty()) {
    const size_t sp = s.find(' ');
    w.emplace_back(s.substr(0, sp));
    s.remove_prefix(sp == std::string_view::npos ? s.size() : sp + 1);
  }
  return w;
}
}  // namespace

corpus::Result<OpColumns> op_columns(const std::string& op) {
  if (auto o = find_op(std::string_view(op).substr(0, op.find(' '))))
    return OpColumns{words(info(*o).inputs), words(info(*o).info)};
  return corpus::Error{"", 0, "", "unknown #op `" + op + "` (see vectors/FORMAT.md Operations)"};
}

}  // namespace nc::gen
