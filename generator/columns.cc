#include "generator/columns.h"

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

corpus::Result<OpColumns> op_columns(const std::string& op) {
  std::string name = op.substr(0, op.find(' '));
  if (name == "decode") return OpColumns{{"word"}, {"value", "class"}};
  if (name == "validate") return OpColumns{{"word"}, {}};
  if (name == "parse") return OpColumns{{"name"}, {}};
  if (name == "reconstruct") return OpColumns{{"code", "scale", "divisor"}, {"exact"}};
  if (name == "convert") return OpColumns{{"src"}, {"exact"}};
  if (name == "encode") return OpColumns{{"src_type", "shape", "src"}, {"trace", "norm"}};
  if (name == "validate-tensor" || name == "dequantize") return OpColumns{{"shape", "codes", "scales", "divisor"}, {}};
  if (name == "layout") return OpColumns{{"shape", "row", "block"}, {"position"}};
  return corpus::Error{"", 0, "", "unknown #op `" + op + "` (see vectors/FORMAT.md Operations)"};
}

}  // namespace nc::gen
