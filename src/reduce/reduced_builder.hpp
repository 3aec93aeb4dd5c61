// Presolve's internals, shared by reduced.cpp (the rounds), materialize.cpp (the flat
// reduced problem of a grouping) and presolve_rules.cpp (forbidden, dominated and
// functional strategies, table minima).
#pragma once

#include <numeric>
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

// One round's change to the reduced problem, over its nodes: which nodes join into one
// new group, and each node's strategies as a function of its new group's.
struct Step {
  std::vector<std::uint32_t> root;         // node -> the node heading its new group (itself)
  std::vector<std::vector<Strategy>> map;  // node -> its strategy per new strategy; empty: same
  std::vector<Strategy> k;                 // by heading node: strategies of its new group

  // Every node its own group with all its strategies.
  template <class Source>
  static Step identity(const Source& src) {
    Step st;
    st.root.resize(src.num_nodes());
    std::iota(st.root.begin(), st.root.end(), 0);
    st.map.resize(src.num_nodes());
    st.k.resize(src.num_nodes());
    for (std::uint32_t v = 0; v < src.num_nodes(); ++v) st.k[v] = src.strategies(v);
    return st;
  }
  Strategy at(std::uint32_t v, Strategy s) const { return map[v].empty() ? s : map[v][s]; }
};

}  // namespace presolve

class ReducedBuilder {
 public:
  static void poll(StopPoll& stop);

  // The flat reduced problem after `step` over `src`'s nodes, where `src` is the input
  // (every node a group of its own) or the previous round's reduced problem: node costs
  // (with the edges that fall inside a group) and one summed table per pair of adjacent
  // groups, rows in the smaller group's strategies; the new groups' members are their nodes'
  // members, the group's node first, then the others in order. Each round builds from the
  // previous one, whose tables are already summed, not from the input again. `inputs`
  // counts the input edges behind each of `src`'s edges (empty: one each) and is replaced by
  // the counts behind the result's. The result goes to `out`, whose buffers are reused
  // (a fresh 300-MB table costs more in page faults than in summing).
  template <class Source>
  static void materialize(const Problem& p, const Source& src, const presolve::Step& step,
                          std::vector<std::uint32_t>& inputs, PresolveStats& stats, StopPoll& stop,
                          Reduced& out);

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

 private:
  template <class Source>
  static void add_members(const Source& src, const presolve::Step& step,
                          const std::vector<std::uint32_t>& id, Reduced& r);
  template <class Source>
  static void add_edges(const Source& src, const presolve::Step& step,
                        const std::vector<std::uint32_t>& id, std::vector<std::uint32_t>& inputs,
                        PresolveStats& stats, StopPoll& stop, Reduced& r);
  static void sum_table(const Cost* t, std::size_t kb, const presolve::Step& step, std::uint32_t a,
                        std::uint32_t b, bool a_first, Cost* out, Strategy kx, Strategy ky);
};

}  // namespace iopddl::inline v0
