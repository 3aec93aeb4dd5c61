#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>

#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/solve.hpp"
#include "local/state.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;

TEST_CASE("the baseline's answers are feasible and 1-opt optimal within the limit") {
  Rng rng(3);
  for (int round = 0; round < 200; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(9));
    spec.limit_factor = 1.0 + 0.5 * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    SolverOptions o;
    o.algorithm = Algorithm::kBaseline;
    test::Outcome out = test::solve_checked(p, o);
    REQUIRE(out.cost.has_value());  // the least-memory assignment is always feasible here
    // No single move is cheaper within the limit: the descent ran to its end.
    if (out.forbidden_picks > 0) continue;  // sums of forbidden entries saturate
    for (NodeId v = 0; v < p.num_nodes(); ++v)
      for (Strategy s = 0; s < p.strategies(v); ++s) {
        std::vector<Strategy> y = out.assignment;
        y[v] = s;
        const Evaluation f = evaluate(p, y);
        CHECK_FALSE((f.feasible && f.cost < *out.cost));
      }
  }
}

TEST_CASE("an instance whose least-memory peak exceeds the limit is proven infeasible") {
  std::string text = R"({"problem":{"nodes":{"intervals":[[0,2],[1,3]],"costs":[[1,2],[3]],
    "usages":[[5,4],[3]]},"edges":{"nodes":[],"costs":[]},"usage_limit":6}})";
  text += std::string(64, '\0');
  Problem p = parse_problem(text.data(), text.size() - 64, "<text>");
  for (auto algorithm : {Algorithm::kBaseline, Algorithm::kPortfolio}) {
    SolverOptions o;
    o.algorithm = algorithm;
    test::Outcome out = test::solve_checked(p, o);
    CHECK(out.result.status == SolveStatus::kInfeasible);
    CHECK_FALSE(out.cost.has_value());
    // Where and why: both nodes at their least usage (4 + 3) at time 1, by name.
    CHECK(out.result.note ==
          "the least-memory peak 7 at time 1 exceeds the usage limit 6 (2 nodes live then, at "
          "their least usage: node 0 (4), node 1 (3))");
  }
}

TEST_CASE("presolve stops when its stop control says stop, and the portfolio answers anyway") {
  GeneratorOptions g;
  g.nodes = 400;
  g.seed = 5;
  const Problem p = generate_problem(g);
  StopControl stopped;
  stopped.request_stop();
  CHECK_THROWS_AS(Reduced::build(p, PresolveOptions{}, &stopped), PresolveStopped);
  CHECK_NOTHROW(Reduced::build(p, PresolveOptions{}, nullptr));
  // The portfolio under a stop that has fired: the baseline's answer, checked, and no hang.
  IncumbentStore store(&stopped);
  Log quiet(nullptr, &stopped, true);
  SolverOptions o;
  const SolveResult r = solve(p, o, stopped, store, quiet);
  CHECK(r.status != SolveStatus::kOptimal);
  REQUIRE(store.has_solution());
  CHECK(evaluate(p, store.assignment()).feasible);
}

TEST_CASE("the portfolio's timeout paths end with a checked answer, on a clock that races") {
  // Every reading of this clock moves it 2 ms on: the time limit comes after a few
  // thousand readings, at an exact point of the search, not after a wall-clock time.
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 600;
  g.seed = 11;
  const Problem p = generate_problem(g);
  for (double limit : {0.05, 1.0, 8.0, 100.0}) {
    CAPTURE(limit);
    test::TestTime time(std::chrono::microseconds(2000));
    StopControl stop(time.now(), limit, time);
    IncumbentStore store(&stop);
    Log quiet(nullptr, &stop, true);
    SolverOptions o;
    o.threads = 2;
    const SolveResult r = solve(p, o, stop, store, quiet);
    CHECK(stop.should_stop());
    CHECK(r.status == SolveStatus::kFeasible);
    REQUIRE(store.has_solution());
    const Evaluation e = evaluate(p, store.assignment());
    CHECK(e.feasible);
    CHECK(e.cost == store.cost());
  }
}

TEST_CASE(
    "a stop control's work view stops when its meter is spent, and charges it and the views it is "
    "in") {
  StopControl root;
  root.charge(1000);  // no meter: counted nowhere, never stops the root
  CHECK_FALSE(root.should_stop());
  WorkMeter meter;
  meter.limit = 100;
  const StopControl view(root, meter);
  StopPoll poll(&view, 1);
  int ticks = 0;
  while (ticks < 100 && !poll.tick(10)) ++ticks;
  CHECK(ticks == 9);  // the tenth tick of 10 units spends it
  CHECK(meter.done == 100);
  CHECK(meter.spent());
  CHECK(view.should_stop());
  CHECK_FALSE(root.should_stop());  // the parent runs on
  WorkMeter fresh;
  const StopControl other(root, fresh);
  CHECK_FALSE(other.should_stop());
  // A view nested in a view charges both: the outer one stops when its own meter is spent
  // by work done within the inner one.
  WorkMeter outer_meter, inner_meter;
  outer_meter.limit = 50;
  const StopControl outer(root, outer_meter);
  const StopControl inner(outer, inner_meter);
  StopPoll inner_poll(&inner, 1);
  ticks = 0;
  while (ticks < 100 && !inner_poll.tick(10)) ++ticks;
  CHECK(ticks == 4);
  CHECK(inner_meter.done == 50);
  CHECK(outer_meter.done == 50);
  CHECK(outer.should_stop());
  CHECK_FALSE(root.should_stop());
  root.request_stop();  // and a request reaches every view
  CHECK(other.should_stop());
}

TEST_CASE("the incremental state counts the work of its delta reads and usage updates") {
  Rng rng(5);
  test::TinySpec spec;
  spec.nodes = 6;
  spec.edges = 7;
  const Problem p = test::random_problem(rng, spec);
  const Reduced r = Reduced::build(p);
  REQUIRE(r.num_nodes() > 0);
  LocalState state(r);
  WorkMeter meter;
  state.set_meter(&meter);
  state.assign(std::vector<Strategy>(r.num_nodes(), 0));
  const std::uint64_t assigned = meter.done;
  CHECK(assigned >= r.num_members());
  const std::uint32_t g = 0;
  const auto d = state.deltas(g);
  CHECK(meter.done - assigned >= d.size() * (1 + r.incident(g).size()));
  const std::uint64_t read = meter.done;
  state.deltas(g);  // cached: no new work
  CHECK(meter.done == read);
  if (r.strategies(g) > 1) {
    state.move(g, 1, state.delta(g, 1));
    CHECK(meter.done > read + r.member_begin(g + 1) - r.member_begin(g));
  }
}

TEST_CASE("a deterministic run stops where each worker's work is spent, even inside a polish") {
  // Polish batches far longer than the budget (a worker stagnates after every round and
  // polishes with 10^6 windows and blocks): the work count stops them, not their size.
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 600;
  g.seed = 4;
  const Problem p = generate_problem(g);
  for (std::uint64_t millions : {4, 8}) {
    CAPTURE(millions);
    SolverOptions o = test::deterministic_options(millions, 2);
    o.stale_rounds = 1;
    o.lns.windows = 1000000;
    o.tree.blocks = 1000000;
    const test::Outcome out = test::solve_checked(p, o);
    REQUIRE(out.cost.has_value());
    const std::uint64_t limit = 2 * millions * 1000000;
    CHECK(out.result.work >= limit);
    // Past the limit by what the searches do between two polls, far less than a budget.
    CHECK(out.result.work <= limit + 2 * 1000000);
  }
}
