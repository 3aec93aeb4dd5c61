#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "../src/eval/usage_tree.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/rng.hpp"
#include "support.hpp"

using namespace iopddl;

namespace {

// A second, even plainer evaluation: usage summed at every integer time point.
struct Plain {
  Total cost = 0, peak = 0;
  std::int64_t peak_time = 0;
  bool feasible = true;
  std::size_t forbidden = 0;
};

Plain plain_evaluate(const Problem& p, const std::vector<Strategy>& a) {
  Plain r;
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    r.cost += p.costs(v)[a[v]];
    r.forbidden += p.costs(v)[a[v]] >= kForbidden;
  }
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    const Cost c = p.edge_costs(
        e)[static_cast<std::size_t>(a[p.edge_u(e)]) * p.strategies(p.edge_v(e)) + a[p.edge_v(e)]];
    r.cost += c;
    r.forbidden += c >= kForbidden;
  }
  std::int64_t tmin = INT64_MAX, tmax = INT64_MIN;
  for (NodeId v = 0; v < p.num_nodes(); ++v)
    if (p.interval_lo(v) < p.interval_hi(v)) {
      tmin = std::min(tmin, p.interval_lo(v));
      tmax = std::max(tmax, p.interval_hi(v));
    }
  bool first = true;
  for (std::int64_t t = tmin; t < tmax; ++t) {
    Total live = 0;
    for (NodeId v = 0; v < p.num_nodes(); ++v)
      if (p.interval_lo(v) <= t && t < p.interval_hi(v)) live += p.usages(v)[a[v]];
    if (first || live > r.peak) {
      r.peak = live;
      r.peak_time = t;
      first = false;
    }
    if (p.usage_limit() && live > *p.usage_limit()) r.feasible = false;
  }
  return r;
}

}  // namespace

TEST_CASE("the example's cost table checked by hand gives the optimum 445") {
  Problem p = read_problem(test::source_path("examples/example.json"));
  // [0, 0, 2, 1, 0]: nodes 15 + 55 + 35 + 75 + 95 = 275; edges: (0,1) 30, (0,2) 40,
  // (1,3) s=0,1 -> 10, (2,4) s=2 -> 30, (3,4) s=1 -> 60: 170. Total 445.
  Evaluation e = evaluate(p, std::vector<Strategy>{0, 0, 2, 1, 0});
  CHECK(e.valid);
  CHECK(e.node_cost == 275);
  CHECK(e.edge_cost == 170);
  CHECK(e.cost == 445);
  CHECK(e.feasible);
  CHECK(e.peak_usage == 50);
  CHECK(test::brute_force_optimum(p) == Total{445});
  // Strategy 1 of node 2 uses 20 during [50, 70) with nodes 0 and 1: 10 + 25 + 20 = 55 > 50.
  Evaluation over = evaluate(p, std::vector<Strategy>{0, 0, 1, 1, 0});
  CHECK_FALSE(over.feasible);
  CHECK(over.first_violation == 50);
  CHECK(over.peak_usage == 55);
}

TEST_CASE("the evaluator agrees with a per-time-point count on random tiny instances") {
  Rng rng(11);
  for (int round = 0; round < 300; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(8));
    spec.huge_values = round % 4 == 0;
    spec.limit_factor = round % 7 == 0 ? 0 : 1.0 + 0.3 * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    int checked = 0;
    test::for_each_assignment(p, [&](const std::vector<Strategy>& a) {
      if (checked++ > 50) return;
      Evaluation e = evaluate(p, a);
      Plain q = plain_evaluate(p, a);
      REQUIRE(e.valid);
      CHECK(e.cost == q.cost);
      CHECK(e.peak_usage == q.peak);
      if (q.peak > 0) CHECK(e.peak_time == q.peak_time);
      CHECK(e.feasible == q.feasible);
      CHECK(e.forbidden_picks == q.forbidden);
    });
  }
}

TEST_CASE("a malformed assignment is reported invalid, not evaluated") {
  Problem p = read_problem(test::source_path("examples/example.json"));
  CHECK_FALSE(evaluate(p, std::vector<Strategy>{0, 0, 2}).valid);
  Evaluation e = evaluate(p, std::vector<Strategy>{0, 0, 3, 1, 0});
  CHECK_FALSE(e.valid);
  CHECK(e.error.find("node 2") != std::string::npos);
  CHECK_FALSE(e.feasible);
}

TEST_CASE("the usage tree matches a plain array under random range adds") {
  Rng rng(5);
  for (int round = 0; round < 50; ++round) {
    const std::size_t n = 1 + rng.below(40);
    UsageTree tree(n);
    std::vector<Total> plain(n, 0);
    for (int op = 0; op < 200; ++op) {
      std::size_t lo = rng.below(n), hi = lo + rng.below(n - lo + 1);
      const Total d = static_cast<Total>(rng.below(1000)) - 500;
      tree.add(lo, hi, d);
      for (std::size_t i = lo; i < hi; ++i) plain[i] += d;
      std::size_t qlo = rng.below(n), qhi = qlo + 1 + rng.below(n - qlo);
      CHECK(tree.max(qlo, qhi) == *std::max_element(plain.begin() + qlo, plain.begin() + qhi));
      CHECK(tree.max() == *std::max_element(plain.begin(), plain.end()));
      const Total limit = static_cast<Total>(rng.below(600)) - 300;
      std::size_t first = n;
      for (std::size_t i = 0; i < n; ++i)
        if (plain[i] > limit) {
          first = i;
          break;
        }
      CHECK(tree.first_above(limit) == first);
      std::vector<std::size_t> above, expected;
      tree.all_above(limit, above);
      for (std::size_t i = 0; i < n; ++i)
        if (plain[i] > limit) expected.push_back(i);
      CHECK(above == expected);
    }
  }
}

TEST_CASE("an infeasibility report gives the least peak any assignment reaches and who is live") {
  Rng rng(8);
  int infeasible = 0;
  for (int i = 0; i < 200; ++i) {
    test::TinySpec spec;
    spec.nodes = 2 + i % 5;
    spec.limit_factor = i % 2 == 0 ? 0.8 : 1.1;  // below the least peak, or above it
    const Problem p = test::random_problem(rng, spec);
    Total least = -1;  // the least peak over every assignment
    test::for_each_assignment(p, [&](const std::vector<Strategy>& a) {
      const Total peak = evaluate(p, a).peak_usage;
      if (least < 0 || peak < least) least = peak;
    });
    const auto why = explain_infeasibility(p);
    const bool fits = !p.usage_limit() || least <= *p.usage_limit();
    REQUIRE(why.has_value() == !fits);
    if (!why) continue;
    ++infeasible;
    CHECK(why->least_peak == least);
    CHECK(why->limit == *p.usage_limit());
    Total live = 0;
    for (std::size_t k = 0; k < why->live.size(); ++k) {
      const auto [v, usage] = why->live[k];
      CHECK(p.interval_lo(v) <= why->time);
      CHECK(why->time < p.interval_hi(v));
      CHECK(usage == *std::min_element(p.usages(v).begin(), p.usages(v).end()));
      if (k > 0) CHECK(why->live[k - 1].second >= usage);
      live += usage;
    }
    CHECK(live == why->least_peak);  // every node live then, each at its least
    CHECK(why->describe().find("at time " + std::to_string(why->time)) != std::string::npos);
  }
  CHECK(infeasible > 50);
}
