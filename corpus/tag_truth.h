// Tags must be true: for each tag whose stated property can be read off a record without an
// oracle, lint checks it (vectors/FORMAT.md "Tags that lint checks"). A tag saying that a wrong
// reading "would change the result" cannot hold on a record whose result no such reading reaches
// (a source that fails as non-finite); a class tag (overflow, underflow, NaN) must describe the
// record's own source and result.
#pragma once

#include <string>
#include <vector>

#include "corpus/error.h"
#include "corpus/reader.h"

namespace nc::corpus {

// One Error per record whose tag's property does not hold, naming the tag and the property.
std::vector<Error> check_tag_truth(const SuiteFile& f, const std::string& path);

}  // namespace nc::corpus
