// Fractional costs as integers, never changed in silence: the one rule every way in (XLA
// requests, Python's float arrays) uses to pick the scale.
#pragma once

#include <algorithm>
#include <cmath>

#include "iopddl/export.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

// What the rule needs to know of the costs: the least and largest magnitude among the
// finite, nonzero, not forbidden ones, and whether all are integers.
struct IOPDDL_API CostRange {
  double least = INFINITY, most = 0;
  bool integral = true;
  void see(double c) {
    if (!std::isfinite(c) || c >= static_cast<double>(kForbidden) || c == 0) return;
    integral = integral && c == std::trunc(c);
    least = std::min(least, std::abs(c));
    most = std::max(most, std::abs(c));
  }
};

// 1 when every cost is an integer; otherwise a power of two (exact in floating point), the
// least that keeps each nonzero cost's rounding error within 1e-9 of it (at least 5e8 once
// scaled), but no more than keeps the largest cost within 10^17, a tenth of the forbidden
// 10^18. Where both cannot hold, the largest scale within that cap; callers then say how far
// rounding moved any cost.
inline double choose_cost_scale(const CostRange& r) {
  if (r.integral || r.most == 0) return 1;
  const int fine = static_cast<int>(std::ceil(std::log2(5e8 / r.least)));
  const int cap = static_cast<int>(std::floor(std::log2(1e17 / r.most)));
  return std::ldexp(1.0, std::clamp(std::min(fine, cap), 0, 1000));
}

}  // namespace iopddl::inline v0
