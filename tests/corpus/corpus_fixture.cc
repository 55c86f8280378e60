#include "corpus_fixture.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace nc::corpus::test {

std::string demo_text() {
  return "#ninfer-conform-vectors 1\n"
         "#suite t.demo\n"
         "#op decode E4M3FN\n"
         "#about A demo.\n"
         "#spec 3.3\n"
         "#columns id word expect accept value class tags comment\n"
         "#tag subnormal e == 0, m != 0\n"
         "#policy nan-any any NaN\n"
         "#records 3\n"
         "t.demo:15268960c690 01 3b000000 - 0x1p-9 subnormal subnormal smallest positive subnormal\n"
         "t.demo:6d6142a2f3da 00 00000000 - 0x0p+0 zero - positive zero\n"
         "t.demo:76d288f8aea0 02 3b800000 nan-any 0x1p-8 subnormal subnormal \n";
}

ScratchDir::ScratchDir() {
  static std::atomic<int> counter{0};
  path = (std::filesystem::temp_directory_path() /
          ("nc-corpus-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
             .string();
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
}
ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace nc::corpus::test
