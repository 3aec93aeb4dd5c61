// Region rounds (src/regional/, src/coordinator/assembly.hpp): a region's problem against
// the whole problem by brute force, the allowances, the assembly checked by the reference
// evaluator, and the simulation of k machines.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "coordinator/assembly.hpp"
#include "coordinator/memory_prices.hpp"
#include "iopddl/generate.hpp"
#include "local/baseline.hpp"
#include "partition/regions.hpp"
#include "reduce/reduced.hpp"
#include "regional/region_problem.hpp"
#include "regional/region_rounds.hpp"
#include "regional/simulate.hpp"
#include "regional/whole_member.hpp"
#include "support.hpp"

namespace iopddl::inline v0 {
namespace {

// A feasible assignment of `p` drawn at random (nullopt if none was found in 200 draws).
std::optional<std::vector<Strategy>> random_feasible(const Problem& p, Rng& rng) {
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<Strategy> x(p.num_nodes());
    for (NodeId v = 0; v < p.num_nodes(); ++v)
      x[v] = static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(p.strategies(v))));
    if (evaluate(p, x).feasible) return x;
  }
  return std::nullopt;
}

// A random split of the nodes into `count` regions (sorted node lists).
std::vector<std::vector<NodeId>> random_regions(const Problem& p, std::size_t count, Rng& rng) {
  std::vector<std::vector<NodeId>> regions(count);
  for (NodeId v = 0; v < p.num_nodes(); ++v) regions[rng.below(count)].push_back(v);
  return regions;
}

// A change of `region` with gain `gain`: each of `nodes` in it at random, with a random label.
coordinator::RegionChange random_change(const Problem& p, std::uint32_t region,
                                        std::span<const NodeId> nodes, Total gain, Rng& rng) {
  coordinator::RegionChange c;
  c.region = region;
  c.gain = gain;
  for (NodeId v : nodes)
    if (rng.below(2)) {
      c.nodes.push_back(v);
      c.labels.push_back(
          static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(p.strategies(v)))));
    }
  return c;
}

// A generated instance of `family`.
Problem generated(Family family, std::uint32_t nodes, std::uint64_t seed) {
  GeneratorOptions g;
  g.family = family;
  g.nodes = nodes;
  g.seed = seed;
  return generate_problem(g);
}

// A generated memory-family instance.
Problem memory_instance(std::uint32_t nodes, std::uint64_t seed) {
  return generated(Family::kMemory, nodes, seed);
}

test::TinySpec spec() {
  test::TinySpec s;
  s.nodes = 6;
  s.edges = 7;
  s.limit_factor = 1.3;
  return s;
}

TEST_CASE("regional: a region's answers fit the whole problem, at a constant cost offset") {
  Rng rng(11);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Problem p = test::random_problem(rng, spec());
    const auto x = random_feasible(p, rng);
    if (!x) continue;
    const auto regions = random_regions(p, 2, rng);
    const std::vector<NodeId>& nodes = regions[0];
    if (nodes.empty()) continue;
    const std::vector<Total> usage = coordinator::usage_profile(p, *x);
    const std::vector<Total> room = coordinator::room_profile(p);
    const std::vector<Total> capacity = coordinator::allowance(p, *x, nodes, usage, room);
    const RegionProblem rp = region_problem(p, *x, nodes, capacity);
    REQUIRE(rp.nodes == nodes);
    std::optional<Total> offset;
    test::for_each_assignment(rp.problem, [&](const std::vector<Strategy>& y) {
      std::vector<Strategy> whole = *x;
      for (std::size_t i = 0; i < nodes.size(); ++i) whole[nodes[i]] = y[i];
      const Evaluation in_region = evaluate(rp.problem, y), in_whole = evaluate(p, whole);
      if (in_region.feasible) CHECK(in_whole.feasible);
      if (in_whole.forbidden_picks > 0 || in_region.forbidden_picks > 0) return;
      const Total d = in_whole.cost - in_region.cost;
      if (!offset) offset = d;
      CHECK(d == *offset);
      ++checked;
    });
    // the incumbent's own labels fit the region's problem
    std::vector<Strategy> own(rp.problem.num_nodes(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) own[i] = (*x)[nodes[i]];
    CHECK(evaluate(rp.problem, own).feasible);
  }
  CHECK(checked > 100);
}

TEST_CASE("regional: the allowances never sum past the limit and cover each region's usage") {
  Rng rng(12);
  for (int trial = 0; trial < 60; ++trial) {
    const Problem p = test::random_problem(rng, spec());
    const auto x = random_feasible(p, rng);
    if (!x || !p.usage_limit()) continue;
    const auto regions = random_regions(p, 3, rng);
    const std::vector<Total> usage = coordinator::usage_profile(p, *x);
    const std::vector<Total> room = coordinator::room_profile(p);
    std::vector<Total> sum(p.num_segments(), 0);
    for (const auto& nodes : regions) {
      const std::vector<Total> a = coordinator::allowance(p, *x, nodes, usage, room);
      for (std::size_t s = 0; s < sum.size(); ++s) sum[s] += a[s];
      // its own usage: the profile of its nodes alone
      std::vector<Total> mine(p.num_segments(), 0);
      for (NodeId v : nodes)
        for (std::uint32_t s = p.seg_lo(v); s < p.seg_hi(v); ++s)
          mine[s] += p.usages(v)[static_cast<std::size_t>((*x)[v])];
      for (std::size_t s = 0; s < sum.size(); ++s) CHECK(a[s] >= mine[s]);
    }
    for (std::size_t s = 0; s < sum.size(); ++s) CHECK(sum[s] <= *p.usage_limit());
  }
}

TEST_CASE(
    "regional: a priced region's answers differ from the whole's by a constant and their prices") {
  Rng rng(21);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Problem p = test::random_problem(rng, spec());
    const auto x = random_feasible(p, rng);
    if (!x || !p.usage_limit()) continue;
    const auto regions = random_regions(p, 2, rng);
    const std::vector<NodeId>& nodes = regions[0];
    if (nodes.empty()) continue;
    std::vector<double> prices(p.num_segments());
    for (double& m : prices) m = static_cast<double>(rng.below(4)) * 0.37;
    const std::vector<double> prefix = coordinator::prefix_sums(prices);
    const std::vector<Total> usage = coordinator::usage_profile(p, *x);
    const std::vector<Total> room = coordinator::room_profile(p);
    const std::vector<Total> capacity = coordinator::allowance(p, *x, nodes, usage, room, 3.0);
    const RegionProblem rp = region_problem(p, *x, nodes, capacity, prefix);
    std::optional<Total> offset;
    test::for_each_assignment(rp.problem, [&](const std::vector<Strategy>& y) {
      std::vector<Strategy> whole = *x;
      Total terms = 0;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        whole[nodes[i]] = y[i];
        terms += coordinator::priced_term(p, prefix, nodes[i], y[i]);
      }
      const Evaluation in_region = evaluate(rp.problem, y), in_whole = evaluate(p, whole);
      if (in_region.feasible) CHECK(in_whole.feasible);  // overcommitted: alone it still fits
      if (in_whole.forbidden_picks > 0 || in_region.forbidden_picks > 0) return;
      const Total d = in_whole.cost + terms - in_region.cost;
      if (!offset) offset = d;
      CHECK(d == *offset);
      ++checked;
    });
  }
  CHECK(checked > 100);
}

TEST_CASE("regional: an overcommitted allowance is at least the share and at most the slack") {
  Rng rng(22);
  int wider = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Problem p = test::random_problem(rng, spec());
    const auto x = random_feasible(p, rng);
    if (!x || !p.usage_limit()) continue;
    const auto regions = random_regions(p, 3, rng);
    const std::vector<Total> usage = coordinator::usage_profile(p, *x);
    const std::vector<Total> room = coordinator::room_profile(p);
    for (const auto& nodes : regions) {
      const std::vector<Total> share = coordinator::allowance(p, *x, nodes, usage, room);
      const std::vector<Total> wide = coordinator::allowance(p, *x, nodes, usage, room, 4.0);
      const std::vector<Total> own = coordinator::allowance(p, *x, nodes, usage, room, 0.0);
      for (std::size_t s = 0; s < share.size(); ++s) {
        CHECK(wide[s] >= share[s]);
        // the region's own usage plus the whole slack: beside the others' usage, the limit
        CHECK(wide[s] <= own[s] + std::max<Total>(0, *p.usage_limit() - usage[s]));
        wider += wide[s] > share[s];
      }
    }
  }
  CHECK(wider > 50);
}

TEST_CASE("regional: the memory prices rise where regions overbid the slack, fall where not") {
  Rng rng(23);
  int rose = 0, fell = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const Problem p = test::random_problem(rng, spec());
    const auto x = random_feasible(p, rng);
    if (!x || !p.usage_limit()) continue;
    const auto regions = random_regions(p, 3, rng);
    // two changes of region 0 (the larger gain counts), one of each other region
    std::vector<coordinator::RegionChange> changes;
    for (std::uint32_t i = 0; i < 4; ++i) {
      const std::uint32_t region = i == 3 ? 0 : i;
      const Total gain = 1 + static_cast<Total>(rng.below(9));
      changes.push_back(random_change(p, region, regions[region], gain, rng));
    }
    // the demand: the usage the regions' changes add if all were applied, one per region
    const std::size_t zero = changes[3].gain > changes[0].gain ? 3 : 0;
    std::vector<Strategy> all = *x;
    for (std::size_t i : {zero, std::size_t{1}, std::size_t{2}})
      for (std::size_t j = 0; j < changes[i].nodes.size(); ++j)
        all[changes[i].nodes[j]] = changes[i].labels[j];
    const std::vector<Total> before = coordinator::usage_profile(p, *x);
    const std::vector<Total> after = coordinator::usage_profile(p, all);
    const std::vector<Total> want = coordinator::bids(p, *x, changes).demand;
    for (std::size_t s = 0; s < want.size(); ++s) CHECK(want[s] == after[s] - before[s]);
    std::vector<double> prices(p.num_segments());
    for (double& m : prices) m = static_cast<double>(rng.below(3));
    std::vector<double> next = prices;
    coordinator::step_prices(next, want, before, *p.usage_limit(), 2.0, 0.5);
    for (std::size_t s = 0; s < prices.size(); ++s) {
      CHECK(next[s] >= 0);
      CHECK(std::abs(next[s] - prices[s]) <= 1.0 + 1e-9);  // step x reference at most
      const Total slack = *p.usage_limit() - before[s];
      if (want[s] > slack) {
        CHECK(next[s] > prices[s]);
        ++rose;
      } else if (want[s] < slack && prices[s] > 0) {
        CHECK(next[s] < prices[s]);
        ++fell;
      }
    }
    std::vector<double> still = prices;
    coordinator::step_prices(still, want, before, *p.usage_limit(), 2.0, 0.0);
    CHECK(still == prices);
  }
  CHECK(rose > 20);
  CHECK(fell > 20);
}

TEST_CASE("regional: the assembly keeps the incumbent feasible and its gain exact") {
  Rng rng(13);
  int improved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Problem p = test::random_problem(rng, spec());
    const auto x0 = random_feasible(p, rng);
    if (!x0) continue;
    const auto regions = random_regions(p, 3, rng);
    std::vector<coordinator::RegionChange> changes;
    for (std::uint32_t i = 0; i < regions.size(); ++i) {
      const Total gain = static_cast<Total>(rng.below(5));  // 0: skipped
      changes.push_back(random_change(p, i, regions[i], gain, rng));
    }
    std::vector<Strategy> x = *x0;
    std::vector<Total> usage = coordinator::usage_profile(p, x);
    const coordinator::AssemblyOutcome a = coordinator::assemble(p, x, usage, changes);
    const Evaluation before = evaluate(p, *x0), after = evaluate(p, x);
    CHECK(after.feasible);
    CHECK(after.cost == before.cost - a.gain);
    CHECK(a.gain >= 0);
    CHECK(usage == coordinator::usage_profile(p, x));
    improved += a.accepted > 0;
  }
  CHECK(improved > 10);
}

TEST_CASE(
    "regional: past max-regions, ranks improve copies, and one change per region is applied") {
  DistributedOptions d;
  d.max_regions = 4;
  CHECK(region_count(2, d) == 2);
  CHECK(region_count(4, d) == 3);
  CHECK(region_count(11, d) == 4);
  const Problem p = memory_instance(300, 3);
  const Reduced r = Reduced::build(p, true);
  SolverOptions o = test::deterministic_options(2, 1);
  RegionRounds rounds(p, r, o, region_count(11, d), std::vector<Strategy>(p.num_nodes(), 0));
  rounds.begin(0);
  // 10 region ranks on 4 regions: every region improved, by two or three ranks, in copies apart
  std::vector<std::vector<std::uint32_t>> copies(4);
  for (std::size_t w = 0; w < 10; ++w) {
    const std::vector<RegionRounds::Task> t = rounds.assigned(w, 10);
    REQUIRE(t.size() == 1);
    copies.at(t[0].region).push_back(t[0].copy);
  }
  for (const auto& c : copies) {
    CHECK(c.size() >= 2);
    CHECK(std::set<std::uint32_t>(c.begin(), c.end()).size() == c.size());
  }
  // No more ranks than regions: each region once, copy 0.
  for (std::size_t w = 0; w < 3; ++w)
    for (const RegionRounds::Task& t : rounds.assigned(w, 3)) {
      CHECK(t.region % 3 == w);
      CHECK(t.copy == 0);
    }

  // Two changes of one region that each lower the cost: only the larger is applied.
  ProblemBuilder b;
  const Cost costs[2] = {5, 0};
  const Usage usages[2] = {0, 0};
  b.add_node(0, 1, costs, usages);
  b.add_node(0, 1, costs, usages);
  const Problem two = std::move(b).build();
  const auto change = [](std::uint32_t region, NodeId v, Total gain) {
    coordinator::RegionChange c;
    c.region = region;
    c.gain = gain;
    c.nodes = {v};
    c.labels = {1};
    return c;
  };
  for (const std::uint32_t other : {0u, 1u}) {
    std::vector<Strategy> y = {0, 0};
    std::vector<Total> usage = coordinator::usage_profile(two, y);
    const coordinator::AssemblyOutcome a =
        coordinator::assemble(two, y, usage, {change(0, 0, 5), change(other, 1, 6)});
    CHECK(a.accepted == (other == 0 ? 1u : 2u));
    CHECK(evaluate(two, y).cost == 10 - a.gain);
    CHECK(y[1] == 1);  // the larger gain first
  }
}

TEST_CASE("regional: region ranks spend rank 0's work, what is left of it in one last round") {
  const std::uint64_t million = 1000000;
  RegionBudget budget(14, 8);  // 7 region ranks, 2 regions each
  // rank 0's phases: its start, pricing rounds, a long one, then a last one never matched
  const std::vector<std::uint64_t> phases = {4256 * million, 292 * million, 4213 * million,
                                             1776 * million};
  std::uint64_t total = 0, given = 0;
  for (std::size_t i = 0; i + 1 < phases.size(); ++i) {
    given += budget.round(phases[i]) * 2 * million;
    total += phases[i];
  }
  total += phases.back();
  CHECK(given <= total - phases.back());
  const std::uint64_t left = budget.last_round(total);
  CHECK(left == total - given);
  given += budget.round(left) * 2 * million;
  CHECK(given <= total);
  CHECK(given + 2 * million > total);    // every rank's work is rank 0's, within the rounding
  CHECK(budget.last_round(total) == 0);  // one last round only
  // Without region ranks, or with less than a million units per region left, none.
  RegionBudget alone(2, 1);
  CHECK(alone.last_round(100 * million) == 0);
  RegionBudget spent(14, 8);
  spent.round(10 * million);
  CHECK(spent.last_round(11 * million) == 0);
  CHECK(spent.last_round(12 * million) == 2 * million);
}

TEST_CASE("regional: changes cross the wire unchanged, and a malformed message is refused") {
  const Problem p = memory_instance(50, 3);
  NodeId wide = 0;  // a node with more than one strategy
  while (p.strategies(wide) < 2) ++wide;
  std::vector<coordinator::RegionChange> changes(3);
  changes[0].region = 4;
  changes[0].gain = (static_cast<Total>(7) << 64) + 5;  // past 2^64
  changes[0].nodes = {wide, 49};
  changes[0].labels = {1, 0};
  changes[2].region = 1;
  changes[2].gain = 3;
  changes[2].nodes = {0};
  changes[2].labels = {0};
  const std::vector<std::int64_t> wire = pack_changes(changes);
  std::size_t bytes = 0;
  for (const auto& c : changes) bytes += change_bytes(c);
  CHECK(wire.size() * sizeof(std::int64_t) == bytes);
  const std::vector<coordinator::RegionChange> back = unpack_changes(wire, p);
  REQUIRE(back.size() == changes.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    CHECK(back[i].region == changes[i].region);
    CHECK(back[i].gain == changes[i].gain);
    CHECK(back[i].nodes == changes[i].nodes);
    CHECK(back[i].labels == changes[i].labels);
  }
  std::vector<std::int64_t> bad = wire;
  bad.pop_back();  // the last change's label is missing
  CHECK_THROWS_AS(unpack_changes(bad, p), std::invalid_argument);
  bad = wire;
  bad[4] = 50;  // node 50 of 50
  CHECK_THROWS_AS(unpack_changes(bad, p), std::invalid_argument);
  bad = wire;
  bad[6] = p.strategies(wide);  // a label the node does not have
  CHECK_THROWS_AS(unpack_changes(bad, p), std::invalid_argument);
}

TEST_CASE("regional: a round's stale changes end in a feasible incumbent of exact cost") {
  // The region ranks improve the round's incumbent while rank 0 improves it too: the
  // changes are assembled into rank 0's better answer, never into an infeasible one.
  const Problem p = memory_instance(800, 11);
  const Reduced r = Reduced::build(p, true);
  SolverOptions o = test::deterministic_options(3, 1);
  StopControl stop;
  stop.ignore_deadline();
  IncumbentStore base(&stop);  // the least-memory baseline: far from the best
  Log quiet(stderr, &stop, true);
  solve_baseline(p, stop, base, quiet);
  const test::Outcome better = test::solve_checked(p, test::deterministic_options(20, 1));
  REQUIRE(base.has_solution());
  REQUIRE(better.cost);
  REQUIRE(*better.cost < base.cost());
  RegionRounds rounds(p, r, o, 4, base.assignment());
  CHECK(rounds.cost() == base.cost());
  rounds.begin(0);
  std::vector<coordinator::RegionChange> changes;
  Total claimed = 0;
  for (std::uint32_t i = 0; i < rounds.regions(); ++i) {
    changes.push_back(rounds.improve({i, 0}, 2, 0, stop));
    claimed += changes.back().gain;
  }
  CHECK(claimed > 0);
  // On the round's own incumbent the changes fit together and gain what they claim.
  RegionRounds same = rounds;
  const coordinator::AssemblyOutcome own = same.conclude({}, 0, changes);
  CHECK(own.refused == 0);
  CHECK(own.gain == claimed);
  CHECK(same.cost() == evaluate(p, same.incumbent()).cost);
  // Onto rank 0's better answer: it is taken, and what is assembled into it stays exact.
  const coordinator::AssemblyOutcome onto =
      rounds.conclude(better.assignment, *better.cost, changes);
  const Evaluation e = evaluate(p, rounds.incumbent());
  CHECK(e.feasible);
  CHECK(e.cost == rounds.cost());
  CHECK(rounds.cost() == *better.cost - onto.gain);
}

TEST_CASE(
    "regional: priced, overcommitted regions report their exact gains and fit once assembled") {
  const Problem p = memory_instance(800, 11);
  const Reduced r = Reduced::build(p, true);
  SolverOptions o = test::deterministic_options(3, 1);
  StopControl stop;
  stop.ignore_deadline();
  IncumbentStore base(&stop);
  Log quiet(stderr, &stop, true);
  solve_baseline(p, stop, base, quiet);
  REQUIRE(base.has_solution());
  RegionRounds rounds(p, r, o, 4, base.assignment(), {.overcommit = 3.0, .price_step = 1.0});
  // prices on every segment, large enough that the priced and the plain gains differ
  std::vector<double> prices(p.num_segments());
  Rng rng(24);
  for (double& m : prices) m = 1e-6 * static_cast<double>(rng.below(100));
  rounds.adopt_prices(prices);
  rounds.begin(0);
  const std::vector<double> prefix = coordinator::prefix_sums(prices);
  std::vector<coordinator::RegionChange> changes;
  int positive = 0, priced = 0;
  for (std::uint32_t i = 0; i < rounds.regions(); ++i) {
    changes.push_back(rounds.improve({i, 0}, 2, 0, stop));
    const coordinator::RegionChange& c = changes.back();
    if (c.nodes.empty()) continue;
    Total terms = 0;  // what the prices made of the change: its priced gain less its gain
    for (std::size_t j = 0; j < c.nodes.size(); ++j)
      terms += coordinator::priced_term(p, prefix, c.nodes[j], rounds.incumbent()[c.nodes[j]]) -
               coordinator::priced_term(p, prefix, c.nodes[j], c.labels[j]);
    priced += terms != 0;
    // alone on the incumbent, the change lowers the exact cost by its gain
    std::vector<Strategy> y = rounds.incumbent();
    for (std::size_t j = 0; j < c.nodes.size(); ++j) y[c.nodes[j]] = c.labels[j];
    const Evaluation e = evaluate(p, y);
    CHECK(e.feasible);
    CHECK(e.cost == rounds.cost() - c.gain);
    positive += c.gain > 0;
  }
  CHECK(positive > 0);
  CHECK(priced > 0);
  const coordinator::AssemblyOutcome a = rounds.conclude({}, 0, changes);
  const Evaluation e = evaluate(p, rounds.incumbent());
  CHECK(e.feasible);
  CHECK(e.cost == rounds.cost());
  CHECK(a.gain > 0);
  CHECK(rounds.prices() != prices);  // the round's step moved them
  // A round without a change asks for no memory: the prices fall (to 0 at the least),
  // with the last round's reference.
  rounds.adopt_prices(std::vector<double>(p.num_segments(), 1e3));
  const std::vector<double> before = rounds.prices();
  rounds.begin(1);
  rounds.conclude({}, 0, {});
  const std::vector<double>& after = rounds.prices();
  int fell = 0;
  for (std::size_t s = 0; s < before.size(); ++s) {
    CHECK(after[s] <= before[s]);
    fell += after[s] < before[s];
  }
  CHECK(fell > 0);
}

TEST_CASE("regional: contract_nearest matches contract wherever the input is representable") {
  Rng rng(14);
  for (int trial = 0; trial < 40; ++trial) {
    const Problem p = test::random_problem(rng, spec());
    const Reduced r = Reduced::build(p, true);
    test::for_each_assignment(p, [&](const std::vector<Strategy>& a) {
      std::vector<Strategy> exact, nearest;
      const bool fits = r.contract(a, exact);
      const std::size_t moved = r.contract_nearest(a, nearest);
      CHECK(fits == (moved == 0));
      if (fits) CHECK(nearest == exact);
    });
  }
}

TEST_CASE("regional: the regions cover every group, are all used and move between rounds") {
  const Problem p = memory_instance(600, 7);
  const Reduced r = Reduced::build(p, true);
  const std::vector<std::uint32_t> first = moving_owners(r, 4, 0), next = moving_owners(r, 4, 1);
  REQUIRE(first.size() == r.num_nodes());
  for (const auto& owners : {first, next}) {
    std::vector<std::size_t> size(4, 0);
    for (std::uint32_t o : owners) ++size.at(o);
    for (std::size_t s : size) CHECK(s > 0);
  }
  CHECK(first != next);
  CHECK(moving_owners(r, 4, 1) == next);  // the same round gives the same regions
}

TEST_CASE("regional: --polish-hint polishes a feasible hint before the rounds") {
  const Problem p = memory_instance(400, 6);
  // A hint from a short run, so that there is something left to polish.
  SolverOptions short_run = test::deterministic_options(1, 1);
  short_run.lns.windows = 0;  // no polish in it
  const test::Outcome first = test::solve_checked(p, short_run);
  REQUIRE(first.cost);
  // Improvements by a polish neighbourhood: with no polish on stagnation, only the hint's
  // polish makes them (the rounds' own answers are kept as "priced-<worker>").
  auto polished = [&](bool polish) {
    SolverOptions o = test::deterministic_options(5, 1);
    o.polish_hint = polish;
    o.stale_rounds = 1000000;  // no polish on stagnation
    StopControl stop;
    stop.ignore_deadline();
    IncumbentStore store(&stop);
    Log quiet(stderr, &stop, true);
    solve(p, o, stop, store, quiet, first.assignment);
    std::vector<std::string> sources;
    for (const Improvement& i : store.history())
      if (i.source != "hint" && i.source.rfind("priced", 0) != 0) sources.push_back(i.source);
    return sources;
  };
  CHECK_FALSE(polished(true).empty());
  CHECK(polished(false).empty());
}

TEST_CASE(
    "regional: --improve-hint starts worker 0 from the hint, whether or not the store has it") {
  // a core: presolve keeps the hint's strategies, so the two starts differ (below)
  const Problem p = generated(Family::kCore, 60, 2);
  SolverOptions short_run = test::deterministic_options(1, 1);
  short_run.lns.windows = 0;
  const test::Outcome first = test::solve_checked(p, short_run);
  REQUIRE(first.cost);
  // The answer of a run from the hint, the hint offered to the store first or not: a region
  // offers it first to measure its gain, and must not depend on the store refusing the
  // solve's second offer to take the improving path.
  auto run = [&](bool improve, bool offered_first) {
    SolverOptions o = test::deterministic_options(3, 1);
    o.improve_hint = improve;
    StopControl stop;
    stop.ignore_deadline();
    IncumbentStore store(&stop);
    Log quiet(stderr, &stop, true);
    if (offered_first) REQUIRE(offer_hint(p, first.assignment, store));
    solve(p, o, stop, store, quiet, first.assignment);
    REQUIRE(store.has_solution());
    CHECK(evaluate(p, store.assignment()).cost == store.cost());
    return store.assignment();
  };
  CHECK(run(true, false) == run(true, true));
  // without it the two differ (adopted by every worker, or improved once the store refused
  // the second offer), so the check above can tell
  CHECK(run(false, false) != run(false, true));
}

TEST_CASE("regional: one simulated rank is the single-process run, and k ranks reproduce") {
  const Problem p = memory_instance(400, 5);
  SolverOptions o = test::deterministic_options(20, 1);
  auto run = [&](std::size_t ranks, std::size_t threads = 1, std::size_t max_regions = 15) {
    DistributedOptions d;
    d.max_regions = max_regions;
    d.simulate_ranks = ranks;
    d.simulate_threads = threads;
    d.sync_rounds = 1;
    StopControl stop;
    stop.ignore_deadline();
    IncumbentStore store(&stop);
    Log quiet(stderr, &stop, true);
    simulate_ranks(p, o, d, stop, store, quiet);
    REQUIRE(store.has_solution());
    const Evaluation e = evaluate(p, store.assignment());
    CHECK(e.feasible);
    CHECK(e.cost == store.cost());
    return store.cost();
  };
  const test::Outcome plain = test::solve_checked(p, o);
  REQUIRE(plain.cost);
  CHECK(run(1) == *plain.cost);
  const Total three = run(3);
  CHECK(run(3) == three);
  // The ranks' steps side by side on several threads give the same answer.
  CHECK(run(3, 3) == three);
  CHECK(run(5, 2) == run(5, 1));
  CHECK(run(9, 4) == run(9, 1));
  // Copies of regions too (8 region ranks on 3 regions).
  CHECK(run(9, 4, 3) == run(9, 1, 3));
}

}  // namespace
}  // namespace iopddl::inline v0
