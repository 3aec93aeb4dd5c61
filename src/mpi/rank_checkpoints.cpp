#include "rank_checkpoints.hpp"

#include "../coordinator/decisions.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"

namespace iopddl::inline v0::mpi {
namespace {

// Rank 0's checkpoint; a failed write is reported and the run goes on.
void write_checkpoint(Checkpoint c, const std::string& path, const IncumbentStore& store, Log& log,
                      std::string* checkpoint_error) {
  auto [a, has] = store.snapshot();
  if (has) {
    c.assignment = a;
    c.cost = to_string(store.cost());
  }
  try {
    save_checkpoint(c, path);
    log.info("checkpoint written to %s", path.c_str());
    if (checkpoint_error) checkpoint_error->clear();
  } catch (const OutputError& e) {  // a full or lost disk must not cost the run
    std::fprintf(stderr, "warning: checkpoint not written: %s\n", e.what());
    if (checkpoint_error) *checkpoint_error = e.what();
  }
}

// Rank 0's checkpoint after a phase: the incumbent (added when written), the portfolio's
// memory prices, the certified bound and the coordinator's multipliers, so that a resumed
// run continues the ascent.
Checkpoint phase_checkpoint(const Problem& p, std::uint64_t print,
                            const std::vector<double>& prices, const IncumbentStore& store,
                            const BoundRounds* bounds, const Portfolio* portfolio,
                            std::uint64_t seed, double elapsed, std::uint64_t rounds) {
  Checkpoint c;
  c.fingerprint = print;
  c.instance = p.name();
  c.prices = prices;
  if (store.bound()) c.lower_bound = to_string(*store.bound());
  if (bounds) {
    c.bound_multipliers = bounds->coordinator.ascent().memory();
    c.agreement_multipliers = bounds->coordinator.ascent().agreement();
  } else if (portfolio) {
    c.bound_multipliers = portfolio->bound_multipliers();
  }
  c.seed = seed;
  c.elapsed = elapsed;
  c.rounds = rounds;
  return c;
}

}  // namespace

// A checkpoint to resume from, refused before anything else if it is of another instance.
std::optional<Checkpoint> load_resume(const Problem& p, const DistributedOptions& d,
                                      std::uint64_t print) {
  if (d.resume_path.empty()) return std::nullopt;
  Checkpoint resume = load_checkpoint(d.resume_path);
  if (resume.fingerprint != print)
    throw InputError(d.resume_path + ": checkpoint of another instance (\"" + resume.instance +
                     "\"), not of \"" + p.name() + "\"");
  return resume;
}

// The checkpoint's incumbent (if it fits) and its multipliers go to the portfolio.
void apply_resume(const Checkpoint& resume, const DistributedOptions& d, const Problem& p,
                  const Reduced& r, Portfolio& portfolio, BoundRounds* bounds,
                  IncumbentStore& store, Log& log) {
  if (!resume.assignment.empty()) {
    std::vector<Strategy> x;
    Evaluation e = evaluate(p, resume.assignment);
    if (!e.valid || !r.contract(resume.assignment, x))
      throw InputError(d.resume_path + ": checkpoint assignment does not fit the instance");
    if (e.feasible) {
      store.offer(resume.assignment, e.cost, "checkpoint");
      portfolio.adopt(x, e.cost);
    }
    log.info("resumed from %s: cost %s after %.1f s", d.resume_path.c_str(),
             to_string(e.cost).c_str(), resume.elapsed);
  }
  portfolio.set_prices(resume.prices);
  if (bounds) {  // a checkpoint of another number of ranks has other agreement multipliers
    bounds->coordinator.ascent().set_memory(resume.bound_multipliers);
    bounds->coordinator.ascent().set_agreement(resume.agreement_multipliers);
  } else {
    portfolio.set_bound_multipliers(resume.bound_multipliers);
  }
  if (const std::optional<Total> bound = parse_total(resume.lower_bound)) {
    store.offer_bound(*bound, "checkpoint");  // certified by the run that wrote it
    log.info("resumed the certified bound %s", to_string(*bound).c_str());
  }
}

void Checkpoints::operator()(bool want_stop, std::uint64_t epoch, const std::vector<double>& prices,
                             bool running) {
  const bool configured = !d.checkpoint_path.empty();
  const bool requested = request.exchange(false);
  if (!coordinator::checkpoint_due({configured, d.checkpoint_seconds}, stop.elapsed(), last,
                                   requested, want_stop))
    return;
  Checkpoint c = phase_checkpoint(p, print, prices, store, bounds, running ? nullptr : portfolio,
                                  seed, stop.elapsed(), epoch + 1);
  last = stop.elapsed();
  write_checkpoint(std::move(c), configured ? d.checkpoint_path : d.signal_checkpoint_path, store,
                   log, error);
}

}  // namespace iopddl::inline v0::mpi
