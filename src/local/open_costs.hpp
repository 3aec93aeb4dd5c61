// The bound of a depth-first search that places groups in a fixed order (exact windows,
// the proof search): per position and strategy an open cost, what placing it costs given
// the positions placed so far; its least value per position; and the sum of those least
// values over the positions not placed yet. Each position's edges to later positions
// (parallel edges each once) carry a placement's cost into them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

class OpenCosts {
 public:
  using Later = std::pair<std::uint32_t, std::uint32_t>;  // (edge, later position)

  // The positions of `order` (group -> its place in `position`, kNoIndex outside), their
  // edges to later positions, and open costs of 0 to be filled through at().
  void build(const Reduced& r, const std::vector<std::uint32_t>& order,
             const std::vector<std::uint32_t>& position) {
    const std::size_t n = order.size();
    later_begin_.assign(n + 1, 0);
    later_.clear();
    begin_.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t g = order[i];
      for (std::uint32_t e : r.incident(g)) {
        const std::uint32_t j = position[r.other(e, g)];
        if (j != kNoIndex && j > i) later_.push_back({e, j});
      }
      later_begin_[i + 1] = later_.size();
      begin_[i + 1] = begin_[i] + static_cast<std::size_t>(r.strategies(g));
    }
    open_.assign(begin_[n], 0);
    least_.assign(n, 0);
    sum_ = 0;
  }
  std::size_t offset(std::size_t i) const { return begin_[i]; }
  std::size_t entries() const { return begin_.back(); }
  Total* at(std::size_t i) { return open_.data() + begin_[i]; }
  const Total* at(std::size_t i) const { return open_.data() + begin_[i]; }
  std::span<const Later> later(std::size_t i) const {
    return {later_.data() + later_begin_[i], later_begin_[i + 1] - later_begin_[i]};
  }
  // Once the open costs are filled: their least values, and the sum over every position.
  void start() {
    sum_ = 0;
    for (std::size_t i = 0; i + 1 < begin_.size(); ++i) {
      least_[i] = *std::min_element(at(i), at(i) + (begin_[i + 1] - begin_[i]));
      sum_ += least_[i];
    }
  }
  Total least(std::size_t i) const { return least_[i]; }
  // The sum over the positions not placed yet; set back when a placement is undone.
  Total sum() const { return sum_; }
  void set_sum(Total sum) { sum_ = sum; }
  // Adds sign * delta(t) to each open cost t of position j (k strategies). Its least value
  // follows; when placing (sign > 0) the sum follows too (an undo restores it by set_sum).
  template <class Delta>
  void add(std::size_t j, Strategy k, int sign, const Delta& delta) {
    Total* open = at(j);
    Total least = std::numeric_limits<Total>::max();
    for (Strategy t = 0; t < k; ++t) {
      open[t] += sign * delta(t);
      least = std::min(least, open[t]);
    }
    if (sign > 0) sum_ += least - least_[j];
    least_[j] = least;
  }

 private:
  std::vector<Later> later_;
  std::vector<std::size_t> later_begin_, begin_;
  std::vector<Total> open_, least_;
  Total sum_ = 0;
};

}  // namespace iopddl::inline v0
