#include "bucket_elimination.hpp"

#include <algorithm>
#include <limits>

namespace iopddl::inline v0 {

namespace {

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

}  // namespace

BucketElimination::BucketElimination(const Reduced& r, std::vector<std::uint32_t> order)
    : r_(r), order_(std::move(order)) {
  std::vector<std::uint32_t> position(r.num_nodes(), kNoIndex);
  for (std::size_t i = 0; i < order_.size(); ++i)
    position[order_[i]] = static_cast<std::uint32_t>(i);
  buckets_.resize(order_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) buckets_[i].group = order_[i];
  // An edge joins the bucket of its end eliminated first.
  for (std::uint32_t e = 0; e < r.num_edges(); ++e)
    buckets_[std::min(position[r.edge_u(e)], position[r.edge_v(e)])].edges.push_back(e);
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    Bucket& b = buckets_[i];
    std::vector<std::uint32_t> scope;
    for (std::uint32_t e : b.edges) scope.push_back(r.other(e, b.group));
    for (std::uint32_t c : b.messages)
      scope.insert(scope.end(), buckets_[c].scope.begin(), buckets_[c].scope.end());
    std::sort(scope.begin(), scope.end());
    scope.erase(std::unique(scope.begin(), scope.end()), scope.end());
    std::erase(scope, b.group);
    b.scope = std::move(scope);
    std::uint64_t size = 1;
    std::uint32_t first = kNoIndex;  // the bucket the new function goes to
    for (std::uint32_t g : b.scope) {
      size = saturating_mul(size, r.strategies(g));
      first = std::min(first, position[g]);
    }
    entries_ = saturating_add(entries_, size);
    if (first != kNoIndex) buckets_[first].messages.push_back(static_cast<std::uint32_t>(i));
  }
}

std::vector<BucketElimination::Term> BucketElimination::terms_of(
    std::size_t i, const std::vector<std::vector<Total>>& value) const {
  const Bucket& b = buckets_[i];
  const std::uint32_t x = b.group;
  const std::size_t m = b.scope.size();
  const auto slot = [&](std::uint32_t g) {
    return static_cast<std::size_t>(std::lower_bound(b.scope.begin(), b.scope.end(), g) -
                                    b.scope.begin());
  };
  std::vector<Term> terms;
  for (std::uint32_t e : b.edges) {
    Term t;
    t.edge = r_.table(e);
    t.stride.assign(m, 0);
    const std::size_t kv = r_.strategies(r_.edge_v(e));
    const std::uint32_t o = r_.other(e, x);
    const bool x_is_u = r_.edge_u(e) == x;
    t.own = x_is_u ? kv : 1;
    t.stride[slot(o)] = x_is_u ? 1 : kv;
    terms.push_back(std::move(t));
  }
  for (std::uint32_t c : b.messages) {
    Term t;
    t.message = value[c].data();
    t.stride.assign(m, 0);
    std::size_t s = 1;
    const std::vector<std::uint32_t>& sc = buckets_[c].scope;
    for (std::size_t j = sc.size(); j-- > 0;) {
      if (sc[j] == x)
        t.own = s;
      else
        t.stride[slot(sc[j])] = s;
      s *= r_.strategies(sc[j]);
    }
    terms.push_back(std::move(t));
  }
  return terms;
}

bool BucketElimination::eliminate(std::size_t i, const std::vector<Term>& terms,
                                  std::vector<Total>& value, std::vector<Strategy>& best,
                                  StopPoll& poll) const {
  const Bucket& b = buckets_[i];
  const std::uint32_t x = b.group;
  const Strategy kx = r_.strategies(x);
  const std::size_t m = b.scope.size();
  std::size_t size = 1;
  for (std::uint32_t g : b.scope) size *= r_.strategies(g);
  value.resize(size);
  best.resize(size);
  const Cost* own_cost = r_.costs(x);
  std::vector<Strategy> at(m, 0);  // the scope's assignment, the last slot fastest
  std::vector<std::size_t> base(terms.size(), 0);
  for (std::size_t index = 0; index < size; ++index) {
    if (poll.tick(kx)) return false;
    for (std::size_t f = 0; f < terms.size(); ++f) {
      std::size_t v = 0;
      for (std::size_t j = 0; j < m; ++j) v += at[j] * terms[f].stride[j];
      base[f] = v;
    }
    Total least = std::numeric_limits<Total>::max();
    Strategy arg = 0;
    for (Strategy s = 0; s < kx; ++s) {
      Total sum = own_cost[s];
      for (std::size_t f = 0; f < terms.size(); ++f) {
        const std::size_t k = base[f] + s * terms[f].own;
        sum += terms[f].edge != nullptr ? Total{terms[f].edge[k]} : terms[f].message[k];
      }
      if (sum < least) least = sum, arg = s;
    }
    value[index] = least;
    best[index] = arg;
    for (std::size_t j = m; j-- > 0;) {  // the next assignment of the scope
      if (++at[j] < r_.strategies(b.scope[j])) break;
      at[j] = 0;
    }
  }
  return true;
}

std::optional<BucketElimination::Result> BucketElimination::run(const StopControl& stop) const {
  StopPoll poll(&stop, 1024);
  std::vector<std::vector<Total>> value(buckets_.size());
  std::vector<std::vector<Strategy>> best(buckets_.size());
  Result out;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    const Bucket& b = buckets_[i];
    if (!eliminate(i, terms_of(i, value), value[i], best[i], poll)) return std::nullopt;
    for (std::uint32_t c : b.messages) std::vector<Total>().swap(value[c]);  // used up
    if (b.scope.empty()) out.cost += value[i][0];  // a component's minimum
  }
  // Back-substitution: a bucket's scope is eliminated after it, so it is assigned first.
  out.x.assign(r_.num_nodes(), 0);
  for (std::size_t i = buckets_.size(); i-- > 0;) {
    const Bucket& b = buckets_[i];
    std::size_t index = 0;
    for (std::uint32_t g : b.scope) index = index * r_.strategies(g) + out.x[g];
    out.x[b.group] = best[i][index];
  }
  return out;
}

}  // namespace iopddl::inline v0
