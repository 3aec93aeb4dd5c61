#include "reduced.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "../util/incidence.hpp"

namespace iopddl {
namespace {

Cost saturate(Total v) {
  if (v >= kForbidden) return kForbidden;
  if (v <= -kForbidden) return -kForbidden;
  return static_cast<Cost>(v);
}
Cost sat_add(Cost a, Cost b) {
  if (a >= kForbidden || b >= kForbidden) return kForbidden;
  return saturate(Total{a} + b);
}

// The working grouping between rounds: per-group member lists and per-member choices.
struct Grouping {
  std::vector<std::vector<NodeId>> members;   // by group (empty once absorbed)
  std::vector<std::vector<Strategy>> choice;  // by input node, over its group's strategies
  std::vector<std::uint32_t> group_of;        // input node -> group
  std::vector<Strategy> k;                    // strategies per group
};

}  // namespace

class ReducedBuilder {
 public:
  // Builds the flat reduced problem of a grouping: node costs (with edges inside groups)
  // and one summed table per pair of adjacent groups.
  static void poll(StopPoll& stop) {
    if (stop.tick()) throw PresolveStopped{};
  }

  static Reduced materialize(const Problem& p, const Grouping& gr, PresolveStats& stats,
                             StopPoll& stop) {
    Reduced r;
    r.p_ = &p;
    std::vector<std::uint32_t> id(gr.members.size(), UINT32_MAX);
    for (std::uint32_t g = 0; g < gr.members.size(); ++g) {
      if (gr.members[g].empty()) continue;
      id[g] = static_cast<std::uint32_t>(r.k_.size());
      r.k_.push_back(gr.k[g]);
    }
    const std::size_t n = r.k_.size();
    r.cost_begin_.assign(n + 1, 0);
    r.member_begin_.assign(n + 1, 0);
    for (std::uint32_t g = 0; g < gr.members.size(); ++g) {
      if (id[g] == UINT32_MAX) continue;
      r.cost_begin_[id[g] + 1] = static_cast<std::uint64_t>(gr.k[g]);
      r.member_begin_[id[g] + 1] = gr.members[g].size();
    }
    for (std::size_t g = 0; g < n; ++g) {
      r.cost_begin_[g + 1] += r.cost_begin_[g];
      r.member_begin_[g + 1] += r.member_begin_[g];
    }
    r.cost_.assign(r.cost_begin_[n], 0);
    r.member_.resize(r.member_begin_[n]);
    r.choice_begin_.assign(r.member_.size() + 1, 0);
    for (std::uint32_t g = 0; g < gr.members.size(); ++g) {
      if (id[g] == UINT32_MAX) continue;
      std::size_t mi = r.member_begin_[id[g]];
      for (NodeId v : gr.members[g]) {
        r.member_[mi] = v;
        r.choice_begin_[mi + 1] = static_cast<std::uint64_t>(gr.k[g]);
        ++mi;
      }
    }
    for (std::size_t mi = 0; mi < r.member_.size(); ++mi)
      r.choice_begin_[mi + 1] += r.choice_begin_[mi];
    r.choice_.resize(r.choice_begin_.back());
    for (std::size_t g = 0; g < n; ++g) {
      Cost* c = r.cost_.data() + r.cost_begin_[g];
      for (std::size_t mi = r.member_begin_[g]; mi < r.member_begin_[g + 1]; ++mi) {
        const NodeId v = r.member_[mi];
        const auto& ch = gr.choice[v];
        std::copy(ch.begin(), ch.end(), r.choice_.begin() + static_cast<long>(r.choice_begin_[mi]));
        for (Strategy s = 0; s < r.k_[g]; ++s) c[s] = sat_add(c[s], p.costs(v)[ch[s]]);
      }
    }
    add_edges(p, gr, id, r, stats, stop);
    r.table_begin_.push_back(r.table_.size());
    build_incidence(n, r.eu_, r.ev_, r.adj_begin_, r.adj_);
    return r;
  }

  // Edges: inside a group they become node costs; between groups they are summed per pair
  // of groups into one table (rows in the smaller group's strategies).
  static void add_edges(const Problem& p, const Grouping& gr, const std::vector<std::uint32_t>& id,
                        Reduced& r, PresolveStats& stats, StopPoll& stop) {
    std::unordered_map<std::uint64_t, std::uint32_t> pair_edge;
    stats.parallel_edges = stats.internal_edges = 0;
    for (EdgeId e = 0; e < p.num_edges(); ++e) {
      poll(stop);
      const NodeId a = p.edge_u(e), b = p.edge_v(e);
      const std::uint32_t ga = id[gr.group_of[a]], gb = id[gr.group_of[b]];
      const auto& ca = gr.choice[a];
      const auto& cb = gr.choice[b];
      const Strategy kb_in = p.strategies(b);
      auto t = p.edge_costs(e);
      if (ga == gb) {
        ++stats.internal_edges;
        Cost* c = r.cost_.data() + r.cost_begin_[ga];
        for (Strategy s = 0; s < r.k_[ga]; ++s)
          c[s] = sat_add(c[s], t[static_cast<std::size_t>(ca[s]) * kb_in + cb[s]]);
        continue;
      }
      const std::uint32_t x = std::min(ga, gb), y = std::max(ga, gb);
      const std::uint64_t key = (std::uint64_t{x} << 32) | y;
      auto [it, fresh] = pair_edge.try_emplace(key, static_cast<std::uint32_t>(r.eu_.size()));
      if (fresh) {
        r.eu_.push_back(x);
        r.ev_.push_back(y);
        r.table_begin_.push_back(r.table_.size());
        r.table_.resize(r.table_.size() + static_cast<std::size_t>(r.k_[x]) * r.k_[y], 0);
      } else {
        ++stats.parallel_edges;
      }
      Cost* out = r.table_.data() + r.table_begin_[it->second];
      const Strategy ky = r.k_[y];
      const bool a_first = ga == x;
      for (Strategy sx = 0; sx < r.k_[x]; ++sx)
        for (Strategy sy = 0; sy < ky; ++sy) {
          const Strategy sa = a_first ? ca[sx] : ca[sy], sb = a_first ? cb[sy] : cb[sx];
          Cost& o = out[static_cast<std::size_t>(sx) * ky + sy];
          o = sat_add(o, t[static_cast<std::size_t>(sa) * kb_in + sb]);
        }
    }
  }

  // Marks strategies that must pick a forbidden entry, to a fixpoint. Returns false if a
  // group is left with none.
  static bool find_dead(const Reduced& r, std::vector<std::vector<char>>& dead, StopPoll& stop) {
    const std::size_t n = r.num_nodes();
    dead.assign(n, {});
    for (std::uint32_t g = 0; g < n; ++g) {
      dead[g].assign(static_cast<std::size_t>(r.k_[g]), 0);
      for (Strategy s = 0; s < r.k_[g]; ++s) dead[g][s] = is_forbidden(r.costs(g)[s]);
    }
    bool changed = true;
    while (changed) {
      changed = false;
      for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
        poll(stop);
        const std::uint32_t x = r.eu_[e], y = r.ev_[e];
        const Cost* t = r.table(e);
        const Strategy kx = r.k_[x], ky = r.k_[y];
        for (Strategy sx = 0; sx < kx; ++sx) {
          if (dead[x][sx]) continue;
          bool any = false;
          for (Strategy sy = 0; sy < ky && !any; ++sy)
            any = !dead[y][sy] && !is_forbidden(t[static_cast<std::size_t>(sx) * ky + sy]);
          if (!any) dead[x][sx] = changed = true;
        }
        for (Strategy sy = 0; sy < ky; ++sy) {
          if (dead[y][sy]) continue;
          bool any = false;
          for (Strategy sx = 0; sx < kx && !any; ++sx)
            any = !dead[x][sx] && !is_forbidden(t[static_cast<std::size_t>(sx) * ky + sy]);
          if (!any) dead[y][sy] = changed = true;
        }
      }
    }
    for (std::uint32_t g = 0; g < n; ++g)
      if (std::count(dead[g].begin(), dead[g].end(), 0) == 0) return false;
    return true;
  }

  // Marks strategies dominated by another strategy of their group: no more costly, no more
  // costly in any incident edge against any strategy of the other end, and using no more
  // memory in any member. Switching to the dominating strategy never costs more nor uses
  // more memory, so some optimum avoids the dominated one. Of two identical strategies the
  // later one goes. The pair scan stops early at the first entry that breaks dominance;
  // `budget` bounds the entries compared in all, and separately the pairs (a node with
  // 150,000 strategies has 2e10 pairs).
  static std::size_t find_dominated(const Reduced& r, std::vector<std::vector<char>>& gone,
                                    std::size_t budget, StopPoll& stop) {
    std::size_t pairs = budget;
    const Problem& p = *r.p_;
    std::size_t removed = 0;
    gone.assign(r.num_nodes(), {});
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
      const Strategy k = r.k_[g];
      gone[g].assign(static_cast<std::size_t>(k), 0);
      if (k < 2) continue;
      const Cost* c = r.costs(g);
      // `b` dominates `a` (a != b, neither removed).
      auto dominates = [&](Strategy b, Strategy a) {
        poll(stop);
        --pairs;
        if (c[b] > c[a]) return false;
        bool strict = c[b] < c[a];
        for (std::size_t mi = r.member_begin_[g]; mi < r.member_begin_[g + 1]; ++mi) {
          if (!p.has_memory(r.member_[mi])) continue;
          const Usage ua = r.member_usage(mi, a), ub = r.member_usage(mi, b);
          if (ub > ua) return false;
          strict = strict || ub < ua;
        }
        for (std::uint32_t e : r.incident(g)) {
          const std::uint32_t o = r.other(e, g);
          for (Strategy t = 0; t < r.k_[o]; ++t) {
            if (budget == 0) return false;
            --budget;
            const Cost ea = r.slice(e, g, t)[a], eb = r.slice(e, g, t)[b];
            if (eb > ea) return false;
            strict = strict || eb < ea;
          }
        }
        return strict || b < a;
      };
      for (Strategy a = 0; a < k && pairs > 0; ++a)
        for (Strategy b = 0; b < k && !gone[g][a] && pairs > 0; ++b)
          if (b != a && !gone[g][b] && dominates(b, a)) {
            gone[g][a] = 1;
            ++removed;
          }
    }
    return removed;
  }

  // Moves each edge table's row minima into its first end's costs and then its column
  // minima into its second end's: the same cost for every assignment, with edges whose
  // minimum is 0 in every row and column, so that bounds built from node costs and table
  // minima are tighter. Forbidden entries stay forbidden. Returns the edges changed.
  static std::size_t move_minima(Reduced& r) {
    std::size_t changed = 0;
    for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
      const std::uint32_t x = r.eu_[e], y = r.ev_[e];
      const Strategy kx = r.k_[x], ky = r.k_[y];
      Cost* t = r.table_.data() + r.table_begin_[e];
      bool any = false;
      auto shift = [&](Strategy count, Strategy len, std::size_t step, std::size_t stride,
                       Cost* costs) {
        for (Strategy i = 0; i < count; ++i) {
          Cost m = kForbidden;
          for (Strategy j = 0; j < len; ++j) m = std::min(m, t[i * step + j * stride]);
          if (m == 0 || is_forbidden(m) || is_forbidden(costs[i])) continue;
          for (Strategy j = 0; j < len; ++j) {
            Cost& v = t[i * step + j * stride];
            v = sat_add(v, -m);
          }
          costs[i] = sat_add(costs[i], m);
          any = true;
        }
      };
      shift(kx, ky, ky, 1, r.cost_.data() + r.cost_begin_[x]);
      shift(ky, kx, 1, ky, r.cost_.data() + r.cost_begin_[y]);
      changed += any;
    }
    return changed;
  }

  // If every strategy of `from` allows exactly one strategy of `to`, fills f and returns true.
  static bool functional(const Reduced& r, std::uint32_t e, bool u_to_v, std::vector<Strategy>& f) {
    const std::uint32_t x = r.eu_[e], y = r.ev_[e];
    const Strategy kx = r.k_[x], ky = r.k_[y];
    const Cost* t = r.table(e);
    const Strategy kf = u_to_v ? kx : ky, kt = u_to_v ? ky : kx;
    f.assign(static_cast<std::size_t>(kf), -1);
    for (Strategy a = 0; a < kf; ++a)
      for (Strategy b = 0; b < kt; ++b) {
        const Strategy sx = u_to_v ? a : b, sy = u_to_v ? b : a;
        if (is_forbidden(t[static_cast<std::size_t>(sx) * ky + sy])) continue;
        if (f[a] != -1) return false;
        f[a] = b;
      }
    return std::find(f.begin(), f.end(), -1) == f.end();
  }
};

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

}  // namespace iopddl
