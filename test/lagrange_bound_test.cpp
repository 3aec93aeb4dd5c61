// Certified lower bounds: never above the optimum, tight where they must be, and the integer
// recomputation equal to a slow reference of the same formula.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "exact/proof_search.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/solve.hpp"
#include "lagrange/bound.hpp"
#include "lagrange/memory_lp.hpp"
#include "lagrange/network.hpp"
#include "local/state.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;

namespace {

constexpr int kBits = 24;
const Total kScale = Total{1} << kBits;

Total ceil_div(Total a, Total b) {
  const Total q = a / b;
  return q * b < a ? q + 1 : q;
}

// The exact Lagrangian at integer multipliers `lambda` (units of 2^-kBits) by enumeration
// of the reduced problem: ceil(min_x [S cost(x) + sum_t lambda_t (usage_t(x) - limit)] / S).
Total brute_force_lagrangian(const Reduced& r, const std::vector<Total>& lambda) {
  const Problem& p = r.original();
  Total best = 0;
  bool first = true;
  test::for_each_reduced_assignment(r, [&](const std::vector<Strategy>& x) {
    Total v = kScale * test::reduced_cost(r, x);
    for (std::size_t t = 0; t < lambda.size(); ++t)
      v += lambda[t] * (test::segment_usage(r, x, t) - *p.usage_limit());
    if (first || v < best) best = v;
    first = false;
  });
  return ceil_div(best, kScale);
}

// The same formula as certify(), written plainly: per node and strategy the scaled cost,
// the priced usage summed segment by segment and the messages in; per edge each entry
// minus its messages, row minima to edge_u, then column minima to edge_v.
Total slow_certify(const Reduced& r, const std::vector<Total>& lambda,
                   const std::vector<Total>& msg) {
  const Problem& p = r.original();
  std::vector<std::vector<Total>> node(r.num_nodes());
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    node[g].assign(r.strategies(g), 0);
    for (Strategy s = 0; s < r.strategies(g); ++s) {
      node[g][s] = kScale * r.costs(g)[s];
      for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
        const NodeId n = r.member_node(mi);
        for (std::size_t t = 0; t < lambda.size(); ++t)
          if (p.has_memory(n) && p.seg_lo(n) <= t && t < p.seg_hi(n))
            node[g][s] += lambda[t] * r.member_usage(mi, s);
      }
    }
  }
  std::size_t at = 0;
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const std::uint32_t u = r.edge_u(e), v = r.edge_v(e);
    const Strategy ku = r.strategies(u), kv = r.strategies(v);
    auto entry = [&](Strategy a, Strategy b) {
      return kScale * r.table(e)[static_cast<std::size_t>(a) * kv + b] - msg[at + a] -
             msg[at + ku + b];
    };
    std::vector<Total> row(ku);
    for (Strategy a = 0; a < ku; ++a) {
      node[u][a] += msg[at + a];
      row[a] = entry(a, 0);
      for (Strategy b = 1; b < kv; ++b) row[a] = std::min(row[a], entry(a, b));
      node[u][a] += row[a];
    }
    for (Strategy b = 0; b < kv; ++b) {
      node[v][b] += msg[at + ku + b];
      Total col = entry(0, b) - row[0];
      for (Strategy a = 1; a < ku; ++a) col = std::min(col, entry(a, b) - row[a]);
      node[v][b] += col;
    }
    at += static_cast<std::size_t>(ku) + kv;
  }
  Total sum = 0;
  for (const auto& n : node) sum += *std::min_element(n.begin(), n.end());
  for (Total l : lambda) sum -= l * *p.usage_limit();
  return ceil_div(sum, kScale);
}

std::size_t message_count(const Reduced& r) {
  std::size_t n = 0;
  for (std::uint32_t e = 0; e < r.num_edges(); ++e)
    n += static_cast<std::size_t>(r.strategies(r.edge_u(e))) + r.strategies(r.edge_v(e));
  return n;
}

// Random multipliers within certify_cap() and random messages.
void random_duals(Rng& rng, const Reduced& r, std::vector<Total>& lambda, std::vector<Total>& msg,
                  bool huge) {
  const Problem& p = r.original();
  lambda.assign(p.usage_limit() ? p.num_segments() : 0, 0);
  const Total cap = certify_cap(r) / static_cast<Total>(std::max<std::size_t>(1, lambda.size()));
  const std::uint64_t most = static_cast<std::uint64_t>(std::min<Total>(cap, Total{1} << 40));
  for (Total& l : lambda) l = rng.uniform() < 0.3 ? 0 : static_cast<Total>(rng.below(most + 1));
  msg.assign(message_count(r), 0);
  const std::uint64_t span = huge ? (std::uint64_t{1} << 62) : (std::uint64_t{1} << 30);
  for (Total& m : msg) m = static_cast<Total>(rng.below(span)) - static_cast<Total>(span / 2);
}

}  // namespace

TEST_CASE("certified bounds never exceed the brute-force optimum, nor the exact Lagrangian") {
  Rng rng(41);
  int checked = 0, limited = 0;
  for (int round = 0; round < 1500; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(9));
    spec.huge_values = round % 5 == 4;  // sums overflow int64
    spec.limit_factor = round % 3 == 0 ? 0 : 1.0 + 0.6 * rng.uniform();
    const Problem p = test::random_problem(rng, spec);
    const auto opt = test::brute_force_optimum(p);
    if (!opt) continue;  // infeasible: nothing to bound
    CAPTURE(round);
    const Reduced r = Reduced::build(p);
    BoundOptions o;
    o.lp_every = round % 4;  // 0: subgradient steps only; else the LP every 1-3 steps
    BoundEngine engine(r, CostNetwork::from_reduced(r), o);
    for (int step = 0; step < 8; ++step) {
      const Total b = engine.step(*opt + 1 + static_cast<Total>(rng.below(50)), nullptr);
      CHECK(b <= *opt);
      if (!p.usage_limit()) continue;
      // Certified at the multipliers it priced: never above the exact Lagrangian there.
      std::vector<Total> lambda;
      for (double l : engine.multipliers())
        lambda.push_back(static_cast<Total>(l * static_cast<double>(kScale)));
      if (r.num_nodes() <= 5)
        CHECK(certify(r, lambda, std::vector<Total>(message_count(r), 0), kBits) <=
              brute_force_lagrangian(r, lambda));
    }
    CHECK(engine.best() <= *opt);
    // Any multipliers within the cap and any integer messages give a valid bound.
    std::vector<Total> lambda, msg;
    random_duals(rng, r, lambda, msg, spec.huge_values);
    CHECK(std::min<Total>(certify(r, lambda, msg, kBits), kForbidden) <= *opt);
    if (p.usage_limit()) ++limited;
    ++checked;
  }
  CHECK(checked >= 1000);
  CHECK(limited >= 500);
}

TEST_CASE("the LP's memory multipliers are the best ones for the messages, below the optimum") {
  Rng rng(47);
  int solved = 0, priced = 0;
  for (int round = 0; round < 400; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(8));
    spec.limit_factor = 1.0 + 0.5 * rng.uniform();
    const Problem p = test::random_problem(rng, spec);
    const auto opt = test::brute_force_optimum(p);
    // (Every answer that fits with a forbidden pick: the LP, without forbidden columns, has
    // no answer, and the bound is the 10^18 cap.)
    if (!opt || *opt >= kForbidden) continue;
    CAPTURE(round);
    const Reduced r = Reduced::build(p);
    std::vector<Total> ignored, msg;
    random_duals(rng, r, ignored, msg, false);
    if (round % 2 == 0) std::fill(msg.begin(), msg.end(), 0);
    // The groups' reparametrised costs without prices, as the engine hands them over.
    Reparametrisation unpriced;
    certify(r, std::vector<Total>(p.num_segments(), 0), msg, kBits, &unpriced);
    std::vector<double> theta;
    for (Total c : unpriced.node)
      theta.push_back(static_cast<double>(c) / static_cast<double>(kScale));
    MemoryLp lp(r, SIZE_MAX);
    if (p.num_segments() == 0) continue;  // no time: nothing to price
    REQUIRE(lp.ready());
    const MemoryLp::Outcome out = lp.solve(theta, nullptr);
    REQUIRE(out.lambda);  // the input has an answer that fits: the LP has one too
    const std::vector<Total> lambda = certified_integers(*out.lambda, kBits);
    const Total at_lp = certify(r, lambda, msg, kBits);
    CHECK(at_lp <= *opt);
    ++solved;
    // No single multiplier moved up or down does better with the same messages (up to the
    // rounding of the LP's doubles to the grid and of the bound up to an integer).
    for (std::size_t t = 0; t < lambda.size(); ++t)
      for (const Total d : {kScale / 8, kScale, 8 * kScale, 64 * kScale}) {
        std::vector<Total> up = lambda;
        up[t] += d;
        CHECK(certify(r, up, msg, kBits) <= at_lp + 1);
        if (lambda[t] < d) continue;
        std::vector<Total> down = lambda;
        down[t] -= d;
        CHECK(certify(r, down, msg, kBits) <= at_lp + 1);
      }
    if (std::any_of(lambda.begin(), lambda.end(), [](Total l) { return l > 0; })) ++priced;
  }
  CHECK(solved >= 200);
  CHECK(priced >= 20);  // the limit binds often enough to test the multipliers
}

TEST_CASE("the LP's options take effect: cadence, stall, patience, hand-over, size, time cap") {
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 400;
  g.limit_factor = 1.05;
  const Problem p = generate_problem(g);
  const Reduced r = Reduced::build(p);
  const CostNetwork network = CostNetwork::from_reduced(r);
  const auto run = [&](const BoundOptions& o, int steps) {
    auto engine = std::make_unique<BoundEngine>(r, network, o);
    for (int i = 0; i < steps; ++i) engine->step(std::nullopt, nullptr);
    return engine;
  };
  BoundOptions lp;
  lp.lp_stall = 0;  // never stalls
  const auto with_lp = run(lp, 30);
  REQUIRE(with_lp->lp().lp() != nullptr);
  CHECK(with_lp->lp().lp()->rows() > 0);
  BoundOptions none;
  none.lp_every = 0;
  const auto without = run(none, 30);
  CHECK(without->lp().lp() == nullptr);
  CHECK(with_lp->multipliers() != without->multipliers());
  // Too large for bound.lp-nonzeros: subgradient steps from the start, step for step.
  BoundOptions small = lp;
  small.lp_nonzeros = 1;
  const auto too_large = run(small, 30);
  CHECK(too_large->lp().lp() == nullptr);
  CHECK(too_large->lp().ended_at() == 0);
  CHECK(too_large->multipliers() == without->multipliers());
  // Always stalled: the hand-over at the first test after a full window.
  BoundOptions stalled;
  stalled.lp_every = 5;
  stalled.lp_stall = 1;
  stalled.lp_patience = 5;
  CHECK(run(stalled, 30)->lp().ended_at() == 10);
  stalled.lp_patience = 10;
  CHECK(run(stalled, 30)->lp().ended_at() == 20);
  // The hand-over's step factor sets the first subgradient step after it.
  stalled.lp_patience = 5;
  BoundOptions bigger = stalled;
  bigger.lp_handover_step = 0.5;
  CHECK(run(stalled, 10)->multipliers() == run(bigger, 10)->multipliers());
  CHECK(run(stalled, 11)->multipliers() != run(bigger, 11)->multipliers());
  // The time cap holds only where a run caps it (runs bounded by time): uncapped, the
  // cadence stays in steps whatever bound.lp-time-share says.
  BoundOptions shy = lp;
  shy.lp_time_share = 1e-3;
  CHECK(run(shy, 30)->multipliers() == with_lp->multipliers());
  CHECK(with_lp->lp().solves() == 6);
  // Capped at 0.1 % of the time, the LP's first solve (step 5) is its last within 30 steps
  // (the steps would have to take a thousand times a solve's time).
  BoundEngine capped(r, network, shy);
  capped.cap_lp_time();
  for (int i = 0; i < 30; ++i) capped.step(std::nullopt, nullptr);
  CHECK(capped.lp().solves() == 1);
}

TEST_CASE("the integer recomputation of a reparametrisation matches a slow reference") {
  Rng rng(43);
  for (int round = 0; round < 500; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(5));
    spec.edges = static_cast<int>(rng.below(8));
    spec.huge_values = round % 4 == 3;
    spec.limit_factor = round % 5 == 0 ? 0 : 1.2;
    const Problem p = test::random_problem(rng, spec);
    CAPTURE(round);
    const Reduced r = Reduced::build(p, round % 2 == 0);  // with and without presolve
    std::vector<Total> lambda, msg;
    random_duals(rng, r, lambda, msg, spec.huge_values);
    CHECK(certify(r, lambda, msg, kBits) == slow_certify(r, lambda, msg));
  }
}

TEST_CASE("without a memory limit, the bound on a tree or forest equals its optimum") {
  Rng rng(47);
  for (int round = 0; round < 300; ++round) {
    ProblemBuilder b;
    const int n = 2 + static_cast<int>(rng.below(6));
    for (int v = 0; v < n; ++v) {
      const std::size_t k = 1 + rng.below(4);
      std::vector<Cost> c(k), u(k, 1);
      for (Cost& x : c) x = static_cast<Cost>(rng.below(1000));
      b.add_node(0, 1, c, u);
    }
    for (int v = 1; v < n; ++v) {
      if (rng.uniform() < 0.2) continue;  // a forest
      const auto parent = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(v)));
      std::vector<Cost> t(static_cast<std::size_t>(b.strategies(parent)) *
                          b.strategies(static_cast<NodeId>(v)));
      for (Cost& x : t) x = static_cast<Cost>(rng.below(1000));
      b.add_edge(parent, static_cast<NodeId>(v), b.add_table(t));
    }
    const Problem p = std::move(b).build();
    const auto opt = test::brute_force_optimum(p);
    REQUIRE(opt.has_value());
    CAPTURE(round);
    for (bool presolve : {true, false}) {
      const Reduced r = Reduced::build(p, presolve);
      BoundEngine engine(r, CostNetwork::from_reduced(r), BoundOptions{});
      CHECK(engine.step(*opt + 1, nullptr) == *opt);  // TRW-S eliminates trees exactly
    }
  }
}

namespace {

struct BoundRun {
  SolveResult result;
  std::optional<Total> bound;
  std::optional<double> gap;
  Total cost = 0;
  double seconds = 0;
};

BoundRun run_with_bound(const Problem& p, SolverOptions o, double limit) {
  StopControl stop(Clock::now(), limit);
  IncumbentStore store(&stop);
  Log quiet(nullptr, &stop, true);
  BoundRun run;
  run.result = solve(p, o, stop, store, quiet);
  run.seconds = stop.elapsed();
  REQUIRE(store.has_solution());
  const Evaluation e = evaluate(p, store.assignment());
  CHECK(e.feasible);
  run.cost = store.cost();
  run.bound = store.bound();
  run.gap = store.gap();
  return run;
}

}  // namespace

TEST_CASE("a bound that meets the cost proves it optimal and ends the run at once") {
  // A chain without a memory limit, too large for exact mode: TRW-S's bound is tight.
  GeneratorOptions g;
  g.family = Family::kForbiddenPairs;
  g.nodes = 400;
  g.seed = 5;
  Problem generated = generate_problem(g);
  ProblemBuilder b;
  for (NodeId v = 0; v < generated.num_nodes(); ++v)
    b.add_node(0, 1, generated.costs(v), generated.usages(v));
  Rng rng(3);
  for (NodeId v = 1; v < generated.num_nodes(); ++v) {
    std::vector<Cost> t(static_cast<std::size_t>(b.strategies(v - 1)) * b.strategies(v));
    for (Cost& x : t) x = static_cast<Cost>(rng.below(1000));
    b.add_edge(v - 1, v, b.add_table(t));
  }
  const Problem p = std::move(b).build();
  SolverOptions o;
  o.threads = 1;
  o.exact.max_nodes = 0;
  o.exact.dp_entries = 0;
  o.bound.share = 1;
  const BoundRun run = run_with_bound(p, o, 60);
  CHECK(run.result.status == SolveStatus::kOptimal);
  REQUIRE(run.bound.has_value());
  CHECK(*run.bound == run.cost);
  CHECK(run.seconds < 30);  // stopped by the proof, far before the limit
}

TEST_CASE("--gap-limit stops a run as soon as the certified gap is within it") {
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 2000;
  g.seed = 9;
  const Problem p = generate_problem(g);
  SolverOptions o;
  o.threads = 1;
  o.bound.share = 1;
  o.gap_limit = 0.2;
  const BoundRun run = run_with_bound(p, o, 120);
  REQUIRE(run.gap.has_value());
  CHECK(*run.gap <= 0.2);
  CHECK(*run.bound <= run.cost);
  CHECK(run.seconds < 60);
}

TEST_CASE("the reparametrised problem keeps every assignment's cost, priced by the multipliers") {
  // Without multipliers each assignment's reparametrised cost is its cost, scaled, exactly;
  // with them, no more than that for assignments within the limit. Edge entries are >= 0.
  Rng rng(53);
  int within = 0;
  for (int round = 0; round < 300; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(4));
    spec.edges = static_cast<int>(rng.below(7));
    spec.forbidden_share = 0;
    spec.huge_values = round % 4 == 3;
    spec.limit_factor = 1.0 + 0.5 * rng.uniform();
    const Problem p = test::random_problem(rng, spec);
    const Reduced r = Reduced::build(p, round % 2 == 0);
    std::vector<Total> lambda, msg;
    random_duals(rng, r, lambda, msg, spec.huge_values);
    const bool priced = round % 3 != 0;
    if (!priced) std::fill(lambda.begin(), lambda.end(), 0);
    Reparametrisation rep;
    const Total bound = certify(r, lambda, msg, kBits, &rep);
    CHECK(std::all_of(rep.edge.begin(), rep.edge.end(), [](Total x) { return x >= 0; }));
    test::for_each_reduced_assignment(r, [&](const std::vector<Strategy>& x) {
      Total sum = rep.constant;
      for (std::uint32_t g = 0; g < r.num_nodes(); ++g) sum += rep.costs(g)[x[g]];
      for (std::uint32_t e = 0; e < r.num_edges(); ++e)
        sum += rep.table(e)[static_cast<std::size_t>(x[r.edge_u(e)]) * r.strategies(r.edge_v(e)) +
                            x[r.edge_v(e)]];
      const Total cost = test::reduced_cost(r, x);
      CHECK(ceil_div(sum, kScale) >= bound);
      if (!priced) CHECK(sum == kScale * cost);
      if (evaluate(p, r.expand(x)).feasible) {
        CHECK(sum <= kScale * cost);
        ++within;
      }
    });
  }
  CHECK(within > 500);
}

TEST_CASE("a finished proof search holds the brute-force optimum, whatever the duals") {
  // Any multipliers and messages give a valid reparametrisation, so a search that prunes
  // against it and finishes has the optimum (within the limit, forbidden-free): tight
  // limits and loose, forbidden entries, the engine's duals and random ones; with and
  // without the memory lookahead and the cells' knapsacks.
  Rng rng(59);
  int proved = 0, improved = 0;
  for (int round = 0; round < 1500; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(10));
    spec.max_strategies = 4;
    spec.forbidden_share = 0.15;
    spec.limit_factor = round % 4 == 0 ? 0 : 1.0 + 0.5 * rng.uniform();
    const Problem p = test::random_problem(rng, spec);
    const auto opt = test::brute_force_optimum(p, /*forbidden_free=*/true);
    if (!opt) continue;
    CAPTURE(round);
    const Reduced r = Reduced::build(p, round % 2 == 0);
    LocalState state(r);
    std::vector<Strategy> start;
    if (!r.contract(least_memory_assignment(p), start)) continue;
    state.assign(start);
    if (!state.feasible() || state.cost() >= kForbidden) continue;
    Reparametrisation rep;
    if (round % 2 == 0) {
      BoundEngine engine(r, CostNetwork::from_reduced(r), BoundOptions{});
      for (int step = 0; step < 1 + static_cast<int>(rng.below(20)); ++step)
        engine.step(state.cost(), nullptr);
      rep = engine.best_reparametrisation();
    } else {
      std::vector<Total> lambda, msg;
      // Messages of 2^62 make node costs of either sign (the search must not count on >= 0).
      random_duals(rng, r, lambda, msg, round % 4 == 1);
      certify(r, lambda, msg, kBits, &rep);
    }
    const Total before = state.cost();
    // The static bound, the memory lookahead, and the lookahead with the cells' knapsacks.
    for (const int variant : {0, 1, 2}) {
      CAPTURE(variant);
      LocalState copy = state;
      ProofSearch search(r, rep, variant >= 1, variant >= 2);
      const StopControl stop;
      const ProofSearch::Outcome out = search.run(copy, std::uint64_t{1} << 40, stop);
      REQUIRE(out.complete);
      const Evaluation ev = evaluate(p, r.expand(copy.assignment()));
      CHECK(ev.feasible);
      CHECK(ev.cost == copy.cost());
      CHECK(ev.cost == *opt);
      CHECK(out.improved == (*opt < before));
      improved += out.improved;
      ++proved;
    }
  }
  CHECK(proved > 3 * 600);
  CHECK(improved > 3 * 100);
}

TEST_CASE("the proof search's memory lookahead and knapsacks keep the brute-force optimum") {
  // Memory that binds among many groups (7-8 nodes, up to 4 strategies, a limit of 1.0-1.15
  // times the least-memory peak, huge values a quarter of the time). Each search starts
  // from the second cheapest feasible answer, so that its bar is just above the optimum:
  // a bound above the optimum anywhere on the optimum's path cuts it off.
  Rng rng(71);
  int proved = 0;
  for (int round = 0; round < 400; ++round) {
    test::TinySpec spec;
    spec.nodes = 7 + static_cast<int>(rng.below(2));
    spec.edges = static_cast<int>(rng.below(8));
    spec.max_strategies = 4;
    spec.forbidden_share = 0.05;
    spec.huge_values = round % 4 == 3;
    spec.limit_factor = round % 3 == 0 ? 1.0 : 1.0 + 0.15 * rng.uniform();  // 1: exactly full
    const Problem p = test::random_problem(rng, spec);
    const auto opt = test::brute_force_optimum(p, /*forbidden_free=*/true);
    if (!opt) continue;
    std::optional<std::pair<Total, std::vector<Strategy>>> second;
    test::for_each_assignment(p, [&](const std::vector<Strategy>& a) {
      const Evaluation e = evaluate(p, a);
      if (e.feasible && e.cost > *opt && e.cost < kForbidden && (!second || e.cost < second->first))
        second = {e.cost, a};
    });
    if (!second) continue;
    CAPTURE(round);
    const Reduced r = Reduced::build(p, round % 2 == 0);
    LocalState state(r);
    std::vector<Strategy> start;
    if (!r.contract(second->second, start)) continue;
    state.assign(start);
    REQUIRE(state.feasible());
    BoundEngine engine(r, CostNetwork::from_reduced(r), BoundOptions{});
    for (int step = 0; step < 1 + static_cast<int>(rng.below(10)); ++step)
      engine.step(state.cost(), nullptr);
    const Reparametrisation rep = engine.best_reparametrisation();
    for (const bool knapsack : {false, true}) {
      CAPTURE(knapsack);
      LocalState copy = state;
      ProofSearch search(r, rep, true, knapsack);
      const ProofSearch::Outcome out = search.run(copy, std::uint64_t{1} << 40, StopControl{});
      REQUIRE(out.complete);
      CHECK(out.improved);
      CHECK(copy.cost() == *opt);
      CHECK(evaluate(p, r.expand(copy.assignment())).cost == *opt);
      ++proved;
    }
  }
  CHECK(proved > 2 * 150);
}

namespace {
// 3-7 nodes, 2-9 edges, some forbidden entries, a limit up to 1.4 times the least peak.
Problem small_limited_problem(Rng& rng) {
  test::TinySpec spec;
  spec.nodes = 3 + static_cast<int>(rng.below(5));
  spec.edges = 2 + static_cast<int>(rng.below(8));
  spec.forbidden_share = 0.1;
  spec.limit_factor = 1.0 + 0.4 * rng.uniform();
  return test::random_problem(rng, spec);
}

// Deterministic, one worker, exact mode off: only the bound and its proof searches prove.
SolverOptions without_exact_mode() {
  SolverOptions o = test::deterministic_options(1, 1);
  o.exact.max_nodes = 0;
  o.exact.dp_entries = 0;
  return o;
}
}  // namespace

TEST_CASE("proof searches run above the gap within their share of the bound's work") {
  // With the gap's gate closed (exact.prove-gap 0), the proof searches run only on their
  // share of the work: they prove small instances whose duality gap the bound never
  // closes. The share from the start, or only once the bound has stalled, does; with no
  // share, only the bound meeting the cost proves anything.
  Rng rng(67);
  struct Shares {
    double from_start, once_stalled;
  };
  const std::array<Shares, 3> variants{{{0.25, 0}, {0, 3}, {0, 0}}};
  std::array<int, 3> proven{};
  int optimum = 0;
  for (int round = 0; round < 60; ++round) {
    const Problem p = small_limited_problem(rng);
    const auto best = test::brute_force_optimum(p, /*forbidden_free=*/true);
    if (!best) continue;
    ++optimum;
    CAPTURE(round);
    for (std::size_t v = 0; v < variants.size(); ++v) {
      CAPTURE(v);
      SolverOptions o = without_exact_mode();
      o.exact.prove_gap = 0;
      o.exact.prove_share = variants[v].from_start;
      o.exact.prove_stalled_share = variants[v].once_stalled;
      o.exact.prove_stall_steps = 5;
      const test::Outcome out = test::solve_checked(p, o);
      if (out.result.status != SolveStatus::kOptimal) continue;
      CHECK(out.cost == best);
      ++proven[v];
    }
  }
  CHECK(proven[0] == optimum);
  CHECK(proven[1] == optimum);
  CHECK(proven[2] < optimum - 5);
}

TEST_CASE("without exact mode, the bound's proof search proves the optimum of small instances") {
  // Exact mode off: the only proof left is the proof search once the certified gap is
  // small (here: at any gap). Every optimal status it gives is the brute-force optimum.
  Rng rng(61);
  int proven = 0, optimum = 0;
  for (int round = 0; round < 80; ++round) {
    const Problem p = small_limited_problem(rng);
    SolverOptions o = without_exact_mode();
    o.exact.prove_gap = 1;
    const test::Outcome out = test::solve_checked(p, o);
    const auto best = test::brute_force_optimum(p, /*forbidden_free=*/true);
    optimum += best.has_value();
    if (out.result.status != SolveStatus::kOptimal) continue;
    REQUIRE(best.has_value());
    CHECK(out.cost == best);
    ++proven;
  }
  CHECK(proven == optimum);  // without the proof search, 37 of 61
  CHECK(proven > 50);
}
