#include "window_memory.hpp"

#include <algorithm>

namespace iopddl::inline v0 {

void WindowMemory::build(const LocalState& state, const std::vector<std::uint32_t>& window) {
  const Reduced& r = state.reduced();
  limited_ = state.limited();
  limit_ = state.limit();
  runs_.clear();
  slot_begin_.assign(window.size() + 1, 0);
  for (std::size_t i = 0; i < window.size(); ++i)
    slot_begin_[i + 1] = slot_begin_[i] + r.strategies(window[i]);
  runs_begin_.assign(slot_begin_.back() + 1, 0);
  used_.clear();
  if (!limited_) return;
  // Placing only adds usage: over the limit at the floor, nothing fits.
  blocked_ = state.usage().max() > limit_;
  const std::vector<std::uint32_t> points = cell_points(state, window);
  const std::size_t cells = points.empty() ? 0 : points.size() - 1;
  used_.resize(cells);
  for (std::size_t c = 0; c < cells; ++c) used_[c] = state.usage().max(points[c], points[c + 1]);
  for (std::size_t i = 0; i < window.size(); ++i)
    add_runs(state, window[i], slot_begin_[i], points);
}

// Cells: the compressed time between consecutive endpoints of members whose usage varies.
std::vector<std::uint32_t> WindowMemory::cell_points(const LocalState& state,
                                                     const std::vector<std::uint32_t>& window) {
  const Reduced& r = state.reduced();
  const Problem& p = r.original();
  std::vector<std::uint32_t> points;
  for (std::uint32_t g : window)
    for (std::size_t mi : state.varying(g)) {
      points.push_back(p.seg_lo(r.member_node(mi)));
      points.push_back(p.seg_hi(r.member_node(mi)));
    }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// Per strategy of group g (slots from `first_slot`): usage above the floor per cell, by a
// difference array over the group's span, then run-length encoded (cells where it is zero
// are left out).
void WindowMemory::add_runs(const LocalState& state, std::uint32_t g, std::size_t first_slot,
                            const std::vector<std::uint32_t>& points) {
  const Reduced& r = state.reduced();
  const Problem& p = r.original();
  const std::size_t cells = points.empty() ? 0 : points.size() - 1;
  const auto cell = [&](std::uint32_t t) {
    return static_cast<std::uint32_t>(std::lower_bound(points.begin(), points.end(), t) -
                                      points.begin());
  };
  const auto members = state.varying(g);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> span;  // per varying member: its cells
  std::uint32_t lo = static_cast<std::uint32_t>(cells), hi = 0;
  for (std::size_t mi : members) {
    const NodeId v = r.member_node(mi);
    span.push_back({cell(p.seg_lo(v)), cell(p.seg_hi(v))});
    lo = std::min(lo, span.back().first);
    hi = std::max(hi, span.back().second);
  }
  std::vector<Total> diff;
  for (Strategy s = 0; s < r.strategies(g); ++s) {
    const std::size_t slot = first_slot + s;
    runs_begin_[slot] = runs_.size();
    diff.assign(members.empty() ? 0 : hi - lo + 1, 0);
    for (std::size_t m = 0; m < members.size(); ++m) {
      const Total add = Total{r.member_usage(members[m], s)} - state.floor(members[m]);
      diff[span[m].first - lo] += add;
      diff[span[m].second - lo] -= add;
    }
    Total level = 0;
    for (std::uint32_t c = lo; c < hi; ++c) {
      level += diff[c - lo];
      if (level == 0) continue;
      if (runs_.size() > runs_begin_[slot] && runs_.back().hi == c && runs_.back().add == level)
        ++runs_.back().hi;  // the same as the cell before: one run
      else
        runs_.push_back({c, c + 1, level});
    }
    runs_begin_[slot + 1] = runs_.size();
  }
}

bool WindowMemory::fits(std::size_t i, Strategy s) {
  if (!limited_) return true;
  if (blocked_) return false;
  const std::size_t slot = slot_begin_[i] + s;
  for (std::size_t k = runs_begin_[slot]; k < runs_begin_[slot + 1]; ++k) {
    work_ += runs_[k].hi - runs_[k].lo;
    for (std::uint32_t c = runs_[k].lo; c < runs_[k].hi; ++c)
      if (used_[c] + runs_[k].add > limit_) return false;
  }
  return true;
}

bool WindowMemory::place(std::size_t i, Strategy s) {
  if (!fits(i, s)) return false;
  if (!limited_) return true;
  const std::size_t slot = slot_begin_[i] + s;
  const std::size_t first = runs_begin_[slot], last = runs_begin_[slot + 1];
  for (std::size_t k = first; k < last; ++k)
    for (std::uint32_t c = runs_[k].lo; c < runs_[k].hi; ++c) used_[c] += runs_[k].add;
  return true;
}

void WindowMemory::unplace(std::size_t i, Strategy s) {
  if (!limited_) return;
  const std::size_t slot = slot_begin_[i] + s;
  for (std::size_t k = runs_begin_[slot]; k < runs_begin_[slot + 1]; ++k) {
    work_ += runs_[k].hi - runs_[k].lo;
    for (std::uint32_t c = runs_[k].lo; c < runs_[k].hi; ++c) used_[c] -= runs_[k].add;
  }
}

}  // namespace iopddl::inline v0
