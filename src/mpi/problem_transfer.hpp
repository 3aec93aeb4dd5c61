// A whole Problem sent from one rank to the others, so that only one process of a job
// reads the input file (and decompresses and parses it): the others receive its arrays.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "iopddl/problem.hpp"

namespace iopddl::inline v0 {

class ProblemTransfer {
 public:
  // Collective over `comm`: `root`'s problem replaces every other rank's. Returns the bytes
  // sent to each rank.
  static std::size_t broadcast(Problem& p, int root, MPI_Comm comm);
};

}  // namespace iopddl::inline v0
