// Tests that reach the workers: every worker path on tiny instances with exact mode off,
// against brute force; the worker's parts (greedy repair, memory-aware descent, memory
// prices) on their own; the incumbent store's order.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/stop.hpp"
#include "lagrange/network.hpp"
#include "local/descent.hpp"
#include "local/memory_index.hpp"
#include "local/neighbourhood.hpp"
#include "local/repair.hpp"
#include "local/state.hpp"
#include "portfolio/bound_worker.hpp"
#include "portfolio/memory_prices.hpp"
#include "portfolio/polish_schedule.hpp"
#include "portfolio/portfolio.hpp"
#include "portfolio/worker.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"
#include "util/thread_priority.hpp"

using namespace iopddl;

namespace {

// Tiny random instances whose limit binds: the least-memory peak times 1.0-1.3.
Problem tight_problem(Rng& rng, int max_nodes, double forbidden_share = 0.1) {
  test::TinySpec spec;
  spec.forbidden_share = forbidden_share;
  spec.nodes = 2 + static_cast<int>(rng.below(static_cast<std::uint64_t>(max_nodes - 1)));
  spec.edges = static_cast<int>(rng.below(10));
  spec.max_strategies = 4;
  spec.limit_factor = 1.0 + 0.3 * rng.uniform();
  return test::random_problem(rng, spec);
}

// Options that send tiny instances through the workers rather than exact mode, and make
// every path run within a few rounds: polish after 2 stale rounds, compound moves on every
// round answer.
SolverOptions worker_options(int round) {
  SolverOptions o = test::deterministic_options(1);  // a million units: dozens of rounds here
  o.exact.max_nodes = 0;
  o.exact.dp_entries = 0;
  o.bound.share = 0;  // nor a proof by the bound: the workers run to the work limit
  o.stale_rounds = 2;
  o.compound.within_percent = 1000;
  const Pricing pricings[] = {Pricing::kPerMember, Pricing::kPerTime, Pricing::kMixed};
  o.pricing = pricings[round % 3];
  o.polish.schedule = round % 2 == 0 ? PolishSchedule::kPayoff : PolishSchedule::kFixed;
  o.seed = static_cast<std::uint64_t>(round + 1);
  return o;
}

}  // namespace

TEST_CASE("the workers reach the brute-force optimum of tiny instances with exact mode off") {
  Rng rng(21);
  int instances = 0;
  for (int round = 0; round < 60; ++round) {
    const Problem p = tight_problem(rng, 6);
    const auto best = test::brute_force_optimum(p);
    if (!best) continue;  // infeasible: the portfolio proves it before any worker runs
    CAPTURE(round);
    const test::Outcome out = test::solve_checked(p, worker_options(round));
    CHECK(out.result.status == SolveStatus::kFeasible);  // never "optimal": no exact mode, no bound
    REQUIRE(out.cost.has_value());
    // Exact windows of up to 40 nodes cover these instances whole once a worker polishes.
    CHECK(*out.cost == *best);
    ++instances;
  }
  CHECK(instances >= 40);
}

TEST_CASE("the priced branch-and-bound improves the rounds' labellings on a dense core") {
  GeneratorOptions g;
  g.family = Family::kCore;  // like D: a dense core where TRW-S's rounding is far off
  g.nodes = 60;
  g.seed = 1;
  const Problem p = generate_problem(g);
  // The priced search's report of a run with these settings (none: it did not run).
  const auto priced = [&](std::uint64_t nodes, int max_groups, double min_gain) {
    SolverOptions o = test::deterministic_options(20);  // a few dozen rounds
    o.exact.max_nodes = 0;
    o.exact.dp_entries = 0;
    o.bound.share = 0;
    o.trws.search_nodes = nodes;
    o.trws.search_max_groups = max_groups;
    o.trws.search_min_gain = min_gain;
    const test::Outcome out = test::solve_checked(p, o);  // every answer evaluated
    REQUIRE(out.cost.has_value());
    std::optional<NeighbourhoodReport> report;
    for (const NeighbourhoodReport& n : out.result.neighbourhoods)
      if (n.name == "priced-search") report = n;
    return report;
  };
  const auto searched = priced(10000, 2000, 1e-3);
  REQUIRE(searched.has_value());
  CHECK(searched->calls > 0);
  CHECK(searched->improvements > 0);
  CHECK(searched->gain > 0);
  // The switch, and the gate on the core's size (about 60 groups).
  CHECK_FALSE(priced(0, 2000, 1e-3).has_value());
  CHECK_FALSE(priced(10000, 10, 1e-3).has_value());
  // No call can lower the energy by all of it: every call is unpaid, so the worker backs
  // off, and calls fewer times than when any gain pays.
  const auto never_paid = priced(10000, 2000, 1.0);
  const auto any_gain = priced(10000, 2000, 0.0);
  REQUIRE(never_paid.has_value());
  REQUIRE(any_gain.has_value());
  CHECK(never_paid->calls < any_gain->calls);
}

TEST_CASE("greedy repair makes an overloaded state fit, and leaves a fitting one alone") {
  // Three nodes in a row, each with a cheap heavy strategy and a dear light one; the
  // middle one overlaps both others. One or two light picks fit; repair must find a fit.
  ProblemBuilder b;
  const std::vector<Cost> c{0, 5};
  const std::vector<Usage> u{10, 2};
  b.add_node(0, 4, c, u);
  b.add_node(2, 6, c, u);
  b.add_node(5, 8, c, u);  // overlaps only the second
  b.set_usage_limit(12);
  const Problem p = std::move(b).build();
  const Reduced r = Reduced::build(p, false);
  const MemoryIndex index(r);
  LocalState state(r);
  StopControl stop;
  state.assign({0, 0, 0});  // 20 at [2, 4) and [5, 6)
  REQUIRE_FALSE(state.feasible());
  CHECK(greedy_repair(state, index, RepairOptions{}, stop));
  CHECK(state.feasible());
  const Evaluation e = evaluate(p, r.expand(state.assignment()));
  CHECK(e.feasible);
  CHECK(e.cost == state.cost());
  CHECK(state.cost() <= 10);  // at most one move per overloaded point
  const std::vector<Strategy> fitted = state.assignment();
  CHECK(greedy_repair(state, index, RepairOptions{}, stop));
  CHECK(state.assignment() == fitted);
}

TEST_CASE("greedy repair keeps every state exact and reports truthfully whether it fits") {
  Rng rng(5);
  for (int round = 0; round < 300; ++round) {
    const Problem p = tight_problem(rng, 7, 0.0);  // sums of forbidden entries saturate
    const Reduced r = Reduced::build(p, false);
    const MemoryIndex index(r);
    LocalState state(r);
    std::vector<Strategy> x(r.num_nodes());
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      x[g] = static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(r.strategies(g))));
    state.assign(x);
    StopControl stop;
    const bool fits = greedy_repair(state, index, RepairOptions{}, stop);
    const Evaluation e = evaluate(p, r.expand(state.assignment()));
    CHECK(fits == e.feasible);
    CHECK(e.cost == state.cost());
  }
}

TEST_CASE("greedy repair may take repair.steps-share of the groups when that is above max-steps") {
  // Each group at its cheapest strategy, whatever memory it takes: the repair needs more
  // than one step. With one step allowed it stops short; with the share of all groups it
  // fits (checked by the reference evaluator).
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 3000;
  const Problem p = generate_problem(g);
  const Reduced r = Reduced::build(p);
  const MemoryIndex index(r);
  std::vector<Strategy> cheapest(r.num_nodes());
  for (std::uint32_t h = 0; h < r.num_nodes(); ++h)
    cheapest[h] = static_cast<Strategy>(std::min_element(r.costs(h), r.costs(h) + r.strategies(h)) -
                                        r.costs(h));
  StopControl stop;
  RepairOptions o;
  o.max_steps = 1;
  for (const double share : {0.0, 1.0}) {
    CAPTURE(share);
    o.steps_share = share;
    LocalState state(r);
    state.assign(cheapest);
    REQUIRE_FALSE(state.feasible());
    const bool fits = greedy_repair(state, index, o, stop);
    CHECK(fits == (share > 0));
    const Evaluation e = evaluate(p, r.expand(state.assignment()));
    CHECK(e.feasible == fits);
    CHECK(e.cost == state.cost());
  }
}

TEST_CASE("memory-aware descent ends at a 1-opt optimum within the limit, never dearer") {
  Rng rng(8);
  for (int round = 0; round < 200; ++round) {
    const Problem p = tight_problem(rng, 7, 0.0);
    const Reduced r = Reduced::build(p, false);
    LocalState state(r);
    state.assign(least_memory_assignment(p));  // feasible whenever the instance is
    if (!state.feasible()) continue;
    const Total before = state.cost();
    StopControl stop;
    memory_descent(state, rng, stop);
    const std::vector<Strategy> x = state.assignment();
    const Evaluation e = evaluate(p, r.expand(x));
    REQUIRE(e.feasible);
    CHECK(e.cost == state.cost());
    CHECK(state.cost() <= before);
    // No single move is both cheaper and within the limit (checked by the evaluator).
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      for (Strategy s = 0; s < r.strategies(g); ++s) {
        std::vector<Strategy> y = x;
        y[g] = s;
        const Evaluation f = evaluate(p, r.expand(y));
        CHECK_FALSE((f.feasible && f.cost < e.cost));
      }
  }
}

TEST_CASE("memory prices rise on overloaded members, decay elsewhere, and price the network") {
  // Member 0 is live where the limit is exceeded, member 1 where it is not.
  ProblemBuilder b;
  const std::vector<Cost> c{0, 1};
  const std::vector<Usage> u{8, 1};
  b.add_node(0, 2, c, u);
  b.add_node(0, 2, c, u);
  b.add_node(5, 6, c, u);
  b.set_usage_limit(12);
  const Problem p = std::move(b).build();
  const Reduced r = Reduced::build(p, false);
  const MemoryIndex index(r);
  LocalState state(r);
  state.assign({0, 0, 0});  // 16 at [0, 2): over; 8 at [5, 6): within
  Rng rng(3);
  PriceOptions o;
  MemoryPrices member(r, index, Pricing::kPerMember, 1.0, o);
  member.update(state, rng);
  std::vector<double> w = member.absolute();
  CHECK(w[0] > 0);
  CHECK(w[1] > 0);
  CHECK(w[2] == 0);  // never overloaded, decayed from 0
  member.update(state, rng);
  CHECK(member.absolute()[0] > w[0]);  // raised again
  state.assign({1, 1, 0});             // now within the limit everywhere
  w = member.absolute();
  member.update(state, rng);
  CHECK(member.absolute()[0] == doctest::Approx(w[0] * o.decay));
  // The priced network: each unary is the cost plus the member's weight times its usage.
  CostNetwork net = CostNetwork::from_reduced(r);
  member.price(net);
  const std::vector<double>& weight = member.weights();
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
    for (Strategy s = 0; s < r.strategies(g); ++s)
      CHECK(net.unary(g)[s] ==
            doctest::Approx(static_cast<double>(c[static_cast<std::size_t>(s)]) +
                            weight[g] * static_cast<double>(u[static_cast<std::size_t>(s)])));
  // Per time: a subgradient step raises the prices of the overloaded segments only, and a
  // member pays the sum over its segments.
  MemoryPrices timed(r, index, Pricing::kPerTime, 1.0, o);
  state.assign({0, 0, 0});
  timed.update(state, rng);
  timed.price(net);
  CHECK(timed.weights()[0] > 0);
  CHECK(timed.weights()[0] == doctest::Approx(timed.weights()[1]));
  CHECK(timed.weights()[2] == 0);
  // Absolute prices survive a round trip through another worker's unit.
  MemoryPrices other(r, index, Pricing::kPerMember, 4.0, o);
  other.set_absolute(member.absolute());
  const std::vector<double> a = member.absolute(), b2 = other.absolute();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(b2[i] == doctest::Approx(a[i]));
}

TEST_CASE(
    "the bound takes bound.stale-share once the best answer is older than bound.stale-after, "
    "unless CBC runs") {
  BoundOptions o;
  o.stale_share = 0.9;
  o.stale_after = 0.5;
  CHECK(BoundWorker::share_now(0.3, o, std::nullopt, 10, false) == 0.3);  // no answer yet
  CHECK(BoundWorker::share_now(0.3, o, 6.0, 10, false) == 0.3);           // 4 s old: within half
  CHECK(BoundWorker::share_now(0.3, o, 5.0, 10, false) == 0.3);           // exactly half: not older
  CHECK(BoundWorker::share_now(0.3, o, 4.0, 10, false) == 0.9);           // 6 s old
  o.stale_after = 0.7;
  CHECK(BoundWorker::share_now(0.3, o, 4.0, 10, false) == 0.3);
  CHECK(BoundWorker::share_now(0.3, o, 2.0, 10, false) == 0.9);
  o.stale_share = 0.2;  // below bound.share: never less than it
  CHECK(BoundWorker::share_now(0.3, o, 0.0, 10, false) == 0.3);
  o.stale_share = 1;  // while CBC runs, the spare time is its own
  CHECK(BoundWorker::share_now(0.3, o, 2.0, 10, true) == 0.3);
  CHECK(BoundWorker::share_now(0.3, o, 2.0, 10, false) == 1);
}

TEST_CASE("a worker does no round while its pause says so, and goes on once it lets go") {
  Rng rng(17);
  const Problem p = tight_problem(rng, 8);
  const Reduced r = Reduced::build(p, false);
  const MemoryIndex index(r);
  const CostNetwork network = CostNetwork::from_reduced(r);
  const SolverOptions o = worker_options(0);
  Worker worker(r, index, network, o, memory_price_unit(r), 0, Pricing::kPerMember, nullptr, false);
  StopControl stop;
  stop.ignore_deadline();
  IncumbentStore store(&stop);
  Log quiet(stderr, &stop, true);
  // Paused for its first 5 polls: no work is done meanwhile; then 3 rounds.
  int polls = 0;
  std::uint64_t work_while_paused = 0, work_at_last_poll = 0;
  const std::function<bool()> pause = [&] {
    work_at_last_poll = worker.work().done;
    if (++polls > 5) return false;
    work_while_paused = std::max(work_while_paused, work_at_last_poll);
    return true;
  };
  worker.run(stop, store, quiet, 3, Clock::time_point::max(), pause);
  CHECK(polls >= 5 + 3);          // polled again before each round
  CHECK(work_while_paused == 0);  // nothing done while paused
  CHECK(work_at_last_poll > 0);   // rounds done once let go
  CHECK(store.has_solution());
  // the same 3 rounds without a pause: the pause took no round away and added none
  Worker plain(r, index, network, o, memory_price_unit(r), 0, Pricing::kPerMember, nullptr, false);
  IncumbentStore other(&stop);
  plain.run(stop, other, quiet, 3, Clock::time_point::max());
  CHECK(plain.work().done == worker.work().done);
}

TEST_CASE("the incumbent store keeps the cheapest answer, ties to the smaller, and logs gains") {
  StopControl clock;
  IncumbentStore store(&clock);
  CHECK_FALSE(store.has_solution());
  CHECK_FALSE(store.best_seconds().has_value());
  CHECK(store.offer({2, 2}, 10, "a"));
  CHECK_FALSE(store.offer({3, 0}, 11, "b"));  // dearer
  CHECK_FALSE(store.offer({2, 3}, 10, "c"));  // as cheap, lexicographically larger
  CHECK(store.offer({1, 5}, 10, "d"));        // as cheap, smaller: kept, not an improvement
  CHECK(store.assignment() == std::vector<Strategy>{1, 5});
  CHECK(store.offer({4, 4}, 7, "e"));
  CHECK(store.cost() == 7);
  const auto history = store.history();
  REQUIRE(history.size() == 2);
  CHECK(history[0].source == "a");
  CHECK(history[1].source == "e");
  CHECK(history[1].cost == 7);
  CHECK(store.best_seconds() == history[1].seconds);  // when the best cost came
  // The same answers offered in another order end the same: the order does not matter.
  IncumbentStore other(&clock);
  for (auto [x, cost] : std::vector<std::pair<std::vector<Strategy>, Total>>{
           {{4, 4}, 7}, {{1, 5}, 10}, {{2, 3}, 10}, {{2, 2}, 10}})
    other.offer(x, cost, "x");
  CHECK(other.assignment() == store.assignment());
}

TEST_CASE("a neighbourhood's statistics count its batches, improving moves and exact gain") {
  Rng rng(31);
  int improved = 0;
  for (int round = 0; round < 100; ++round) {
    const Problem p = tight_problem(rng, 7, 0.0);
    const Reduced r = Reduced::build(p, false);
    const MemoryIndex index(r);
    LocalState state(r);
    state.assign(least_memory_assignment(p));
    if (!state.feasible()) continue;
    TreeBlockOptions blocks;
    blocks.blocks = 5;
    TreeBlocks tree(r, &index, blocks);
    ExactWindows windows(r, &index, WindowOptions{});
    StopControl stop;
    const NeighbourhoodContext c{state, rng, stop};
    const Total start = state.cost();
    int moves = tree.run(c);
    const Total after_tree = state.cost();
    moves += windows.run(c);
    CHECK(std::string(tree.name()) == "tree");
    CHECK(tree.stats().calls == 1);
    CHECK(windows.stats().calls == 1);
    CHECK(tree.stats().gain == start - after_tree);
    CHECK(windows.stats().gain == after_tree - state.cost());
    CHECK(tree.stats().improvements + windows.stats().improvements ==
          static_cast<std::uint64_t>(moves));
    CHECK((tree.stats().gain > 0) == (tree.stats().improvements > 0));
    improved += moves > 0;
    CHECK(evaluate(p, r.expand(state.assignment())).cost == state.cost());
  }
  CHECK(improved > 10);
}

TEST_CASE(
    "the payoff schedule tries each neighbourhood, then prefers what paid, skipping dry ones") {
  PayoffSchedule schedule(2, 0.0);
  Rng rng(1);
  std::vector<bool> dry{false, false};
  CHECK(schedule.choose(dry, rng) == 0);  // nothing tried: the first
  schedule.record(0, 10, 1.0);
  CHECK(schedule.choose(dry, rng) == 1);  // the untried one next
  schedule.record(1, 100, 1.0);
  CHECK(schedule.choose(dry, rng) == 1);  // 100 per second against 10
  dry[1] = true;
  CHECK(schedule.choose(dry, rng) == 0);  // the better one came up dry
  dry[0] = true;
  CHECK(schedule.choose(dry, rng) == schedule.count());  // both dry: the polish ends
  // With exploration, the one that pays less still gets some batches.
  PayoffSchedule exploring(2, 0.3);
  exploring.record(0, 1, 1.0);
  exploring.record(1, 50, 1.0);
  int other = 0;
  for (int i = 0; i < 1000; ++i) other += exploring.choose({false, false}, rng) == 0;
  CHECK(other > 200);
  CHECK(other < 400);
}

TEST_CASE("the payoff polish schedule keeps answers exact and nearly always optimal") {
  // Not the default: on these instances the fixed schedule reaches every optimum, the
  // payoff one (another random stream, polishes that end sooner) all but a few.
  Rng rng(23);
  int instances = 0, optimal = 0;
  for (int round = 0; round < 40; ++round) {
    const Problem p = tight_problem(rng, 6);
    const auto best = test::brute_force_optimum(p);
    if (!best) continue;
    CAPTURE(round);
    SolverOptions o = worker_options(round);
    o.polish.schedule = PolishSchedule::kPayoff;
    const test::Outcome out = test::solve_checked(p, o);  // checked by the evaluator
    REQUIRE(out.cost.has_value());
    optimal += *out.cost == *best;
    ++instances;
  }
  CHECK(instances >= 25);
  CHECK(optimal >= instances * 9 / 10);
}

TEST_CASE("an exploring worker's thread is made nicer, never less nice, and only itself") {
  const auto nice_of_this_thread = [] {
    return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
  };
  const int before = nice_of_this_thread();
  int inside = 0, again = 0;
  std::thread([&] {
    lower_thread_priority(5);
    inside = nice_of_this_thread();
    lower_thread_priority(0);   // nothing
    lower_thread_priority(-3);  // never less nice
    again = nice_of_this_thread();
  }).join();
  CHECK(inside == std::min(19, before + 5));
  CHECK(again == inside);
  CHECK(nice_of_this_thread() == before);  // the caller's thread keeps its own
}
