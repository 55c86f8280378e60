#include "corpus/zstd_io.h"

// ZSTD_d_forceIgnoreChecksum is in zstd's experimental section (Debian 12's libzstd 1.5.4 has it).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

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
// or `hint` unchanged when there was nothing to do. Stops, setting `over`, before `out` would pass
// `max_bytes`.
size_t decompress_chunk(ZSTD_DCtx* dctx, ZSTD_inBuffer& in, std::string& out, std::string& err, size_t hint,
                        uint64_t max_bytes, bool& over) {
  std::vector<char> buf(ZSTD_DStreamOutSize());
  // Keep going while input remains or the last call filled the output (data may be buffered),
  // unless that call completed the frame: one more call would find no input and ask for the
  // next frame's header, as if the file were cut short.
  bool output_full = false;
  while (in.pos < in.size || (output_full && hint != 0)) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    hint = ZSTD_decompressStream(dctx, &o, &in);
    if (ZSTD_isError(hint)) {
      err = ZSTD_getErrorName(hint);
      return hint;
    }
    if (out.size() + o.pos > max_bytes) {
      over = true;
      return hint;
    }
    out.append(buf.data(), o.pos);
    output_full = o.pos == o.size;
  }
  return hint;
}

}  // namespace

Result<std::string> zstd_decompress(std::string_view compressed, const std::string& name, FrameChecksum checksum,
                                    uint64_t max_bytes) {
  if (compressed.empty()) return Error{name, 0, "", "empty file: no zstd frame"};
  auto too_long = [&](const std::string& what) {
    return Error{name, 0, "",
                 what + ", more than the " + std::to_string(max_bytes) + " bytes of text a suite file may hold"};
  };
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (dctx == nullptr) throw std::runtime_error("ZSTD_createDCtx failed");
  if (checksum == FrameChecksum::Skip) ZSTD_DCtx_setParameter(dctx, ZSTD_d_forceIgnoreChecksum, ZSTD_d_ignoreChecksum);
  std::string out;
  // The first frame's declared size (ours are one frame), or UNKNOWN / ERROR. Suite text
  // compresses about tenfold; a claim far beyond that may be a damaged header, so it is not
  // allocated up front: such input is streamed, and memory grows only with what it really holds.
  const unsigned long long declared = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR && declared > max_bytes) {
    ZSTD_freeDCtx(dctx);
    return too_long("the zstd frame declares " + std::to_string(declared) + " bytes");
  }
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR &&
      declared / 1024 <= compressed.size()) {
    out.resize(declared);
    const size_t n = ZSTD_decompressDCtx(dctx, out.data(), out.size(), compressed.data(), compressed.size());
    if (!ZSTD_isError(n) && n == declared) {
      ZSTD_freeDCtx(dctx);
      return out;
    }
    // Damaged, or more frames: the streaming pass below reads them or says what is wrong
    // (corrupt data, a frame cut short, a frame holding other than it declares).
    out.clear();
    ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
  }
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  std::string err;
  bool over = false;
  size_t hint = decompress_chunk(dctx, in, out, err, 1, max_bytes, over);
  ZSTD_freeDCtx(dctx);
  if (over) return too_long("the zstd frames hold");
  if (!err.empty()) return Error{name, 0, "", "corrupt zstd data: " + err};
  if (hint != 0) return Error{name, 0, "", "truncated zstd frame (file ends inside a frame)"};
  return out;
}

Result<std::string> read_file(const std::string& path, uint64_t max_bytes) {
  // Opened without blocking and checked before reading: a FIFO would wait forever for a writer and
  // /dev/zero never ends.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Error{path, 0, "", std::string("cannot open: ") + std::strerror(errno)};
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Error{path, 0, "", "not a regular file"};
  }
  if (uint64_t(st.st_size) > max_bytes) {
    close(fd);
    return Error{path, 0, "",
                 std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) + " it may have"};
  }
  std::FILE* f = fdopen(fd, "rb");
  if (f == nullptr) {
    close(fd);
    return Error{path, 0, "", std::string("cannot open: ") + std::strerror(errno)};
  }
  std::string bytes;
  // One read of the size the file has now, then whatever it has grown by since.
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long size = std::ftell(f);
    if (size > 0) bytes.resize(size_t(size));
    std::rewind(f);
  }
  bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
  char buf[1 << 16];
  for (size_t n; bytes.size() <= max_bytes && (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return Error{path, 0, "", "read error"};
  if (bytes.size() > max_bytes)
    return Error{path, 0, "", "grew past the " + std::to_string(max_bytes) + " bytes it may have"};
  return bytes;
}

}  // namespace nc::corpus
