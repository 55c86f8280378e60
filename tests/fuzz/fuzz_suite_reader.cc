// libFuzzer harness: the suite reader (corpus/reader.cc) on arbitrary uncompressed suite text.
// Every input must end in records or one Error naming the suite; never a crash, a sanitizer report
// or an exception. What it accepts the canonical writer must render too (lint's canonical-form check
// depends on it); the reader accepts some non-canonical text on purpose, so bytes may differ.
#include <cstddef>
#include <cstdint>
#include <string>

#include "corpus/reader.h"
#include "corpus/writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nc::corpus;
  std::string text(reinterpret_cast<const char*>(data), size);
  Result<SuiteFile> f = read_suite_text(text, "fuzz");
  if (!f) {
    if (f.error().message().empty()) __builtin_trap();  // an error must say something
    return 0;
  }
  // Accepted text is valid: its records must render again (render_suite reads its output back).
  std::vector<std::vector<std::string>> records;
  for (const Record& r : f->records) records.emplace_back(r.fields.begin(), r.fields.end());
  Result<RenderedSuite> again = render_suite(f->header, std::move(records));
  if (!again) __builtin_trap();
  return 0;
}
