// The public face of the MPI layer (iopddl/distributed.hpp) in builds without MPI
// (-DIOPDDL_WITH_MPI=OFF): no process is ever launched by MPI, so no session starts and the
// distributed solve is never reached; checkpoints do not exist.
#include <stdexcept>

#include "iopddl/distributed.hpp"

namespace iopddl::inline v0 {

bool built_with_mpi() {
  return false;
}

bool launched_by_mpi() {
  return false;
}

MpiSession::MpiSession(bool start) {
  if (start) throw std::logic_error("this build of iopddl has no MPI layer");
}

MpiSession::~MpiSession() = default;

int MpiSession::agree_status(int status) const {
  return status;
}

bool MpiSession::all(bool ok) const {
  return ok;
}

int MpiSession::from_rank0(int value) const {
  return value;
}

std::size_t MpiSession::share_problem(Problem&) const {
  return 0;
}

void MpiSession::abort(int) const {}

void MpiSession::finalize() {}

SolveResult solve_distributed(const MpiSession&, const Problem&, const SolverOptions&,
                              const DistributedOptions&, StopControl&, IncumbentStore&, Log&,
                              std::atomic<bool>&, std::string*) {
  throw std::logic_error("this build of iopddl has no MPI layer");
}

BoundOutcome bound_distributed(const MpiSession&, const Problem&, const SolverOptions&,
                               std::uint64_t, StopControl&, IncumbentStore&, Log&) {
  throw std::logic_error("this build of iopddl has no MPI layer");
}

bool refresh_checkpoint(const Problem&, const std::string&, const std::vector<Strategy>&, Total,
                        std::optional<Total>, double) {
  return false;
}

ResumePoint read_resume_point(const Problem&, const std::string&) {
  throw std::logic_error("this build of iopddl has no checkpoints");
}

}  // namespace iopddl::inline v0
