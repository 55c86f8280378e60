// A sweep thread allocates nothing between two calls of a word domain's target. What it allocates
// there lands in its malloc arena among the target's own result buffers (an in-process Python
// target's), so a freed result fits nowhere and each call's result is written to fresh pages
// (runners/sweep/domain.h, CellCounts). The thread's allocations are counted by the replaced
// operator new below; the target is our codec, so every result is right.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "codec/codec_plugin.h"
#include "runners/sweep/sweep.h"

namespace {

thread_local uint64_t t_allocations = 0;  // operator new calls on this thread
thread_local uint64_t t_at_return = 0;    // t_allocations when this thread's last call returned
thread_local bool t_called = false;
std::atomic<uint64_t> g_between{0}, g_calls{0};

int counting_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (t_called) g_between += t_allocations - t_at_return;
  t_called = true;
  ++g_calls;
  const int rc = nc_codec_plugin_table()->convert(recipe, src, n, out);
  t_at_return = t_allocations;
  return rc;
}

}  // namespace

// Not under AddressSanitizer, whose own operator new still allocates some objects that ours would
// free (alloc-dealloc-mismatch).
#if defined(__SANITIZE_ADDRESS__)
#define NC_COUNTING_NEW 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NC_COUNTING_NEW 0
#endif
#endif
#ifndef NC_COUNTING_NEW
#define NC_COUNTING_NEW 1
void* operator new(std::size_t n) {
  ++t_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

TEST_CASE("a word domain's threads allocate nothing between a target's calls", "[sweep]") {
  if (!NC_COUNTING_NEW) {
    WARN("skipped: built with AddressSanitizer, where this test cannot count allocations");
    return;
  }
  nc_plugin_v1 t = *nc_codec_plugin_table();
  t.convert = counting_convert;
  // 1 in 64 of the 2^32 inputs: 16 chunks of 2^22, so calls cross chunks on each thread.
  for (const char* domain : {"convert.F32_TO_BF16_RNE", "convert.F32_TO_F16_RNE"})
    for (size_t batch : {nc::sweep::kUnitBatch, 4 * nc::sweep::kUnitBatch}) {
      CAPTURE(domain, batch);
      nc::sweep::Options o;
      o.stride = 64;
      o.jobs = 2;
      o.geometry = false;
      o.calls.batch = batch;
      g_between = 0, g_calls = 0;
      t_called = false;  // this thread runs chunks too; the last sweep's merge is not between calls
      const nc::sweep::Report r = nc::sweep::run(*nc::sweep::make_domain(domain), t, "test", o);
      REQUIRE(r.tally.covered == (uint64_t(1) << 26));
      REQUIRE(r.tally.mismatches() == 0);
      REQUIRE(g_calls >= (uint64_t(1) << 26) / batch);
      CHECK(g_between == 0);
      // The cells are all there, counted on the threads' own arrays.
      uint64_t judged = 0;
      for (const auto& [cell, c] : r.tally.cells) judged += c.judged;
      CHECK(judged == r.tally.covered);
      CHECK(r.tally.cells.size() == 8192);
    }
}
