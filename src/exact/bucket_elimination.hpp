// Exact minimisation of the reduced problem's cost, memory left aside, by bucket
// elimination (dynamic programming over the tree decomposition of an elimination order):
// each group in turn is minimised out of the sum of the functions that mention it, which
// leaves one function over its remaining neighbours. The tables it fills are the whole
// work, and their sizes are known before any is filled (plan()), so a run is only started
// where it fits a budget: cores whose elimination width is small, whatever their size.
//
// The minimum is a certified lower bound on every assignment that fits the memory limit,
// and when the minimiser fits the limit it is optimal.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../reduce/reduced.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

class BucketElimination {
 public:
  // Plans the elimination of every group in `order` (each exactly once).
  BucketElimination(const Reduced& r, std::vector<std::uint32_t> order);

  // Table entries the run stores (the new functions and their minimisers), saturating:
  // the work estimate, known before the run.
  std::uint64_t entries() const { return entries_; }

  struct Result {
    Total cost = 0;           // the least cost, forbidden entries included (>= 10^18)
    std::vector<Strategy> x;  // a minimiser, per group
  };
  // The minimum and a minimiser; nothing when `stop` says stop first.
  std::optional<Result> run(const StopControl& stop) const;

 private:
  // A function of a bucket's groups (its scope, then the eliminated group last): the
  // stride of each scope slot and of the eliminated group in the function's table.
  struct Term {
    const Cost* edge = nullptr;  // an edge table, or
    const Total* message = nullptr;
    std::vector<std::size_t> stride;  // per scope slot
    std::size_t own = 0;              // the eliminated group's stride
  };
  // Bucket i's functions: its edges and the messages of earlier buckets (in `value`).
  std::vector<Term> terms_of(std::size_t i, const std::vector<std::vector<Total>>& value) const;
  // Eliminates bucket i's group: its function over the scope (`value`) and its minimisers
  // (`best`); false if `poll` says stop.
  bool eliminate(std::size_t i, const std::vector<Term>& terms, std::vector<Total>& value,
                 std::vector<Strategy>& best, StopPoll& poll) const;
  struct Bucket {
    std::uint32_t group;                  // the group minimised out here
    std::vector<std::uint32_t> scope;     // the new function's groups, in order
    std::vector<std::uint32_t> edges;     // reduced edges first joined here
    std::vector<std::uint32_t> messages;  // earlier buckets' functions joined here
  };
  const Reduced& r_;
  std::vector<std::uint32_t> order_;
  std::vector<Bucket> buckets_;  // in elimination order
  std::uint64_t entries_ = 0;
};

}  // namespace iopddl::inline v0
