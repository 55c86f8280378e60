#include "corpus/sha256.h"

#include <openssl/evp.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

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

void Sha256::update(std::string_view bytes) { EVP_DigestUpdate(impl_->ctx, bytes.data(), bytes.size()); }

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

namespace {

// FIPS 180-4 section 4.2.2.
constexpr uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

void store_be32(unsigned char* p, uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}
void store_be64(unsigned char* p, uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}

constexpr uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// One 64-byte block into the state (FIPS 180-4 section 6.2.2).
void compress_portable(uint32_t h[8], const unsigned char* block) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(block[4 * i]) << 24 | uint32_t(block[4 * i + 1]) << 16 | uint32_t(block[4 * i + 2]) << 8 |
           block[4 * i + 3];
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[i] + w[i];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

#if defined(__x86_64__)
// The same with the SHA extensions, for N independent blocks at once: the state as ABEF/CDGH
// halves, four rounds per step, the message schedule by sha256msg1/msg2. A block's 64 rounds are
// one chain of dependent instructions; N chains interleaved keep the SHA unit busy in their gaps.
template <int N>
__attribute__((target("sha,sse4.1"))) void compress_sha_ni_lanes(uint32_t* const* h,
                                                                 const unsigned char* const* block) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i state0[N], state1[N], save0[N], save1[N], m[N][4];
  for (int n = 0; n < N; ++n) {
    const __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h[n])), 0xB1);
    const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h[n] + 4)), 0x1B);
    save0[n] = state0[n] = _mm_alignr_epi8(cdab, efgh, 8);     // ABEF
    save1[n] = state1[n] = _mm_blend_epi16(efgh, cdab, 0xF0);  // CDGH
    for (int i = 0; i < 4; ++i)
      m[n][i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(block[n] + 16 * i)), bswap);
  }
  // Unrolled whole (both loops), so that the lanes' state and m[n][g % 4] are registers, not
  // stack slots.
#pragma GCC unroll 16
  for (int g = 0; g < 16; ++g) {
    const __m128i kg = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kK + 4 * g));
#pragma GCC unroll 4
    for (int n = 0; n < N; ++n) {
      if (g >= 4) {
        // W[g] from W[g-4..g-1] (four words each), kept in m[g % 4].
        __m128i t = _mm_sha256msg1_epu32(m[n][g % 4], m[n][(g + 1) % 4]);
        t = _mm_add_epi32(t, _mm_alignr_epi8(m[n][(g + 3) % 4], m[n][(g + 2) % 4], 4));
        m[n][g % 4] = _mm_sha256msg2_epu32(t, m[n][(g + 3) % 4]);
      }
      const __m128i k = _mm_add_epi32(m[n][g % 4], kg);
      state1[n] = _mm_sha256rnds2_epu32(state1[n], state0[n], k);
      state0[n] = _mm_sha256rnds2_epu32(state0[n], state1[n], _mm_shuffle_epi32(k, 0x0E));
    }
  }
  for (int n = 0; n < N; ++n) {
    const __m128i feba = _mm_shuffle_epi32(_mm_add_epi32(state0[n], save0[n]), 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(_mm_add_epi32(state1[n], save1[n]), 0xB1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h[n]), _mm_blend_epi16(feba, dchg, 0xF0));   // DCBA
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h[n] + 4), _mm_alignr_epi8(dchg, feba, 8));  // HGFE
  }
}

void compress_sha_ni(uint32_t h[8], const unsigned char* block) { compress_sha_ni_lanes<1>(&h, &block); }

// CPUID directly: clang 14's __builtin_cpu_supports does not know "sha". SHA is leaf 7 EBX bit 29,
// SSE4.1 leaf 1 ECX bit 19.
bool have_sha_ni() {
  static const bool yes = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19))) return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
  }();
  return yes;
}
#endif

}  // namespace

Sha256WithPrefix::Sha256WithPrefix(std::string_view prefix, bool portable)
    : compress_(compress_portable),
      state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19},
      pending_{},
      prefix_bytes_(prefix.size()) {
#if defined(__x86_64__)
  if (!portable && have_sha_ni()) compress_ = compress_sha_ni, compress4_ = compress_sha_ni_lanes<4>;
#else
  (void)portable;
#endif
  for (; prefix.size() >= 64; prefix.remove_prefix(64))
    compress_(state_, reinterpret_cast<const unsigned char*>(prefix.data()));
  if (!prefix.empty()) std::memcpy(pending_, prefix.data(), prefix.size());  // data() may be null when empty
  pending_bytes_ = prefix.size();
}

void Sha256WithPrefix::digest(std::string_view rest, unsigned char out[32]) const {
  const uint64_t bits = (prefix_bytes_ + rest.size()) * 8;
  uint32_t h[8];
  std::memcpy(h, state_, sizeof h);
  // The last block(s): the message's tail, 0x80, zeros, the bit length big-endian (FIPS 180-4
  // section 5.1.1). Bytes past the tail must be zero: pending_ is zero past the prefix, and a
  // tail that spills over is copied into a cleared block.
  alignas(16) unsigned char buf[128];
  std::memcpy(buf, pending_, 64);
  size_t fill = pending_bytes_;
  if (fill + rest.size() < 64) {  // the common case: a short id message, one copy
    if (!rest.empty()) std::memcpy(buf + fill, rest.data(), rest.size());
    fill += rest.size();
  } else {
    const size_t take = 64 - fill;
    std::memcpy(buf + fill, rest.data(), take);
    compress_(h, buf);
    rest.remove_prefix(take);
    for (; rest.size() >= 64; rest.remove_prefix(64)) compress_(h, reinterpret_cast<const unsigned char*>(rest.data()));
    std::memcpy(buf, rest.data(), rest.size());
    std::memset(buf + rest.size(), 0, 64 - rest.size());
    fill = rest.size();
  }
  buf[fill++] = 0x80;
  const size_t end = fill <= 56 ? 64 : 128;
  if (end == 128) std::memset(buf + 64, 0, 56);
  store_be64(buf + end - 8, bits);
  compress_(h, buf);
  if (end == 128) compress_(h, buf + 64);
  for (int i = 0; i < 8; ++i) store_be32(out + 4 * i, h[i]);
}

void Sha256WithPrefix::digest_each(const std::string_view* rests, size_t n, unsigned char (*out)[32]) const {
  // Messages that end within one block (tail, 0x80 and the 8-byte length after the prefix's
  // bytes) are compressed four at a time; the others, and all of them without SHA extensions,
  // one by one.
  alignas(16) unsigned char blocks[4][64];
  uint32_t states[4][8];
  size_t lane_of[4];
  int lanes = 0;
  auto finish = [&](int count) {
    for (int k = 0; k < count; ++k)
      for (int i = 0; i < 8; ++i) store_be32(out[lane_of[k]] + 4 * i, states[k][i]);
  };
  for (size_t i = 0; i < n; ++i) {
    const std::string_view rest = rests[i];
    if (!compress4_ || pending_bytes_ + rest.size() + 9 > 64) {
      digest(rest, out[i]);
      continue;
    }
    unsigned char* b = blocks[lanes];
    std::memcpy(b, pending_, 64);
    if (!rest.empty()) std::memcpy(b + pending_bytes_, rest.data(), rest.size());
    b[pending_bytes_ + rest.size()] = 0x80;
    store_be64(b + 56, (prefix_bytes_ + rest.size()) * 8);
    std::memcpy(states[lanes], state_, sizeof state_);
    lane_of[lanes] = i;
    if (++lanes == 4) {
      uint32_t* h[4] = {states[0], states[1], states[2], states[3]};
      const unsigned char* in[4] = {blocks[0], blocks[1], blocks[2], blocks[3]};
      compress4_(h, in);
      finish(4);
      lanes = 0;
    }
  }
  for (int k = 0; k < lanes; ++k) compress_(states[k], blocks[k]);
  finish(lanes);
}

}  // namespace nc::corpus
