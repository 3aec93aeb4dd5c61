// The public face of the MPI layer (iopddl/distributed.hpp) in builds with MPI.
#include <mpi.h>

#include "checkpoint.hpp"
#include "distributed.hpp"
#include "distributed_bound.hpp"
#include "iopddl/distributed.hpp"
#include "problem_transfer.hpp"

namespace iopddl::inline v0 {

bool built_with_mpi() {
  return true;
}

bool launched_by_mpi() {
  return mpi::launched_by_mpi();
}

MpiSession::MpiSession(bool start) {
  if (!start) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  active_ = true;
}

MpiSession::~MpiSession() {
  finalize();
}

void MpiSession::finalize() {
  if (active_ && !finalized_.exchange(true)) MPI_Finalize();
}

int MpiSession::agree_status(int status) const {
  return from_rank0(status);
}

int MpiSession::from_rank0(int value) const {
  if (active_) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

bool MpiSession::all(bool ok) const {
  int value = ok ? 1 : 0;
  if (active_) MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return value != 0;
}

std::size_t MpiSession::share_problem(Problem& problem) const {
  return active_ ? ProblemTransfer::broadcast(problem, 0, MPI_COMM_WORLD) : 0;
}

void MpiSession::abort(int status) const {
  if (active_ && !finalized_) MPI_Abort(MPI_COMM_WORLD, status);
}

SolveResult solve_distributed(const MpiSession& session, const Problem& problem,
                              const SolverOptions& options, const DistributedOptions& distributed,
                              StopControl& stop, IncumbentStore& store, Log& log,
                              std::atomic<bool>& checkpoint_request,
                              std::string* checkpoint_error) {
  if (!session.active()) throw std::logic_error("solve_distributed without an MPI session");
  // The session spans every process: the world communicator is its communicator.
  return mpi::solve_distributed(problem, options, distributed, MPI_COMM_WORLD, stop, store, log,
                                checkpoint_request, checkpoint_error);
}

BoundOutcome bound_distributed(const MpiSession& session, const Problem& problem,
                               const SolverOptions& options, std::uint64_t max_steps,
                               StopControl& stop, IncumbentStore& store, Log& log) {
  if (!session.active()) throw std::logic_error("bound_distributed without an MPI session");
  return mpi::bound_distributed(problem, options, max_steps, MPI_COMM_WORLD, stop, store, log);
}

bool refresh_checkpoint(const Problem& problem, const std::string& path,
                        const std::vector<Strategy>& incumbent, Total cost,
                        std::optional<Total> bound, double elapsed) {
  return mpi::refresh_checkpoint(problem, path, incumbent, cost, bound, elapsed);
}

ResumePoint read_resume_point(const Problem& problem, const std::string& path) {
  return mpi::read_resume_point(problem, path);
}

}  // namespace iopddl::inline v0
