// Rank 0's checkpoints of a distributed run and a resumed run's start: what the portfolio
// and the distributed bound hand over to a checkpoint, and take back from one.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../portfolio/portfolio.hpp"
#include "bound_rounds.hpp"
#include "checkpoint.hpp"

namespace iopddl::inline v0::mpi {

// A checkpoint to resume from, refused before anything else if it is of another instance.
std::optional<Checkpoint> load_resume(const Problem& p, const DistributedOptions& d,
                                      std::uint64_t print);

// The checkpoint's incumbent (if it fits) and its multipliers go to the portfolio.
void apply_resume(const Checkpoint& resume, const DistributedOptions& d, const Problem& p,
                  const Reduced& r, Portfolio& portfolio, BoundRounds* bounds,
                  IncumbentStore& store, Log& log);

// Rank 0's checkpoints (it holds the incumbent), after a phase or round when due:
// asked for (SIGUSR1), the period passed, or the run stopping. A running portfolio's
// multipliers cannot be read: the checkpoint then has none.
struct Checkpoints {
  void operator()(bool want_stop, std::uint64_t epoch, const std::vector<double>& prices,
                  bool running = false);
  const Problem& p;
  std::uint64_t print;
  const DistributedOptions& d;
  std::uint64_t seed;
  const StopControl& stop;
  const IncumbentStore& store;
  Log& log;
  std::atomic<bool>& request;
  std::string* error;
  const BoundRounds* bounds;
  const Portfolio* portfolio;
  double last;  // when the last was written (or the run started)
};

}  // namespace iopddl::inline v0::mpi
