#include "worker.hpp"

#include <chrono>
#include <thread>

#include "../local/descent.hpp"
#include "../local/repair.hpp"
#include "iopddl/evaluate.hpp"

namespace iopddl::inline v0 {

// `millions` of work units (--work-limit), saturating.
std::uint64_t work_units(std::uint64_t millions) {
  constexpr std::uint64_t kMillion = 1000000;
  return millions > UINT64_MAX / kMillion ? UINT64_MAX : millions * kMillion;
}

void Worker::run(const StopControl& root, IncumbentStore& store, Log& log, std::uint64_t max_rounds,
                 Clock::time_point until, const std::function<bool()>& pause) {
  const StopControl stop(root, meter_);
  until_ = until;
  for (std::uint64_t done = 0; done < max_rounds && !stop.should_stop() && stop.now() < until;
       ++done) {
    while (pause && pause() && !stop.should_stop() && stop.now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto posted = inbox_.take();
    if (posted) adopt(posted->first, posted->second);
    if (role_.handed_over_now())
      log.info("worker %d: a pricing worker polishes now; back to pricing rounds", id_);
    if (polishing() && polish_shared(stop, store, log)) continue;
    round(stop, store, log);
  }
}

void Worker::round(const StopControl& stop, IncumbentStore& store, Log& log) {
  const bool first = progress_.rounds++ == 0;
  steps_.pricing.iterate(stop);
  // Past the deadline: leave at once (rounding, re-evaluating and re-pricing cost
  // O(size) each), except to get a first labelling.
  if (stop.should_stop() && (!first || !best_.x.empty())) return;
  std::vector<Strategy> x = steps_.pricing.labelling(stop);
  state_.assign(x);
  const bool was_feasible = state_.feasible();
  steps_.pricing.update(state_, rng_);
  // Far over the limit after the first round, leave it to the raised prices (the first
  // round is repaired whatever its excess: the worker needs a start; a polisher does not,
  // it takes answers from the store: on a generated instance of 150,000 nodes its first
  // repair took 15 s, while the bound's answer at 6 s waited for it).
  if (!was_feasible && (!first || role_.is_polisher()) && far_over()) return;
  if (!was_feasible && !greedy_repair(state_, index_, o_.repair, stop)) return;
  memory_descent(state_, rng_, stop);
  // Compound moves only on answers near the worker's best (CompoundOptions).
  if (best_.x.empty() || state_.cost() - best_.cost < best_.cost * o_.compound.within_percent / 100)
    trade(stop, rng_);
  // Stagnation is judged on what this worker found itself, not on its best: an answer
  // adopted from elsewhere (another rank) would make a price trajectory that still
  // improves look stale, and perturbing it would throw that trajectory away.
  const bool progressed = lowers(best_.own);
  const bool kept = keep_if_better(store, log, "priced");
  if (kept) best_.adopted = false;
  // A round answer that beats this worker's earlier round answers but not its best is
  // polished too: otherwise a run whose first polished rounds were poor stays in
  // their basin (seen on N at 180 s).
  if (lowers(best_.round) && !kept && progress_.polished) polish(stop, store, log);
  cross(stop, store, log);
  if (progressed) {
    progress_.stale = 0;
  } else if (++progress_.stale >= o_.stale_rounds) {
    if (shared_ != nullptr) {
      shared_->give(*this);
      if (!role_.is_polisher()) shared_->mark_stale_polish();
    }
    polish_best(stop, store, log);
    perturb();
    progress_.stale = 0;
  } else if (best_.cost >= kForbidden && progress_.stale % o_.stale_while_forbidden == 0) {
    polish_best(stop, store, log);  // prices untouched: only the bad picks are targeted
  }
}

bool Worker::polish_shared(const StopControl& stop, IncumbentStore& store, Log& log) {
  if (!store.has_solution() || !role_.take_up(store.cost())) return false;
  auto [incumbent, has] = store.snapshot();
  std::vector<Strategy> x;
  if (!has || !r_.contract(incumbent, x)) return false;
  state_.assign(x);
  if (!state_.feasible()) return false;
  // The store holds every answer this worker kept, so x is at least as cheap as its best:
  // the state is what to polish.
  adopt(state_.assignment(), state_.cost());
  progress_.polished = true;
  polish(stop, store, log);
  // A polish cut short by the end of a phase is taken up again in the next one.
  role_.polished(phase_over(stop), best_.cost);
  return true;
}

std::vector<const Neighbourhood*> Worker::neighbourhoods() const {
  std::vector<const Neighbourhood*> list;
  for (const auto& n : steps_.polish.neighbourhoods()) list.push_back(n.get());
  list.push_back(&steps_.compound);
  list.push_back(&steps_.crossover);
  return list;
}

void Worker::adopt(const std::vector<Strategy>& x, Total cost) {
  if (!best_.x.empty() && best_.cost <= cost) return;
  best_.x = x;
  best_.cost = cost;
  best_.adopted = true;
}

void Worker::post(const std::vector<Strategy>& x, Total cost) {
  inbox_.post(x, cost);
}

bool Worker::improve(const std::vector<Strategy>& x, const StopControl& stop, IncumbentStore& store,
                     Log& log) {
  state_.assign(x);
  // Far over the limit (the regions' first rounds, before the memory multipliers have
  // risen), repair takes long and ends nowhere good: 0.77 s for S's first assembly.
  if (!state_.feasible() && far_over()) return false;
  if (!state_.feasible() && !greedy_repair(state_, index_, o_.repair, stop)) return false;
  memory_descent(state_, improve_rng_,
                 stop);  // its own stream: the worker's search goes on undisturbed
  trade(stop, improve_rng_);
  if (!keep_if_better(store, log, "assembly")) return false;
  best_.adopted = true;
  return true;
}

void Worker::polish_first(const StopControl& root, IncumbentStore& store, Log& log) {
  const StopControl stop(root, meter_);
  polish_best(stop, store, log);
}

bool Worker::polishing() const {
  return role_.active();
}

bool Worker::far_over() const {
  return static_cast<double>(state_.peak()) >
         static_cast<double>(state_.limit()) * o_.prices.repair_below;
}

void Worker::polish_best(const StopControl& stop, IncumbentStore& store, Log& log) {
  if (best_.x.empty() || o_.lns.windows <= 0) return;
  progress_.polished = true;
  state_.assign(best_.x);
  polish(stop, store, log);
}

void Worker::polish(const StopControl& stop, IncumbentStore& store, Log& log) {
  if (o_.lns.windows <= 0) return;
  const NeighbourhoodContext c{state_, rng_, stop, best_.cost >= kForbidden};
  steps_.polish.run(c, {[&] { return phase_over(stop); },
                        [&] { return polishing() && store.cost() < state_.cost(); },
                        [&](const char* how) { keep_polished(store, log, how); }});
}

void Worker::cross(const StopControl& stop, IncumbentStore& store, Log& log) {
  if (!progress_.polished || best_.x.empty() || !state_.feasible() || state_.cost() <= best_.cost)
    return;
  const std::vector<Strategy> donor = state_.assignment();
  state_.assign(best_.x);
  NeighbourhoodContext c{state_, rng_, stop};
  c.donor = &donor;
  if (steps_.crossover.run(c) == 0) return;
  memory_descent(state_, rng_, stop);
  keep_polished(store, log, steps_.crossover.name());
}

void Worker::perturb() {
  steps_.pricing.scatter(rng_);
}

void Worker::trade(const StopControl& stop, Rng& rng) {
  std::uint64_t budget =
      static_cast<std::uint64_t>(o_.compound.budget) * steps_.pricing.table_size();
  while (!stop.should_stop() && budget > 0) {
    NeighbourhoodContext c{state_, rng, stop};
    c.budget = budget;
    const int kept = steps_.compound.run(c);
    budget -= std::min(budget, steps_.compound.work());
    if (kept == 0) break;
    memory_descent(state_, rng, stop);
  }
}

bool Worker::keep_if_better(IncumbentStore& store, Log& log, const char* how) {
  if (!state_.feasible() || (!best_.x.empty() && state_.cost() >= best_.cost)) return false;
  best_.cost = state_.cost();
  best_.x = state_.assignment();
  offer(store, log, how);
  if (shared_ != nullptr) shared_->publish(best_.x, best_.cost);
  return true;
}

bool Worker::lowers(Total& mark) const {
  if (!state_.feasible() || (mark >= 0 && state_.cost() >= mark)) return false;
  mark = state_.cost();
  return true;
}

void Worker::keep_polished(IncumbentStore& store, Log& log, const char* how) {
  if (keep_if_better(store, log, how) && !best_.adopted) best_.own = best_.cost;
}

void Worker::offer(IncumbentStore& store, Log& log, const char* how) {
  std::vector<Strategy> a = r_.expand(best_.x);
  Evaluation e = evaluate(r_.original(), a);
  if (!e.feasible) return;  // cannot happen: the state tracks usage exactly
  if (!store.offer(a, e.cost, std::string(how) + "-" + std::to_string(id_))) return;
  if (const auto gap = store.gap())
    log.info("worker %d (%s): cost %s, gap %.4f%%", id_, how, to_string(e.cost).c_str(),
             100 * *gap);
  else
    log.info("worker %d (%s): cost %s", id_, how, to_string(e.cost).c_str());
}

}  // namespace iopddl::inline v0
