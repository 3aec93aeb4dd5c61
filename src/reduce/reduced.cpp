#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "../util/incidence.hpp"
#include "reduced_builder.hpp"

namespace iopddl::inline v0 {

using presolve::Grouping;

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

// Drops the marked strategies of every group from the grouping. Returns how many.
std::size_t remove_strategies(const Reduced& r, const std::vector<std::vector<char>>& marks,
                              const std::vector<std::uint32_t>& gid, Grouping& gr) {
  std::size_t removed = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    const auto& d = marks[g];
    if (std::find(d.begin(), d.end(), 1) == d.end()) continue;
    const std::uint32_t G = gid[g];
    std::vector<Strategy> keep;
    for (Strategy s = 0; s < r.strategies(g); ++s)
      if (!d[s]) keep.push_back(s);
    removed += d.size() - keep.size();
    for (NodeId v : gr.members[G]) {
      std::vector<Strategy> c(keep.size());
      for (std::size_t i = 0; i < keep.size(); ++i) c[i] = gr.choice[v][keep[i]];
      gr.choice[v] = std::move(c);
    }
    gr.k[G] = static_cast<Strategy>(keep.size());
  }
  return removed;
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

// One round of folding (see Reduced::build); returns the number of folds.
std::size_t fold_round(const Reduced& r, Grouping& gr, const std::vector<std::uint32_t>& gid,
                       PresolveStats& stats, StopPoll& stop) {
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
  std::size_t merges = 0;
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
  if (merges > 0) {
    // Re-index every absorbed group's members onto its root's strategies.
    for (std::uint32_t v = 0; v < r.num_nodes(); ++v) {
      if (forest.is_root(v)) continue;
      const std::uint32_t R = gid[forest.root(v)], F = gid[v];
      const std::vector<Strategy>& m = forest.map(v);
      for (NodeId w : gr.members[F]) {
        std::vector<Strategy> c(m.size());
        for (std::size_t s = 0; s < m.size(); ++s) c[s] = gr.choice[w][m[s]];
        gr.choice[w] = std::move(c);
        gr.group_of[w] = R;
        gr.members[R].push_back(w);
      }
      gr.members[F].clear();
    }
    stats.folded_nodes += merges;
  }
  return merges;
}

Reduced Reduced::build(const Problem& p, const PresolveOptions& o,
                       const StopControl* stop_control) {
  const bool fold = o.enabled;
  StopPoll stop(stop_control);
  const std::size_t n = p.num_nodes();
  Grouping gr;
  gr.members.resize(n);
  gr.choice.resize(n);
  gr.group_of.resize(n);
  gr.k.resize(n);
  for (NodeId v = 0; v < n; ++v) {
    gr.members[v] = {v};
    gr.group_of[v] = v;
    gr.k[v] = p.strategies(v);
    gr.choice[v].resize(static_cast<std::size_t>(p.strategies(v)));
    for (Strategy s = 0; s < p.strategies(v); ++s) gr.choice[v][s] = s;
  }
  PresolveStats stats;
  if (!fold) {
    Reduced r = ReducedBuilder::materialize(p, gr, stats, stop);
    r.stats_ = stats;
    return r;
  }
  const Grouping identity = gr;
  std::vector<std::vector<char>> dead;
  for (;;) {
    ++stats.rounds;
    Reduced r = ReducedBuilder::materialize(p, gr, stats, stop);
    if (!ReducedBuilder::find_dead(r, dead, stop)) {
      PresolveStats none;
      none.infeasible_forbidden = true;
      Reduced plain = ReducedBuilder::materialize(p, identity, none, stop);
      plain.stats_ = none;
      return plain;
    }
    // Map reduced ids back to grouping ids (materialize keeps the order of live groups).
    std::vector<std::uint32_t> gid;
    for (std::uint32_t g = 0; g < gr.members.size(); ++g)
      if (!gr.members[g].empty()) gid.push_back(g);
    const std::size_t died = remove_strategies(r, dead, gid, gr);
    stats.dead_strategies += died;
    if (died > 0) continue;
    const std::size_t merges = fold_round(r, gr, gid, stats, stop);
    if (merges > 0) continue;
    const std::size_t dominated = ReducedBuilder::find_dominated(r, dead, o.dominance_budget, stop);
    if (dominated > 0) {
      stats.dominated_strategies += remove_strategies(r, dead, gid, gr);
      continue;
    }
    stats.minima_moved = ReducedBuilder::move_minima(r);
    r.stats_ = stats;
    return r;
  }
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
