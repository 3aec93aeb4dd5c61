// Branch-and-cut over the reduced problem's mixed-integer program (exact/mip_model.hpp) by
// COIN-OR CBC (Debian's coinor-libcbc), with the memory limit as rows: its preprocessing,
// cuts (knapsack covers on the memory rows, cliques, Gomory) and search prove cores that
// our own proof search cannot (G: 342 groups, proven within its 120-s limit on 2 cores).
//
// CBC runs in a child process: some of its phases (the LP presolve, the MIP preprocessing)
// run for many seconds on larger models without looking at any stop, and a child can be
// killed at the deadline whatever it is doing; CBC's global state stays out of the solver's
// process too. The child sends its best possible objective as it rises and, at the end, its
// answer (during the search its answers are in the preprocessed problem's columns) through a
// pipe; it writes nothing to stdout and dies with the thread that started it. It has no
// time limit of its own (see child() for why): it is killed when its time is up, and its
// answer is then lost, its bound not.
//
// CBC works in floating point. The answers it finds are checked against the model's exact
// memory rows here and by the reference evaluator before anyone sees them; its proof is
// trusted to separate answers one cost unit apart (every objective is an integer below
// 2^52: MipModel::exact_in_doubles), and the bound of an unfinished search is taken with a
// margin (Update::bound).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../reduce/reduced.hpp"
#include "iopddl/log.hpp"
#include "iopddl/stop.hpp"
#include "mip_model.hpp"

namespace iopddl::inline v0 {

// What CBC's child may take.
struct CbcLimits {
  int nice = 0;                         // how much nicer than the caller it runs
  std::size_t max_nonzeros = SIZE_MAX;  // larger programs are not searched
  std::size_t megabytes = SIZE_MAX;     // memory beyond the caller's at the start (then it ends)
};

class CbcSearch {
 public:
  // What the search has found so far.
  struct Update {
    std::optional<std::vector<Strategy>> x;  // its answer below `below`, when it has ended
    // A lower bound of every answer of cost below `below` (`below`, or 10^18 without one,
    // once the search has finished without an answer; an unfinished search's best
    // possible objective less a relative margin of 1e-7 and one unit), when it rose.
    std::optional<Total> bound;
    bool complete = false;  // finished: no answer below `below` cheaper than its best
    bool over = false;      // the child is gone (finished, or failed: then not complete)
  };

  // Starts a search for answers of cost below `below` (none: any answer) in a child
  // process, until it finishes, is killed (by the destructor) or runs out of its memory;
  // nullptr when the program has more than limits.max_nonzeros nonzeros, its sums do not
  // fit doubles' exact integers or no child could be started (said in the log).
  static std::unique_ptr<CbcSearch> start(const Reduced& r, std::optional<Total> below, Log& log,
                                          const CbcLimits& limits);
  ~CbcSearch();  // kills the child if it still runs
  CbcSearch(const CbcSearch&) = delete;
  CbcSearch& operator=(const CbcSearch&) = delete;

  // What arrived since the last call, waiting at most `wait` seconds for something.
  Update poll(double wait);
  const MipModel& model() const { return model_; }
  double seconds() const;  // since the start

  // The whole search in one call, until it finishes, `stop` says stop or `cancelled` is
  // set: every update merged (answer: the last, the cheapest).
  struct Outcome {
    bool ran = false;  // false: see start()
    bool complete = false;
    std::optional<std::vector<Strategy>> x;
    std::optional<Total> bound;
  };
  static Outcome run(const Reduced& r, std::optional<Total> below, const StopControl& stop,
                     const std::atomic<bool>* cancelled, Log& log, const CbcLimits& limits = {});

 private:
  CbcSearch(const Reduced& r, MipModel model, std::optional<Total> below);
  void read_records(Update& u);
  // An answer record's body from buffer_ at `at` (advanced past it) into `u` if it is valid,
  // fits and beats the best so far; false when the buffer does not hold all of it yet.
  bool read_answer(std::size_t& at, Update& u);
  // Offers the search's best possible objective, less the margin, as a bound when it rose.
  void raise_bound(double best_possible, Update& u);

  const Reduced& r_;
  MipModel model_;
  std::optional<Total> below_;
  Clock::time_point begin_;
  pid_t child_ = -1;
  int fd_ = -1;
  std::string buffer_;            // bytes of records not yet whole
  Total best_cost_ = kForbidden;  // of the cheapest answer received
  std::optional<Total> bound_;
  bool over_ = false, complete_ = false;
};

}  // namespace iopddl::inline v0
