#include "hint.hpp"

#include "iopddl/evaluate.hpp"

namespace iopddl::inline v0 {

std::string start_from_hint(const Problem& p, const Reduced& r, const SolverOptions& o,
                            std::span<const Strategy> hint, std::optional<Total> hint_cost,
                            Portfolio& portfolio, StopControl& stop, IncumbentStore& store,
                            Log& log) {
  std::vector<Strategy> x;
  const std::vector<Strategy> a(hint.begin(), hint.end());
  std::optional<Total> start = hint_cost;
  const std::size_t moved = r.contract_nearest(a, x);
  if (moved > 0) {
    // strategies presolve removed as dominated: their nearest, re-evaluated
    log.info("the hint picks strategies that presolve removed in %zu groups: replaced", moved);
    const std::vector<Strategy> nearest = r.expand(x);
    const Evaluation e = evaluate(p, nearest);
    start = e.feasible ? std::optional<Total>(e.cost) : std::nullopt;
    if (start) store.offer(nearest, e.cost, "hint");
  }
  if (start && moved == 0 && o.improve_hint) {
    portfolio.improve(x, stop, store);  // worker 0 starts from it, better or not
    return "";
  }
  if (start) {
    portfolio.adopt(x, *start);
    if (o.polish_hint) portfolio.polish_first(stop, store);
    return "";
  }
  if (portfolio.improve(x, stop, store)) return "";
  const std::string note =
      "the hint, over the memory limit, repaired to no better than the first answer";
  log.info("%s", note.c_str());
  return note;
}

}  // namespace iopddl::inline v0
