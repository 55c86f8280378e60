// The report files commands write (--json, --junit, --markdown, certify --out's certificate).
// "-" is standard output. An existing FIFO, terminal or other device (/dev/stdout, a pipe made by
// mkfifo) is written in place, since renaming over it would replace it with a plain file; a symlink
// is followed, so that it keeps pointing at the new report; any other path gets a temporary file
// renamed into place (corpus::write_file_atomic), so no reader ever sees half a report.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace nc::cli {

// Call before the command prints anything or does its work, with the paths of its reports ("" for
// a report not asked for). Each must be writable by write_output, checked now: a missing or
// read-only folder or a directory in the way is a usage error found at once, not after an hour's
// replay. When one is "-", standard output is kept for that report and what the command prints for
// people goes to standard error. false with *error naming the path and the reason, or when two are "-".
// Two paths naming one file (through links or not) are refused, and so, with `corpus`, is a path
// that would replace the corpus being read (check_not_in_corpus): a report must not replace what
// it reports on.
bool check_outputs(std::initializer_list<const std::string*> outputs, std::string* error,
                   const std::string& corpus = "");
// false with *error when `path` is the corpus folder or anything under it (a report beside the
// suites, a certificate folder in it), or a link to one of its files. `folder` is unused: files and
// folders (certify --out) are refused alike.
bool check_not_in_corpus(const std::string& path, const std::string& corpus, std::string* error, bool folder = false);
// The same for a folder a command creates with its parents (certify --out, generate --out): it, or
// the nearest of its ancestors that exists, is a writable folder.
bool check_output_folder(const std::string& dir, std::string* error);

// The files of one certificate, written into `dir` as one unit: staged in a fresh folder beside it
// and swapped in with one atomic exchange (renameat2), so a reader sees all the old files or all the
// new ones, and a full disk or a kill changes nothing. What else `dir` holds is carried over; a
// folder too big to carry (over 64 MiB, or not ours) gets the files renamed in one after another,
// all written first. A destination file that exists and is not a regular file (a FIFO, a link) is
// refused before anything is written.
bool write_files_as_unit(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                         std::string* error);
bool check_unit_destination(const std::string& dir, const std::vector<std::string>& names, std::string* error);

bool write_output(const std::string& path, const std::string& bytes, std::string* error);

}  // namespace nc::cli
