// What an in-process ABI table registered under a spec of its own (runners/target_factory.h) asks
// of a sweep beyond its entry points: longer batches, and results read as the target made them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ninfer_conform/plugin.h"

namespace nc::runners {

// A target's results as it made them: n words of `bytes` bytes each (1, 2 or 4), unsigned (a word
// is its bits zero-extended), contiguous, valid until the calling thread's next call.
struct WordResults {
  const void* data = nullptr;
  unsigned bytes = 4;
};

// convert() that answers with the target's own words instead of widening them into the runner's
// 32-bit buffer: a sweep judges 8- and 16-bit results where they lie, a pass over the batch and
// two to four times the bytes read saved. NC_OK or an NC_E* status, as convert.
using ConvertWords = int (*)(nc_recipe recipe, const uint32_t* src, size_t n, WordResults* out);

struct TableCalls {
  // The inputs a sweep hands the table in one call of a word domain (sweep::Calls::batch; 0: the
  // sweep's default), for a table whose every call costs much besides its words.
  size_t sweep_batch = 0;
  ConvertWords convert_words = nullptr;  // nullptr: the sweep widens through the table's convert
};

}  // namespace nc::runners
