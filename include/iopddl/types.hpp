// Basic value types shared by every module.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iopddl/export.hpp"

namespace iopddl::inline v0 {

using Cost = std::int64_t;             // one node or edge cost, as in the input
using Usage = std::int64_t;            // one memory usage, as in the input
__extension__ using Total = __int128;  // any sum of costs or usages: int64 values, unbounded counts
using NodeId = std::uint32_t;          // index of a node in a Problem
using EdgeId = std::uint32_t;          // index of an edge in a Problem
using Strategy = std::int32_t;         // index of a strategy within its node

// The contest generator writes 10^18 for a forbidden choice. Anything at or above it is
// treated as forbidden by the solver; the evaluator counts such picks separately.
inline constexpr Cost kForbidden = 1'000'000'000'000'000'000;

inline bool is_forbidden(Cost c) {
  return c >= kForbidden;
}

// An absent index (no group, no edge, not in a window or block): one value everywhere.
inline constexpr std::uint32_t kNoIndex = 0xFFFFFFFFu;

// Decimal text of a 128-bit integer (std::to_string has no overload for it).
IOPDDL_API std::string to_string(Total value);
// The reverse: an optional '-' and 1 to 37 decimal digits (always within 128 bits), or
// nothing if the text is not that.
IOPDDL_API std::optional<Total> parse_total(std::string_view text);

}  // namespace iopddl::inline v0
