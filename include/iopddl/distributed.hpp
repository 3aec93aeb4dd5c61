// Distributed runs as the command line (or any driver) sees them: whether this build has
// MPI, one session object per process, and the distributed solve over the session's
// processes. Builds without MPI have the same interface: no session ever starts, and
// launched_by_mpi() is false, so the distributed solve is never reached.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/solve.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

// Whether this binary was built with the MPI layer (IOPDDL_WITH_MPI).
bool built_with_mpi();
// True when this process was started by mpirun/srun (always false without MPI).
bool launched_by_mpi();

// MPI for the lifetime of the object: initialised (threads funneled: only the main thread
// calls MPI) when `start` is true, finalised by the destructor. Signals that the caller
// blocks before creating it stay blocked in MPI's own threads.
class MpiSession {
 public:
  explicit MpiSession(bool start);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  bool active() const { return active_; }
  int rank() const { return rank_; }
  int size() const { return size_; }  // processes in the session (1 when inactive)
  // Collective over the session's processes (each returns `value` when inactive):
  // rank 0's exit status for every rank, and whether `ok` holds on every rank.
  int agree_status(int status) const;
  bool all(bool ok) const;
  int from_rank0(int value) const;  // rank 0's `value` for every rank
  // Rank 0's `problem` for every rank (collective; the others' is replaced): so that one
  // process reads the file, not every rank of a job on a shared file system. Returns the
  // bytes each rank received (0 when inactive).
  std::size_t share_problem(Problem& problem) const;
  // Ends every process of the job with `status` (MPI_Abort; mpirun then exits with it).
  // For the watchdog, when the ranks cannot reach a collective end: callable from any
  // thread. Does nothing when inactive or finalised.
  void abort(int status) const;
  // MPI_Finalize now rather than in the destructor (once; the destructor then does nothing).
  void finalize();

 private:
  bool active_ = false;
  int rank_ = 0;
  int size_ = 1;
  std::atomic<bool> finalized_{false};
};

// The distributed solve over every process of `session` (see src/mpi/distributed.hpp).
// Throws InputError for a bad --resume file; `checkpoint_error` (if given) holds why the
// last checkpoint could not be written ("" once one is). Needs an active session.
SolveResult solve_distributed(const MpiSession& session, const Problem& problem,
                              const SolverOptions& options, const DistributedOptions& distributed,
                              StopControl& stop, IncumbentStore& store, Log& log,
                              std::atomic<bool>& checkpoint_request,
                              std::string* checkpoint_error = nullptr);

// `iopddl bound` over every process of `session`: one region of the reduced graph per
// process, the multipliers owned and stepped by rank 0, whose `store` gets the bound (see
// src/mpi/coordinator.hpp); as solve_bound otherwise, without its proof searches. Needs an
// active session.
BoundOutcome bound_distributed(const MpiSession& session, const Problem& problem,
                               const SolverOptions& options, std::uint64_t max_steps,
                               StopControl& stop, IncumbentStore& store, Log& log);

// Checkpoints outside the distributed loop (a run without mpirun, the end of every run, a
// signal): puts the incumbent into the checkpoint at `path` unless one of this instance at
// least as good is there, and the certified `bound` when higher (see src/mpi/checkpoint.hpp).
// Returns whether it wrote; throws OutputError naming the file. Builds without MPI have no
// checkpoints: it does nothing there.
bool refresh_checkpoint(const Problem& problem, const std::string& path,
                        const std::vector<Strategy>& incumbent, Total cost,
                        std::optional<Total> bound, double elapsed);

// What a run without mpirun resumes from (--resume): the checkpoint's incumbent and
// certified bound. Throws InputError for a checkpoint of another instance or a corrupt one.
struct ResumePoint {
  std::vector<Strategy> assignment;  // empty: none
  std::optional<Total> bound;
  double elapsed = 0;
};
ResumePoint read_resume_point(const Problem& problem, const std::string& path);

}  // namespace iopddl::inline v0
