// The flat reduced problem after one round's step: node costs (with the edges inside
// groups), one summed table per pair of adjacent groups, and the members' choices.
#include <algorithm>
#include <numeric>
#include <type_traits>
#include <unordered_map>

#include "reduced_builder.hpp"

namespace iopddl::inline v0 {

using presolve::sat_add;
using presolve::Step;

namespace {

// A source node's members and its strategies in their terms: an input node is its own
// only member; a reduced group has its members and choice tables.
struct Members {
  std::size_t begin, end;
};
Members members(const Problem&, std::uint32_t v) {
  return {v, v + std::size_t{1}};
}
Members members(const Reduced& r, std::uint32_t g) {
  return {r.member_begin(g), r.member_begin(g + 1)};
}
NodeId member_node(const Problem&, std::size_t mi) {
  return static_cast<NodeId>(mi);
}
NodeId member_node(const Reduced& r, std::size_t mi) {
  return r.member_node(mi);
}
Strategy member_choice(const Problem&, std::size_t, Strategy s) {
  return s;
}
Strategy member_choice(const Reduced& r, std::size_t mi, Strategy s) {
  return r.choice(mi, s);
}
const Cost* edge_table(const Problem& p, std::uint32_t e) {
  return p.edge_costs(e).data();
}
const Cost* edge_table(const Reduced& r, std::uint32_t e) {
  return r.table(e);
}

}  // namespace

void ReducedBuilder::poll(StopPoll& stop) {
  if (stop.tick()) throw PresolveStopped{};
}

template <class Source>
void ReducedBuilder::materialize(const Problem& p, const Source& src, const Step& step,
                                 std::vector<std::uint32_t>& inputs, PresolveStats& stats,
                                 StopPoll& stop, Reduced& r) {
  r.p_ = &p;
  r.k_.clear();
  std::vector<std::uint32_t> id(src.num_nodes(), UINT32_MAX);
  for (std::uint32_t v = 0; v < src.num_nodes(); ++v) {
    if (step.root[v] != v) continue;
    id[v] = static_cast<std::uint32_t>(r.k_.size());
    r.k_.push_back(step.k[v]);
  }
  add_members(src, step, id, r);
  add_edges(src, step, id, inputs, stats, stop, r);
  build_incidence(r.k_.size(), r.eu_, r.ev_, r.adj_begin_, r.adj_);
  stats.parallel_edges = p.num_edges() - stats.internal_edges - r.num_edges();
}

// The new groups' members (a group's own first, then those of the nodes joining it, in
// node order), their choices, and the node costs.
template <class Source>
void ReducedBuilder::add_members(const Source& src, const Step& step,
                                 const std::vector<std::uint32_t>& id, Reduced& r) {
  const std::size_t n = r.k_.size();
  r.cost_begin_.assign(n + 1, 0);
  r.member_begin_.assign(n + 1, 0);
  std::vector<std::uint32_t> order;  // the nodes heading a group, then the others
  order.reserve(src.num_nodes());
  for (int joining = 0; joining < 2; ++joining)
    for (std::uint32_t v = 0; v < src.num_nodes(); ++v) {
      if ((step.root[v] != v) != joining) continue;
      order.push_back(v);
      const std::uint32_t g = id[step.root[v]];
      if (!joining) r.cost_begin_[g + 1] = r.k_[g];
      const Members ms = members(src, v);
      r.member_begin_[g + 1] += ms.end - ms.begin;
    }
  for (std::size_t g = 0; g < n; ++g) {
    r.cost_begin_[g + 1] += r.cost_begin_[g];
    r.member_begin_[g + 1] += r.member_begin_[g];
  }
  r.cost_.assign(r.cost_begin_[n], 0);
  r.member_.resize(r.member_begin_[n]);
  r.choice_begin_.assign(r.member_.size() + 1, 0);
  std::vector<std::uint64_t> fill(r.member_begin_.begin(), r.member_begin_.end() - 1);
  std::vector<std::pair<std::size_t, std::uint32_t>> placed(
      r.member_.size());  // (src member, node)
  for (std::uint32_t v : order) {
    const std::uint32_t g = id[step.root[v]];
    const Members ms = members(src, v);
    for (std::size_t mi = ms.begin; mi < ms.end; ++mi) {
      r.member_[fill[g]] = member_node(src, mi);
      r.choice_begin_[fill[g] + 1] = r.k_[g];
      placed[fill[g]++] = {mi, v};
    }
    Cost* c = r.cost_.data() + r.cost_begin_[g];
    const auto own = src.costs(v);
    for (Strategy s = 0; s < r.k_[g]; ++s) c[s] = sat_add(c[s], own[step.at(v, s)]);
  }
  for (std::size_t mi = 0; mi < r.member_.size(); ++mi)
    r.choice_begin_[mi + 1] += r.choice_begin_[mi];
  r.choice_.resize(r.choice_begin_.back());
  for (std::size_t mi = 0; mi < r.member_.size(); ++mi) {
    const auto [from, v] = placed[mi];
    Strategy* c = r.choice_.data() + r.choice_begin_[mi];
    for (Strategy s = 0; s < r.k_[id[step.root[v]]]; ++s)
      c[s] = member_choice(src, from, step.at(v, s));
  }
}

// Edges: inside a group they become node costs; between groups they are summed per pair
// of groups into one table. Pairs are numbered in the order of their first source edge,
// which is the order of their first input edge (the source's edges are in that order).
template <class Source>
void ReducedBuilder::add_edges(const Source& src, const Step& step,
                               const std::vector<std::uint32_t>& id,
                               std::vector<std::uint32_t>& inputs, PresolveStats& stats,
                               StopPoll& stop, Reduced& r) {
  r.eu_.clear();
  r.ev_.clear();
  r.table_begin_.clear();
  r.table_.clear();
  std::unordered_map<std::uint64_t, std::uint32_t> pair_edge;
  pair_edge.reserve(src.num_edges());
  std::vector<std::uint32_t> next_inputs;
  // A reduced source has one edge per pair of groups, so an edge between two groups the
  // step leaves alone (no strategy dropped, nothing joined) is the only one of its pair:
  // its table is copied as it is.
  std::vector<char> kept;
  if constexpr (std::is_same_v<Source, Reduced>) {
    kept.assign(src.num_nodes(), 1);
    for (std::uint32_t v = 0; v < src.num_nodes(); ++v)
      if (step.root[v] != v || !step.map[v].empty()) kept[v] = kept[step.root[v]] = 0;
  }
  for (std::uint32_t e = 0; e < src.num_edges(); ++e) {
    poll(stop);
    const std::uint32_t a = src.edge_u(e), b = src.edge_v(e);
    const std::uint32_t ga = id[step.root[a]], gb = id[step.root[b]];
    const std::uint32_t count = inputs.empty() ? 1 : inputs[e];
    const Cost* t = edge_table(src, e);
    if (ga == gb) {
      stats.internal_edges += count;
      Cost* c = r.cost_.data() + r.cost_begin_[ga];
      const std::size_t kb = src.strategies(b);
      for (Strategy s = 0; s < r.k_[ga]; ++s)
        c[s] = sat_add(c[s], t[static_cast<std::size_t>(step.at(a, s)) * kb + step.at(b, s)]);
      continue;
    }
    if (!kept.empty() && kept[a] && kept[b]) {
      r.eu_.push_back(ga);
      r.ev_.push_back(gb);
      r.table_begin_.push_back(r.table_.size());
      r.table_.insert(r.table_.end(), t, t + static_cast<std::size_t>(r.k_[ga]) * r.k_[gb]);
      next_inputs.push_back(count);
      continue;
    }
    const std::uint32_t x = std::min(ga, gb), y = std::max(ga, gb);
    auto [it, fresh] = pair_edge.try_emplace((std::uint64_t{x} << 32) | y,
                                             static_cast<std::uint32_t>(r.eu_.size()));
    if (fresh) {
      r.eu_.push_back(x);
      r.ev_.push_back(y);
      r.table_begin_.push_back(r.table_.size());
      r.table_.resize(r.table_.size() + static_cast<std::size_t>(r.k_[x]) * r.k_[y], 0);
      next_inputs.push_back(0);
    }
    next_inputs[it->second] += count;
    sum_table(t, src.strategies(b), step, a, b, ga == x,
              r.table_.data() + r.table_begin_[it->second], r.k_[x], r.k_[y]);
  }
  r.table_begin_.push_back(r.table_.size());
  inputs = std::move(next_inputs);
}

// Adds source table t (columns kb, rows in a's strategies) into out (kx x ky, rows in the
// strategies of a's new group if a_first, else of b's).
void ReducedBuilder::sum_table(const Cost* t, std::size_t kb, const Step& step, std::uint32_t a,
                               std::uint32_t b, bool a_first, Cost* out, Strategy kx, Strategy ky) {
  std::vector<Strategy> ia(kx), ib(ky);  // source strategies of the rows' and columns' ends
  for (Strategy s = 0; s < kx; ++s) ia[s] = step.at(a_first ? a : b, s);
  for (Strategy s = 0; s < ky; ++s) ib[s] = step.at(a_first ? b : a, s);
  for (Strategy sx = 0; sx < kx; ++sx)
    for (Strategy sy = 0; sy < ky; ++sy) {
      const Strategy sa = a_first ? ia[sx] : ib[sy], sb = a_first ? ib[sy] : ia[sx];
      Cost& o = out[static_cast<std::size_t>(sx) * ky + sy];
      o = sat_add(o, t[static_cast<std::size_t>(sa) * kb + sb]);
    }
}

template void ReducedBuilder::materialize(const Problem&, const Problem&, const Step&,
                                          std::vector<std::uint32_t>&, PresolveStats&, StopPoll&,
                                          Reduced&);
template void ReducedBuilder::materialize(const Problem&, const Reduced&, const Step&,
                                          std::vector<std::uint32_t>&, PresolveStats&, StopPoll&,
                                          Reduced&);

}  // namespace iopddl::inline v0
