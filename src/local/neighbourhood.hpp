// One interface for the neighbourhoods that improve a feasible state (tree blocks, exact
// windows, compound moves, crossover): a name, a batch of moves on the shared incremental
// state with the worker's random stream, and statistics of what each batch cost and
// gained, which `solve --stats` and the JSON result report per neighbourhood. A concrete
// neighbourhood is a few lines around its search; the searches keep their own signatures
// for their tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
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

namespace iopddl::inline v0 {

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

// What a batch works on: the shared feasible state and the worker's random stream, the
// stop control, and what the worker knows that some neighbourhoods use.
struct NeighbourhoodContext {
  LocalState& state;
  Rng& rng;
  const StopControl& stop;
  bool forbidden = false;    // the best picks a forbidden entry: smaller batches
  std::uint64_t budget = 0;  // a work budget for the batch, where one applies
  const std::vector<Strategy>* donor = nullptr;  // an assignment to take parts from
};

class Neighbourhood {
 public:
  virtual ~Neighbourhood() = default;
  virtual const char* name() const = 0;
  // One batch on the feasible `c.state` (which stays feasible and never gets dearer);
  // returns the number of moves that improved it.
  int run(const NeighbourhoodContext& c) {
    return stats_.count(c.stop, [&] {
      const Total before = c.state.cost();
      const int improved = batch(c);
      return std::pair{improved, before - c.state.cost()};
    });
  }
  const NeighbourhoodStats& stats() const { return stats_; }

 protected:
  virtual int batch(const NeighbourhoodContext& c) = 0;

 private:
  NeighbourhoodStats stats_;
};

// Induced trees relabelled by dynamic programming: tree.blocks per batch
// (tree.blocks-while-forbidden while the best picks a forbidden entry).
class TreeBlocks final : public Neighbourhood {
 public:
  TreeBlocks(const Reduced& r, const MemoryIndex* index, const TreeBlockOptions& o)
      : search_(r, index, o), o_(o) {}
  const char* name() const override { return "tree"; }

 private:
  int batch(const NeighbourhoodContext& c) override {
    return search_.run(c.state, c.rng, c.forbidden ? o_.blocks_while_forbidden : o_.blocks,
                       static_cast<std::size_t>(o_.size), c.stop);
  }
  TreeBlockSearch search_;
  TreeBlockOptions o_;
};

// Exact re-solves of windows (graph or time), `windows` per batch.
class ExactWindows final : public Neighbourhood {
 public:
  ExactWindows(const Reduced& r, const MemoryIndex* index, const WindowOptions& o)
      : search_(r, index, o), windows_(o.windows) {}
  const char* name() const override { return "lns"; }

 private:
  int batch(const NeighbourhoodContext& c) override {
    return search_.run(c.state, c.rng, windows_, c.stop);
  }
  WindowSearch search_;
  int windows_;
};

// Compound moves within the context's work budget; work() is what the last batch spent.
class Compound final : public Neighbourhood {
 public:
  Compound(const Reduced& r, const MemoryIndex& index, const CompoundOptions& o)
      : moves_(r, index, o) {}
  const char* name() const override { return "compound"; }
  std::uint64_t work() const { return moves_.work(); }

 private:
  int batch(const NeighbourhoodContext& c) override {
    return moves_.run(c.state, c.rng, c.stop, c.budget);
  }
  CompoundMoves moves_;
};

// Partition crossover from the context's donor.
class Crossing final : public Neighbourhood {
 public:
  Crossing(const Reduced& r, const CrossoverOptions& o) : crossover_(r, o) {}
  const char* name() const override { return "cross"; }

 private:
  int batch(const NeighbourhoodContext& c) override {
    return crossover_.run(c.state, *c.donor, c.rng, c.stop);
  }
  Crossover crossover_;
};

// The polish's neighbourhoods, in the order the fixed schedule runs them (cheap and wide
// first). A new neighbourhood is a class like the ones above and one line here.
inline std::vector<std::unique_ptr<Neighbourhood>> polish_neighbourhoods(const Reduced& r,
                                                                         const MemoryIndex& index,
                                                                         const SolverOptions& o) {
  std::vector<std::unique_ptr<Neighbourhood>> list;
  list.push_back(std::make_unique<TreeBlocks>(r, &index, o.tree));
  list.push_back(std::make_unique<ExactWindows>(r, &index, o.lns));
  return list;
}

}  // namespace iopddl::inline v0
