#include "codec/words.h"

#include <cstdio>
#include <string>

namespace nc::codec {

bool is_float_word(WordType wt) { return info(wt).is_float; }

bool is_code_word(WordType wt) {
  return wt == WordType::Q4_CODE || wt == WordType::Q5_CODE || wt == WordType::Q6_CODE || wt == WordType::W8_CODE;
}

Result<uint32_t> check_word(WordType wt, uint32_t word) {
  const uint32_t bits = info(wt).bits;
  if (bits < 32 && (word >> bits) != 0) {
    char detail[64];
    std::snprintf(detail, sizeof detail, "word 0x%x does not fit in %u bits", word, bits);
    return Error{std::string(info(wt).name), "", Rule::WordRange, detail};
  }
  return word;
}

uint32_t float_word_to_f32(WordType wt, uint32_t word) {
  switch (wt) {
    case WordType::BF16:
      return decode_to_f32<Bf16Traits>(word);
    case WordType::F16:
      return decode_to_f32<F16Traits>(word);
    case WordType::E4M3FN:
      return decode_to_f32<E4M3FNTraits>(word);
    case WordType::E2M1:
      return decode_to_f32<E2M1Traits>(word);
    default:
      return word;  // FP32: identity
  }
}

ValueClass float_word_class(WordType wt, uint32_t word) {
  switch (wt) {
    case WordType::BF16:
      return classify<Bf16Traits>(word);
    case WordType::F16:
      return classify<F16Traits>(word);
    case WordType::E4M3FN:
      return classify<E4M3FNTraits>(word);
    case WordType::E2M1:
      return classify<E2M1Traits>(word);
    default:
      return classify<Fp32Traits>(word);
  }
}

Result<int32_t> int_word_value(WordType wt, uint32_t word) {
  if (auto r = check_word(wt, word); !r) return r.error();
  const uint32_t bits = info(wt).bits;
  if (wt == WordType::I32) return int32_t(word);  // two's complement, C++20 defined
  const uint32_t sign = 1u << (bits - 1);
  const int32_t q = (word & sign) ? int32_t(word) - int32_t(1u << bits) : int32_t(word);
  if (wt == WordType::W8_CODE && q == -128)
    return Error{std::string(info(wt).name), "", Rule::CodeIllegal,
                 "0x80 (-128) is outside the W8G32_F16S code language [-127, 127]"};
  return q;
}

uint32_t code_word_from_signed(WordType wt, int32_t q) { return uint32_t(q) & ((1u << info(wt).bits) - 1); }

}  // namespace nc::codec
