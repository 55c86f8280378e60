#include "corpus_fixture.h"

#include <sys/wait.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "corpus/manifest.h"
#include "corpus/sha256.h"
#include "corpus/zstd_io.h"

namespace nc::runners::test {
namespace {

struct Rec {
  std::string inputs, rest;  // input fields; expect accept and the info/tags/comment columns
};

std::string suite_text(const std::string& name, const std::string& op, const std::string& columns,
                       const std::vector<std::string>& defs, const std::vector<Rec>& recs) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const Rec& r : recs) {
    std::string id = name + ":" + corpus::sha256_hex(name + "\n" + r.inputs).substr(0, 12);
    lines.push_back({id, id + " " + r.inputs + " " + r.rest});
  }
  std::sort(lines.begin(), lines.end());
  std::string t = "#ninfer-conform-vectors 1\n#suite " + name + "\n#op " + op + "\n#about runner test suite\n" +
                  "#spec 3.3\n#columns " + columns + "\n";
  for (const std::string& d : defs) t += d + "\n";
  t += "#records " + std::to_string(recs.size()) + "\n";
  for (auto& l : lines) t += l.second + "\n";
  return t;
}

// Every fixture directory is removed when the test binary exits.
std::vector<std::string>& made_dirs() {
  static std::vector<std::string> dirs;
  return dirs;
}
void remove_made_dirs() {
  std::error_code ec;
  for (const std::string& d : made_dirs()) std::filesystem::remove_all(d, ec);
}

}  // namespace

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

int run_status(const std::string& command) {
  int st = std::system(command.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

namespace {
struct Suite {
  std::string name, text;
  size_t records;
};
std::string write_corpus(const std::vector<Suite>& suites);
}  // namespace

std::string make_corpus() {
  const std::string dec_cols = "id word expect accept value class tags comment";
  std::vector<Suite> suites;
  // E4M3FN: sign 7, e 6:3, m 2:0, bias 7; e==0 -> m*2^-9; else (1+m/8)*2^(e-7); 0x7f/0xff NaN.
  std::vector<Rec> e4m3 = {
      {"00", "00000000 - 0x0p+0 zero - positive zero"},
      {"80", "80000000 - -0x0p+0 zero negative-zero negative zero keeps its sign"},
      {"01", "3b000000 - 0x1p-9 subnormal min-subnormal,subnormal 1*2^-9: biased 118"},
      {"07", "3c600000 - 0x1.cp-7 subnormal subnormal 7*2^-9 = 1.75*2^-7"},
      {"08", "3c800000 - 0x1p-6 normal - e=1 m=0: 2^-6"},
      {"38", "3f800000 - 0x1p+0 normal - e=7 m=0: 1.0"},
      {"7e", "43e00000 - 0x1.cp+8 normal max-normal e=15 m=6: 448"},
      {"fe", "c3e00000 - -0x1.cp+8 normal max-normal -448"},
      {"7f", "nan* - nan nan nan the positive NaN word"},
      // Fixture for policy reporting: a NaN word whose record names a specific NaN and nan-any.
      {"ff", "7fc00000 nan-any nan nan nan the negative NaN word, any NaN accepted under nan-any"},
  };
  suites.push_back(
      {"decode.E4M3FN",
       suite_text("decode.E4M3FN", "decode E4M3FN", dec_cols,
                  {"#tag max-normal the largest finite magnitude.", "#tag min-subnormal smallest subnormal.",
                   "#tag nan NaN words.", "#tag negative-zero signed zero.", "#tag subnormal e == 0, m != 0.",
                   "#policy nan-any Any binary32 NaN is accepted."},
                  e4m3),
       e4m3.size()});
  // W8 codes: two's complement 8 bits, 0x80 illegal (spec 5).
  std::vector<Rec> w8 = {
      {"00", "0 - 0 int - zero"},        {"01", "1 - 1 int - one"},
      {"7f", "127 - 127 int - largest"}, {"81", "-127 - -127 int - smallest legal"},
      {"ff", "-1 - -1 int - minus one"}, {"80", "!code-illegal - - int w8-minus-128 -128 is not a W8 code"},
  };
  suites.push_back({"decode.W8G32_F16S.code",
                    suite_text("decode.W8G32_F16S.code", "decode W8G32_F16S.code", dec_cols,
                               {"#tag w8-minus-128 the one illegal W8 byte."}, w8),
                    w8.size()});
  std::vector<Rec> val = {{"00", "valid - - positive zero scale"}, {"80", "!scale-negative - - negative zero"}};
  suites.push_back(
      {"validate.NVFP4.scale",
       suite_text("validate.NVFP4.scale", "validate NVFP4.scale", "id word expect accept tags comment", {}, val),
       val.size()});
  return write_corpus(suites);
}

std::string make_nan_corpus() {
  // F32_TO_BF16_RNE (docs/recipes.md, BF16/F16 NaN rule): the sign and fraction bits 22..16 kept,
  // then the quiet bit (BF16 bit 6) set.
  std::vector<Rec> recs = {
      {"3f800000", "3f80 - 0x1p+0 - 1.0, no NaN"},
      {"7fc00000", "7fc0 nan-any nan - quiet NaN, no payload"},
      {"ffc00000", "ffc0 nan-any nan - negative quiet NaN, no payload"},
      {"ff812345", "ffc1 nan-any nan - negative signalling NaN: fraction 0x012345, bits 22..16 = 0x01, quiet 0x40"},
      {"7fa00000", "7fe0 nan-any nan - signalling NaN: bits 22..16 = 0x20, quiet 0x40"},
      {"7f800001", "7fc0 nan-any nan - signalling NaN whose kept bits are zero: quieted, 0x40"},
  };
  return write_corpus(
      {{"convert.F32_TO_BF16_RNE",
        suite_text("convert.F32_TO_BF16_RNE", "convert F32_TO_BF16_RNE", "id src expect accept exact tags comment",
                   {"#policy nan-any any NaN of the destination type for a NaN source."}, recs),
        recs.size()}});
}

std::string reports_dir(const std::string& corpus) {
  const std::string dir = corpus + ".out";
  if (std::filesystem::create_directory(dir)) made_dirs().push_back(dir);
  return dir;
}

namespace {
std::string write_corpus(const std::vector<Suite>& suites) {
  char tmpl[] = "/tmp/nc-runners-test-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  if (made_dirs().empty()) std::atexit(remove_made_dirs);
  made_dirs().push_back(dir);
  corpus::Manifest m;
  m.schema = 1;
  m.generator_version = "runner-test-fixture";
  m.seed = "0x0";
  for (const Suite& s : suites) {
    corpus::ManifestEntry e;
    e.suite = s.name;
    e.file = s.name + ".vec.zst";
    const std::string zst = corpus::zstd_compress(s.text);
    write_text(dir + "/" + e.file, zst);
    e.records = s.records;
    e.compressed_bytes = zst.size();
    e.text_bytes = s.text.size();
    e.compressed_sha256 = corpus::sha256_hex(zst);
    e.text_sha256 = corpus::sha256_hex(s.text);
    m.suites.push_back(e);
  }
  write_text(dir + "/" + corpus::kManifestName, corpus::manifest_json(m));
  return dir;
}
}  // namespace

}  // namespace nc::runners::test
