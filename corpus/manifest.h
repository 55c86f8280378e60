// vectors/MANIFEST.json: the list of suites with sizes, record counts and both SHA-256 hashes,
// plus provenance (schema, generator and oracle library versions, seed). verify_corpus() checks a
// directory against it; a missing, tampered or truncated file is an Error naming the file and
// the expected hash.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "corpus/error.h"
#include "corpus/reader.h"

namespace nc::corpus {

inline constexpr const char* kManifestName = "MANIFEST.json";

struct ManifestEntry {
  std::string suite;
  std::string file;  // "<suite>.vec.zst", relative to the corpus directory
  uint64_t records = 0;
  uint64_t compressed_bytes = 0;
  uint64_t text_bytes = 0;
  std::string compressed_sha256;
  std::string text_sha256;
};

struct Manifest {
  int schema = 0;
  std::string generator_version;
  std::map<std::string, std::string> libraries;  // e.g. "mpfr" -> "4.2.0"
  std::string seed;                              // "0x..." hex
  std::vector<ManifestEntry> suites;             // sorted by suite name

  const ManifestEntry* find(const std::string& suite) const;
};

// Canonical JSON text (2-space indent, keys in a fixed order, trailing newline).
std::string manifest_json(const Manifest& m);
Result<Manifest> parse_manifest(const std::string& json_text, const std::string& name);
// The largest MANIFEST.json any command reads (vectors/FORMAT.md): some 50 times the official one.
inline constexpr uint64_t kMaxManifestBytes = uint64_t(1) << 20;
// The one manifest reader of every command (replay, certify, lint, show, generate, diff, sweep
// findings): DIR/MANIFEST.json must be a regular file (a FIFO, a device or a directory is refused
// without blocking), at most kMaxManifestBytes, parse, and list at least one suite. With `sha256`,
// the SHA-256 of the bytes parsed (the corpus's identity), so no command hashes a second read.
Result<Manifest> read_manifest(const std::string& dir, std::string* sha256 = nullptr);

// Checks every listed suite in `dir`: present, sizes, compressed hash, uncompressed hash and
// record count (by reading it through SuiteReader, which validates it too). Also flags
// *.vec.zst files that the manifest does not list. Returns every problem found, in suite order.
std::vector<Error> verify_corpus(const std::string& dir, const Manifest& m);

// The cheap half of verify_corpus, for readers that validate each suite as they stream it:
// every listed file present with its listed size and compressed SHA-256 (hashing the file's bytes,
// no decompression), and no unlisted *.vec.zst. Such a reader then calls check_totals() with
// what it read. With `contents`, it keeps each listed file's bytes as hashed (in manifest order;
// "" for a file with a problem), so that the reader can decompress exactly the bytes that matched
// (SuiteReader::from_verified) instead of reading and hashing the file again. `threads` files
// are read and hashed at once (replay --jobs); the problems come out in manifest order all the same.
std::vector<Error> verify_files(const std::string& dir, const Manifest& m, std::vector<std::string>* contents = nullptr,
                                unsigned threads = 1);
// A suite read to its end against its manifest entry: hashes (the text's where it was computed),
// text size, record count.
Status check_totals(const std::string& path, const ManifestEntry& e, const SuiteReader::Totals& totals);

}  // namespace nc::corpus
