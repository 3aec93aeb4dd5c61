// The best memory multipliers for fixed messages, by linear programming (COIN-OR CLP,
// Debian's coinor-libclp through coinor-libcbc-dev, already used for proofs).
//
// With the messages of a reparametrisation held fixed, the certified bound is a function of
// the memory multipliers alone: the edge minima do not depend on them, and group g gives
// min_s (theta_g(s) + sum_t lambda_t usage_g(s, t)), theta its reparametrised costs without
// prices. By LP duality its maximum over lambda >= 0 is the value of
//   min sum_g,s theta_g(s) x_g(s)  s.t.  sum_s x_g(s) = 1,  usage_t(x) <= limit,  x >= 0,
// and the memory rows' duals are the multipliers that reach it. The subgradient steps of
// DualAscent crawl where there are thousands of segments (S: 26,496; 0.92 of a 60-s
// answer's cost after 300 steps, 0.97 after 3,000); alternating this with TRW-S iterations
// (block coordinate ascent: neither move lowers the bound) takes S to 0.997 in 300 steps
// (bench/results/memory_lp_steps.csv).
//
// Rows are generated: a solve starts from the rows it has (none at first), adds the
// segments its answer overloads most and solves again (dual simplex, warm) until its
// answer fits everywhere; rows stay for later solves, which start from the last basis
// (primal simplex: only the costs change). A multiplier off the rows is 0, which is valid:
// any multipliers >= 0 give a bound, and the engine certifies it exactly from them, so
// the LP's floating point costs nothing in rigour.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

class StopControl;

class MemoryLp {
 public:
  // The program's columns and group rows (memory rows come as solves need them); not
  // ready() without a memory limit or with more than `max_nonzeros` group strategies.
  // Solves give up once the rows take the nonzeros past it.
  MemoryLp(const Reduced& r, std::size_t max_nonzeros);
  ~MemoryLp();
  MemoryLp(const MemoryLp&) = delete;
  MemoryLp& operator=(const MemoryLp&) = delete;

  bool ready() const;
  std::size_t rows() const;
  std::size_t nonzeros() const;

  struct Outcome {
    // The maximising multipliers per segment of the input (0 off the rows), when solved.
    std::optional<std::vector<double>> lambda;
    // No multipliers will come from it: past max_nonzeros, or the LP failed (rows no
    // assignment fits, numerical trouble). Not set when only stopped by the stop control.
    bool given_up = false;
  };
  // For the groups' costs `theta` (per group strategy, in cost units, groups in order and
  // each group's strategies in order). Polls `stop` (if given) every simplex iteration.
  Outcome solve(const std::vector<double>& theta, const StopControl* stop);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::size_t max_nonzeros_;
};

}  // namespace iopddl::inline v0
