// One interface for the neighbourhoods that improve a feasible state (tree blocks, exact
// windows, compound moves, crossover): a name, a batch of moves on the shared incremental
// state with the worker's random stream, and statistics of what each batch cost and
// gained, which `solve --stats` and the JSON result report per neighbourhood. A concrete
// neighbourhood is a few lines around its search; the searches keep their own signatures
// for their tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "compound.hpp"
#include "crossover.hpp"
#include "iopddl/options.hpp"
#include "iopddl/rng.hpp"
#include "iopddl/stop.hpp"
#include "state.hpp"
#include "tree_block.hpp"
#include "window_search.hpp"

namespace iopddl {

struct NeighbourhoodStats {
  std::uint64_t calls = 0;         // batches run
  std::uint64_t improvements = 0;  // moves that lowered the cost
  Total gain = 0;                  // cost they removed, in all
  double seconds = 0;              // time spent in the batches
  std::uint64_t work = 0;          // work units they counted (on the stop control's meter)

  // Runs one batch and counts it: `batch()` returns {improving moves, gain}, and its time
  // and work are measured here (the polish's neighbourhoods and the rounds' priced search).
  template <class Batch>
  auto count(const StopControl& stop, Batch&& batch) {
    const auto start = stop.now();
    const std::uint64_t before = stop.work_done();
    const auto [improved, gained] = batch();
    work += stop.work_done() - before;
    ++calls;
    improvements += static_cast<std::uint64_t>(improved);
    gain += gained;
    seconds += std::chrono::duration<double>(stop.now() - start).count();
    return improved;
  }
};

class Neighbourhood {
 public:
  virtual ~Neighbourhood() = default;
  virtual const char* name() const = 0;
  // One batch on the feasible `state` (which stays feasible and never gets dearer);
  // returns the number of moves that improved it.
  int run(LocalState& state, Rng& rng, const StopControl& stop) {
    return stats_.count(stop, [&] {
      const Total before = state.cost();
      const int improved = batch(state, rng, stop);
      return std::pair{improved, before - state.cost()};
    });
  }
  const NeighbourhoodStats& stats() const { return stats_; }

 protected:
  virtual int batch(LocalState& state, Rng& rng, const StopControl& stop) = 0;

 private:
  NeighbourhoodStats stats_;
};

// Induced trees relabelled by dynamic programming; `blocks` per batch.
class TreeBlocks final : public Neighbourhood {
 public:
  TreeBlocks(const Reduced& r, const MemoryIndex* index, const TreeBlockOptions& o)
      : search_(r, index, o), size_(static_cast<std::size_t>(o.size)) {}
  const char* name() const override { return "tree"; }
  void set_blocks(int blocks) { blocks_ = blocks; }

 private:
  int batch(LocalState& state, Rng& rng, const StopControl& stop) override {
    return search_.run(state, rng, blocks_, size_, stop);
  }
  TreeBlockSearch search_;
  std::size_t size_;
  int blocks_ = 0;
};

// Exact re-solves of windows (graph or time), `windows` per batch.
class ExactWindows final : public Neighbourhood {
 public:
  ExactWindows(const Reduced& r, const MemoryIndex* index, const WindowOptions& o)
      : search_(r, index, o), windows_(o.windows) {}
  const char* name() const override { return "lns"; }

 private:
  int batch(LocalState& state, Rng& rng, const StopControl& stop) override {
    return search_.run(state, rng, windows_, stop);
  }
  WindowSearch search_;
  int windows_;
};

// Compound moves within a work budget (set per batch); work() is what the last one spent.
class Compound final : public Neighbourhood {
 public:
  Compound(const Reduced& r, const MemoryIndex& index, const CompoundOptions& o)
      : moves_(r, index, o) {}
  const char* name() const override { return "compound"; }
  void set_budget(std::uint64_t budget) { budget_ = budget; }
  std::uint64_t work() const { return moves_.work(); }

 private:
  int batch(LocalState& state, Rng& rng, const StopControl& stop) override {
    return moves_.run(state, rng, stop, budget_);
  }
  CompoundMoves moves_;
  std::uint64_t budget_ = 0;
};

// Partition crossover with a donor set before each batch.
class Crossing final : public Neighbourhood {
 public:
  Crossing(const Reduced& r, const CrossoverOptions& o) : crossover_(r, o) {}
  const char* name() const override { return "cross"; }
  void set_donor(const std::vector<Strategy>& donor) { donor_ = donor; }

 private:
  int batch(LocalState& state, Rng& rng, const StopControl& stop) override {
    return crossover_.run(state, donor_, rng, stop);
  }
  Crossover crossover_;
  std::vector<Strategy> donor_;
};

}  // namespace iopddl
