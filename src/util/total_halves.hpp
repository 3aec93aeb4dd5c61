// A Total as two 64-bit halves, the high one signed and the low one as unsigned bits: the
// same on every machine whatever the compiler's layout of __int128, for messages between
// ranks (two MPI_INT64_T, or one element of a two-int64 datatype).
#pragma once

#include <cstdint>

#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

struct TotalHalves {
  std::int64_t high;
  std::uint64_t low;
};

inline TotalHalves split_total(Total v) {
  return {static_cast<std::int64_t>(v >> 64), static_cast<std::uint64_t>(v)};
}

inline Total join_total(TotalHalves h) {
  return (static_cast<Total>(h.high) << 64) | static_cast<Total>(h.low);
}

// The halves as they travel in an array of int64 (the low bits reinterpreted).
inline Total join_total(std::int64_t high, std::int64_t low) {
  return join_total({high, static_cast<std::uint64_t>(low)});
}
inline std::int64_t low_bits(Total v) {
  return static_cast<std::int64_t>(split_total(v).low);
}

}  // namespace iopddl::inline v0
