// Usage profile over compressed time: range add and range max in O(log T), so the memory
// effect of any move is checked without scanning time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

class UsageTree {
 public:
  explicit UsageTree(std::size_t segments = 0)
      : n_(std::max<std::size_t>(segments, 1)), max_(4 * n_, 0), add_(4 * n_, 0) {}

  std::size_t size() const { return n_; }
  // Adds `delta` on segments [lo, hi).
  void add(std::size_t lo, std::size_t hi, Total delta) {
    if (lo < hi) add(1, 0, n_, lo, hi, delta);
  }
  // Maximum over segments [lo, hi); lowest() when empty.
  Total max(std::size_t lo, std::size_t hi) const {
    return lo < hi ? max(1, 0, n_, lo, hi) : lowest();
  }
  Total max() const { return max_[1]; }
  // First segment whose value exceeds `limit` (size() if none).
  std::size_t first_above(Total limit) const { return first_above(1, 0, n_, limit, 0); }
  // Appends every segment whose value exceeds `limit` to `out`, in increasing order.
  void all_above(Total limit, std::vector<std::size_t>& out) const {
    all_above(1, 0, n_, limit, 0, out);
  }
  static Total lowest() { return -(Total{1} << 120); }

 private:
  void add(std::size_t x, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi, Total d) {
    if (hi <= l || r <= lo) return;
    if (lo <= l && r <= hi) {
      max_[x] += d;
      add_[x] += d;
      return;
    }
    const std::size_t m = (l + r) / 2;
    add(2 * x, l, m, lo, hi, d);
    add(2 * x + 1, m, r, lo, hi, d);
    max_[x] = std::max(max_[2 * x], max_[2 * x + 1]) + add_[x];
  }
  Total max(std::size_t x, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi) const {
    if (hi <= l || r <= lo) return lowest();
    if (lo <= l && r <= hi) return max_[x];
    const std::size_t m = (l + r) / 2;
    return std::max(max(2 * x, l, m, lo, hi), max(2 * x + 1, m, r, lo, hi)) + add_[x];
  }
  std::size_t first_above(std::size_t x, std::size_t l, std::size_t r, Total limit,
                          Total above) const {
    if (max_[x] + above <= limit) return n_;
    if (r - l == 1) return l;
    const std::size_t m = (l + r) / 2;
    const Total a = above + add_[x];
    std::size_t left = first_above(2 * x, l, m, limit, a);
    return left != n_ ? left : first_above(2 * x + 1, m, r, limit, a);
  }

  void all_above(std::size_t x, std::size_t l, std::size_t r, Total limit, Total above,
                 std::vector<std::size_t>& out) const {
    if (max_[x] + above <= limit) return;
    if (r - l == 1) {
      out.push_back(l);
      return;
    }
    const std::size_t m = (l + r) / 2;
    all_above(2 * x, l, m, limit, above + add_[x], out);
    all_above(2 * x + 1, m, r, limit, above + add_[x], out);
  }

  std::size_t n_;
  std::vector<Total> max_, add_;
};

}  // namespace iopddl::inline v0
