// Checkpoints of a run: what a resumed run needs to continue, written with
// Boost.Serialization (text archive) to a temporary file and renamed into place.
#pragma once

#include <string>
#include <vector>

#include "iopddl/problem.hpp"

namespace iopddl::mpi {

struct Checkpoint {
  std::uint64_t fingerprint = 0;          // of the instance (see fingerprint())
  std::string instance;                   // its name, for messages
  std::vector<Strategy> assignment;       // the incumbent, in the input's numbering (may be empty)
  std::string cost;                       // its exact cost (decimal, 128-bit)
  std::vector<double> prices;             // per-member memory multipliers of the reduced problem
  std::string lower_bound;                // best certified lower bound (decimal; empty: none)
  std::vector<double> bound_multipliers;  // the bound's memory multipliers, per time segment
  // The coordinator's agreement multipliers, per copy and strategy of its regions (one per
  // rank: a resumed run with another number of ranks starts them from 0).
  std::vector<double> agreement_multipliers;
  std::uint64_t seed = 0;
  double elapsed = 0;        // seconds the run had been going
  std::uint64_t rounds = 0;  // synchronisations done
};

// A hash of everything that defines the instance (sizes, costs, usages, intervals, edges).
std::uint64_t fingerprint(const Problem& problem);

// Throws OutputError naming the file when it cannot be written.
void save_checkpoint(const Checkpoint& c, const std::string& path);
// Throws InputError naming the file if it is unreadable or corrupt.
Checkpoint load_checkpoint(const std::string& path);

// On the way out (SIGTERM): puts the incumbent into the checkpoint at `path` if it beats
// the one there (or there is none), keeping the rest (multipliers, bound, seeds), so that
// a resumed run starts from what the stopped run printed. Never throws.
void refresh_checkpoint(const Problem& problem, const std::string& path,
                        const std::vector<Strategy>& incumbent, Total cost, double elapsed);

}  // namespace iopddl::mpi
