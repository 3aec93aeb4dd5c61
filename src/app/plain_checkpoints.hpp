// Checkpoints of a run without mpirun (the distributed loop writes its own): the incumbent
// and the certified bound, every --checkpoint-interval seconds, at SIGUSR1 and at the end,
// from a thread of their own, so that a plain run never starts MPI for them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0::app {

class PlainCheckpoints {
 public:
  // `request` is set by the signal thread on SIGUSR1 (a checkpoint to `options.
  // checkpoint_path`, or to `options.signal_checkpoint_path` when there is none).
  PlainCheckpoints(const Problem& problem, const IncumbentStore& store, const StopControl& stop,
                   Log& log, const DistributedOptions& options, std::atomic<bool>& request);
  ~PlainCheckpoints();  // stops the thread
  PlainCheckpoints(const PlainCheckpoints&) = delete;
  PlainCheckpoints& operator=(const PlainCheckpoints&) = delete;

  // The final checkpoint (with --checkpoint): "" once written, else why it could not be.
  std::string write_final();

 private:
  void loop();
  // Writes to `path` if the store has something it lacks; "" or the error.
  std::string write(const std::string& path);

  const Problem& problem_;
  const IncumbentStore& store_;
  const StopControl& stop_;
  Log& log_;
  const DistributedOptions options_;
  std::atomic<bool>& request_;
  std::mutex mutex_;  // one write at a time; guards done_
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace iopddl::inline v0::app
