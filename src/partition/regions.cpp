#include "regions.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/biconnected_components.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <boost/range/iterator_range.hpp>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <iterator>

namespace iopddl {

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

}  // namespace

Partition make_regions(const Reduced& r, std::size_t count) {
  const std::size_t n = r.num_nodes();
  count = std::max<std::size_t>(1, std::min(count, std::max<std::size_t>(n, 1)));
  Partition part;
  part.owner.assign(n, 0);
  // The CSR graph serves the searches; the undirected adjacency list the algorithms whose
  // concepts require an undirected graph (articulation points, Cuthill-McKee).
  const CsrGraph csr = csr_graph(r);
  UGraph ug(n);
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) boost::add_edge(r.edge_u(e), r.edge_v(e), ug);
  std::vector<std::size_t> component;
  part.components = components(csr, n, component);
  std::vector<std::size_t> articulation;
  boost::articulation_points(ug, std::back_inserter(articulation));
  part.articulation_points = articulation.size();
  std::vector<std::size_t> order;
  if (count == 1) {
    order.resize(n);
    for (std::size_t v = 0; v < n; ++v) order[v] = v;
  } else {
    order = bandwidth_order(ug, component, part.components);
  }
  // Cut the ordering into slices of about equal work.
  double total = 0;
  std::vector<double> work(n);
  for (std::uint32_t g = 0; g < n; ++g) total += work[g] = node_work(r, g);
  part.regions.resize(count);
  double done = 0;
  for (std::size_t v : order) {
    std::size_t region =
        total > 0 ? static_cast<std::size_t>(done / total * static_cast<double>(count)) : 0;
    region = std::min(region, count - 1);
    part.owner[v] = static_cast<std::uint32_t>(region);
    part.regions[region].owned.push_back(static_cast<std::uint32_t>(v));
    part.regions[region].work += work[v];
    done += work[v];
  }
  add_boundaries(r, part);
  return part;
}

}  // namespace iopddl
