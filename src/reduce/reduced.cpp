#include <algorithm>
#include <numeric>

#include "../util/incidence.hpp"
#include "reduced_builder.hpp"

namespace iopddl::inline v0 {

using presolve::Step;

namespace {

// The folds of one presolve round: a forest over the round's nodes in which every
// non-root's strategy is a function of its parent's. root() compresses paths, composing
// the functions, so map(v) takes the root's strategies to v's.
class Forest {
 public:
  explicit Forest(const Reduced& r) : parent_(r.num_nodes()), map_(r.num_nodes()) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  bool is_root(std::uint32_t v) const { return parent_[v] == v; }
  std::uint32_t root(std::uint32_t v) {
    path_.clear();
    while (parent_[v] != v) {
      path_.push_back(v);
      v = parent_[v];
    }
    // From the node nearest the root outwards: each parent's map is then relative to the
    // root already.
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      const std::uint32_t u = *it, p = parent_[u];
      if (p == v) continue;
      std::vector<Strategy> m(map_[p].size());
      for (std::size_t s = 0; s < m.size(); ++s) m[s] = map_[u][map_[p][s]];
      map_[u] = std::move(m);
      parent_[u] = v;
    }
    return v;
  }
  // `child` (a root) becomes the function f of `by`'s strategies.
  void attach(std::uint32_t child, std::uint32_t by, const std::vector<Strategy>& f) {
    const std::uint32_t top = root(by);
    std::vector<Strategy> m(f);
    if (by != top) {
      m.resize(map_[by].size());
      for (std::size_t s = 0; s < m.size(); ++s) m[s] = f[map_[by][s]];
    }
    parent_[child] = top;
    map_[child] = std::move(m);
  }
  // The root's strategies mapped to v's (v not a root; after root(v)).
  const std::vector<Strategy>& map(std::uint32_t v) {
    root(v);
    return map_[v];
  }

 private:
  std::vector<std::uint32_t> parent_;
  std::vector<std::vector<Strategy>> map_;
  std::vector<std::uint32_t> path_;
};

// The step that drops the marked strategies of every group. Returns how many in `removed`.
Step remove_strategies(const Reduced& r, const std::vector<std::vector<char>>& marks,
                       std::size_t& removed) {
  Step step = Step::identity(r);
  removed = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    const auto& d = marks[g];
    if (std::find(d.begin(), d.end(), 1) == d.end()) continue;
    auto& keep = step.map[g];
    for (Strategy s = 0; s < r.strategies(g); ++s)
      if (!d[s]) keep.push_back(s);
    removed += d.size() - keep.size();
    step.k[g] = static_cast<Strategy>(keep.size());
  }
  return step;
}

}  // namespace

std::string PresolveStats::summary() const {
  if (infeasible_forbidden) return "presolve skipped: some node has only forbidden choices";
  return std::to_string(rounds) + " rounds: " + std::to_string(dead_strategies) +
         " forbidden strategies removed, " + std::to_string(folded_nodes) +
         " nodes folded into a neighbour, " + std::to_string(parallel_edges) +
         " parallel edges summed, " + std::to_string(internal_edges) +
         " edges moved into node costs, " + std::to_string(dominated_strategies) +
         " dominated strategies removed, " + std::to_string(minima_moved) +
         " edge tables with row or column minima moved into node costs";
}

namespace {

// One round of folding (see Reduced::build) as a step; `merges` gets the number of folds.
Step fold_round(const Reduced& r, std::size_t& merges, StopPoll& stop) {
  std::vector<Strategy> f;
  // Fold. A node whose strategies each allow exactly one strategy of a neighbour makes
  // that neighbour a function of it. The folds of a round form a forest: a node folds
  // into the root of the node that forces it, through the composed function, so a chain
  // of forced nodes folds in one round. A group's strategies do not change when it
  // absorbs another, so this round's tables stay valid throughout.
  // The first pass folds only between nodes not yet folded (a node forced by two
  // neighbours goes to the first, not along some chain into a large group); the second
  // folds through chains.
  Forest forest(r);
  merges = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
      if (stop.tick()) throw PresolveStopped{};
      const std::uint32_t x = r.edge_u(e), y = r.edge_v(e);
      if (forest.root(x) == forest.root(y)) continue;
      if (pass == 0 && !(forest.is_root(x) && forest.is_root(y))) continue;
      if (forest.is_root(y) && ReducedBuilder::functional(r, e, true, f)) {
        forest.attach(y, x, f);
      } else if (forest.is_root(x) && ReducedBuilder::functional(r, e, false, f)) {
        forest.attach(x, y, f);
      } else {
        continue;
      }
      ++merges;
    }
  Step step = Step::identity(r);
  if (merges == 0) return step;
  for (std::uint32_t v = 0; v < r.num_nodes(); ++v) {
    if (forest.is_root(v)) continue;
    step.root[v] = forest.root(v);
    step.map[v] = forest.map(v);
  }
  return step;
}

}  // namespace

Reduced Reduced::build(const Problem& p, const PresolveOptions& o,
                       const StopControl* stop_control) {
  StopPoll stop(stop_control);
  PresolveStats stats;
  std::vector<std::uint32_t> inputs;
  Reduced r, spare;
  ReducedBuilder::materialize(p, p, Step::identity(p), inputs, stats, stop, r);
  if (!o.enabled) {
    r.stats_ = stats;
    return r;
  }
  // Each round finds one kind of change on the current reduced problem (forbidden
  // strategies, else folds, else dominated strategies) and builds the next from it.
  std::vector<std::vector<char>> dead;
  for (;;) {
    ++stats.rounds;
    if (!ReducedBuilder::find_dead(r, dead, stop)) {
      PresolveStats none;
      none.infeasible_forbidden = true;
      inputs.clear();
      ReducedBuilder::materialize(p, p, Step::identity(p), inputs, none, stop, r);
      r.stats_ = none;
      return r;
    }
    std::size_t changed = 0;
    Step step = remove_strategies(r, dead, changed);
    stats.dead_strategies += changed;
    if (changed == 0) {
      step = fold_round(r, changed, stop);
      stats.folded_nodes += changed;
    }
    if (changed == 0 && ReducedBuilder::find_dominated(r, dead, o.dominance_budget, stop) > 0) {
      step = remove_strategies(r, dead, changed);
      stats.dominated_strategies += changed;
    }
    if (changed == 0) break;
    ReducedBuilder::materialize(p, r, step, inputs, stats, stop, spare);
    std::swap(r, spare);
  }
  stats.minima_moved = ReducedBuilder::move_minima(r);
  r.stats_ = stats;
  return r;
}

std::vector<Strategy> Reduced::expand(const std::vector<Strategy>& x) const {
  std::vector<Strategy> a(p_->num_nodes(), 0);
  for (std::uint32_t g = 0; g < num_nodes(); ++g)
    for (std::size_t mi = member_begin_[g]; mi < member_begin_[g + 1]; ++mi)
      a[member_[mi]] = choice(mi, x[g]);
  return a;
}

bool Reduced::contract(const std::vector<Strategy>& a, std::vector<Strategy>& x) const {
  x.assign(num_nodes(), 0);
  for (std::uint32_t g = 0; g < num_nodes(); ++g) {
    bool found = false;
    for (Strategy s = 0; s < k_[g] && !found; ++s) {
      found = true;
      for (std::size_t mi = member_begin_[g]; mi < member_begin_[g + 1] && found; ++mi)
        found = choice(mi, s) == a[member_[mi]];
      if (found) x[g] = s;
    }
    if (!found) return false;
  }
  return true;
}

std::size_t Reduced::contract_nearest(const std::vector<Strategy>& a,
                                      std::vector<Strategy>& x) const {
  x.assign(num_nodes(), 0);
  std::size_t changed = 0;
  for (std::uint32_t g = 0; g < num_nodes(); ++g) {
    // (fits, matching members, -cost, -usage): the greatest wins
    std::tuple<bool, std::size_t, Cost, Total> best{false, 0, 0, 0};
    bool exact = false;
    for (Strategy s = 0; s < k_[g]; ++s) {
      bool fits = true;
      std::size_t matching = 0;
      Total usage = 0;
      for (std::size_t mi = member_begin_[g]; mi < member_begin_[g + 1]; ++mi) {
        const NodeId v = member_[mi];
        const Usage u = p_->usages(v)[choice(mi, s)];
        matching += choice(mi, s) == a[v];
        fits = fits && (!p_->has_memory(v) || u <= p_->usages(v)[a[v]]);
        usage += p_->has_memory(v) ? u : 0;
      }
      const std::tuple<bool, std::size_t, Cost, Total> key{fits, matching, -costs(g)[s], -usage};
      if (s == 0 || key > best) {
        best = key;
        x[g] = s;
      }
      if (matching == member_begin_[g + 1] - member_begin_[g]) {
        x[g] = s;
        exact = true;
        break;
      }
    }
    changed += !exact;
  }
  return changed;
}

}  // namespace iopddl::inline v0
