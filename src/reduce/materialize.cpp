// The flat reduced problem of a grouping: node costs (with the edges inside groups) and
// one summed table per pair of adjacent groups.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "reduced_builder.hpp"

namespace iopddl::inline v0 {

using presolve::sat_add;
using presolve::saturate;

void ReducedBuilder::poll(StopPoll& stop) {
  if (stop.tick()) throw PresolveStopped{};
}

Reduced ReducedBuilder::materialize(const Problem& p, const presolve::Grouping& gr,
                                    PresolveStats& stats, StopPoll& stop) {
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

void ReducedBuilder::add_edges(const Problem& p, const presolve::Grouping& gr,
                               const std::vector<std::uint32_t>& id, Reduced& r,
                               PresolveStats& stats, StopPoll& stop) {
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

}  // namespace iopddl::inline v0
