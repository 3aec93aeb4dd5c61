#include "regions.hpp"

#include <metis.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/biconnected_components.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <boost/range/iterator_range.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <iterator>

namespace iopddl::inline v0 {

namespace {

using CsrGraph = boost::compressed_sparse_row_graph<boost::directedS>;

// Work of a node: its strategies plus half of each incident table (each table is shared
// by its two ends).
double node_work(const Reduced& r, std::uint32_t g) {
  double w = r.strategies(g);
  for (std::uint32_t e : r.incident(g))
    w += 0.5 * static_cast<double>(r.strategies(r.edge_u(e))) * r.strategies(r.edge_v(e));
  return w;
}

}  // namespace

std::string Partition::summary() const {
  std::string s = std::to_string(regions.size()) + " regions, " + std::to_string(cut_edges) +
                  " cut edges, " + std::to_string(components) + " components, " +
                  std::to_string(articulation_points) + " articulation points\n";
  char line[160];
  for (std::size_t i = 0; i < regions.size(); ++i) {
    std::snprintf(line, sizeof line,
                  "region %zu: %zu owned, %zu ghosts, %zu cut edges, work %.0f\n", i,
                  regions[i].owned.size(), regions[i].ghosts.size(), regions[i].cut_edges.size(),
                  regions[i].work);
    s += line;
  }
  return s;
}

namespace {

using UGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                          boost::property<boost::vertex_color_t, boost::default_color_type,
                                          boost::property<boost::vertex_degree_t, int>>>;

// Boost's CSR graph of the reduced graph: both directions of each edge, so that its
// out-edges are the neighbours.
CsrGraph csr_graph(const Reduced& r) {
  std::vector<std::pair<std::size_t, std::size_t>> arcs;
  arcs.reserve(2 * r.num_edges());
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    arcs.emplace_back(r.edge_u(e), r.edge_v(e));
    arcs.emplace_back(r.edge_v(e), r.edge_u(e));
  }
  std::sort(arcs.begin(), arcs.end());
  // GCC 12 sees out-of-bounds accesses inside Boost's CSR constructor that cannot happen.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
  return CsrGraph(boost::edges_are_sorted, arcs.begin(), arcs.end(), r.num_nodes());
#pragma GCC diagnostic pop
}

// Each node's connected component, by breadth-first search; returns their number.
std::size_t components(const CsrGraph& csr, std::size_t n, std::vector<std::size_t>& component) {
  component.assign(n, SIZE_MAX);
  std::size_t count = 0;
  for (std::size_t start = 0; start < n; ++start) {
    if (component[start] != SIZE_MAX) continue;
    std::vector<std::size_t> queue{start};
    component[start] = count;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (auto e : boost::make_iterator_range(boost::out_edges(queue[head], csr))) {
        const std::size_t t = boost::target(e, csr);
        if (component[t] == SIZE_MAX) {
          component[t] = count;
          queue.push_back(t);
        }
      }
    ++count;
  }
  return count;
}

// Cuthill-McKee ordering, one component after another, each started at one of its
// least-degree nodes. (Boost's overload that searches a pseudo-peripheral start per
// component is far too slow with hundreds of thousands of components.)
std::vector<std::size_t> bandwidth_order(UGraph& ug, const std::vector<std::size_t>& component,
                                         std::size_t components) {
  const std::size_t n = component.size();
  std::vector<std::size_t> order;
  order.reserve(n);
  if (n == 0) return order;
  std::vector<std::size_t> start(components, SIZE_MAX);
  for (std::size_t v = 0; v < n; ++v) {
    std::size_t& s = start[component[v]];
    if (s == SIZE_MAX || boost::out_degree(v, ug) < boost::out_degree(s, ug)) s = v;
  }
  std::deque<std::size_t> starts(start.begin(), start.end());
  boost::cuthill_mckee_ordering(ug, starts, std::back_inserter(order),
                                boost::get(boost::vertex_color, ug), boost::make_degree_map(ug));
  return order;
}

// The regions' cut edges and ghosts (the other ends of their cut edges), once owners are set.
void add_boundaries(const Reduced& r, Partition& part) {
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const std::uint32_t a = part.owner[r.edge_u(e)], b = part.owner[r.edge_v(e)];
    if (a == b) continue;
    ++part.cut_edges;
    part.regions[a].cut_edges.push_back(e);
    part.regions[b].cut_edges.push_back(e);
    part.regions[a].ghosts.push_back(
        r.edge_v(e) == r.edge_u(e) ? r.edge_u(e)
                                   : (part.owner[r.edge_u(e)] == a ? r.edge_v(e) : r.edge_u(e)));
    part.regions[b].ghosts.push_back(part.owner[r.edge_u(e)] == b ? r.edge_v(e) : r.edge_u(e));
  }
  for (Region& region : part.regions) {
    std::sort(region.ghosts.begin(), region.ghosts.end());
    region.ghosts.erase(std::unique(region.ghosts.begin(), region.ghosts.end()),
                        region.ghosts.end());
  }
}

// METIS's multilevel k-way partition of the reduced graph into `count` parts of about equal
// work, minimising the cut; empty if METIS fails. Its vertex weights are integers: the
// works, scaled so that their sum fits its 32-bit indices.
// `nodes` (all when empty) are the subgraph to split, `seed` METIS's random seed.
std::vector<std::uint32_t> metis_parts(const Reduced& r, const std::vector<double>& work,
                                       double total, std::size_t count,
                                       const std::vector<std::uint32_t>& nodes = {}, int seed = 1) {
  const std::size_t n = nodes.empty() ? r.num_nodes() : nodes.size();
  std::vector<std::uint32_t> local;  // reduced node -> index among `nodes`
  if (!nodes.empty()) {
    local.assign(r.num_nodes(), UINT32_MAX);
    for (std::uint32_t i = 0; i < n; ++i) local[nodes[i]] = i;
  }
  std::vector<idx_t> xadj(n + 1, 0), adjncy, weight(n);
  const double scale = std::min(1.0, 1e9 / std::max(1.0, total));
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t g = nodes.empty() ? i : nodes[i];
    for (std::uint32_t e : r.incident(g)) {
      const std::uint32_t h = r.other(e, g);
      const std::uint32_t j = nodes.empty() ? h : local[h];
      if (h != g && j != UINT32_MAX) adjncy.push_back(static_cast<idx_t>(j));
    }
    xadj[i + 1] = static_cast<idx_t>(adjncy.size());
    weight[i] = std::max<idx_t>(1, static_cast<idx_t>(std::llround(work[g] * scale)));
  }
  idx_t vertices = static_cast<idx_t>(n), constraints = 1, parts = static_cast<idx_t>(count),
        cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = seed;  // the same partition on every run of a seed
  std::vector<idx_t> part(n, 0);
  if (METIS_PartGraphKway(&vertices, &constraints, xadj.data(), adjncy.data(), weight.data(),
                          nullptr, nullptr, &parts, nullptr, nullptr, options, &cut,
                          part.data()) != METIS_OK)
    return {};
  return {part.begin(), part.end()};
}

}  // namespace

Partition make_regions(const Reduced& r, std::size_t count) {
  const std::size_t n = r.num_nodes();
  count = std::max<std::size_t>(1, std::min(count, std::max<std::size_t>(n, 1)));
  // The CSR graph serves the searches; the undirected adjacency list the algorithms whose
  // concepts require an undirected graph (articulation points, Cuthill-McKee).
  const CsrGraph csr = csr_graph(r);
  UGraph ug(n);
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) boost::add_edge(r.edge_u(e), r.edge_v(e), ug);
  std::vector<std::size_t> component;
  const std::size_t components_found = components(csr, n, component);
  std::vector<std::size_t> articulation;
  boost::articulation_points(ug, std::back_inserter(articulation));
  double total = 0;
  std::vector<double> work(n);
  for (std::uint32_t g = 0; g < n; ++g) total += work[g] = node_work(r, g);
  // METIS cuts 4-10 times fewer edges than slices of a bandwidth ordering (2 parts: G 18
  // against 109, A 76 against 199, S 393 against 4,560, N 1,931 against 8,421), and the
  // regions' bound is only as good as their cut is small. The slices remain for a
  // METIS failure.
  std::vector<std::uint32_t> owner =
      count > 1 ? metis_parts(r, work, total, count) : std::vector<std::uint32_t>(n, 0);
  if (owner.empty()) {
    owner.assign(n, 0);
    double done = 0;
    for (std::size_t v : bandwidth_order(ug, component, components_found)) {
      const std::size_t region =
          total > 0 ? static_cast<std::size_t>(done / total * static_cast<double>(count)) : 0;
      owner[v] = static_cast<std::uint32_t>(std::min(region, count - 1));
      done += work[v];
    }
  }
  Partition part = regions_of(r, std::move(owner), count);
  part.components = components_found;
  part.articulation_points = articulation.size();
  return part;
}

Partition regions_of(const Reduced& r, std::vector<std::uint32_t> owner, std::size_t count) {
  Partition part;
  part.owner = std::move(owner);
  part.regions.resize(count);
  for (std::uint32_t g = 0; g < part.owner.size(); ++g) {
    Region& region = part.regions[part.owner[g]];
    region.owned.push_back(g);
    region.work += node_work(r, g);
  }
  add_boundaries(r, part);
  return part;
}

std::vector<std::uint32_t> moving_owners(const Reduced& r, std::size_t count, std::uint64_t round) {
  const std::size_t n = r.num_nodes();
  count = std::max<std::size_t>(1, std::min(count, std::max<std::size_t>(n, 1)));
  std::vector<std::uint32_t> owner(n, 0);
  if (count == 1) return owner;
  std::vector<double> work(n);
  double linked_work = 0, lone_work = 0;
  std::vector<std::uint32_t> linked, lone;
  for (std::uint32_t g = 0; g < n; ++g) {
    work[g] = node_work(r, g);
    (r.incident(g).empty() ? lone : linked).push_back(g);
    (r.incident(g).empty() ? lone_work : linked_work) += work[g];
  }
  const std::vector<std::uint32_t> parts =
      linked.size() > count
          ? metis_parts(r, work, linked_work, count, linked, static_cast<int>(round % 1000003) + 1)
          : std::vector<std::uint32_t>{};
  for (std::size_t i = 0; i < linked.size(); ++i)
    owner[linked[i]] = parts.empty() ? static_cast<std::uint32_t>(i % count) : parts[i];
  // Lone nodes by the time their group's memory starts, in windows of equal work; the
  // windows move by 0.618 of one each round (the golden ratio spreads the offsets).
  const Problem& p = r.original();
  std::vector<std::pair<std::int64_t, std::uint32_t>> by_time;
  by_time.reserve(lone.size());
  for (std::uint32_t g : lone) {
    std::int64_t start = INT64_MAX;
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi)
      if (p.has_memory(r.member_node(mi)))
        start = std::min(start, p.interval_lo(r.member_node(mi)));
    by_time.emplace_back(start, g);
  }
  std::sort(by_time.begin(), by_time.end());
  const double window = lone_work / static_cast<double>(count);
  const double shift = std::fmod(0.618034 * static_cast<double>(round), 1.0) * window;
  double done = shift;
  for (const auto& [start, g] : by_time) {
    const auto w = window > 0 ? static_cast<std::size_t>(done / window) : 0;
    owner[g] = static_cast<std::uint32_t>((w + round) % count);
    done += work[g];
  }
  return owner;
}

}  // namespace iopddl::inline v0
