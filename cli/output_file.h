// The report files commands write (--json, --junit, --markdown, certify --out's certificate).
// "-" is standard output. An existing FIFO, terminal or other device (/dev/stdout, a pipe made by
// mkfifo) is written in place, since renaming over it would replace it with a plain file; a symlink
// is followed, so that it keeps pointing at the new report; any other path gets a temporary file
// renamed into place (corpus::write_file_atomic), so no reader ever sees half a report.
#pragma once

#include <initializer_list>
#include <string>

namespace nc::cli {

// Call before the command prints anything or does its work, with the paths of its reports ("" for
// a report not asked for). Each must be writable by write_output, checked now: a missing or
// read-only folder or a directory in the way is a usage error found at once, not after an hour's
// replay. When one is "-", standard output is kept for that report and what the command prints for
// people goes to standard error. false with *error naming the path and the reason, or when two are "-".
bool check_outputs(std::initializer_list<const std::string*> outputs, std::string* error);
// The same for a folder a command creates with its parents (certify --out, generate --out): it, or
// the nearest of its ancestors that exists, is a writable folder.
bool check_output_folder(const std::string& dir, std::string* error);

bool write_output(const std::string& path, const std::string& bytes, std::string* error);

}  // namespace nc::cli
