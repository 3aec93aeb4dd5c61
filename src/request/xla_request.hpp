// XLA's auto-sharding solver request (proto/auto_sharding_request.proto) as a Problem, and
// a Problem as a request: reading binary or text-format files, the conversion both ways,
// and the answer in the request's terms (read_request.cpp, convert_request.cpp,
// write_request.cpp, answer.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "../sweep/soft_budget.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0 {

// A request converted to a Problem, with what it takes to answer it in its own terms.
//  - Node v of the problem is node v of the request; time t is the request's step t.
//  - Node costs are computation + communication costs; usages are memory costs. Costs at
//    or above 10^18 (or infinite) are forbidden; the others are integers as given, or,
//    where any is fractional, multiplied by `cost_scale` (a power of two) and rounded.
//  - Each resharding table is shifted by its minimum (XLA emits a few negative entries):
//    a request's cost is (the problem's cost + `offset`) / `cost_scale`.
//  - s_follow[i] = j becomes an edge i-j with 0 on the diagonal and 10^18 elsewhere; an
//    alias becomes an edge whose entries are value_costs x 10^18.
//  - A hard budget is the usage limit. A soft one (overbudget_coeff set) has no hard limit:
//    soft_budget() gives what solve_soft_budget weighs. The problem's usage limit is then
//    the budget when the least-memory assignment meets it, and that assignment's peak
//    otherwise (the least any answer can reach): what a solve that cannot weigh overruns
//    (a distributed run, contest JSON) answers at.
struct XlaRequest {
  Problem problem;  // (moved out by read_input_file)
  std::string name;
  double offset = 0;              // request cost = (problem cost + offset) / cost_scale
  double cost_scale = 1;          // problem cost = request cost x cost_scale, rounded
  double max_rounding_error = 0;  // the largest relative error that rounding made in a cost
  std::optional<Usage> budget;    // memory_budget when positive
  std::optional<double> overbudget_coeff;
  std::vector<Strategy> hint;      // s_hint, when it has one entry per node
  std::optional<double> max_cost;  // in the request's units
  std::optional<double> timeout_seconds;
  bool deterministic = false;
  // Fields set that iopddl does not use, by name: those that do not change the answer, and,
  // with RequestOptions::ignore_unsupported_fields, those that would.
  std::vector<std::string> ignored;
};

// How a request is read. A field that would change the problem (the objective or the
// constraints) but that iopddl does not implement, or one this version does not know, makes
// the request refused by name, unless `ignore_unsupported_fields`: then the problem is
// solved without it and the field is named in XlaRequest::ignored.
struct RequestOptions {
  bool ignore_unsupported_fields = false;
  // Costs multiplied by this before they are rounded, instead of the scale chosen from the
  // costs (see XlaRequest); a cost it would take to 10^18 or more refuses the request.
  std::optional<double> cost_scale;
};

// A request's number as a message shows it: shortest exact form ("2.5", "-4.3e+300").
std::string request_number(double x);

// Whether `bytes` hold a request rather than contest JSON: anything whose first
// non-blank byte is not '{'.
bool is_request(const FileBytes& bytes);

// Reads a request file: text format when it is all printable text, binary otherwise.
// Throws InputError naming the file and the offending field.
XlaRequest read_request(const std::string& path, const FileBytes& bytes,
                        const RequestOptions& options = {});

// Reads contest JSON (plain or gzipped) or a request, told apart by content. For a request,
// `request` (when not null) receives the rest of it; its `problem` is moved into the result.
Problem read_input_file(const std::string& path, const StopControl* stop,
                        std::optional<XlaRequest>* request, const RequestOptions& options = {});

// `problem` as a request (followers and aliases recovered from 10^18 patterns, parallel
// edges summed), serialized in text format or binary.
std::string write_request(const Problem& problem, bool text);

// The answer to a request, in its terms (see the result message of the .proto).
struct RequestAnswer {
  SolveStatus status = SolveStatus::kNoSolution;
  std::vector<Strategy> s_val;
  double cost = 0;  // offset and penalty included
  double overbudget_cost = 0;
  Total peak_usage = 0;
  std::vector<std::int64_t> peak_times;
  std::optional<double> lower_bound;
  std::string message;
};
// The soft budget of a request in the problem's cost units (coeff x cost_scale), when it
// has one (a memory_budget and an overbudget_coeff).
std::optional<SoftBudget> soft_budget(const XlaRequest& request);

// How a soft budget was solved: with overruns weighed against cost (solve_soft_budget),
// and then the certified bound on cost + penalty in the problem's units, when known.
struct OverrunWeighing {
  std::optional<long double> bound;
};

// A solve's answer (`assignment`, when `has_assignment`) to the request's `problem`, in the
// request's terms: max_cost, the soft budget's penalty, the shifts undone. `bound` bounds
// the problem's cost; for a soft budget, `weighed` says whether overruns were weighed (else
// the answer was found under the problem's hard limit, and neither a proof nor a bound of
// that holds for the request).
RequestAnswer answer_request(const XlaRequest& request, const Problem& problem, SolveStatus status,
                             const std::vector<Strategy>& assignment, bool has_assignment,
                             std::optional<Total> bound,
                             const std::optional<OverrunWeighing>& weighed = std::nullopt);
// The answer as our result message (binary); `solve --output` writes it as JSON.
std::string answer_proto(const RequestAnswer& answer);

}  // namespace iopddl::inline v0
