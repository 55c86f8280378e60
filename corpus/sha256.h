// SHA-256 (OpenSSL libcrypto) for manifest hashes, incremental so a file can be hashed in pieces
// as it is read, and a one-call form for the case ids.
#pragma once

#include <initializer_list>
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
  // Lowercase hex of the 32-byte digest; the object must not be updated afterwards.
  std::string hex_digest();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::string sha256_hex(std::string_view bytes);

// SHA-256 of the concatenation of `parts`, one call per message with no context to set up: the
// reader hashes every case id with it (one or two 64-byte blocks each, where OpenSSL's per-message
// dispatch would cost more than the hashing). Uses the x86 SHA extensions where the CPU has them,
// portable code otherwise; `portable` forces the latter (tests compare both with OpenSSL).
void sha256_parts(std::initializer_list<std::string_view> parts, unsigned char out[32], bool portable = false);

}  // namespace nc::corpus
