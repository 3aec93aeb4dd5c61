// Checkpoints of a run: what a resumed run needs to continue, written with
// Boost.Serialization (text archive) to a temporary file and renamed into place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "iopddl/distributed.hpp"
#include "iopddl/problem.hpp"

namespace iopddl::inline v0::mpi {

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

// Puts the incumbent into the checkpoint at `path` unless one of this instance at least as
// good is there, and the certified `bound` when it is higher than the one there, keeping
// the rest (multipliers, seeds); a checkpoint of another instance, or a corrupt one, is
// replaced. Returns whether it wrote; throws OutputError when the file cannot be written.
bool refresh_checkpoint(const Problem& problem, const std::string& path,
                        const std::vector<Strategy>& incumbent, Total cost,
                        std::optional<Total> bound, double elapsed);

// What a run without the distributed loop resumes from: the incumbent and the certified
// bound (the multipliers belong to the loop). Throws InputError as --resume does.
ResumePoint read_resume_point(const Problem& problem, const std::string& path);

}  // namespace iopddl::inline v0::mpi
