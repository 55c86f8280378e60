#include "corpus/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace nc::corpus {

namespace {
// The implementation, fetched once. With EVP_sha256() every EVP_DigestInit_ex fetches it again by
// name under a lock (OpenSSL 3), which cost several times the hashing of a short case id.
const EVP_MD* sha256_md() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  if (md == nullptr) throw std::runtime_error("OpenSSL SHA-256 is not available");
  return md;
}

std::string to_hex(const unsigned char* digest, unsigned int n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (unsigned int i = 0; i < n; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}
}  // namespace

struct Sha256::Impl {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : impl_(std::make_unique<Impl>()) {
  impl_->ctx = EVP_MD_CTX_new();
  // Allocation failure inside libcrypto is not bad input; there is nothing sensible to return.
  if (impl_->ctx == nullptr || EVP_DigestInit_ex(impl_->ctx, sha256_md(), nullptr) != 1)
    throw std::runtime_error("OpenSSL SHA-256 initialisation failed");
}

Sha256::~Sha256() {
  if (impl_) EVP_MD_CTX_free(impl_->ctx);
}
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(std::string_view bytes) {
  EVP_DigestUpdate(impl_->ctx, bytes.data(), bytes.size());
}

std::string Sha256::hex_digest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(impl_->ctx, digest, &n);
  return to_hex(digest, n);
}

std::string sha256_hex(std::string_view bytes) {
  // One context per thread, re-initialised per call: case ids hash one short string per record,
  // and allocating and freeing a context (with its provider state) cost more than the hashing.
  struct ThreadContext {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~ThreadContext() { EVP_MD_CTX_free(ctx); }
  };
  thread_local ThreadContext t;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (t.ctx == nullptr || EVP_DigestInit_ex2(t.ctx, sha256_md(), nullptr) != 1 ||
      EVP_DigestUpdate(t.ctx, bytes.data(), bytes.size()) != 1 || EVP_DigestFinal_ex(t.ctx, digest, &n) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return to_hex(digest, n);
}

}  // namespace nc::corpus
