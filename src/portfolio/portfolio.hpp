// The portfolio of workers as an object that a driver can step through: the single-process
// solve() runs it to the end; the MPI driver runs it in phases and synchronises between
// them (best assignment, memory prices). It works on a reduced problem that the driver
// owns (prepare.hpp: the baseline and presolve come first).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../reduce/reduced.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0 {

class Worker;
struct Evaluation;
struct MemoryIndex;
class CostNetwork;
class SharedBest;
class BoundWorker;

// Cost per unit of usage at which memory starts to matter: the scale of memory prices.
double memory_price_unit(const Reduced& r);

class Portfolio {
 public:
  // `r` is `p` reduced (it must outlive the portfolio). `first_worker` is the global index
  // of the first worker (an MPI rank's offset): it sets the workers' price levels and
  // random streams, so ranks explore different ones.
  Portfolio(const Problem& p, const Reduced& r, const SolverOptions& o, Log& log,
            int first_worker = 0);
  ~Portfolio();

  // Exact mode on small reduced problems, then the workers. Returns kOptimal when exact
  // mode proved the incumbent optimal (run() may still be called; it cannot improve).
  SolveResult start(StopControl& stop, IncumbentStore& store);
  // Runs every worker (one thread each) until `stop` says stop or each has done `rounds`
  // more pricing rounds or, with `seconds` > 0, until that time has passed (a soft phase
  // end, checked between rounds: a round is never cut short by it, only by `stop`), or,
  // in a deterministic run, until its work is spent (wherever the search polls).
  void run(StopControl& stop, IncumbentStore& store, std::uint64_t rounds, double seconds = 0);
  // A deterministic run's bound: steps after the workers, within bound.share of a worker's
  // work, towards the final cost (so that the bound does not depend on the threads' timing).
  void bound_after(StopControl& stop, IncumbentStore& store);
  // Whether every worker has spent its work (--deterministic), and the work all have done.
  bool spent() const;
  std::uint64_t work() const;
  // How many of the workers polish (timed runs with more than one thread).
  int polishers() const;

  // Whether start() built the workers (the time limit may come first): only then does
  // run() have anything to work on.
  bool ready() const { return ready_; }
  // What each neighbourhood of the polish cost and gained, summed over the workers (call
  // between runs: the workers' threads are joined then).
  std::vector<NeighbourhoodReport> neighbourhood_reports() const;
  // The run's result once the workers have stopped: feasible if `store` holds an answer,
  // optimal when its certified bound meets the cost; the neighbourhoods' reports and the work.
  SolveResult result(const IncumbentStore& store) const;
  // The best reduced assignment over the workers (empty if none) and its cost.
  std::pair<std::vector<Strategy>, Total> best() const;
  // Every worker continues from `x` if it beats its own best.
  void adopt(const std::vector<Strategy>& x, Total cost);
  // The same while run() runs (from another thread): each worker adopts at its next round.
  void post(const std::vector<Strategy>& x, Total cost);
  // Worker 0's per-member memory prices in cost per unit of usage (the multipliers of a
  // checkpoint), and setting them on every worker (resume, consensus between ranks).
  std::vector<double> prices() const;
  void set_prices(const std::vector<double>& prices);
  // The bound worker's memory multipliers (empty without one), for checkpoints and
  // resumption; not while the portfolio runs. drop_bound() leaves the bound to another
  // (the MPI coordinator's regions).
  std::vector<double> bound_multipliers() const;
  void set_bound_multipliers(const std::vector<double>& lambda);
  void drop_bound();
  // Worker 0 repairs and improves a reduced assignment from elsewhere (the distributed bound's
  // assembly) under the true limit and keeps it if it beats its best. Returns whether it did.
  bool improve(const std::vector<Strategy>& x, StopControl& stop, IncumbentStore& store);
  // Worker 0 polishes its best (an adopted warm start) before the rounds, on its own work.
  void polish_first(StopControl& stop, IncumbentStore& store);

 private:
  SolveResult solve_small_exactly(StopControl& stop, IncumbentStore& store);
  SolveResult solve_by_elimination(StopControl& stop, IncumbentStore& store);
  SolveResult claim_optimal(const std::vector<Strategy>& x, const std::vector<Strategy>& a,
                            const Evaluation& ev, IncumbentStore& store, const std::string& how);

  const Problem& p_;
  SolverOptions o_;
  Log& log_;
  int first_worker_;
  const Reduced& reduced_;
  bool ready_ = false;
  std::unique_ptr<MemoryIndex> index_;
  std::unique_ptr<CostNetwork> network_;  // the workers' networks share its edge tables
  std::unique_ptr<SharedBest> shared_;
  std::unique_ptr<BoundWorker> bound_;  // the first rank's (bound.share > 0)
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<Strategy> exact_x_;
  Total exact_cost_ = 0;
};

}  // namespace iopddl::inline v0
