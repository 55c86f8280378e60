// SHA-256 (OpenSSL libcrypto) for case ids and manifest hashes, incremental so the reader can
// hash a file while it streams it, and reusable so hashing every case id costs one digest, not a
// context allocation and an algorithm fetch per record.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace nc::corpus {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;
  void update(std::string_view bytes);
  // Starts a new message on the same context (no allocation).
  void reset();
  // The 32-byte digest; reset() before updating again.
  void digest(unsigned char out[32]);
  // Lowercase hex of the 32-byte digest; reset() before updating again.
  std::string hex_digest();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::string sha256_hex(std::string_view bytes);

}  // namespace nc::corpus
