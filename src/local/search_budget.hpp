// The budget of a depth-first search: search nodes up to a limit and the work charged to the
// run's stop control (polled every 256 nodes); complete until either runs out.
#pragma once

#include <cstdint>

#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

struct SearchBudget {
  std::uint64_t nodes = 0, limit = 0, work = 0;
  bool complete = true;  // no node was cut off
  bool found = false;    // the search found something better than it started from
  StopPoll poll{nullptr, 256};

  // A new search within `limit` nodes (the poll goes on: it counts from its run's start).
  void begin() {
    nodes = work = 0;
    complete = true;
    found = false;
  }
  // A search node with this much work: false (and incomplete) once the budget is spent.
  bool enter(std::uint64_t node_work) {
    work += node_work;
    if (++nodes > limit || poll.tick(node_work)) complete = false;
    return complete;
  }
};

}  // namespace iopddl::inline v0
