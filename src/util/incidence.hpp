// Incidence lists in CSR form, the one builder of the problem's, the reduced problem's and
// the priced networks' adjacency: node v's edges are adj[begin[v] .. begin[v + 1]), in edge
// order; an edge that joins a node to itself is listed once.
#pragma once

#include <cstdint>
#include <vector>

namespace iopddl::inline v0 {

template <class Node>
void build_incidence(std::size_t nodes, const std::vector<Node>& eu, const std::vector<Node>& ev,
                     std::vector<std::uint64_t>& begin, std::vector<std::uint32_t>& adj) {
  begin.assign(nodes + 1, 0);
  for (std::size_t e = 0; e < eu.size(); ++e) {  // counting sort of the edges' ends
    ++begin[eu[e] + 1];
    if (ev[e] != eu[e]) ++begin[ev[e] + 1];
  }
  for (std::size_t v = 0; v < nodes; ++v) begin[v + 1] += begin[v];
  adj.resize(begin[nodes]);
  std::vector<std::uint64_t> fill(begin.begin(), begin.end() - 1);
  for (std::size_t e = 0; e < eu.size(); ++e) {
    adj[fill[eu[e]]++] = static_cast<std::uint32_t>(e);
    if (ev[e] != eu[e]) adj[fill[ev[e]]++] = static_cast<std::uint32_t>(e);
  }
}

}  // namespace iopddl::inline v0
