#include "solve_options.hpp"

#include <limits>

namespace iopddl::inline v0::app {

namespace {

constexpr double kAny = std::numeric_limits<double>::max();
constexpr int kMaxInt = std::numeric_limits<int>::max();
constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

// The budget and the progress lines (solve and bound).
void describe_budget(OptionTable& t, RunSettings& s) {
  t.number("time-limit", "Seconds from process start (0: run until the search ends)", s.time_limit,
           0, kAny, "a finite number of seconds");
  t.short_name("time-limit", "-t");
  t.flag("quiet", "No progress lines", s.quiet);
  t.short_name("quiet", "-q");
}

void describe_run(OptionTable& t, RunSettings& s) {
  SolverOptions& o = s.solver;
  describe_budget(t, s);
  t.flag("stats",
         "Report what each neighbourhood of the polish cost and gained (progress lines; the "
         "JSON result always has them)",
         s.stats);
  t.unsigned_integer("seed", "Seed of every random choice", o.seed, 0, kMax64);
  t.integer("threads",
            "Worker threads (0: one per core; under MPI, per rank, and 0 means 1; more than " +
                std::to_string(SolverOptions::kMaxThreads) + " are capped)",
            o.threads, 0, kMaxInt);
  t.integer("explorer-nice",
            "How much nicer the workers after the first run, so that they never slow the "
            "first (0: as nice as it)",
            o.explorer_nice, 0, 19);
  t.integer("polishers",
            "Timed runs: how many workers after the first polish the run's best answer "
            "whenever it improves, instead of pricing rounds of their own",
            o.polishers, 0, SolverOptions::kMaxThreads);
  t.flag("polisher-hand-over",
         "Polishers go back to pricing rounds of their own once a pricing worker has "
         "polished on stagnation",
         o.polisher_hand_over);
  t.choice("algorithm", "The solver", o.algorithm,
           {{"baseline", Algorithm::kBaseline}, {"portfolio", Algorithm::kPortfolio}});
  t.flag("deterministic",
         "Bound the search by work (--work-limit), not time: the same seed and threads (and "
         "ranks) give the same answer. --time-limit is then ignored",
         o.deterministic);
  t.flag("polish-hint",
         "Polish a feasible hint (tree blocks, exact windows) before the pricing rounds (region "
         "rounds of distributed runs do)",
         o.polish_hint);
  t.flag("improve-hint",
         "Worker 0 improves a feasible hint from the start instead of every worker adopting it "
         "(region rounds of distributed runs do)",
         o.improve_hint);
  t.unsigned_integer("work-limit",
                     "Work budget of --deterministic per worker, in millions of work units (a "
                     "unit is about one table entry or cost delta read; 250 is about a second)",
                     o.work_limit, 1, kMax64);
  t.choice(
      "pricing", "Memory prices: per input node, per time segment, or workers alternate", o.pricing,
      {{"member", Pricing::kPerMember}, {"time", Pricing::kPerTime}, {"mixed", Pricing::kMixed}});
  t.integer("stale-rounds",
            "Pricing rounds without improvement before a worker polishes its best and scatters "
            "its prices",
            o.stale_rounds, 1, kMaxInt);
  t.integer("stale-while-forbidden",
            "While a worker's best picks a forbidden entry, it also polishes every this many "
            "rounds without improvement",
            o.stale_while_forbidden, 1, kMaxInt);
}

void describe_prices(OptionTable& t, SolverOptions& o) {
  const std::string prices = "Prices (memory multipliers of the pricing rounds)";
  PriceOptions& po = o.prices;
  t.number_list("prices.scales",
                "Price levels of the workers in order, in multiples of the instance's price unit",
                po.scales, 0, kAny, prices);
  t.number("prices.raise", "Per-member pricing: an overloaded member's price is multiplied by this",
           po.raise, 1, kAny, "a number", prices);
  t.number("prices.raise-add", "... and raised by this times (1 + U[0,1))", po.raise_add, 0, kAny,
           "a number", prices);
  t.number("prices.decay", "Per-member pricing: the other members' prices are multiplied by this",
           po.decay, 0, 1, "a number", prices);
  t.number("prices.time-gain", "Per-time pricing: the subgradient step's gain", po.time_gain, 0,
           kAny, "a number", prices);
  t.number("prices.step-decay", "Per-time pricing: the step's decay per round", po.step_decay, 0, 1,
           "a number", prices);
  t.number("prices.min-step", "Per-time pricing: the smallest step", po.min_step, 0, kAny,
           "a number", prices);
  t.number("prices.scatter-step", "A stagnating worker's step after it scatters its prices",
           po.scatter_step, 0, kAny, "a number", prices);
  t.number("prices.repair-below",
           "Rounds after the first over this multiple of the limit are left to the prices",
           po.repair_below, 1, kAny, "a number", prices);
}

void describe_trws(OptionTable& t, SolverOptions& o) {
  const std::string trws = "Priced problem (TRW-S, its rounding and branch-and-bound)";
  t.integer("trws.iterations", "TRW-S iterations per pricing round", o.trws.iterations, 1, kMaxInt,
            trws);
  t.integer("trws.descent-passes", "Priced 1-opt passes on TRW-S's rounding", o.trws.descent_passes,
            0, kMaxInt, trws);
  t.number("trws.reset-share", "Share of a stagnating worker's scatters that forget the messages",
           o.trws.reset_share, 0, 1, "a share from 0 to 1", trws);
  t.unsigned_integer("trws.search-nodes",
                     "Branch-and-bound nodes per round on the priced problem, from the rounding "
                     "(0: none)",
                     o.trws.search_nodes, 0, kMax64, trws);
  t.integer("trws.search-max-groups", "... on reduced problems of at most this many groups",
            o.trws.search_max_groups, 0, kMaxInt, trws);
  t.number("trws.search-min-gain",
           "A search that lowers the energy by less than this share of it backs off (after k "
           "in a row, 2^k - 1 rounds without)",
           o.trws.search_min_gain, 0, 1, "a share from 0 to 1", trws);
}

void describe_local(OptionTable& t, SolverOptions& o) {
  const std::string local = "Local search (repair and neighbourhoods)";
  t.integer("repair.forced-moves", "Moves a greedy repair may force before it gives up",
            o.repair.forced_moves, 0, kMaxInt, local);
  t.integer("repair.max-steps", "Overloaded points a greedy repair may visit", o.repair.max_steps,
            1, kMaxInt, local);
  t.number("repair.steps-share", "... or this share of the reduced groups where that is more",
           o.repair.steps_share, 0, 1, "a share from 0 to 1", local);
  t.integer("repair.steps-per-group", "... and at most this many per reduced group (plus 100)",
            o.repair.steps_per_group, 0, kMaxInt, local);
  t.integer("compound.within-percent",
            "Compound moves on round answers within this percentage of the worker's best",
            o.compound.within_percent, 0, kMaxInt, local);
  t.integer("compound.budget", "Compound moves' work per round, in priced-network sizes",
            o.compound.budget, 0, kMaxInt, local);
  t.integer("compound.repair-moves", "Freeing moves per compound move", o.compound.repair_moves, 0,
            kMaxInt, local);
  t.integer("tree.blocks", "Tree blocks per batch on a stagnating worker's best", o.tree.blocks, 0,
            kMaxInt, local);
  t.integer("tree.blocks-while-forbidden", "The same while the best picks a forbidden entry",
            o.tree.blocks_while_forbidden, 0, kMaxInt, local);
  t.integer("tree.size", "Groups per tree block", o.tree.size, 1, kMaxInt, local);
  t.integer("tree.pricings", "Labellings per tree block (the first ignores memory)",
            o.tree.pricings, 1, kMaxInt, local);
  t.integer("tree.relief", "Groups live at an overloaded point brought into a block", o.tree.relief,
            0, kMaxInt, local);
  t.integer("lns.windows",
            "Windows per batch of exact re-solves around a stagnating worker's best (0: no "
            "large-neighbourhood search)",
            o.lns.windows, 0, kMaxInt, local);
  t.number("lns.at-forbidden", "Share of windows grown around forbidden picks while there are any",
           o.lns.at_forbidden, 0, 1, "a share from 0 to 1", local);
  t.number("lns.time-share", "Share of time windows when memory is limited", o.lns.time_share, 0, 1,
           "a share from 0 to 1", local);
  t.integer("lns.first-size", "Nodes in the first windows", o.lns.first_size, 1, kMaxInt, local);
  t.integer("lns.min-size", "Smallest window size", o.lns.min_size, 1, kMaxInt, local);
  t.integer("lns.max-size", "Largest window size", o.lns.max_size, 1, kMaxInt, local);
  t.integer("lns.node-limit", "Search nodes per window before it counts as cut off",
            o.lns.node_limit, 1, kMaxInt, local);
  t.choice("polish.schedule",
           "How a polish picks tree blocks or windows: fixed order, or by gain per second so far",
           o.polish.schedule,
           {{"fixed", PolishSchedule::kFixed}, {"payoff", PolishSchedule::kPayoff}}, local);
  t.number("polish.explore", "Payoff schedule: share of batches given to the one that pays less",
           o.polish.explore, 0, 1, "a share from 0 to 1", local);
  t.integer("crossover.passes", "Passes over the components of a crossover", o.crossover.passes, 0,
            kMaxInt, local);
}

void describe_presolve(OptionTable& t, SolverOptions& o, const std::string& group) {
  t.flag("presolve.enabled", "Exact presolve (false: every node its own group)", o.presolve.enabled,
         group);
  t.unsigned_integer("presolve.dominance-budget",
                     "Entries (and pairs) compared by the dominance test per round",
                     o.presolve.dominance_budget, 0, kMax64, group);
}

// The proof searches of the bound (exact/), in `solve` and in `iopddl bound`.
void describe_proofs(OptionTable& t, SolverOptions& o, const std::string& group) {
  t.number("exact.prove-gap",
           "Proof searches of the whole reduced problem start once the certified gap is at most "
           "this",
           o.exact.prove_gap, 0, 1, "a share from 0 to 1", group);
  t.number("exact.prove-share",
           "Above that gap, proof searches still run while their work is at most this share "
           "of the bound steps' work",
           o.exact.prove_share, 0, 1, "a share from 0 to 1", group);
  t.number("exact.prove-stalled-share",
           "Once the bound has stalled (exact.prove-stall), proof searches run while their work "
           "is at most this multiple of the bound steps' work (when more than "
           "exact.prove-share)",
           o.exact.prove_stalled_share, 0, 1000, "a multiple from 0 to 1000", group);
  t.number("exact.prove-stall",
           "The bound has stalled when it gained less than this (relative) over the last "
           "exact.prove-stall-steps steps",
           o.exact.prove_stall, 0, 1, "a share from 0 to 1", group);
  t.integer("exact.prove-stall-steps", "Steps over which exact.prove-stall is measured",
            o.exact.prove_stall_steps, 1, kMaxInt, group);
  t.integer("exact.prove-max-groups",
            "Proof searches on reduced problems of at most this many groups",
            o.exact.prove_max_groups, 0, kMaxInt, group);
  t.unsigned_integer("exact.prove-nodes",
                     "Search nodes of the first proof search, doubled each time after (0: none; "
                     "none under MPI)",
                     o.exact.prove_nodes, 0, kMax64, group);
  t.flag("exact.prove-lookahead",
         "Proof searches keep memory in their bound: strategies that no longer fit leave each "
         "open group's least cost, a knapsack per time cell, the true cost beside the priced "
         "one, and reduced-cost fixing",
         o.exact.prove_lookahead, group);
  t.unsigned_integer("exact.mip-nonzeros",
                     "Branch-and-cut by CBC (in a child process) on reduced problems whose "
                     "program has at most this many nonzeros (0: never; not in deterministic "
                     "or MPI runs)",
                     o.exact.mip_nonzeros, 0, kMax64, group);
  t.unsigned_integer("exact.mip-megabytes",
                     "Memory CBC's process may take beyond the solver's, in MB (past it, its "
                     "search ends unfinished)",
                     o.exact.mip_megabytes, 1, 1 << 20, group);
  t.integer("exact.mip-nice",
            "How much nicer CBC's process runs than the solver, so that it takes the time the "
            "workers leave (0: as nice as they)",
            o.exact.mip_nice, 0, 19, group);
  t.flag("exact.mip-pause-workers",
         "Workers after the first pause while CBC searches once the best answer is older than "
         "bound.stale-after of the run so far",
         o.exact.mip_pause_workers, group);
}

void describe_exact(OptionTable& t, SolverOptions& o) {
  const std::string exact = "Presolve and exact mode";
  describe_presolve(t, o, exact);
  t.integer("exact.max-nodes", "Exact mode on reduced problems of at most this many nodes",
            o.exact.max_nodes, 0, kMaxInt, exact);
  t.unsigned_integer("exact.dp-entries",
                     "Exact mode by dynamic programming where its tables hold at most this "
                     "many entries (0: never)",
                     o.exact.dp_entries, 0, kMax64, exact);
  t.integer("exact.search-nodes", "Search nodes of exact mode before it gives up",
            o.exact.search_nodes, 1, kMaxInt, exact);
  describe_proofs(t, o, exact);
}

// `share`: whether the bound's share of a thread is an option (not in `iopddl bound`, which
// spends the whole budget on it).
void describe_bound(OptionTable& t, SolverOptions& o, bool share) {
  const std::string bound = "Certified lower bounds (Lagrangian multipliers on memory)";
  BoundOptions& b = o.bound;
  t.number("gap-limit",
           "Stop once the certified gap (cost - bound) / cost is at most this (0: run to the "
           "limit or to a proof of optimality; --deterministic runs take it at the end only)",
           o.gap_limit, 0, 1, "a share from 0 to 1", bound);
  if (share)
    t.number("bound.share",
             "Share of one thread's time spent on the bound beside the workers; under MPI, share "
             "of the wall time spent on rounds of the distributed bound (0: no bound)",
             b.share, 0, 1, "a share from 0 to 1", bound);
  if (share) {
    t.number("bound.stale-share",
             "The bound's share of a thread once the best answer is older than "
             "bound.stale-after of the run so far (if more than bound.share; not while CBC "
             "runs)",
             b.stale_share, 0, 1, "a share from 0 to 1", bound);
    t.number("bound.stale-after",
             "The best answer's age, as a share of the run so far, from which the bound takes "
             "bound.stale-share",
             b.stale_after, 0, 1, "a share from 0 to 1", bound);
  }
  t.integer("bound.iterations", "TRW-S iterations per multiplier step", b.iterations, 1, kMaxInt,
            bound);
  t.number("bound.step", "The first Polyak step factor", b.step, 1e-9, 2, "a number", bound);
  t.integer("bound.patience", "Steps without a better bound before the step factor halves",
            b.patience, 1, kMaxInt, bound);
  t.number("bound.min-step", "Step factor below which it starts again from bound.step", b.min_step,
           1e-12, 2, "a number", bound);
  t.number("bound.target-above",
           "A step's target: the best cost, but at most this share of the bound above it",
           b.target_above, 1e-9, 1e9, "a positive number", bound);
  t.number("bound.max-copy-share",
           "Under MPI, split the bound into one region per rank only when their ghost copies "
           "are at most this share of the groups (otherwise rank 0 bounds the whole problem)",
           b.max_copy_share, 0, 1e9, "a number", bound);
  t.integer("bound.lp-every",
            "Every this many steps, the memory multipliers jump to an LP's best ones for the "
            "current messages, and no subgradient step moves them (0: subgradient steps only)",
            b.lp_every, 0, kMaxInt, bound);
  t.number("bound.lp-stall",
           "The subgradient steps take over for good once the best bound gains less than this "
           "(relative) over bound.lp-patience steps",
           b.lp_stall, 0, 1, "a share from 0 to 1", bound);
  t.integer("bound.lp-patience", "Steps over which bound.lp-stall is measured", b.lp_patience, 1,
            kMaxInt, bound);
  t.number("bound.lp-handover-step", "The first subgradient step factor once they take over",
           b.lp_handover_step, 1e-9, 2, "a number", bound);
  t.unsigned_integer("bound.lp-nonzeros",
                     "The multipliers' LP gives up past this many nonzeros (then subgradient "
                     "steps move them)",
                     b.lp_nonzeros, 1, kMax64, bound);
  t.number("bound.lp-time-share",
           "In a run bounded by time, a due LP solve waits while the solves have taken more "
           "than this share of the bound's time (1: never waits)",
           b.lp_time_share, 1e-3, 1, "a share from 0.001 to 1", bound);
  t.integer("bound.scale-bits", "Multipliers and messages are certified in units of 2^-bits",
            b.scale_bits, 0, 24, bound);
}

void describe_soft_budget(OptionTable& t, SoftBudgetOptions& o) {
  const std::string soft = "Soft budgets (requests with overbudget_coeff)";
  t.number("soft.first-share", "Share of the time for the solve at the budget itself",
           o.first_share, 0.01, 0.95, "a share from 0.01 to 0.95", soft);
  t.number("soft.top-share", "Share of the time for the solve without a limit", o.top_share, 0.01,
           0.95, "a share from 0.01 to 0.95", soft);
  t.number("soft.probe-share", "Share of the time left for each solve at a limit in between",
           o.probe_share, 0.01, 1, "a share from 0.01 to 1", soft);
  t.number("soft.min-probe-share",
           "A solve that would get less than this share of the whole time gets all that is left",
           o.min_probe_share, 0, 1, "a share from 0 to 1", soft);
  t.integer("soft.max-solves", "Solves at different limits, at most", o.max_solves, 2, kMaxInt,
            soft);
}

void describe_distributed(OptionTable& t, DistributedOptions& d) {
  // Distributed runs: read and printed by every build, used under mpirun only.
  const std::string mpi = "Distributed (used under mpirun)";
  t.number("checkpoint-interval", "Seconds between checkpoints", d.checkpoint_seconds, 1e-3, kAny,
           "a finite number of seconds", mpi);
  t.number("price-blend",
           "How far each rank moves its memory prices to the ranks' average at a "
           "synchronisation (0: keep its own, 1: take the average)",
           d.price_blend, 0, 1, "a number", mpi);
  t.choice("distributed-mode",
           "regions: rank 0 runs the whole-problem solver while the others improve regions of "
           "the incumbent, which rank 0 assembles each --distributed-region-seconds; portfolio: "
           "every rank runs the whole-problem solver, they share the best answer and, when "
           "the cut is narrow, split the bound",
           d.mode,
           {{"regions", DistributedMode::kRegions}, {"portfolio", DistributedMode::kPortfolio}},
           mpi);
  t.number("distributed.region-seconds",
           "Wall time of a round of --distributed-mode regions (its synchronisation period)",
           d.region_seconds, 1e-3, kAny, "a finite number of seconds", mpi);
  t.unsigned_integer("distributed.regions-per-rank", "Regions each rank improves in a round",
                     d.regions_per_rank, 1, 1024, mpi);
  t.unsigned_integer("distributed.max-regions",
                     "Regions per round at most (further ranks improve copies of them)",
                     d.max_regions, 2, 65536, mpi);
  t.number("distributed.region-overcommit",
           "Each region may ask for this many times its share of the memory slack (1: the "
           "regions' allowances never sum past the limit; above 1 the coordinator refuses "
           "what does not fit)",
           d.region_overcommit, 1, 1e6, "a number of at least 1", mpi);
  t.number("distributed.memory-price-step",
           "Step of the coordinator's memory prices per time segment, which price the "
           "regions' memory by how far they overbid the slack (0: no prices)",
           d.memory_price_step, 0, 1e6, "a number of at least 0", mpi);
  t.unsigned_integer("simulate-ranks",
                     "Simulate this many machines in one process: rank 0 runs the whole-problem "
                     "solver in phases of --sync-rounds, the others improve regions of the "
                     "incumbent with the same work (needs --deterministic and --threads 1 or "
                     "unset; each has the whole --work-limit)",
                     d.simulate_ranks, 0, 4096, mpi);
  t.unsigned_integer("simulate-threads",
                     "Threads that run --simulate-ranks' ranks side by side (0: one per core); "
                     "the answer is the same for every count, only the wall time changes",
                     d.simulate_threads, 0, 4096, mpi);
  t.number("sync-seconds", "Seconds between synchronisations of the MPI ranks", d.sync_seconds,
           1e-3, kAny, "a finite number of seconds", mpi);
  t.unsigned_integer("sync-rounds",
                     "Pricing rounds per worker between synchronisations of --deterministic MPI "
                     "runs",
                     d.sync_rounds, 1, kMax64, mpi);
}

}  // namespace

void describe_bound_options(OptionTable& t, RunSettings& s) {
  describe_budget(t, s);
  t.unsigned_integer("steps", "Stop after this many multiplier steps (0: at the time limit)",
                     s.bound_steps, 0, kMax64);
  describe_presolve(t, s.solver, "Presolve and proofs");
  describe_proofs(t, s.solver, "Presolve and proofs");
  describe_bound(t, s.solver, false);
}

void describe_solve_options(OptionTable& t, RunSettings& s) {
  describe_run(t, s);
  describe_prices(t, s.solver);
  describe_trws(t, s.solver);
  describe_local(t, s.solver);
  describe_exact(t, s.solver);
  describe_bound(t, s.solver, true);
  describe_soft_budget(t, s.solver.soft);
  describe_distributed(t, s.distributed);
}

void check_solve_options(const RunSettings& s) {
  const WindowOptions& w = s.solver.lns;
  if (w.min_size > w.first_size || w.first_size > w.max_size)
    throw OptionError(
        "lns.min-size, lns.first-size, lns.max-size: expected min <= first <= max, "
        "found " +
        std::to_string(w.min_size) + ", " + std::to_string(w.first_size) + ", " +
        std::to_string(w.max_size));
  if (s.distributed.simulate_ranks > 0 && !s.solver.deterministic)
    throw OptionError(
        "--simulate-ranks: needs --deterministic (simulated ranks count work, not time)");
  if (s.distributed.simulate_ranks > 0 && s.solver.threads > 1)
    throw OptionError(
        "--simulate-ranks: each simulated rank has one worker; --threads must be 1 or unset");
  if (s.solver.soft.first_share + s.solver.soft.top_share > 0.99)
    throw OptionError("soft.first-share, soft.top-share: expected a sum of at most 0.99, found " +
                      std::to_string(s.solver.soft.first_share + s.solver.soft.top_share));
  if (s.solver.prices.scales.empty())
    throw OptionError("prices.scales: expected at least one price level");
}

}  // namespace iopddl::inline v0::app
