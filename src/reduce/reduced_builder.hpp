// Presolve's internals, shared by reduced.cpp (the rounds), materialize.cpp (the flat
// reduced problem of a grouping) and presolve_rules.cpp (forbidden, dominated and
// functional strategies, table minima).
#pragma once

#include <vector>

#include "../util/incidence.hpp"
#include "reduced.hpp"

namespace iopddl::inline v0 {
namespace presolve {

inline Cost saturate(Total v) {
  if (v >= kForbidden) return kForbidden;
  if (v <= -kForbidden) return -kForbidden;
  return static_cast<Cost>(v);
}
inline Cost sat_add(Cost a, Cost b) {
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

}  // namespace presolve

class ReducedBuilder {
 public:
  // Builds the flat reduced problem of a grouping: node costs (with edges inside groups)
  // and one summed table per pair of adjacent groups.
  static void poll(StopPoll& stop);

  static Reduced materialize(const Problem& p, const presolve::Grouping& gr, PresolveStats& stats,
                             StopPoll& stop);

  // Edges: inside a group they become node costs; between groups they are summed per pair
  // of groups into one table (rows in the smaller group's strategies).
  static void add_edges(const Problem& p, const presolve::Grouping& gr,
                        const std::vector<std::uint32_t>& id, Reduced& r, PresolveStats& stats,
                        StopPoll& stop);

  // Marks strategies that must pick a forbidden entry, to a fixpoint. Returns false if a
  // group is left with none.
  static bool find_dead(const Reduced& r, std::vector<std::vector<char>>& dead, StopPoll& stop);

  // Marks strategies dominated by another strategy of their group: no more costly, no more
  // costly in any incident edge against any strategy of the other end, and using no more
  // memory in any member. Switching to the dominating strategy never costs more nor uses
  // more memory, so some optimum avoids the dominated one. Of two identical strategies the
  // later one goes. The pair scan stops early at the first entry that breaks dominance;
  // `budget` bounds the entries compared in all, and separately the pairs (a node with
  // 150,000 strategies has 2e10 pairs).
  static std::size_t find_dominated(const Reduced& r, std::vector<std::vector<char>>& gone,
                                    std::size_t budget, StopPoll& stop);

  // Moves each edge table's row minima into its first end's costs and then its column
  // minima into its second end's: the same cost for every assignment, with edges whose
  // minimum is 0 in every row and column, so that bounds built from node costs and table
  // minima are tighter. Forbidden entries stay forbidden. Returns the edges changed.
  static std::size_t move_minima(Reduced& r);

  // If every strategy of `from` allows exactly one strategy of `to`, fills f and returns true.
  static bool functional(const Reduced& r, std::uint32_t e, bool u_to_v, std::vector<Strategy>& f);
};

}  // namespace iopddl::inline v0
