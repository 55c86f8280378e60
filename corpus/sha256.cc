#include "corpus/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace nc::corpus {

namespace {
// Fetched once: an implicit fetch (EVP_sha256() at every init) takes the provider store's lock and
// a name lookup each time, which cost more than hashing a short case id.
const EVP_MD* sha256_md() {
  static EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}
}  // namespace

struct Sha256::Impl {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : impl_(std::make_unique<Impl>()) {
  impl_->ctx = EVP_MD_CTX_new();
  // Allocation failure inside libcrypto is not bad input; there is nothing sensible to return.
  if (impl_->ctx == nullptr || sha256_md() == nullptr || EVP_DigestInit_ex2(impl_->ctx, sha256_md(), nullptr) != 1)
    throw std::runtime_error("OpenSSL SHA-256 initialisation failed");
}

void Sha256::reset() { EVP_DigestInit_ex2(impl_->ctx, nullptr, nullptr); }

void Sha256::digest(unsigned char out[32]) {
  unsigned int n = 0;
  EVP_DigestFinal_ex(impl_->ctx, out, &n);
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
  unsigned char bytes[32];
  digest(bytes);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (unsigned char d : bytes) {
    out += kHex[d >> 4];
    out += kHex[d & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 h;
  h.update(bytes);
  return h.hex_digest();
}

}  // namespace nc::corpus
