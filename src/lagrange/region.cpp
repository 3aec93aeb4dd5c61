#include "region.hpp"

#include <algorithm>
#include <cmath>

#include "ascent.hpp"
#include "bound.hpp"
#include "iopddl/stop.hpp"
#include "time_prices.hpp"

namespace iopddl::inline v0 {
namespace {

// floor(a / b) for b > 0 (C++ division truncates towards zero).
Total floor_div(Total a, Total b) {
  const Total q = a / b;
  return q * b > a ? q - 1 : q;
}

}  // namespace
CopyLayout::CopyLayout(const Reduced& r, const Partition& part) {
  begin.push_back(0);
  for (std::uint32_t k = 0; k < part.regions.size(); ++k) {
    first.push_back(node.size());
    for (std::uint32_t b : part.regions[k].ghosts) {
      node.push_back(b);
      begin.push_back(begin.back() + static_cast<std::uint64_t>(r.strategies(b)));
    }
  }
  first.push_back(node.size());
  of_begin_.assign(r.num_nodes() + 1, 0);
  for (std::uint32_t g : node) ++of_begin_[g + 1];
  for (std::size_t g = 0; g < r.num_nodes(); ++g) of_begin_[g + 1] += of_begin_[g];
  of_.resize(node.size());
  std::vector<std::size_t> at(of_begin_.begin(), of_begin_.end() - 1);
  for (std::uint32_t c = 0; c < node.size(); ++c) of_[at[node[c]]++] = c;
}

RegionShape RegionShape::whole(const Reduced& r) {
  RegionShape s;
  s.owned = r.num_nodes();
  s.group.resize(r.num_nodes());
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) s.group[g] = g;
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    s.edge.push_back(e);
    s.eu.push_back(r.edge_u(e));
    s.ev.push_back(r.edge_v(e));
    s.share.push_back(Share::kWhole);
  }
  return s;
}

RegionShape::RegionShape(const Reduced& r, const Partition& part, const CopyLayout& copies,
                         std::uint32_t region) {
  const Region& reg = part.regions[region];
  std::vector<std::uint32_t> local(r.num_nodes(), kNoIndex);
  for (std::uint32_t g : reg.owned) {
    local[g] = static_cast<std::uint32_t>(group.size());
    group.push_back(g);
  }
  owned = group.size();
  for (std::size_t j = 0; j < reg.ghosts.size(); ++j) {
    local[reg.ghosts[j]] = static_cast<std::uint32_t>(group.size());
    group.push_back(reg.ghosts[j]);
    ghost_copy.push_back(static_cast<std::uint32_t>(copies.first[region] + j));
  }
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const bool owns_u = part.owner[r.edge_u(e)] == region;
    const bool owns_v = part.owner[r.edge_v(e)] == region;
    if (!owns_u && !owns_v) continue;
    edge.push_back(e);
    eu.push_back(local[r.edge_u(e)]);
    ev.push_back(local[r.edge_v(e)]);
    share.push_back(owns_u && owns_v ? Share::kWhole
                                     : (owns_u ? Share::kFirstHalf : Share::kSecondHalf));
  }
}

CostNetwork RegionShape::network(const Reduced& r) const {
  CostNetwork net;
  for (std::uint32_t g : group) net.add_node(r.strategies(g));
  for (std::size_t le = 0; le < edge.size(); ++le) {
    const std::uint32_t e = edge[le];
    net.add_edge(eu[le], ev[le]);
    const std::size_t size =
        static_cast<std::size_t>(r.strategies(r.edge_u(e))) * r.strategies(r.edge_v(e));
    double* t = net.table(static_cast<std::uint32_t>(le));
    const double part = share[le] == Share::kWhole ? 1.0 : 0.5;
    for (std::size_t i = 0; i < size; ++i)
      t[i] = part * std::min(static_cast<double>(r.table(e)[i]), kInfinite);
  }
  net.finish();
  return net;
}

namespace {

// Each local node: its group's priced cost (`scale` x cost + the memory multipliers over each
// member's segments x its usage), shared exactly between the owner and the copies (a copy
// takes the floor of an equal share, the owner the rest); then the agreement multipliers,
// taken from the owner and given to the copies. Node i's strategies at begin[i].
std::vector<Total> priced_nodes(const Reduced& r, const RegionShape& shape,
                                const CopyLayout& copies, const std::vector<Total>& memory,
                                const std::vector<Total>& agreement, Total scale,
                                const std::vector<std::size_t>& begin) {
  const Problem& p = r.original();
  // Member weights: the sum of the multipliers over each member's segments.
  std::vector<Total> prefix(memory.size() + 1, 0);
  for (std::size_t t = 0; t < memory.size(); ++t) prefix[t + 1] = prefix[t] + memory[t];
  const std::size_t n = shape.group.size();
  std::vector<Total> node(begin.back());
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t g = shape.group[i];
    Total* u = node.data() + begin[i];
    for (Strategy s = 0; s < r.strategies(g); ++s) u[s] = scale * r.costs(g)[s];
    if (!memory.empty())
      for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
        const NodeId v = r.member_node(mi);
        if (!p.has_memory(v)) continue;
        const Total w = prefix[p.seg_hi(v)] - prefix[p.seg_lo(v)];
        for (Strategy s = 0; s < r.strategies(g); ++s) u[s] += w * r.member_usage(mi, s);
      }
    const Total parts = copies.parts(g);
    if (parts > 1)
      for (Strategy s = 0; s < r.strategies(g); ++s) {
        const Total share = floor_div(u[s], parts);
        u[s] = i < shape.owned ? u[s] - (parts - 1) * share : share;
      }
    if (i < shape.owned) {
      for (std::uint32_t c : copies.of(g)) {
        const Total* a = agreement.data() + copies.begin[c];
        for (Strategy s = 0; s < r.strategies(g); ++s) u[s] -= a[s];
      }
    } else {
      const Total* a = agreement.data() + copies.begin[shape.ghost_copy[i - shape.owned]];
      for (Strategy s = 0; s < r.strategies(g); ++s) u[s] += a[s];
    }
  }
  return node;
}

// Each edge: its entries (its share of them) minus the messages `msg` it sent, whose values
// the ends receive in `node`; then its row minima into edge_u and the column minima of what
// is left into edge_v. With `out`, the tables that are left.
void reparametrise_edges(const Reduced& r, const RegionShape& shape, const std::vector<Total>& msg,
                         Total scale, const std::vector<std::size_t>& begin,
                         std::vector<Total>& node, Reparametrisation* out) {
  std::size_t at = 0;
  std::vector<Total> column, row_least, entry;
  if (out != nullptr) {
    out->edge_begin.assign(shape.edge.size() + 1, 0);
    for (std::size_t le = 0; le < shape.edge.size(); ++le)
      out->edge_begin[le + 1] =
          out->edge_begin[le] + (begin[shape.eu[le] + 1] - begin[shape.eu[le]]) *
                                    (begin[shape.ev[le] + 1] - begin[shape.ev[le]]);
    out->edge.assign(out->edge_begin.back(), 0);
  }
  for (std::size_t le = 0; le < shape.edge.size(); ++le) {
    const std::uint32_t e = shape.edge[le], lu = shape.eu[le], lv = shape.ev[le];
    const Strategy ku = r.strategies(r.edge_u(e)), kv = r.strategies(r.edge_v(e));
    const Total* to_u = msg.data() + at;
    const Total* to_v = to_u + ku;
    at += static_cast<std::size_t>(ku) + kv;
    Total* nu = node.data() + begin[lu];
    Total* nv = node.data() + begin[lv];
    for (Strategy a = 0; a < ku; ++a) nu[a] += to_u[a];
    for (Strategy b = 0; b < kv; ++b) nv[b] += to_v[b];
    column.assign(kv, Total{1} << 126);
    row_least.resize(ku);
    entry.resize(kv);
    const Cost* t = r.table(e);
    const RegionShape::Share share = shape.share[le];
    for (Strategy a = 0; a < ku; ++a) {
      const Cost* row = t + static_cast<std::size_t>(a) * kv;
      Total least = Total{1} << 126;
      for (Strategy b = 0; b < kv; ++b) {
        const Total full = scale * row[b], first = full / 2;
        const Total mine = share == RegionShape::Share::kWhole       ? full
                           : share == RegionShape::Share::kFirstHalf ? first
                                                                     : full - first;
        entry[b] = mine - to_u[a] - to_v[b];
        least = std::min(least, entry[b]);
      }
      row_least[a] = least;
      nu[a] += least;
      for (Strategy b = 0; b < kv; ++b) column[b] = std::min(column[b], entry[b] - least);
      if (out != nullptr)  // the row minus its minimum; the column minima come off below
        std::transform(
            entry.begin(), entry.end(),
            out->edge.begin() +
                static_cast<std::ptrdiff_t>(out->edge_begin[le] + static_cast<std::size_t>(a) * kv),
            [least](Total x) { return x - least; });
    }
    for (Strategy b = 0; b < kv; ++b) nv[b] += column[b];  // the table's minimum is now 0
    if (out == nullptr) continue;
    Total* left = out->edge.data() + out->edge_begin[le];
    for (Strategy a = 0; a < ku; ++a)
      for (Strategy b = 0; b < kv; ++b) left[static_cast<std::size_t>(a) * kv + b] -= column[b];
  }
}

}  // namespace

Total certify_region(const Reduced& r, const RegionShape& shape, const CopyLayout& copies,
                     const std::vector<Total>& memory, const std::vector<Total>& agreement,
                     const std::vector<Total>& msg, int scale_bits, Reparametrisation* out,
                     std::vector<Total>* node_costs) {
  const Total scale = Total{1} << scale_bits;
  const std::size_t n = shape.group.size();
  std::vector<std::size_t> begin(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) begin[i + 1] = begin[i] + r.strategies(shape.group[i]);
  std::vector<Total> node = priced_nodes(r, shape, copies, memory, agreement, scale, begin);
  reparametrise_edges(r, shape, msg, scale, begin, node, out);
  Total bound = 0;
  for (std::size_t i = 0; i < n; ++i)
    bound += *std::min_element(node.begin() + static_cast<std::ptrdiff_t>(begin[i]),
                               node.begin() + static_cast<std::ptrdiff_t>(begin[i + 1]));
  if (out != nullptr) {
    out->scale = scale;
    out->node_begin = std::move(begin);
    out->node = std::move(node);
    out->constant = 0;
  } else if (node_costs != nullptr) {
    *node_costs = std::move(node);
  }
  return bound;
}

RegionBound::RegionBound(const Reduced& r, RegionShape shape, const CopyLayout& copies,
                         CostNetwork network)
    : r_(r), shape_(std::move(shape)), copies_(copies), net_(std::move(network)), trws_(net_) {
  x_.assign(net_.num_nodes(), 0);
  node_begin_.assign(shape_.group.size() + 1, 0);
  for (std::size_t i = 0; i < shape_.group.size(); ++i)
    node_begin_[i + 1] = node_begin_[i] + r.strategies(shape_.group[i]);
}

void RegionBound::price(const std::vector<double>& memory, const std::vector<double>& agreement) {
  std::vector<double> w;
  if (!memory.empty()) member_time_weights(r_, memory, w);
  for (std::uint32_t i = 0; i < shape_.group.size(); ++i) {
    const std::uint32_t g = shape_.group[i];
    double* u = net_.unary(i);
    const Strategy k = r_.strategies(g);
    for (Strategy s = 0; s < k; ++s)
      u[s] = std::min(static_cast<double>(r_.costs(g)[s]), kInfinite);
    if (!w.empty())
      for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
        if (w[mi] == 0) continue;
        for (Strategy s = 0; s < k; ++s)
          u[s] += w[mi] * static_cast<double>(r_.member_usage(mi, s));
      }
    if (copies_.parts(g) > 1)
      for (Strategy s = 0; s < k; ++s) u[s] /= copies_.parts(g);
    if (i < shape_.owned) {
      for (std::uint32_t c : copies_.of(g)) {
        const double* a = agreement.data() + copies_.begin[c];
        for (Strategy s = 0; s < k; ++s) u[s] -= a[s];
      }
    } else {
      const double* a = agreement.data() + copies_.begin[shape_.ghost_copy[i - shape_.owned]];
      for (Strategy s = 0; s < k; ++s) u[s] += a[s];
    }
  }
}

Total RegionBound::solve(const std::vector<double>& memory, const std::vector<double>& agreement,
                         int iterations, int descent_passes, int scale_bits,
                         const StopControl* stop) {
  price(memory, agreement);
  for (int it = 0; it < iterations; ++it) trws_.iterate(stop);
  msg_ = certified_integers(trws_.reparametrisation(), scale_bits);
  const Total bound =
      certify_region(r_, shape_, copies_, certified_integers(memory, scale_bits),
                     certified_integers(agreement, scale_bits), msg_, scale_bits, nullptr, &nodes_);
  x_ = trws_.round();
  net_.descend(x_, descent_passes);
  return bound;
}

void RegionBound::add_usage(std::vector<Total>& diff) const {
  const Problem& p = r_.original();
  for (std::size_t i = 0; i < shape_.owned; ++i) {
    const std::uint32_t g = shape_.group[i];
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
      const NodeId v = r_.member_node(mi);
      if (!p.has_memory(v)) continue;
      diff[p.seg_lo(v)] += r_.member_usage(mi, x_[i]);
      diff[p.seg_hi(v)] -= r_.member_usage(mi, x_[i]);
    }
  }
}

void RegionBound::add_labels(std::vector<Strategy>& owners) const {
  for (std::size_t i = 0; i < shape_.owned; ++i) owners[shape_.group[i]] = x_[i];
}

void RegionBound::add_copy_costs(std::vector<Total>& copy, std::vector<Total>& owner) const {
  for (std::size_t i = 0; i < shape_.owned; ++i) {
    const Strategy k = r_.strategies(shape_.group[i]);
    for (std::uint32_t c : copies_.of(shape_.group[i]))
      std::copy(reparametrised(i), reparametrised(i) + k,
                owner.begin() + static_cast<std::ptrdiff_t>(copies_.begin[c]));
  }
  for (std::size_t j = 0; j + shape_.owned < shape_.group.size(); ++j) {
    const std::size_t i = shape_.owned + j;
    std::copy(reparametrised(i), reparametrised(i) + r_.strategies(shape_.group[i]),
              copy.begin() + static_cast<std::ptrdiff_t>(copies_.begin[shape_.ghost_copy[j]]));
  }
}

void RegionBound::add_unpriced_costs(const std::vector<double>& agreement, int scale_bits,
                                     const std::vector<std::size_t>& begin,
                                     std::vector<double>& theta) const {
  std::vector<Total> costs;
  certify_region(r_, shape_, copies_, std::vector<Total>(r_.original().num_segments(), 0),
                 certified_integers(agreement, scale_bits), msg_, scale_bits, nullptr, &costs);
  const double scale = std::ldexp(1.0, scale_bits);
  for (std::size_t i = 0; i < shape_.group.size(); ++i) {
    const std::uint32_t g = shape_.group[i];
    for (Strategy s = 0; s < r_.strategies(g); ++s)
      theta[begin[g] + s] += static_cast<double>(costs[node_begin_[i] + s]) / scale;
  }
}

std::uint64_t RegionBound::work(int iterations) const {
  return static_cast<std::uint64_t>(2 * iterations + 6) *
         (net_.unary_size() + net_.table_size() + r_.num_members());
}

}  // namespace iopddl::inline v0
