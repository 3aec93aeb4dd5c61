// Regions of the reduced graph for distributed runs. Only this module includes Boost.Graph
// and METIS.
//
// The reduced graph is put in a Boost compressed_sparse_row_graph for its connected
// components and articulation points (biconnected structure, reported by `iopddl info`);
// METIS (multilevel k-way) splits it into `count` regions of about equal work (strategies
// plus edge table entries) with a small cut. Were METIS to fail, a Cuthill-McKee ordering
// (which keeps neighbours close) is cut into slices of equal work instead. Region i's
// ghosts are the nodes of other regions adjacent to it; its cut edges join it to them.
#pragma once

#include <string>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

struct Region {
  std::vector<std::uint32_t> owned;      // reduced nodes, in ordering order
  std::vector<std::uint32_t> ghosts;     // adjacent nodes owned by other regions, sorted
  std::vector<std::uint32_t> cut_edges;  // reduced edges with one end owned here
  double work = 0;
};

struct Partition {
  std::vector<Region> regions;
  std::vector<std::uint32_t> owner;  // reduced node -> region
  std::size_t components = 0;
  std::size_t articulation_points = 0;
  std::size_t cut_edges = 0;  // edges whose ends lie in different regions
  std::string summary() const;
};

Partition make_regions(const Reduced& r, std::size_t count);
// The regions of given owners (each < count), with their ghosts and cut edges; the
// components and articulation points are not counted.
Partition regions_of(const Reduced& r, std::vector<std::uint32_t> owner, std::size_t count);
// Owners (reduced node -> region < count) for the region rounds of a distributed run,
// different each round so that no boundary stays frozen: METIS, seeded by the round, splits
// the nodes with an edge into parts of equal work; nodes without one, which meet the others
// only in memory, go in windows of equal work by the time their memory starts (nodes live
// at the same time share a region, so they can trade memory), the windows shifted each round.
std::vector<std::uint32_t> moving_owners(const Reduced& r, std::size_t count, std::uint64_t round);

}  // namespace iopddl::inline v0
