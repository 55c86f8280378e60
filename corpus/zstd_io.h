// zstd framing for suite files: deterministic one-shot compression (fixed level, one thread,
// content size and checksum in the frame, so `zstdcat` and any zstd library read them) and
// decompression of a whole file's frames, which reports truncated or corrupted frames as Errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "corpus/error.h"

namespace nc::corpus {

// Level 12, single-threaded: the same bytes on every run and every machine with this libzstd.
// Measured on the whole corpus: level 19 is 15% smaller but ~16x slower (27 s vs 1.7 s of CPU),
// which would put `generate` near its 2-minute limit on the shared 2-core machine.
inline constexpr int kZstdLevel = 12;
std::string zstd_compress(std::string_view text);

// Whether decompression checks each frame's content checksum (XXH64 of the text, about 13% of
// decompression time). Skip it only for bytes already matched to the manifest's SHA-256: that
// pins every byte of the frame, checksum included, so the text can only be the one it encodes.
enum class FrameChecksum { Verify, Skip };

// The most text a suite file may hold (vectors/FORMAT.md): 1 GiB, some fifty times the largest
// suite, so that a hostile or damaged file (a few KiB of zstd can claim or hold gigabytes) is
// refused as such instead of exhausting memory.
inline constexpr uint64_t kMaxTextBytes = uint64_t(1) << 30;

// Decompresses a whole in-memory frame sequence. Frames that declare their content size (ours
// do) are decompressed in one call straight into the result, without zstd's streaming window and
// its copy; others, and a declared size out of proportion to the input (a damaged header), are
// streamed into a growing string. A truncated or corrupt frame, or more than `max_bytes` of text,
// is an Error naming `name`.
Result<std::string> zstd_decompress(std::string_view compressed, const std::string& name,
                                    FrameChecksum checksum = FrameChecksum::Verify, uint64_t max_bytes = kMaxTextBytes);

// The bytes of a regular file, read whole; an Error naming it when it cannot be read or is anything
// else (a directory, a FIFO, a device).
// With `max_bytes`, a larger file is refused before it is read.
Result<std::string> read_file(const std::string& path, uint64_t max_bytes = UINT64_MAX);

}  // namespace nc::corpus
