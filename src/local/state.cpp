#include "state.hpp"

#include <algorithm>
#include <bit>

namespace iopddl::inline v0 {

LocalState::LocalState(const Reduced& r)
    : r_(r),
      p_(r.original()),
      tree_(r.original().num_segments()),
      limited_(r.original().usage_limit().has_value()),
      limit_(r.original().usage_limit().value_or(0)),
      floor_(r.num_members(), 0),
      deltas_(r),
      depth_(1 + std::bit_width(r.original().num_segments())) {
  vary_begin_.assign(r.num_nodes() + 1, 0);
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      Usage m = r.member_usage(mi, 0), top = m;
      for (Strategy s = 1; s < r.strategies(g); ++s) {
        m = std::min(m, r.member_usage(mi, s));
        top = std::max(top, r.member_usage(mi, s));
      }
      floor_[mi] = m;
      if (top != m && p_.has_memory(r.member_node(mi))) vary_.push_back(mi);
    }
    vary_begin_[g + 1] = vary_.size();
  }
}

void LocalState::assign(const std::vector<Strategy>& x) {
  x_ = x;
  touched_all();
  tree_ = UsageTree(p_.num_segments());
  charge(r_.num_members() * depth_ + r_.num_edges());
  cost_ = 0;
  for (std::uint32_t g = 0; g < r_.num_nodes(); ++g) {
    cost_ += r_.costs(g)[x_[g]];
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
      const NodeId v = r_.member_node(mi);
      if (p_.has_memory(v)) tree_.add(p_.seg_lo(v), p_.seg_hi(v), r_.member_usage(mi, x_[g]));
    }
  }
  for (std::uint32_t e = 0; e < r_.num_edges(); ++e) {
    const std::uint32_t a = r_.edge_u(e), b = r_.edge_v(e);
    cost_ += r_.table(e)[static_cast<std::size_t>(x_[a]) * r_.strategies(b) + x_[b]];
  }
}

std::span<const Total> LocalState::deltas(std::uint32_t g) {
  const Strategy k = r_.strategies(g), cur = x_[g];
  Total* d = deltas_.slot(g);
  const auto size = static_cast<std::size_t>(k);
  if (deltas_.valid(g)) return {d, size};
  charge(size * (1 + r_.incident(g).size()));
  const Cost* c = r_.costs(g);
  for (Strategy s = 0; s < k; ++s) d[s] = Total{c[s]} - c[cur];
  for (std::uint32_t e : r_.incident(g)) {
    const auto row = r_.slice(e, g, x_[r_.other(e, g)]);
    const Cost base = row[cur];
    for (Strategy s = 0; s < k; ++s) d[s] += Total{row[s]} - base;
  }
  deltas_.filled(g);
  return {d, size};
}

void LocalState::outside_costs(std::uint32_t g, const std::vector<std::uint32_t>& slot,
                               Total* out) const {
  const Strategy k = r_.strategies(g);
  charge(static_cast<std::uint64_t>(k) * (1 + r_.incident(g).size()));
  for (Strategy s = 0; s < k; ++s) out[s] = r_.costs(g)[s];
  for (std::uint32_t e : r_.incident(g)) {
    const std::uint32_t o = r_.other(e, g);
    if (slot[o] != kNoIndex) continue;
    const auto row = r_.slice(e, g, x_[o]);
    for (Strategy s = 0; s < k; ++s) out[s] += row[s];
  }
}

void LocalState::touched(std::uint32_t g) {
  deltas_.moved(r_, g);
}

Total LocalState::delta(std::uint32_t g, Strategy s) const {
  const Strategy cur = x_[g];
  charge(1 + r_.incident(g).size());
  Total d = Total{r_.costs(g)[s]} - r_.costs(g)[cur];
  for (std::uint32_t e : r_.incident(g)) {
    const auto row = r_.slice(e, g, x_[r_.other(e, g)]);
    d += Total{row[s]} - row[cur];
  }
  return d;
}

void LocalState::add_usage(std::uint32_t g, Strategy from, Strategy to) {
  charge(usage_work(g));
  for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
    const NodeId v = r_.member_node(mi);
    if (!p_.has_memory(v)) continue;
    const Total du = Total{r_.member_usage(mi, to)} - r_.member_usage(mi, from);
    if (du != 0) tree_.add(p_.seg_lo(v), p_.seg_hi(v), du);
  }
}

void LocalState::move(std::uint32_t g, Strategy s, Total d) {
  if (s == x_[g]) return;
  add_usage(g, x_[g], s);
  x_[g] = s;
  cost_ += d;
  touched(g);
}

bool LocalState::try_move(std::uint32_t g, Strategy s, Total d) {
  if (s == x_[g]) return false;
  const Total bound = limited_ ? std::max(limit_, tree_.max()) : 0;
  add_usage(g, x_[g], s);
  if (limited_ && tree_.max() > bound) {
    add_usage(g, s, x_[g]);
    return false;
  }
  x_[g] = s;
  cost_ += d;
  touched(g);
  return true;
}

}  // namespace iopddl::inline v0

namespace iopddl::inline v0 {

void LocalState::add_floor(std::uint32_t g, Strategy s, int sign) {
  charge((vary_begin_[g + 1] - vary_begin_[g]) * depth_ + 1);
  for (std::size_t l = vary_begin_[g]; l < vary_begin_[g + 1]; ++l) {
    const std::size_t mi = vary_[l];
    const NodeId v = r_.member_node(mi);
    const Total du = Total{r_.member_usage(mi, s)} - floor_[mi];
    if (du != 0) tree_.add(p_.seg_lo(v), p_.seg_hi(v), sign * du);
  }
}

// The window search's primitives change many groups in a row: they invalidate every cached
// delta at once (O(1)) rather than each neighbourhood.
void LocalState::lift(std::uint32_t g) {
  touched_all();
  add_floor(g, x_[g], -1);
}

bool LocalState::place(std::uint32_t g, Strategy s, Total d) {
  add_floor(g, s, +1);
  if (limited_ && tree_.max() > limit_) {
    add_floor(g, s, -1);
    return false;
  }
  x_[g] = s;
  cost_ += d;
  touched_all();
  return true;
}

void LocalState::force(std::uint32_t g, Strategy s, Total d) {
  add_floor(g, s, +1);
  x_[g] = s;
  cost_ += d;
  touched_all();
}

void LocalState::unplace(std::uint32_t g, Strategy back, Total d) {
  add_floor(g, x_[g], -1);
  x_[g] = back;
  cost_ += d;
  touched_all();
}

}  // namespace iopddl::inline v0
