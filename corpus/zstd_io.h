// zstd framing for suite files: deterministic one-shot compression (fixed level, one thread,
// content size and checksum in the frame, so `zstdcat` and any zstd library read them) and
// streaming decompression from a file, which reports truncated or corrupted frames as Errors.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "corpus/error.h"

namespace nc::corpus {

// Level 12, single-threaded: the same bytes on every run and every machine with this libzstd.
// Measured on the whole corpus: level 19 is 15% smaller but ~16x slower (27 s vs 1.7 s of CPU),
// which would put `generate` near its 2-minute limit on the shared 2-core machine.
inline constexpr int kZstdLevel = 12;
std::string zstd_compress(std::string_view text);

// Decompresses a whole in-memory frame sequence (used by --check and tests).
Result<std::string> zstd_decompress(std::string_view compressed, const std::string& name);

// Pulls decompressed bytes from a file in chunks, hashing the compressed bytes as it goes.
class ZstdFileStream {
 public:
  static Result<std::unique_ptr<ZstdFileStream>> open(const std::string& path);
  ~ZstdFileStream();
  // Appends the next decompressed bytes to `out`. Returns false at a clean end of input; an
  // Error if the frame is truncated or corrupt or the file cannot be read.
  Result<bool> read(std::string& out);
  uint64_t compressed_bytes() const { return compressed_bytes_; }
  // SHA-256 of every compressed byte read; valid once read() has returned false.
  const std::string& compressed_sha256() const { return compressed_sha256_; }

 private:
  ZstdFileStream() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
  uint64_t compressed_bytes_ = 0;
  std::string compressed_sha256_;
};

}  // namespace nc::corpus
