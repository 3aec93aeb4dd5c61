// The public library (iopddl/iopddl.hpp): the builder's checks, and solve's options as a
// program that links the library meets them: hints, cutoffs, callbacks, cancellation.
#include <atomic>
#include <stdexcept>
#include <thread>

#include "iopddl/generate.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "support.hpp"

using namespace iopddl;

namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// The same problem through the builder.
Problem rebuilt(const Problem& p) {
  ModelBuilder b(p.name());
  b.set_usage_limit(p.usage_limit());
  for (NodeId v = 0; v < p.num_nodes(); ++v)
    b.add_node(p.costs(v), p.usages(v), p.interval_lo(v), p.interval_hi(v));
  for (EdgeId e = 0; e < p.num_edges(); ++e) b.add_edge(p.edge_u(e), p.edge_v(e), p.edge_costs(e));
  return std::move(b).build();
}

RunOptions quick(std::uint64_t millions = 2) {
  RunOptions o;
  o.solver = test::deterministic_options(millions);
  return o;
}

}  // namespace

TEST_CASE("the builder names the element it refuses, and stays usable") {
  ModelBuilder b("checks");
  const std::vector<Cost> two{1, 2};
  const std::vector<Usage> usages{3, 4};
  CHECK(b.add_node(two, usages, 0, 5) == 0);
  CHECK(message_of([&] { b.add_node(std::span<const Cost>{}, {}, 0, 1); }) ==
        "node 1: a node needs at least one strategy");
  CHECK(message_of([&] {
          b.add_node({1, 2, 3}, {1, 2});
        }) == "node 1: 3 costs but 2 usages (one of each per strategy)");
  CHECK(message_of([&] {
          b.add_node({1, 2}, {1, -2});
        }) == "node 1: strategy 1: negative usage -2");
  CHECK(message_of([&] { b.set_usage_limit(-1); }) == "usage limit: must be non-negative, not -1");
  CHECK(b.add_node({5}, {1}, 2, 3) == 1);
  CHECK(message_of([&] {
          b.add_edge(0, 2, {0, 0});
        }) == "edge 0 (0-2): node 2 does not exist (2 nodes so far)");
  CHECK(message_of([&] {
          b.add_edge(0, 1, {0, 0, 0});
        }) == "edge 0 (0-1): expected 2 costs (2 x 1 strategies), found 3");
  CHECK(b.add_edge(0, 1, {7, 0}) == 0);
  CHECK(b.num_nodes() == 2);
  CHECK(b.num_edges() == 1);
  const Problem p = std::move(b).build();
  CHECK(p.num_nodes() == 2);
  CHECK(p.edge_cost(0, 0, 0) == 7);
  CHECK(evaluate(p, std::vector<Strategy>{1, 0}).cost == 2 + 5 + 0);
}

TEST_CASE("solve through the library reaches the brute-force optimum on tiny instances") {
  Rng rng(91);
  int solved = 0;
  for (int i = 0; i < 120; ++i) {
    test::TinySpec spec;
    spec.nodes = 2 + i % 5;
    spec.limit_factor = i % 3 == 0 ? 0 : 1.0 + 0.1 * (i % 4);
    const Problem p = rebuilt(test::random_problem(rng, spec));
    const RunResult r = solve(p, quick());
    const auto best = test::brute_force_optimum(p);
    if (!best) {
      CHECK(!r.has_solution());
      continue;
    }
    REQUIRE(r.has_solution());
    const Evaluation e = evaluate(p, r.assignment);
    CHECK(e.feasible);
    CHECK(e.cost == r.cost);
    CHECK(e.peak_usage == r.peak_usage);
    CHECK(r.cost == *best);
    if (r.bound) CHECK(*r.bound <= *best);
    ++solved;
  }
  CHECK(solved > 60);
}

TEST_CASE("the improvement callback sees strictly decreasing costs, ending at the answer") {
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 1500;
  g.seed = 4;
  const Problem p = generate_problem(g);
  RunOptions o = quick(40);
  std::vector<Total> seen;
  o.on_improvement = [&](const Progress& progress) {
    CHECK(evaluate(p, progress.assignment).cost == progress.cost);
    seen.push_back(progress.cost);
  };
  const RunResult r = solve(p, o);
  REQUIRE(r.has_solution());
  REQUIRE(!seen.empty());
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] < seen[i - 1]);
  CHECK(seen.back() == r.cost);
  CHECK(r.improvements.size() >= seen.size());
  // A deterministic run gives the same answer every time, with a callback or without.
  const RunResult again = solve(p, quick(40));
  CHECK(again.assignment == r.assignment);
}

TEST_CASE("a callback that throws cancels the solve, and solve rethrows it") {
  GeneratorOptions g;
  g.nodes = 800;
  const Problem p = generate_problem(g);
  RunOptions o;
  o.time_limit = 60;
  int calls = 0;
  o.on_improvement = [&](const Progress&) {
    ++calls;
    throw std::runtime_error("enough");
  };
  CHECK_THROWS_WITH_AS(solve(p, o), "enough", std::runtime_error);
  CHECK(calls == 1);
}

TEST_CASE("a cancellation from another thread ends a solve without a time limit") {
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 3000;
  const Problem p = generate_problem(g);
  RunOptions o;
  o.time_limit = 0;  // none: only the cancellation ends it
  std::atomic<bool> improved{false};
  o.on_improvement = [&](const Progress&) { improved = true; };
  const Cancellation cancel = o.cancel;
  std::thread canceller([&] {
    while (!improved) std::this_thread::yield();
    cancel.cancel();
  });
  const RunResult r = solve(p, o);
  improved = true;  // (a solve that ended on its own must not leave the thread waiting)
  canceller.join();
  CHECK(r.has_solution());
  CHECK(evaluate(p, r.assignment).feasible);
  CHECK(o.cancel.cancelled());
}

TEST_CASE("hints: a feasible one is an answer at once - one over the limit still ends feasible") {
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 600;
  g.seed = 9;
  const Problem p = generate_problem(g);
  const RunResult first = solve(p, quick(4));
  REQUIRE(first.has_solution());

  RunOptions o = quick(1);
  o.hint = first.assignment;
  const RunResult hinted = solve(p, o);
  REQUIRE(!hinted.improvements.empty());
  CHECK(hinted.improvements.front().source == "hint");
  CHECK(hinted.cost <= first.cost);

  // The most memory-hungry strategy everywhere: far over the limit.
  std::vector<Strategy> greedy(p.num_nodes());
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    const auto u = p.usages(v);
    greedy[v] = static_cast<Strategy>(std::max_element(u.begin(), u.end()) - u.begin());
  }
  REQUIRE(!evaluate(p, greedy).feasible);
  o.hint = greedy;
  const RunResult repaired = solve(p, o);
  REQUIRE(repaired.has_solution());
  CHECK(evaluate(p, repaired.assignment).feasible);

  o.hint = {0, 1};
  CHECK(message_of([&] { solve(p, o); }).rfind("hint: ", 0) == 0);
  o.hint.assign(p.num_nodes(), 0);
  o.hint[5] = 10'000;
  CHECK(message_of([&] { solve(p, o); }).find("hint: ") == 0);
}

TEST_CASE("a cost cutoff the solver cannot beat gives no solution, and says why") {
  Rng rng(5);
  test::TinySpec spec;
  spec.limit_factor = 0;
  const Problem p = test::random_problem(rng, spec);
  const auto best = test::brute_force_optimum(p);
  REQUIRE(best);
  RunOptions o = quick();
  o.cost_cutoff = *best;  // "cheaper than the optimum": impossible
  const RunResult r = solve(p, o);
  CHECK(r.status == SolveStatus::kNoSolution);
  CHECK(r.assignment.empty());
  CHECK(r.note.find("cutoff") != std::string::npos);
  o.cost_cutoff = *best + 1;
  CHECK(solve(p, o).cost == *best);
}

TEST_CASE("options the library cannot honour are refused by name") {
  const Problem p = generate_problem({});
  RunOptions o;
  o.solver.threads = -1;
  CHECK(message_of([&] { solve(p, o); }).rfind("threads: ", 0) == 0);
  o.solver.threads = 1;
  o.solver.gap_limit = 2;
  CHECK(message_of([&] { solve(p, o); }).rfind("gap_limit: ", 0) == 0);
}
