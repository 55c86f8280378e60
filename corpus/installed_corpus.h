// The default corpus of an installed package (the Python wheel, NC_PYTHON): the vectors/ folder
// shipped beside the shared object or executable that holds this code, found at run time, since
// the source tree's path baked into other builds does not exist where a wheel is installed. The
// wheel's build force-includes this header and defines NC_DEFAULT_CORPUS_DIR as a call to it.
#pragma once

namespace nc::corpus {
// <dir>/vectors or <dir>/../vectors (the executable lives in bin/) of the file that holds this
// function, whichever has a MANIFEST.json; "vectors" when neither has.
const char* installed_corpus_dir();
}  // namespace nc::corpus
