#include "runners/suite_file.h"

#include <zstd.h>

#include <fstream>
#include <sstream>

#include "runners/tokens.h"

namespace nc::runners {

std::string_view SuiteRecord::field(const std::vector<std::string>& columns, std::string_view name) const {
  for (size_t i = 0; i < columns.size() && i < fields.size(); ++i)
    if (columns[i] == name) return fields[i];
  return {};
}

int Suite::column(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return int(i);
  return -1;
}

bool zstd_decompress(const std::string& in, std::string* out, std::string* error) {
  out->clear();
  ZSTD_DStream* ds = ZSTD_createDStream();
  ZSTD_initDStream(ds);
  ZSTD_inBuffer ib{in.data(), in.size(), 0};
  std::string chunk(ZSTD_DStreamOutSize(), '\0');
  size_t last = 1;
  while (ib.pos < ib.size) {
    ZSTD_outBuffer ob{chunk.data(), chunk.size(), 0};
    last = ZSTD_decompressStream(ds, &ob, &ib);
    if (ZSTD_isError(last)) {
      *error = std::string("zstd: ") + ZSTD_getErrorName(last);
      ZSTD_freeDStream(ds);
      return false;
    }
    out->append(chunk.data(), ob.pos);
  }
  // Flush what the decoder still holds, then require a complete final frame.
  for (;;) {
    ZSTD_outBuffer ob{chunk.data(), chunk.size(), 0};
    if (last == 0) break;
    last = ZSTD_decompressStream(ds, &ob, &ib);
    if (ZSTD_isError(last)) break;
    out->append(chunk.data(), ob.pos);
    if (ob.pos == 0) break;
  }
  ZSTD_freeDStream(ds);
  if (last != 0) return *error = "zstd: truncated frame", false;
  return true;
}

std::string zstd_compress(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  out.resize(ZSTD_isError(n) ? 0 : n);
  return out;
}

bool read_suite(const std::string& path, Suite* out, std::string* error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return *error = path + ": cannot open", false;
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text;
  if (!zstd_decompress(ss.str(), &text, error)) return *error = path + ": " + *error, false;
  return parse_suite_text(path, std::move(text), out, error);
}

bool parse_suite_text(std::string path, std::string text, Suite* out, std::string* error) {
  *out = Suite{};
  out->path = std::move(path);
  out->text = std::move(text);
  std::string_view all = out->text;
  auto fail = [&](size_t line, const std::string& why) {
    *error = out->path + ":" + std::to_string(line) + ": " + why;
    return false;
  };
  if (all.empty() || all.back() != '\n') return fail(1, "file does not end with a newline");
  all.remove_suffix(1);
  long declared = -1;
  size_t line_no = 0;
  bool headers = true;
  for (std::string_view line : split(all, '\n')) {
    ++line_no;
    if (headers && !line.empty() && line[0] == '#') {
      size_t sp = line.find(' ');
      std::string_view key = line.substr(1, sp == std::string_view::npos ? line.npos : sp - 1);
      std::string_view value = sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1);
      if (key == "ninfer-conform-vectors") {
        if (value != "1") return fail(line_no, "unsupported schema version '" + std::string(value) + "'");
      } else if (key == "suite") out->name = value;
      else if (key == "op") out->op = value;
      else if (key == "columns") {
        for (std::string_view c : split(value, ' ')) out->columns.emplace_back(c);
      } else if (key == "tag" || key == "policy") {
        size_t s2 = value.find(' ');
        std::string name(value.substr(0, s2));
        std::string desc(s2 == std::string_view::npos ? std::string_view() : value.substr(s2 + 1));
        (key == "tag" ? out->tags : out->policies)[name] = desc;
      } else if (key == "records") {
        int64_t n;
        if (!parse_dec(value, &n) || n < 0) return fail(line_no, "bad #records '" + std::string(value) + "'");
        declared = long(n);
        headers = false;
      }
      continue;
    }
    if (headers) return fail(line_no, "record before #records");
    if (out->columns.size() < 2) return fail(line_no, "missing #columns");
    SuiteRecord r;
    r.line = line_no;
    std::string_view rest = line;
    for (size_t i = 0; i + 1 < out->columns.size(); ++i) {
      size_t sp = rest.find(' ');
      if (sp == std::string_view::npos || sp == 0)
        return fail(line_no, "record has fewer than " + std::to_string(out->columns.size()) + " fields");
      r.fields.push_back(rest.substr(0, sp));
      rest.remove_prefix(sp + 1);
    }
    r.fields.push_back(rest);
    out->records.push_back(r);
  }
  if (out->name.empty() || out->op.empty()) return fail(1, "missing #suite or #op header");
  if (declared != long(out->records.size()))
    return fail(line_no, "declared " + std::to_string(declared) + " records, found " +
                             std::to_string(out->records.size()));
  return true;
}

}  // namespace nc::runners
