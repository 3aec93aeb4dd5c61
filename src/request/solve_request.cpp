// solve_request: the library's door for XLA (iopddl/request.hpp).
#include <cstdlib>
#include <cstring>

#include "../sweep/soft_budget.hpp"
#include "iopddl/request.hpp"
#include "xla_request.hpp"

namespace iopddl::inline v0 {

RequestResult solve_request(std::string_view request, const RunOptions& options,
                            bool ignore_unsupported_fields) {
  FileBytes bytes;  // (zero padding after the data, as every reader expects)
  bytes.buffer.reset(static_cast<char*>(std::calloc(request.size() + 64, 1)));
  if (!bytes.buffer) throw std::bad_alloc();
  if (!request.empty()) std::memcpy(bytes.buffer.get(), request.data(), request.size());
  bytes.size = request.size();
  RequestOptions read_options;
  read_options.ignore_unsupported_fields = ignore_unsupported_fields;
  const XlaRequest q = read_request("request", bytes, read_options);

  RunOptions o = options;
  o.solver.deterministic = o.solver.deterministic || q.deterministic;
  if (q.timeout_seconds && (!(o.time_limit > 0) || *q.timeout_seconds < o.time_limit))
    o.time_limit = *q.timeout_seconds;
  if (o.hint.empty()) o.hint = q.hint;

  RequestAnswer answer;
  if (const auto soft = soft_budget(q)) {
    const Problem free = q.problem.with_usage_limit(std::nullopt);
    StopControl stop(Clock::now(), o.solver.deterministic ? 0 : o.time_limit);
    if (o.solver.deterministic) stop.ignore_deadline();
    stop.watch(o.cancel.flag());
    IncumbentStore store(&stop);
    Log log(o.log, &stop);
    const SoftOutcome s = solve_soft_budget(free, *soft, o.solver, stop, store, log, o.hint);
    const SolveStatus status = s.proven ? SolveStatus::kOptimal
                               : s.has  ? SolveStatus::kFeasible
                                        : SolveStatus::kNoSolution;
    answer = answer_request(q, free, status, s.assignment, s.has, std::nullopt,
                            OverrunWeighing{s.bound});
  } else {
    const RunResult r = solve(q.problem, o);
    answer = answer_request(q, q.problem, r.status, r.assignment, r.has_solution(), r.bound);
  }
  RequestResult out;
  out.status = answer.status;
  out.s_val.assign(answer.s_val.begin(), answer.s_val.end());
  out.cost = answer.cost;
  out.is_optimal = answer.status == SolveStatus::kOptimal;
  out.peak_times = answer.peak_times;
  out.peak_usage = static_cast<std::int64_t>(answer.peak_usage);
  out.overbudget_cost = answer.overbudget_cost;
  out.lower_bound = answer.lower_bound;
  out.message = answer.message;
  out.response = answer_proto(answer);
  return out;
}

}  // namespace iopddl::inline v0
