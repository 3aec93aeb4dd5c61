// The reduced problem as a mixed-integer program (exact/mip_model) and CBC's branch-and-cut
// over it (exact/cbc_search): every assignment of thousands of tiny problems is a point of
// the model with the same cost, fitting its memory rows exactly when it fits the limit; CBC
// finds the brute-force optimum, proves a cutoff at it, never bounds above it, and writes
// nothing to stdout (the contest reads the answer's last line there).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>

#include "exact/cbc_search.hpp"
#include "exact/mip_model.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/solve.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

namespace iopddl::inline v0 {

namespace {

test::TinySpec tiny_spec(Rng& rng, int round) {
  test::TinySpec spec;
  spec.nodes = 1 + static_cast<int>(rng.below(7));
  spec.edges = static_cast<int>(rng.below(10));
  spec.max_strategies = 1 + static_cast<int>(rng.below(4));
  spec.forbidden_share = round % 3 == 0 ? 0.0 : 0.3;
  spec.limit_factor = round % 4 == 0 ? 0.0 : 1.0 + 0.05 * static_cast<double>(rng.below(4));
  return spec;
}

// The model's rows (memory rows apart) at a column point: each within its range.
bool base_rows_hold(const MipModel& m, const std::vector<double>& point) {
  std::vector<double> lhs(m.rows, 0.0);
  for (const auto& e : m.entries) lhs[e.row] += e.value * point[e.column];
  for (std::size_t i = 0; i < m.rows; ++i)
    if (lhs[i] < m.row_lower[i] - 1e-9 || lhs[i] > m.row_upper[i] + 1e-9) return false;
  for (std::size_t c = 0; c < m.columns; ++c)
    if (point[c] < 0 || point[c] > m.column_upper[c]) return false;
  return true;
}

bool picks_forbidden(const Problem& p, const std::vector<Strategy>& a) {
  return evaluate(p, a).forbidden_picks > 0;
}

// A generated core of 40 groups under folded leaves that CBC proves in a second or two.
Problem core_of_40() {
  GeneratorOptions g;
  g.family = Family::kCore;
  g.nodes = 40;
  g.seed = 2;
  g.leaves = 2;
  return generate_problem(g);
}

}  // namespace

TEST_CASE("every assignment of a tiny problem is a point of the model with its cost") {
  Rng rng(3301);
  int fitting = 0, overloading = 0;
  for (int round = 0; round < 600; ++round) {
    const Problem p = test::random_problem(rng, tiny_spec(rng, round));
    const Reduced r = Reduced::build(p, round % 2 == 0);
    const MipModel m = MipModel::build(r);
    CAPTURE(round);
    CHECK(m.exact_in_doubles);
    test::for_each_reduced_assignment(r, [&](const std::vector<Strategy>& x) {
      const std::vector<Strategy> a = r.expand(x);
      const Evaluation e = evaluate(p, a);
      const std::vector<double> point = m.columns_of(r, x);
      // An answer with a forbidden pick has no point; every other one is a point.
      CHECK(base_rows_hold(m, point) == !picks_forbidden(p, a));
      if (picks_forbidden(p, a)) return;
      double objective = 0;
      for (std::size_t c = 0; c < m.columns; ++c) objective += m.objective[c] * point[c];
      CHECK(objective == static_cast<double>(e.cost));
      CHECK(MipModel::cost(r, x) == e.cost);
      CHECK(m.assignment(r, point.data()) == x);
      // The memory rows hold exactly when the answer fits the limit.
      CHECK(m.overloaded(x).empty() == e.feasible);
      ++(e.feasible ? fitting : overloading);
    });
  }
  CHECK(fitting > 1000);
  CHECK(overloading > 1000);
}

TEST_CASE("CBC finds the optimum of every tiny problem and proves a cutoff at it") {
  Rng rng(3302);
  Log log(stderr, nullptr, true);
  const StopControl stop;
  int solved = 0, infeasible = 0;
  for (int round = 0; round < 150; ++round) {
    const Problem p = test::random_problem(rng, tiny_spec(rng, round));
    const Reduced r = Reduced::build(p, round % 2 == 0);
    CAPTURE(round);
    // The model has no point that picks a forbidden entry.
    const std::optional<Total> best = test::brute_force_optimum(p, true);
    const CbcSearch::Outcome any = CbcSearch::run(r, std::nullopt, stop, nullptr, log);
    REQUIRE(any.ran);
    CHECK(any.complete);
    REQUIRE(any.bound.has_value());
    if (!best) {
      CHECK(!any.x);
      CHECK(*any.bound == kForbidden);
      ++infeasible;
      continue;
    }
    REQUIRE(any.x.has_value());
    const Evaluation e = evaluate(p, r.expand(*any.x));
    CHECK(e.feasible);
    CHECK(e.cost == *best);
    CHECK(*any.bound == *best);
    // Below the optimum: nothing, and the optimum is the bound.
    const CbcSearch::Outcome none = CbcSearch::run(r, *best, stop, nullptr, log);
    CHECK(none.complete);
    CHECK(!none.x);
    REQUIRE(none.bound.has_value());
    CHECK(*none.bound == *best);
    // A search stopped at once (or finished before its first look) bounds no higher than
    // the optimum.
    const std::atomic<bool> cancelled{true};
    const CbcSearch::Outcome cut = CbcSearch::run(r, *best + 1, stop, &cancelled, log);
    if (cut.bound) CHECK(*cut.bound <= *best);
    ++solved;
  }
  CHECK(solved > 80);
  CHECK(infeasible > 3);
}

TEST_CASE("CBC's bounds on the way never pass the optimum it proves") {
  // A generated core (40 groups under folded leaves) that CBC proves in a second or two,
  // sending its rising bound on the way; its heuristics' small searches have bounds of
  // their own, above the optimum, that must not get through.
  const Problem p = core_of_40();
  const Reduced r = Reduced::build(p, true);
  Log log(stderr, nullptr, true);
  const auto search = CbcSearch::start(r, std::nullopt, log, {});
  REQUIRE(search != nullptr);
  std::vector<Total> bounds;
  std::optional<std::vector<Strategy>> x;
  CbcSearch::Update u;
  while (!u.over) {
    u = search->poll(1);
    if (u.bound) bounds.push_back(*u.bound);
    if (u.x) x = u.x;
  }
  REQUIRE(u.complete);
  REQUIRE(x.has_value());
  const Evaluation e = evaluate(p, r.expand(*x));
  CHECK(e.feasible);
  REQUIRE(bounds.size() >= 2);  // some on the way, and the optimum at the end
  CHECK(bounds.back() == e.cost);
  for (Total b : bounds) CHECK(b <= e.cost);
  CHECK(std::is_sorted(bounds.begin(), bounds.end()));
}

TEST_CASE(
    "the bound's run proves by CBC the brute-force optimum the Lagrangian bound leaves open") {
  Rng rng(3305);
  Log log(stderr, nullptr, true);
  int by_cbc = 0;
  for (int round = 0; round < 240; ++round) {
    const Problem p = test::random_problem(rng, tiny_spec(rng, round));
    const std::optional<Total> best = test::brute_force_optimum(p, true);
    if (!best) continue;
    CAPTURE(round);
    SolverOptions o;
    o.exact.prove_nodes = 0;  // no proof search: CBC or the bound meeting the cost
    // A safety net only: CBC ends a tiny search in milliseconds, and a run ends at its proof.
    StopControl stop(Clock::now(), 30);
    IncumbentStore store(&stop);
    const BoundOutcome out = solve_bound(p, o, stop, store, log, 0);
    REQUIRE(out.status == SolveStatus::kOptimal);
    CHECK(store.cost() == *best);
    const std::vector<Improvement> bounds = store.bound_history();
    REQUIRE(!bounds.empty());
    CHECK(bounds.back().cost == *best);
    if (bounds.back().source == "cbc") ++by_cbc;
  }
  MESSAGE("proven by CBC: ", by_cbc);
  CHECK(by_cbc > 15);
}

TEST_CASE("CBC's child keeps to its memory and its program to its size") {
  const Problem p = core_of_40();
  const Reduced r = Reduced::build(p, true);
  Log log(stderr, nullptr, true);
  const StopControl stop;
  CbcLimits limits;
  limits.megabytes = 1;  // CBC's preprocessing alone takes more: the child ends unfinished
  const CbcSearch::Outcome starved = CbcSearch::run(r, std::nullopt, stop, nullptr, log, limits);
  CHECK(starved.ran);
  CHECK(!starved.complete);
  CHECK(!starved.x);
  limits.megabytes = SIZE_MAX;
  limits.max_nonzeros = MipModel::build(r).nonzeros() - 1;
  CHECK(MipModel::build(r, limits.max_nonzeros).too_large);
  CHECK(!CbcSearch::run(r, std::nullopt, stop, nullptr, log, limits).ran);
  CHECK(!MipModel::build(r, SIZE_MAX).too_large);
}

TEST_CASE("CBC leaves out a model whose sums doubles cannot hold exactly") {
  Rng rng(3303);
  test::TinySpec spec;
  spec.nodes = 4;
  spec.edges = 4;
  spec.huge_values = true;
  const Problem p = test::random_problem(rng, spec);
  const Reduced r = Reduced::build(p, true);
  CHECK(!MipModel::build(r).exact_in_doubles);
  Log log(stderr, nullptr, true);
  CHECK(!CbcSearch::run(r, std::nullopt, StopControl(), nullptr, log).ran);
}

TEST_CASE("CBC writes nothing to stdout and leaves no process behind") {
  Rng rng(3304);
  const Problem p = test::random_problem(rng, test::TinySpec{});
  const Reduced r = Reduced::build(p, false);
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  std::FILE* sink = std::tmpfile();
  REQUIRE(sink != nullptr);
  dup2(fileno(sink), STDOUT_FILENO);
  Log log(stderr, nullptr, true);
  const CbcSearch::Outcome out = CbcSearch::run(r, std::nullopt, StopControl(), nullptr, log);
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  CHECK(out.ran);
  struct stat written {};
  REQUIRE(fstat(fileno(sink), &written) == 0);
  CHECK(written.st_size == 0);
  std::fclose(sink);
  // Its child has been reaped: this process has none left.
  errno = 0;
  CHECK(waitpid(-1, nullptr, WNOHANG) == -1);
  CHECK(errno == ECHILD);
}

}  // namespace iopddl::inline v0
