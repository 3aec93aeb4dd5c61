#include "plain_checkpoints.hpp"

#include <chrono>
#include <cstdio>

#include "iopddl/distributed.hpp"
#include "iopddl/io.hpp"

namespace iopddl::inline v0::app {

PlainCheckpoints::PlainCheckpoints(const Problem& problem, const IncumbentStore& store,
                                   const StopControl& stop, Log& log,
                                   const DistributedOptions& options, std::atomic<bool>& request)
    : problem_(problem),
      store_(store),
      stop_(stop),
      log_(log),
      options_(options),
      request_(request),
      thread_([this] { loop(); }) {}

PlainCheckpoints::~PlainCheckpoints() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::string PlainCheckpoints::write(const std::string& path) {
  const auto [a, has] = store_.snapshot();
  if (!has) return "";
  try {
    if (refresh_checkpoint(problem_, path, a, store_.cost(), store_.bound(), stop_.elapsed()))
      log_.info("checkpoint written to %s", path.c_str());
    return "";
  } catch (const OutputError& e) {
    return e.what();
  }
}

void PlainCheckpoints::loop() {
  const bool periodic = !options_.checkpoint_path.empty();
  double last = stop_.elapsed();
  std::unique_lock lock(mutex_);
  while (!done_) {
    // SIGUSR1 is looked for every 50 ms; the period is kept to its second decimal.
    wake_.wait_for(lock, std::chrono::milliseconds(50));
    if (done_) break;
    const bool asked = request_.exchange(false);
    const bool due = periodic && stop_.elapsed() - last >= options_.checkpoint_seconds;
    if (!asked && !due) continue;
    last = stop_.elapsed();
    const std::string error =
        write(periodic ? options_.checkpoint_path : options_.signal_checkpoint_path);
    if (!error.empty())  // a full or lost disk must not cost the run
      std::fprintf(stderr, "warning: checkpoint not written: %s\n", error.c_str());
  }
}

std::string PlainCheckpoints::write_final() {
  if (options_.checkpoint_path.empty()) return "";
  std::lock_guard lock(mutex_);
  return write(options_.checkpoint_path);
}

}  // namespace iopddl::inline v0::app
