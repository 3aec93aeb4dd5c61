// The candidate moves of greedy repair (repair.hpp) at the overloaded point it works on,
// kept from one point to the next.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include "memory_index.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

struct ReliefMove {
  double score;  // cost change per unit of usage freed at the point
  std::uint32_t g;
  Strategy s;
  Total d;
  bool operator<(const ReliefMove& o) const {
    return score != o.score ? score < o.score : g != o.g ? g < o.g : s < o.s;
  }
};

// The moves that relieve the overloaded point a repair step works on (every group with a
// member live there, each of its other strategies, its cost change, the usage it frees
// there), in increasing (score, group, strategy) order. A repair walks thousands of points
// whose live groups are mostly the same, and rebuilding and sorting the list at each
// (10,000 groups live at a point, each read from scattered memory) took 18 s of a
// 300,000-node instance's first repair. So the list is kept from one point to the next:
// the members that start or stop being live are the ones stored on the memory index's
// path to one point and not the other's, and only their groups, the groups that moved and
// their neighbours (whose cost changes are stale) are read again. The list and the work
// charged are what a rebuild at every point would give (ReliefMoves, sorted).
class RepairMoves {
 public:
  RepairMoves(const Reduced& r, const MemoryIndex& index)
      : r_(r),
        index_(index),
        live_(r.num_nodes(), 0),
        mark_(r.num_nodes(), 0),
        change_(r.num_members(), 0) {}

  // The candidates at t, sorted; `work` gets the entries a rebuild would read.
  const std::set<ReliefMove>& at(LocalState& state, std::size_t t, std::uint64_t& work) {
    ++epoch_;
    for (std::uint32_t g : moved_) {
      mark(g);
      for (std::uint32_t e : r_.incident(g)) mark(r_.other(e, g));
    }
    moved_.clear();
    move_to(t);
    for (std::uint32_t g : changed_) read(state, g, t);
    changed_.clear();
    work = work_;
    return list_;
  }

  // g moved: its candidates and its neighbours' are stale.
  void moved(std::uint32_t g) { moved_.push_back(g); }

 private:
  void mark(std::uint32_t g) {
    if (mark_[g] == epoch_) return;
    mark_[g] = epoch_;
    changed_.push_back(g);
  }

  // The rebuild's work on g: its deltas, and its live members for each other strategy.
  std::uint64_t work_of(std::uint32_t g) const {
    const std::uint64_t k = r_.strategies(g), m = live_[g];
    return m == 0 ? 0 : k + (k - 1) * m;
  }

  // Members of the index's nodes on the path to the last point and not on t's stop being
  // live, those on t's and not the last's start.
  void move_to(std::size_t t) {
    path_.clear();
    index_.path(t, path_);
    std::size_t common = 0;
    while (common < path_.size() && common < last_path_.size() &&
           path_[common] == last_path_[common])
      ++common;
    // A member stored at a node of each path (its interval covers both points) stays.
    for (std::size_t i = common; i < last_path_.size(); ++i)
      for (std::uint32_t mi : index_.node[last_path_[i]]) count(mi, -1);
    for (std::size_t i = common; i < path_.size(); ++i)
      for (std::uint32_t mi : index_.node[path_[i]]) count(mi, +1);
    for (std::uint32_t mi : touched_) {
      if (change_[mi] != 0) {
        const std::uint32_t g = index_.group[mi];
        work_ -= work_of(g);
        live_[g] = static_cast<std::uint32_t>(static_cast<int>(live_[g]) + change_[mi]);
        work_ += work_of(g);
        mark(g);
      }
      change_[mi] = 0;
    }
    touched_.clear();
    last_path_.swap(path_);
  }

  void count(std::uint32_t mi, int change) {
    if (change_[mi] == 0) touched_.push_back(mi);
    change_[mi] = static_cast<std::int8_t>(change_[mi] + change);
  }

  // g's moves at t, in place of the ones it had.
  void read(LocalState& state, std::uint32_t g, std::size_t t) {
    auto found = entries_.find(g);
    if (found != entries_.end()) {
      for (const ReliefMove& m : found->second) list_.erase(m);
      found->second.clear();
    }
    if (live_[g] == 0) {
      if (found != entries_.end()) entries_.erase(found);
      return;
    }
    const Problem& p = r_.original();
    members_.clear();
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
      const NodeId v = r_.member_node(mi);
      if (p.has_memory(v) && p.seg_lo(v) <= t && t < p.seg_hi(v)) members_.push_back(mi);
    }
    const Strategy cur = state.at(g);
    const auto dg = state.deltas(g);
    std::vector<ReliefMove>& mine = found != entries_.end() ? found->second : entries_[g];
    for (Strategy s = 0; s < r_.strategies(g); ++s) {
      if (s == cur) continue;
      Total freed = 0;
      for (std::size_t mi : members_)
        freed += Total{r_.member_usage(mi, cur)} - r_.member_usage(mi, s);
      if (freed <= 0) continue;
      const ReliefMove m{static_cast<double>(dg[s]) / static_cast<double>(freed), g, s, dg[s]};
      mine.push_back(m);
      list_.insert(m);
    }
  }

  const Reduced& r_;
  const MemoryIndex& index_;
  std::vector<std::uint32_t> live_;  // per group: its members live at the last point
  std::uint64_t work_ = 0;           // work_of() summed over the groups
  std::vector<std::uint32_t> mark_;  // per group: the epoch it was last found changed
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> moved_, changed_;  // since the last point; in this one
  std::vector<std::size_t> path_, last_path_;   // the index's nodes down to a point
  std::vector<std::size_t> members_;
  std::vector<std::int8_t> change_;     // per member: live at the next point minus at the last
  std::vector<std::uint32_t> touched_;  // members whose change_ is being counted
  std::set<ReliefMove> list_;
  std::unordered_map<std::uint32_t, std::vector<ReliefMove>> entries_;  // per group, in list_
};

}  // namespace iopddl::inline v0
