// Solver options: nested structs with defaults. The CLI binds every field (so --help shows
// the defaults, --config reads them from TOML and --dump-config prints them), and presets
// in configs/ override a few fields by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iopddl/export.hpp"

namespace iopddl::inline v0 {

enum class Algorithm {
  kBaseline,   // least-memory start + memory-aware descent: the minimal end-to-end solver
  kPortfolio,  // the full solver core (presolve, priced optimiser, repair, local search)
};

enum class Pricing {
  kPerMember,  // one price per input node, raised while its interval is overloaded
  kPerTime,    // one price per time segment, subgradient steps on the overload
  kMixed,      // workers alternate between the two
};

// Every tuning value of the solver lives in these structs, with its default and a one-line
// reason; the measurements behind the reasons are in bench/results/tuning.csv (by key).
// The command line and config files name them as `group.key` (see `--dump-config`).

// Memory prices of the pricing rounds.
struct IOPDDL_API PriceOptions {
  // Price levels of the workers, in order (worker w takes entry w mod size), in multiples of
  // the instance's price unit: instances differ in which level suits them, so the first two
  // (a 2-core run) are far apart (tuning.csv: prices.scales).
  std::vector<double> scales = {0.15, 1.0, 0.4, 3.0};
  // Per-member pricing: an overloaded member's price x raise + raise_add x (1 + U[0,1)), the
  // others' x decay; smoother trajectories were worse on N (tuning.csv: prices.raise).
  double raise = 1.2;
  double raise_add = 0.1;
  double decay = 0.9;
  // Per-time pricing: subgradient step gain x step on the relative overload; the step decays
  // by step_decay per round down to min_step.
  double time_gain = 20.0;
  double step_decay = 0.97;
  double min_step = 0.02;
  // A stagnating worker scatters its prices (each x U[0.5, 1.5)) and resets its step to at
  // least this.
  double scatter_step = 0.3;
  // After the first round, a labelling over limit x this is left to the prices, not
  // repaired: far over the limit, greedy repair takes very many moves and ends nowhere good.
  double repair_below = 1.5;
};

// TRW-S message passing on the priced problem, and the rounding that follows it.
struct IOPDDL_API MessagePassingOptions {
  // Iterations per pricing round: around N's hubs messages converge slowly and a labelling
  // rounded from half-converged ones is far from the priced optimum (tuning.csv: trws.iterations).
  int iterations = 6;
  // Priced 1-opt passes on the rounding (tuning.csv: trws.descent-passes).
  int descent_passes = 10;
  // Share of a stagnating worker's scatters that also forget the messages (a fresh start
  // of message passing half of the time: the rest keep what the messages learnt).
  double reset_share = 0.5;
  // Branch-and-bound on the priced problem from the rounding (exact/priced_search.hpp), at
  // most search_nodes nodes per round (0: never): on D's core the priced optimum was 3-16 %
  // below the rounding after 1-opt, and 10,000 nodes took every seed below the best cost
  // known at 20 s (tuning.csv: trws.search-nodes). Only on reduced problems of at most
  // search_max_groups groups: each search node scans the groups, and the largest measured
  // were generated cores of 1,052 and 1,840 groups (level); with the gate raised, M and S
  // (5,403 and 6,500 groups) were 0.02-0.03 % worse at 20 s (tuning.csv).
  std::uint64_t search_nodes = 10000;
  int search_max_groups = 2000;
  // A call that lowers the energy by less than this share of it has not paid: after k such
  // calls in a row a worker's next 2^k - 1 rounds go without (tuning.csv: trws.search-min-gain).
  double search_min_gain = 1e-3;
};

// Greedy repair at the first overloaded time point.
struct IOPDDL_API RepairOptions {
  // Moves it may force (raising the peak elsewhere) before it gives up: a repair that
  // keeps forcing goes round in circles, far over the limit in the first rounds.
  int forced_moves = 200;
  // Overloaded points it may visit (first rounds on the shared instances visit 22-923), or
  // this share of the reduced groups where that is more: the moves a repair needs grow with
  // the instance (11,000 on a generated 1,000,000-node memory instance from 1.4 x the
  // limit, bench/results/repair_steps_1M.csv); and at most this many per reduced group (plus
  // 100), for small instances.
  int max_steps = 5000;
  double steps_share = 0.02;
  int steps_per_group = 4;
};

// Compound moves: an improving move that memory blocks, paid for by moves that free memory.
struct IOPDDL_API CompoundOptions {
  // Only on round answers within this percentage of the worker's best: on every round they
  // cost N too many rounds (tuning.csv: compound.within-percent).
  int within_percent = 10;
  // Work per round in multiples of the priced network's size (tuning.csv: compound.budget).
  int budget = 4;
  // Freeing moves per compound move.
  int repair_moves = 8;
};

// Tree blocks: induced trees relabelled optimally by dynamic programming.
struct IOPDDL_API TreeBlockOptions {
  // Blocks per batch on a stagnating worker's best (tuning.csv: tree.blocks).
  int blocks = 600;
  // The same while the best picks a forbidden entry: the first forbidden-free answer comes
  // sooner (tuning.csv: tree.blocks-while-forbidden).
  int blocks_while_forbidden = 100;
  // Groups per block (tuning.csv: tree.size).
  int size = 300;
  // Labellings tried per block: the first ignores memory, the others price it.
  int pricings = 6;
  // Groups live at an overloaded point brought into the block (tuning.csv: tree.relief).
  int relief = 256;
};

// Exact window re-solves (large-neighbourhood search) around a stagnating worker's best.
struct IOPDDL_API WindowOptions {
  // Windows per batch (0: no large-neighbourhood search).
  int windows = 50;
  // Share of the windows grown around forbidden picks while there are any.
  double at_forbidden = 0.8;
  // Share of time windows (nodes live at one well-filled point) when memory is limited.
  double time_share = 0.5;
  // Window sizes: the first, and the range they adapt within (grown after complete
  // searches, shrunk after cut-off ones).
  int first_size = 6;
  int min_size = 2;
  int max_size = 40;
  // Search nodes per window before it counts as cut off.
  int node_limit = 20000;
};

// How a stagnating worker's polish picks its neighbourhoods (tree blocks, exact windows).
enum class PolishSchedule {
  kFixed,   // tree blocks while they improve, then windows while they improve, again while
            // the windows improved
  kPayoff,  // the neighbourhood with the higher gain per second so far (untried first, the
            // other one at the explore rate), until both come up dry in a row
};

struct IOPDDL_API PolishOptions {
  // Payoff: no worse at 20 s anywhere, N's median at 180 s 0.99736 against 0.99756
  // (tuning.csv: polish.schedule).
  PolishSchedule schedule = PolishSchedule::kPayoff;
  double explore = 0.1;  // payoff: share of batches given to the one that pays less
};

// Partition crossover of round answers into the polished best.
struct IOPDDL_API CrossoverOptions {
  // Passes over the components (a component taken frees memory another may need).
  int passes = 3;
};

// Exact mode: complete branch-and-bound over small reduced problems.
struct IOPDDL_API ExactOptions {
  int max_nodes = 64;            // reduced nodes at most
  int search_nodes = 2'000'000;  // search nodes before it gives up
  // Exact mode by dynamic programming (bucket elimination along a min-fill order) where its
  // tables hold at most this many entries, 20 bytes each at most (0: never). Its work is
  // known before it starts, so it is a work estimate, not a size limit: the generated
  // forbidden family's cores of 190-550 groups have width 4 and need 10^4-10^5 entries
  // (tuning.csv: exact.dp-entries).
  std::uint64_t dp_entries = 1u << 22;
  // Proof search (exact/proof_search.hpp): once the certified gap is at most prove_gap, the
  // bound's thread searches the whole reduced problem (of at most prove_max_groups groups)
  // against the best bound's reparametrisation, prove_nodes search nodes the first time and
  // twice as many each time after (0: never). A search that finishes proves the best answer
  // optimal. Below a gap of 0.1 % most strategies are out of reach of a cheaper answer;
  // above it the searches on the shared instances did not finish (tuning.csv: exact.prove-gap).
  double prove_gap = 0.001;
  // Above that gap too, within this share of the bound steps' work (0: never), a search's
  // budget the unspent share: small cores whose duality gap the bound never closes are
  // proven in seconds (generated 12- and 20-group cores: at 4-6 s, not in 60 s without),
  // at 0.13 % of D's bound at 20 s (tuning.csv: exact.prove-share).
  double prove_share = 0.25;
  // Once the certified Lagrangian bound has gained less than prove_stall (relative) over
  // prove_stall_steps steps, the share is prove_stalled_share instead (when more): further
  // steps buy little, a finished search proves. 3 against 0: generated cores of 30-50
  // groups proven in 0.70 of the time (geometric mean), A, D and G level; 1 and 9 less
  // (tuning.csv: exact.prove-stalled-share).
  double prove_stalled_share = 3;
  double prove_stall = 1e-4;
  int prove_stall_steps = 50;
  int prove_max_groups = 2000;  // the reparametrised tables take 16 bytes an entry
  std::uint64_t prove_nodes = 1'000'000;
  // The proof search's memory lookahead (exact/proof_search.hpp): open groups' strategies
  // that no longer fit leave their least costs, a knapsack per time cell, the unpriced bound
  // beside the priced one, reduced-cost fixing. With the spread order, generated cores of
  // 20-40 groups are proven in 0.04-4.4 s where the static bound did not finish in 30 s
  // (bench/results/proof_lookahead*.csv, proof_order.csv).
  bool prove_lookahead = true;
  // Branch-and-cut by CBC (exact/cbc_search.hpp) on reduced problems whose program has at
  // most this many nonzeros (0: never), from the bound's first step to the end or the
  // proof, in a timed run. CBC takes about 0.3-1 KB a nonzero: G has 167,341 and is proven
  // within its limit; A and D (6.7 and 9.2 million) gain nothing at 20 s and would take
  // 650 MB more (bench/results/cbc_20s.csv).
  std::uint64_t mip_nonzeros = 250'000;
  // CBC's memory beyond the solver's, in MB: past it the search ends unfinished (G's
  // proof at 85 s had taken 240 MB).
  std::uint64_t mip_megabytes = 512;
  // CBC's process runs this much nicer than the solver (0-19), so that it takes the cores
  // the workers leave idle rather than theirs (bench/results/cbc_nice.csv).
  int mip_nice = 10;
  // Once the best answer is older than bound.stale_after of the run so far, the workers
  // after the first pause while CBC searches, so that its child has a core to itself: the
  // workers' time then buys less than the proof's (G at 120 s, seeds 1-3: proven at 13.9 /
  // 29.7 / 13.7 s against 62.9 / 68.5 / 55.8 s; a generated core of 100 groups at 20 s:
  // median cost equal; bench/results/cbc_pause_workers*.csv).
  bool mip_pause_workers = true;
};

// Certified lower bounds: Lagrangian multipliers on memory per time segment, the priced
// problem bounded by TRW-S, certified in exact integer arithmetic.
struct IOPDDL_API BoundOptions {
  // Share of one thread's time the portfolio gives the bound (0: none; 1: a thread of its
  // own beside the workers). 0.3 lifts the 20-s bound on A from 0.90 to 0.99 of the best
  // cost at a cost within noise (tuning.csv: bound.share).
  double share = 0.3;
  // Once the best answer is older than stale_after of the run so far, the bound takes
  // stale_share of a thread instead (if more than share): the workers' time then buys
  // less than the bound's (not while CBC runs). Off (equal to share): 1 lifts S's bound
  // at its limit from 0.99981 to 0.99985 but N's 20-s cost from 1.0042 to 1.0058 of the
  // best known, medians of 6 seeds (stale_share_cbc.csv).
  double stale_share = 0.3;
  double stale_after = 0.5;
  // TRW-S iterations per multiplier step (warm-started): one gives twice the steps, and
  // the steps are what the bound needs (20 s, seeds 1-3, medians: M 0.801 to 0.927, S 0.830
  // to 0.900, N 0.821 to 0.859 of the best cost; tuning.csv: bound.iterations).
  int iterations = 1;
  double step = 1.0;       // the first Polyak step factor (towards the best cost known)
  int patience = 4;        // steps without a better bound before the factor halves
  double min_step = 1e-3;  // where it stops halving and starts again from `step`
  int scale_bits = 24;     // multipliers and messages are certified in units of 2^-bits
  // The step's target is the best cost known, but at most this share of the bound above
  // it: a first answer with forbidden picks (M) otherwise throws the multipliers far off
  // (tuning.csv: bound.target-above).
  double target_above = 0.5;
  // Under MPI the bound is split into one region per rank only when their ghost copies
  // are at most this share of the groups; otherwise rank 0 bounds the whole problem. A
  // wider cut weakens the regions' bound (2 regions, 60-100 steps, against one: G with
  // 10 % copies 0.66, N 6.7 % 0.958, M 24 % 0.981; tuning.csv: bound.max-copy-share).
  double max_copy_share = 0.01;
  // Every this many steps the memory multipliers jump to the best ones for the current
  // messages, by an LP (lagrange/memory_lp.hpp), and the subgradient steps stop moving them
  // (0: subgradient steps only). Measured by steps in bench/results/memory_lp_steps.csv.
  int lp_every = 5;
  // The subgradient steps take over for good once the best bound gains less than lp_stall
  // (relative) over lp_patience steps: coordinate ascent stalls where they still climb.
  double lp_stall = 1e-3;
  int lp_patience = 20;
  // Their first step factor then: bound.step (1) threw M's bound from 0.98 of the best cost
  // to -1.6 and 300 more steps never came back; 0.1 took it to 0.9975 by step 600.
  double lp_handover_step = 0.1;
  // The LP gives up (and the subgradient steps take over) past this many nonzeros, one per
  // group strategy and one per strategy in each memory row: CLP takes about 25 bytes per
  // nonzero, so 10M keep it near 250 MB.
  std::uint64_t lp_nonzeros = 10'000'000;
  // In a run bounded by time, a due LP solve waits while the solves have taken more than
  // this share of the bound's time (1: never waits). Runs bounded by steps or work keep
  // the cadence in steps, so that they stay reproducible. No cap: at 20 s a cap of 0.25
  // lifts N and M's bounds by 0.3-0.7 % and lowers S's by 4.7 % (lp_time_share_20s.csv).
  double lp_time_share = 1.0;
};

// Exact presolve.
struct IOPDDL_API PresolveOptions {
  // false: the identity grouping only (every node its own group; for tests and debugging).
  bool enabled = true;
  // Entries (and, separately, strategy pairs) compared by the dominance test per round:
  // about a second on the largest inputs.
  std::uint64_t dominance_budget = 200'000'000;
};

// Soft memory budgets (an XLA request's overbudget_coeff): the cost plus the coefficient
// times the peak's overrun is minimised by solves at several hard limits (src/sweep/).
struct IOPDDL_API SoftBudgetOptions {
  // The first solve, at the budget itself (or the least peak, when no answer meets it),
  // takes this share of the time: it is the answer a hard budget would give, and the
  // others start from it (bench/results/soft_budget.csv).
  double first_share = 0.4;
  // Then one solve without any limit: the cheapest answer and its peak end the range.
  double top_share = 0.15;
  // Each further solve takes this share of the time left (those proven optimal end early).
  double probe_share = 0.34;
  // A solve shorter than this share of the whole time would rarely find anything: the
  // solve that would be given less takes all that is left instead.
  double min_probe_share = 0.05;
  // Solves in all, at most (what bounds a --deterministic soft run).
  int max_solves = 24;
};

struct IOPDDL_API SolverOptions {
  // More worker threads than this are capped (each holds a copy of the priced problem).
  static constexpr int kMaxThreads = 64;
  Algorithm algorithm = Algorithm::kPortfolio;
  std::uint64_t seed = 1;
  int threads = 0;  // 0: the machine's cores
  // Workers after the first run this much nicer (Linux), so that they and the bound thread
  // never slow worker 0, which has a one-thread run's price level: on N at 20 s (2 cores,
  // seeds 1-3) 2 threads went from 1.130 / 1.240 / 1.194 to 1.130 / 1.053 / 1.070, with
  // 1 thread at 1.059 / 1.079 / 1.070, and A, M, S level (tuning.csv: explorer-nice).
  int explorer_nice = 5;
  // In timed runs, this many of the workers after the first are polishers: they polish
  // the run's best answer whenever it improves (tree blocks, exact windows), and
  // price rounds of their own only when there is nothing new to polish. On N at 20 s no
  // worker polished at all; with one polisher the median of 8 seeds went from 1.097 to
  // 1.086 of the best known, the 60,000-node generated instance is cheaper on every seed,
  // A, D, G, M and S are level (tuning.csv: polishers).
  int polishers = 1;
  // A polisher goes back to pricing rounds of its own once a pricing worker of its process
  // has polished on stagnation: the run's best is polished from then on anyway, and a second
  // price trajectory gives the crossover answers from other basins. N at 180 s, seeds 1-3:
  // median 0.99941 of the best known with the polisher to the end, 0.99668 with none,
  // 0.99646 with the hand-over, which keeps the polisher's 20-s level (1.0095) (tuning.csv:
  // polisher-hand-over).
  bool polisher_hand_over = true;
  bool deterministic = false;  // bounded by work, not time: same seed+threads, same answer
  // A feasible hint is polished (tree blocks, exact windows) before the pricing rounds, which
  // start from scratch: a region of a distributed run starts from the global incumbent, and
  // without this its first rounds rarely beat it (N, 4 regions: bench/results/regions_*.csv).
  bool polish_hint = false;
  // A hint that fits is handed to worker 0 to improve from the start (memory descent,
  // trades) instead of being adopted by every worker: region rounds do, as that ends lower
  // (bench/results/region_solve_start.csv: adopting and polishing first loses 0.03-0.19 %).
  // A hint that presolve moved to kept strategies is adopted (and polished) either way.
  bool improve_hint = false;
  // Deterministic mode: millions of work units per worker (a unit is about one table entry
  // or delta read); 2500 is about 10 s per worker on a 2-core machine (tuning.csv: work-limit).
  std::uint64_t work_limit = 2500;
  // Rounds without improvement before a worker polishes its best and scatters its prices
  // (tuning.csv: stale-rounds).
  int stale_rounds = 40;
  // While a worker's best still picks a forbidden entry, it also polishes (prices untouched)
  // every this many rounds without improvement.
  int stale_while_forbidden = 3;
  Pricing pricing = Pricing::kPerMember;
  PriceOptions prices;
  MessagePassingOptions trws;
  RepairOptions repair;
  CompoundOptions compound;
  TreeBlockOptions tree;
  WindowOptions lns;
  PolishOptions polish;
  CrossoverOptions crossover;
  ExactOptions exact;
  PresolveOptions presolve;
  BoundOptions bound;
  SoftBudgetOptions soft;
  // Stop as soon as the certified gap (cost - bound) / cost is at most this (0: run to the
  // limit, or to a proof of optimality).
  double gap_limit = 0;
};

// Distributed runs (used by the MPI layer only; plain data, so every build can read, check
// and print them).
// What the ranks of an MPI run do.
enum class DistributedMode {
  kPortfolio,  // every rank runs the whole-problem portfolio; the best answer is shared
  kRegions,    // rank 0 runs it, the others improve regions of the incumbent (src/regional/)
};

struct IOPDDL_API DistributedOptions {
  // Regions: np 2 x 1 thread over one process with 2 threads, medians of seeds 1-3, N
  // 1.0007 / 0.9890 at 20 / 60 s against the portfolio's 1.0146 / 0.9963, the generated
  // 60,000-node memory instance 1.0005 / 1.0001 against 0.9988 / 0.9986
  // (bench/results/layout_2cores.csv); and simulated, regions gain with every doubling of the
  // ranks to 8 (bench/README.md, Scaling), copies of the portfolio do not.
  DistributedMode mode = DistributedMode::kRegions;
  // Region rounds (src/regional/): regions each region rank improves per round; 1 rather
  // than 2 (N, seed 1, k = 8, W = 1000: 2.14e11 against 2.40e11; bench/README.md, Scaling).
  std::size_t regions_per_rank = 1;
  // Regions per round at most; further ranks improve copies of them from their own random
  // streams. 15 (16 ranks' regions): 32 ranks' 31 regions ended above 16 ranks' 15 (smaller
  // regions, smaller shares of the slack); 32 ranks with copies of 15 end below 16 ranks on
  // 20,000, 300,000 and 1,000,000 nodes, every seed (bench/README.md, "Copies of regions").
  std::size_t max_regions = 15;
  // Each region may ask for this many times its share of the memory slack (at most the
  // whole slack; the assembly refuses what does not fit). 4 rather than 1: k = 8 simulated
  // ranks, medians of seeds 1-3, N -0.37 %, generated memory 20,000 -0.08 % and 300,000
  // -0.017 %, forbidden 20,000 -0.04 %; 2 gains less on N and not on the forbidden one
  // (bench/results/region_overcommit.csv).
  double region_overcommit = 4.0;
  // Step of the coordinator's memory prices per time segment (src/coordinator/
  // memory_prices.hpp), which price the regions' memory by how far they overbid the slack.
  // 0 (off): at steps 0.1-4 the cost is level (k = 8: generated memory 20,000 and 300,000,
  // N; bench/results/region_overcommit.csv, "fixed-reference" rows).
  double memory_price_step = 0.0;
  // Wall time of a region round (--distributed-mode regions): each region's solve pays for
  // building and presolving its problem, so rounds are longer than --sync-seconds. N at
  // 20 s, np 2, seeds 1-3, cost over one process with 2 threads (median of the seeds'
  // ratios): 0.5 s 1.053, 1 s 1.005, 2 s 1.011, 3 s 1.0007, 5 s 1.037 (noisy: one seed
  // in three lands 2-5 % off at most settings)
  // (bench/results/region_seconds_N_20s.csv).
  double region_seconds = 3.0;
  // Simulate this many machines in one process (0: do not), --deterministic only.
  std::size_t simulate_ranks = 0;
  // Threads that run a simulation's ranks side by side (0: one per core); the answer does
  // not depend on it, only the wall time.
  std::size_t simulate_threads = 0;
  double sync_seconds = 1.0;         // wall time between synchronisations
  double price_blend = 0.0;          // how far each rank moves its prices to the average
  std::uint64_t sync_rounds = 5;     // pricing rounds between synchronisations (deterministic)
  std::string checkpoint_path;       // periodic checkpoints (and one at the end) go here
  double checkpoint_seconds = 60.0;  // their period
  // Where SIGUSR1 writes one when checkpoint_path is empty.
  std::string signal_checkpoint_path = "iopddl.checkpoint";
  std::string resume_path;  // continue from this checkpoint
};

}  // namespace iopddl::inline v0
