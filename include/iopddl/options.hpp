// Solver options: nested structs with defaults. The CLI binds every field (so --help shows
// the defaults, --config reads them from TOML and --dump-config prints them), and presets
// in configs/ override a few fields by name.
#pragma once

#include <cstdint>
#include <string>

namespace iopddl {

enum class Algorithm {
  kBaseline,   // least-memory start + memory-aware descent: the minimal end-to-end solver
  kPortfolio,  // the full solver core (presolve, priced optimiser, repair, local search)
};

enum class Pricing {
  kPerMember,  // one price per input node, raised while its interval is overloaded
  kPerTime,    // one price per time segment, subgradient steps on the overload
  kMixed,      // workers alternate between the two
};

struct SolverOptions {
  // More worker threads than this are capped (each holds a copy of the priced problem).
  static constexpr int kMaxThreads = 64;
  Algorithm algorithm = Algorithm::kPortfolio;
  std::uint64_t seed = 1;
  int threads = 0;               // 0: the machine's cores
  bool deterministic = false;    // bounded by work, not time: same seed+threads, same answer
  std::uint64_t work_limit = 0;  // deterministic mode: pricing rounds per worker (0: 30)
  // Rounds without improvement before a worker polishes its best and scatters its prices.
  // N at 180 s (seeds 1-3, 5cd9526): 20 and 80 were worse than 40 on every seed.
  int stale_rounds = 40;
  Pricing pricing = Pricing::kPerMember;
  int lns_windows = 50;  // windows per LNS batch on a stagnating worker's best (0: no LNS)
};

// Distributed runs (used by the MPI layer only; plain data, so every build can read, check
// and print them).
struct DistributedOptions {
  double sync_seconds = 1.0;         // wall time between synchronisations
  double price_blend = 0.0;          // how far each rank moves its prices to the average
  std::uint64_t sync_rounds = 5;     // pricing rounds between synchronisations (deterministic)
  int region_iterations = 3;         // TRW-S iterations per region round (0: no region workers)
  std::string checkpoint_path;       // periodic checkpoints (and one at the end) go here
  double checkpoint_seconds = 60.0;  // their period
  // Where SIGUSR1 writes one when checkpoint_path is empty.
  std::string signal_checkpoint_path = "iopddl.checkpoint";
  std::string resume_path;  // continue from this checkpoint
};

}  // namespace iopddl
