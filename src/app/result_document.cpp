#include "result_document.hpp"

#include "io/json.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0::app {
namespace {

// The heaviest nodes an infeasibility report names (live_count says how many there are).
constexpr std::size_t kNamedLive = 20;

Json request_answer_document(const RequestAnswer& a) {
  Json d;
  d["status"] = status_name(a.status);
  d["s_val"] = a.s_val;
  d["cost"] = a.cost;
  d["is_optimal"] = a.status == SolveStatus::kOptimal;
  d["peak_times"] = a.peak_times;
  d["peak_usage"] = a.peak_usage;
  d["overbudget_cost"] = a.overbudget_cost;
  d["lower_bound"] = a.lower_bound ? Json(*a.lower_bound) : Json();
  d["message"] = a.message;
  return d;
}

}  // namespace

std::string result_document(Run& run, const std::vector<Strategy>& a, bool has,
                            const std::optional<RequestAnswer>& answer) {
  Json d;
  d["instance"] = run.settings.problem_path;
  d["status"] = run.end.status;
  d["assignment"] = has ? a : std::vector<Strategy>{};
  if (has && run.problem) {
    const Evaluation e = evaluate(*run.problem, a);
    d["cost"] = e.cost;
    d["peak_usage"] = e.peak_usage;
    d["feasible"] = e.feasible;
  }
  const auto limit = run.problem ? run.problem->usage_limit() : std::nullopt;
  d["usage_limit"] = limit ? Json(*limit) : Json();
  d["elapsed_seconds"] = run.stop.elapsed();
  Json& improvements = d["improvements"] = Json::array();
  for (const auto& i : run.store.history())
    improvements.push_back({{"seconds", i.seconds}, {"cost", i.cost}, {"source", i.source}});
  const auto bound = run.store.bound();
  d["lower_bound"] = bound ? Json(*bound) : Json();
  const auto gap = run.store.gap();
  d["gap"] = gap ? Json(*gap) : Json();  // (an infinite gap is written as null)
  Json& bounds = d["bounds"] = Json::array();
  for (const auto& b : run.store.bound_history())
    bounds.push_back({{"seconds", b.seconds}, {"bound", b.cost}, {"source", b.source}});
  Json& neighbourhoods = d["neighbourhoods"] = Json::array();
  for (const NeighbourhoodReport& n : run.end.neighbourhoods)
    neighbourhoods.push_back({{"name", n.name},
                              {"calls", n.calls},
                              {"improvements", n.improvements},
                              {"gain", n.gain},
                              {"seconds", n.seconds}});
  d["work_units"] = run.end.work;
  if (run.problem && run.end.solve_status == SolveStatus::kInfeasible)
    if (const auto why = explain_infeasibility(*run.problem)) {
      Json live = Json::array();
      for (std::size_t i = 0; i < why->live.size() && i < kNamedLive; ++i)
        live.push_back({{"node", why->live[i].first}, {"least_usage", why->live[i].second}});
      d["infeasibility"] = {{"least_peak", why->least_peak},
                            {"usage_limit", why->limit},
                            {"time", why->time},
                            {"live_count", why->live.size()},
                            {"live", live}};
    }
  if (answer) d["request"] = request_answer_document(*answer);
  d["settings"] = run.settings.settings_text;
  return json_line(d);
}

}  // namespace iopddl::inline v0::app
