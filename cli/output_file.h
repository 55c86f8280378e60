// The report files commands write (--json, --junit, --markdown, certify --out's certificate).
// "-" is standard output. An existing FIFO, terminal or other device (/dev/stdout, a pipe made by
// mkfifo) is written in place, since renaming over it would replace it with a plain file; a symlink
// is followed, so that it keeps pointing at the new report; any other path gets a temporary file
// renamed into place (corpus::write_file_atomic), so no reader ever sees half a report.
#pragma once

#include <initializer_list>
#include <string>

namespace nc::cli {

// Whether write_output could write `path`, checked before the work whose result it is: a missing or
// read-only folder or a directory in the way is a usage error found at once, not after an hour's
// replay. false with *error naming the path and the reason.
bool check_output(const std::string& path, std::string* error);
// The same for a folder a command creates with its parents (certify --out, generate --out): it, or
// the nearest of its ancestors that exists, is a writable folder.
bool check_output_folder(const std::string& dir, std::string* error);

// Call before the command prints anything, with the paths of its reports. When one is "-", standard
// output is kept for that report and what the command prints for people goes to standard error.
// false, with *error, when two of them are "-".
bool claim_stdout(std::initializer_list<const std::string*> outputs, std::string* error);

bool write_output(const std::string& path, const std::string& bytes, std::string* error);

}  // namespace nc::cli
