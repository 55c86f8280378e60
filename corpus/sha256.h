// SHA-256 (OpenSSL libcrypto) for manifest hashes, incremental so a file can be hashed in pieces
// as it is read, and a short-message form of its own for the case ids.
#pragma once

#include <cstdint>
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

// SHA-256 of messages that all begin with one prefix, with no context to set up per message: the
// reader hashes every case id (`<suite>\n`, then the record's inputs: one or two 64-byte blocks)
// with one of these, where OpenSSL's per-message dispatch would cost more than the hashing. The
// prefix's whole blocks are compressed once, its last partial block is kept ready to be copied.
// Uses the x86 SHA extensions where the CPU has them, portable code otherwise; `portable` forces
// the latter (tests compare both with OpenSSL).
class Sha256WithPrefix {
 public:
  explicit Sha256WithPrefix(std::string_view prefix = {}, bool portable = false);
  // SHA-256 of prefix + rest.
  void digest(std::string_view rest, unsigned char out[32]) const;
  // SHA-256 of prefix + rests[i] into out[i], for i < n: faster per message than one by one.
  void digest_each(const std::string_view* rests, size_t n, unsigned char (*out)[32]) const;

 private:
  void (*compress_)(uint32_t*, const unsigned char*);
  void (*compress4_)(uint32_t* const*, const unsigned char* const*) = nullptr;  // four blocks at once
  uint32_t state_[8];                                                           // after the prefix's whole blocks
  alignas(16) unsigned char pending_[64];  // the prefix's remaining bytes, then zeros
  size_t pending_bytes_ = 0;
  uint64_t prefix_bytes_ = 0;
};

}  // namespace nc::corpus
