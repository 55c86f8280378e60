#include "corpus/zstd_io.h"

#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "corpus/sha256.h"

namespace nc::corpus {

std::string zstd_compress(std::string_view text) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (cctx == nullptr) throw std::runtime_error("ZSTD_createCCtx failed");
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kZstdLevel);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, 0);
  std::string out(ZSTD_compressBound(text.size()), '\0');
  size_t n = ZSTD_compress2(cctx, out.data(), out.size(), text.data(), text.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

namespace {

// Feeds `in` through `dctx`, appending output to `out`; returns ZSTD's hint (0 = frame complete),
// or `hint` unchanged when there was nothing to do.
size_t decompress_chunk(ZSTD_DCtx* dctx, ZSTD_inBuffer& in, std::string& out, std::string& err, size_t hint) {
  std::vector<char> buf(ZSTD_DStreamOutSize());
  // Keep going while input remains or the last call filled the output (data still buffered).
  bool output_full = false;
  while (in.pos < in.size || output_full) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    hint = ZSTD_decompressStream(dctx, &o, &in);
    if (ZSTD_isError(hint)) {
      err = ZSTD_getErrorName(hint);
      return hint;
    }
    out.append(buf.data(), o.pos);
    output_full = o.pos == o.size;
  }
  return hint;
}

}  // namespace

Result<std::string> zstd_decompress(std::string_view compressed, const std::string& name) {
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (dctx == nullptr) throw std::runtime_error("ZSTD_createDCtx failed");
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  std::string out, err;
  size_t hint = decompress_chunk(dctx, in, out, err, 1);
  ZSTD_freeDCtx(dctx);
  if (!err.empty()) return Error{name, 0, "", "corrupt zstd data: " + err};
  if (compressed.empty()) return Error{name, 0, "", "empty file: no zstd frame"};
  if (hint != 0) return Error{name, 0, "", "truncated zstd frame (file ends inside a frame)"};
  return out;
}

struct ZstdFileStream::Impl {
  std::FILE* file = nullptr;
  ZSTD_DCtx* dctx = nullptr;
  std::vector<char> in_buf;
  Sha256 hash;
  size_t last_hint = 1;
  bool done = false;
  ~Impl() {
    if (file) std::fclose(file);
    if (dctx) ZSTD_freeDCtx(dctx);
  }
};

Result<std::unique_ptr<ZstdFileStream>> ZstdFileStream::open(const std::string& path) {
  std::unique_ptr<ZstdFileStream> s(new ZstdFileStream());
  s->path_ = path;
  s->impl_ = std::make_unique<Impl>();
  s->impl_->file = std::fopen(path.c_str(), "rb");
  if (s->impl_->file == nullptr) return Error{path, 0, "", std::string("cannot open: ") + std::strerror(errno)};
  s->impl_->dctx = ZSTD_createDCtx();
  if (s->impl_->dctx == nullptr) throw std::runtime_error("ZSTD_createDCtx failed");
  s->impl_->in_buf.resize(ZSTD_DStreamInSize());
  return s;
}

ZstdFileStream::~ZstdFileStream() = default;

Result<bool> ZstdFileStream::read(std::string& out) {
  Impl& m = *impl_;
  if (m.done) return false;
  size_t n = std::fread(m.in_buf.data(), 1, m.in_buf.size(), m.file);
  if (n == 0) {
    if (std::ferror(m.file)) return Error{path_, 0, "", "read error"};
    m.done = true;
    compressed_sha256_ = m.hash.hex_digest();
    if (compressed_bytes_ == 0) return Error{path_, 0, "", "empty file: no zstd frame"};
    if (m.last_hint != 0) return Error{path_, 0, "", "truncated zstd frame (file ends inside a frame)"};
    return false;
  }
  compressed_bytes_ += n;
  m.hash.update(std::string_view(m.in_buf.data(), n));
  ZSTD_inBuffer in{m.in_buf.data(), n, 0};
  std::string err;
  m.last_hint = decompress_chunk(m.dctx, in, out, err, m.last_hint);
  if (!err.empty()) {
    m.done = true;
    return Error{path_, 0, "", "corrupt zstd data: " + err};
  }
  return true;
}

}  // namespace nc::corpus
