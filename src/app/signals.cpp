#include "signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>

#include "iopddl/distributed.hpp"

namespace iopddl::inline v0::app {

sigset_t block_stop_signals(bool with_usr1, sigset_t* previous) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);  // a closed terminal or ssh session: the answer is printed all the same
  if (with_usr1) sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, previous);
  return set;
}

// About 85 ms per GiB resident on this kind of machine (measured with a child that touches
// 0.5-4 GiB and exits), rounded up to 0.1 s per GiB.
double teardown_seconds() {
  long pages = 0, resident = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return 0.1 * static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         static_cast<double>(1ull << 30);
}

namespace {

// The watchdog: a run whose main thread has not printed its final line by `deadline` (a
// phase that overran: a huge input, a pipe that never delivers, a presolve that outgrew
// its share) prints the best solution so far from here and exits, so that `iopddl FILE T`
// ends before T whatever the input. Only a run that overruns gets here.
//
// Under MPI only rank 0 acts: it prints, then ends the whole job with MPI_Abort and the
// status of what it printed (mpirun exits with that status), since ranks stuck apart can
// no longer reach the collective end; the other ranks wait for it. A rank 0 that already
// printed gives its main thread a quarter of the margin to agree and finalise first.
[[noreturn]] void watchdog_fires(Run* run, Clock::duration grace) {
  run->stop.request_stop();
  const bool mpi = run->session != nullptr;
  if (run->rank != 0)
    for (;;) pause();
  const Printed printed = print_final(*run, "the time limit was reached before the run could end");
  if (printed == Printed::kAlready && !mpi)  // the main thread is past the final line
    for (;;) pause();
  if (printed == Printed::kAlready) std::this_thread::sleep_for(grace);
  int status = printed == Printed::kSolution ? kExitOk : kExitNoSolution;
  if (printed == Printed::kAlready)
    status = run->final_status >= 0 ? run->final_status.load()
                                    : (run->print.solution ? kExitOk : kExitNoSolution);
  std::fflush(stdout);
  if (mpi) run->session->abort(status);
  _exit(status);
}

// A stop signal: print the best solution so far and exit 128+sig.
[[noreturn]] void stopped_by(Run* run, int sig) {
  run->stop.request_stop();
  if (run->rank != 0) {
    // mpirun tears the whole job down when one rank exits: give rank 0 time to print and
    // leave first.
    std::this_thread::sleep_for(std::chrono::seconds(1));
    _exit(128 + sig);
  }
  run->log.info("stopped by signal %d: printing the best solution so far", sig);
  print_final(*run);
  std::fflush(stdout);
  // After printing (mpirun may kill the job soon): a checkpointed run keeps what it printed.
  if (!run->settings.distributed.checkpoint_path.empty() && run->problem) {
    const auto [a, has] = run->store.snapshot();
    try {
      if (has)
        refresh_checkpoint(*run->problem, run->settings.distributed.checkpoint_path, a,
                           run->store.cost(), run->store.bound(), run->stop.elapsed());
    } catch (const OutputError& e) {  // the answer is out; the checkpoint stays as it was
      std::fprintf(stderr, "warning: checkpoint not written: %s\n", e.what());
    }
  }
  _exit(128 + sig);
}

void signal_thread(Run* run, sigset_t set, Clock::time_point deadline, Clock::duration grace) {
  int sig = 0;
  for (;;) {
    if (deadline == Clock::time_point::max()) {
      if (sigwait(&set, &sig) != 0) return;
    } else {
      // Wakes every 20 ms: the deadline moves earlier as the process grows, since the
      // kernel frees its memory before the run counts as ended.
      const auto fire = deadline - std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(teardown_seconds()));
      const auto left = std::clamp(fire - Clock::now(), Clock::duration::zero(),
                                   Clock::duration(std::chrono::milliseconds(20)));
      if (left == Clock::duration::zero()) watchdog_fires(run, grace);
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      const timespec wait{0, static_cast<long>(ns)};
      sig = sigtimedwait(&set, nullptr, &wait);
      if (sig < 0) continue;  // EAGAIN (time to look again) or EINTR
    }
    if (sig != SIGUSR1) stopped_by(run, sig);
    run->checkpoint_request = true;  // written by the checkpoints' thread, or the loop's rank 0
    run->log.info("SIGUSR1: a checkpoint will be written");
  }
}

}  // namespace

void start_signal_thread(Run& run, sigset_t set, Clock::time_point deadline,
                         Clock::duration grace) {
  std::thread(signal_thread, &run, set, deadline, grace).detach();
}

}  // namespace iopddl::inline v0::app
