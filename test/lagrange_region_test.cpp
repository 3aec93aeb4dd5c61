// The bound split into regions (what the MPI coordinator sums, one region per rank),
// emulated in one process: the regions' parts sum exactly to the whole problem for every
// assignment its copies agree with, the summed bound never exceeds the brute-force
// optimum, and one region is the single-process bound engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "iopddl/evaluate.hpp"
#include "lagrange/ascent.hpp"
#include "lagrange/bound.hpp"
#include "lagrange/region.hpp"
#include "partition/regions.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;

namespace {

constexpr int kBits = 24;
const Total kScale = Total{1} << kBits;

Total signed_below(Rng& rng, std::uint64_t span) {
  return static_cast<Total>(rng.below(span)) - static_cast<Total>(span / 2);
}

// The scaled cost plus the priced usage of a reduced assignment, the limit term included:
// S cost(x) + sum_t lambda_t (usage_t(x) - limit).
Total priced_cost(const Reduced& r, const std::vector<Total>& lambda,
                  const std::vector<Strategy>& x) {
  Total v = kScale * test::reduced_cost(r, x);
  for (std::size_t t = 0; t < lambda.size(); ++t)
    v += lambda[t] * (test::segment_usage(r, x, t) - *r.original().usage_limit());
  return v;
}

Problem tiny(Rng& rng, bool forbidden) {
  test::TinySpec spec;
  spec.nodes = 2 + static_cast<int>(rng.below(5));
  spec.edges = 1 + static_cast<int>(rng.below(9));
  spec.forbidden_share = forbidden ? 0.2 : 0;
  spec.limit_factor = 1.0 + 0.4 * rng.uniform();
  return test::random_problem(rng, spec);
}

}  // namespace

TEST_CASE("the regions' reparametrised parts sum to every agreeing assignment's priced cost") {
  // Whatever the agreement multipliers and the messages: summed over the regions, with each
  // ghost at its group's strategy, the reparametrised costs are S cost(x) + sum_t lambda_t
  // usage_t(x), exactly; and each region's certified sum is at most its part.
  Rng rng(61);
  int checked = 0;
  for (int round = 0; round < 300; ++round) {
    const Problem p = tiny(rng, round % 3 == 0);
    const Reduced r = Reduced::build(p, round % 2 == 0);
    if (r.num_nodes() < 2) continue;
    const Partition part = make_regions(r, 2 + rng.below(2));
    const CopyLayout copies(r, part);
    std::vector<Total> lambda(p.usage_limit() ? p.num_segments() : 0);
    for (Total& l : lambda) l = rng.uniform() < 0.3 ? 0 : static_cast<Total>(rng.below(1u << 30));
    std::vector<Total> agreement(copies.begin.back());
    for (Total& a : agreement) a = signed_below(rng, std::uint64_t{1} << 40);
    std::vector<RegionShape> shapes;
    std::vector<Reparametrisation> reps(part.regions.size());
    std::vector<Total> sums;
    for (std::uint32_t k = 0; k < part.regions.size(); ++k) {
      shapes.emplace_back(r, part, copies, k);
      std::size_t messages = 0;
      for (std::size_t le = 0; le < shapes[k].edge.size(); ++le) {
        const std::uint32_t e = shapes[k].edge[le];
        messages += static_cast<std::size_t>(r.strategies(r.edge_u(e))) + r.strategies(r.edge_v(e));
      }
      std::vector<Total> msg(messages);
      for (Total& m : msg) m = signed_below(rng, std::uint64_t{1} << 36);
      sums.push_back(certify_region(r, shapes[k], copies, lambda, agreement, msg, kBits, &reps[k]));
    }
    const Total limit = p.usage_limit().value_or(0);
    Total priced = 0;
    for (Total l : lambda) priced += l;
    test::for_each_reduced_assignment(r, [&](const std::vector<Strategy>& x) {
      Total total = -priced * limit;
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        const RegionShape& s = shapes[k];
        Total part_cost = 0;
        for (std::size_t i = 0; i < s.group.size(); ++i)
          part_cost += reps[k].costs(static_cast<std::uint32_t>(i))[x[s.group[i]]];
        for (std::size_t le = 0; le < s.edge.size(); ++le) {
          CHECK(*std::min_element(reps[k].table(static_cast<std::uint32_t>(le)),
                                  reps[k].table(static_cast<std::uint32_t>(le + 1))) >= 0);
          const std::uint32_t e = s.edge[le];
          part_cost += reps[k].table(static_cast<std::uint32_t>(
              le))[static_cast<std::size_t>(x[r.edge_u(e)]) * r.strategies(r.edge_v(e)) +
                   x[r.edge_v(e)]];
        }
        CHECK(sums[k] <= part_cost);
        total += part_cost;
      }
      CHECK(total == priced_cost(r, lambda, x));
    });
    ++checked;
  }
  CHECK(checked > 200);
}

TEST_CASE("the bound summed over regions never exceeds the brute-force optimum") {
  // The coordinator's loop in one process: every region bounded under the shared
  // multipliers, the sums certified, the multipliers stepped from the assembly.
  Rng rng(67);
  int checked = 0, moved = 0;
  for (int round = 0; round < 300; ++round) {
    const Problem p = tiny(rng, round % 4 == 0);
    const auto optimum = test::brute_force_optimum(p);
    const Reduced r = Reduced::build(p);
    if (!optimum || r.num_nodes() < 2) continue;
    const Partition part = make_regions(r, 2 + rng.below(2));
    const CopyLayout copies(r, part);
    BoundOptions o;
    DualAscent ascent(r, copies, o);
    std::vector<std::unique_ptr<RegionBound>> regions;
    for (std::uint32_t k = 0; k < part.regions.size(); ++k)
      regions.push_back(std::make_unique<RegionBound>(r, RegionShape(r, part, copies, k), copies));
    for (int step = 0; step < 12; ++step) {
      Total sum = 0;
      std::vector<Total> usage(p.num_segments() + 1, 0), copy(copies.begin.back(), 0),
          owner(copies.begin.back(), 0);
      std::vector<Strategy> owners(r.num_nodes(), -1);
      for (const auto& region : regions) {
        sum += region->solve(ascent.memory(), ascent.agreement(), o.iterations, 2, kBits, nullptr);
        region->add_usage(usage);
        region->add_labels(owners);
        region->add_copy_costs(copy, owner);
      }
      REQUIRE(std::find(owners.begin(), owners.end(), -1) == owners.end());
      const Total bound = ascent.bound(sum);
      CHECK(bound <= *optimum);
      ascent.step(bound, optimum, usage);
      moved += ascent.agreement() != std::vector<double>(ascent.agreement().size(), 0.0);
      ascent.average_copies(copy, owner);
    }
    ++checked;
  }
  CHECK(checked > 150);
  CHECK(moved > 0);  // the agreement multipliers had something to do
}

TEST_CASE("one region is the whole problem, and steps as the bound engine does") {
  Rng rng(71);
  for (int round = 0; round < 60; ++round) {
    const Problem p = tiny(rng, round % 3 == 0);
    const Reduced r = Reduced::build(p);
    const Partition part = make_regions(r, 1);
    const CopyLayout copies(r, part);
    const RegionShape whole = RegionShape::whole(r), one(r, part, copies, 0);
    CHECK(one.group == whole.group);
    CHECK(one.edge == whole.edge);
    CHECK(one.eu == whole.eu);
    CHECK(one.ev == whole.ev);
    CHECK(one.owned == whole.owned);
    CHECK(copies.size() == 0);
    BoundOptions o;
    o.lp_every = 0;  // the engine's LP steps have no counterpart in the regions' rounds
    BoundEngine engine(r, CostNetwork::from_reduced(r), o);
    RegionBound region(r, one, copies);
    DualAscent ascent(r, copies, o);
    const std::optional<Total> upper = test::brute_force_optimum(p);
    for (int step = 0; step < 10; ++step) {
      const Total expected = engine.step(upper, nullptr);
      const Total bound = ascent.bound(
          region.solve(ascent.memory(), ascent.agreement(), o.iterations, 2, kBits, nullptr));
      CHECK(bound == expected);
      std::vector<Total> usage(p.num_segments() + 1, 0);
      region.add_usage(usage);
      ascent.step(bound, upper, usage);
      CHECK(ascent.memory() == engine.multipliers());
    }
  }
}

TEST_CASE("averaging a group's parts never lowers the regions' bound at the same messages") {
  // The agreement update moves each group's reparametrised costs in its owner's region and
  // in its copies to their average: with the messages kept, the sum of the regions'
  // certified minima may only rise (or fall by at most one unit per copy, the floor).
  Rng rng(73);
  int rose = 0, checked = 0;
  for (int round = 0; round < 300; ++round) {
    const Problem p = tiny(rng, round % 4 == 0);
    const Reduced r = Reduced::build(p);
    if (r.num_nodes() < 2) continue;
    const Partition part = make_regions(r, 2 + rng.below(2));
    const CopyLayout copies(r, part);
    if (copies.size() == 0) continue;
    BoundOptions o;
    DualAscent ascent(r, copies, o);
    std::vector<double> memory(ascent.memory().size());
    for (double& m : memory) m = rng.uniform() < 0.5 ? 0 : rng.uniform() * 1e-3;
    ascent.set_memory(memory);
    std::vector<double> agreement(copies.begin.back());
    for (double& a : agreement) a = (rng.uniform() - 0.5) * 1e4;
    ascent.set_agreement(agreement);
    std::vector<std::unique_ptr<RegionBound>> regions;
    std::vector<Total> copy(copies.begin.back(), 0), owner(copies.begin.back(), 0);
    Total before = 0;
    for (std::uint32_t k = 0; k < part.regions.size(); ++k) {
      regions.push_back(std::make_unique<RegionBound>(r, RegionShape(r, part, copies, k), copies));
      before += regions.back()->solve(ascent.memory(), ascent.agreement(),
                                      static_cast<int>(1 + rng.below(3)), 0, kBits, nullptr);
      regions.back()->add_copy_costs(copy, owner);
    }
    ascent.average_copies(copy, owner);
    Total after = 0;
    for (const auto& region : regions)
      after += certify_region(
          r, region->shape(), copies, certified_integers(ascent.memory(), kBits),
          certified_integers(ascent.agreement(), kBits), region->messages(), kBits, nullptr);
    CHECK(after >= before - static_cast<Total>(copies.size()));
    rose += after > before;
    ++checked;
  }
  CHECK(checked > 100);
  CHECK(rose > checked / 2);
}
