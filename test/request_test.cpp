// XLA requests: built here with XLA's layout (followers, aliases, live matrices, negative
// resharding entries, soft budgets), solved, and judged by an evaluator of the request's
// own semantics written from the message alone; conversions both ways; refused requests.
#include "iopddl/request.hpp"

#include <google/protobuf/text_format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>

#include "auto_sharding_request.pb.h"
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "support.hpp"
#include "xla_request.hpp"

using namespace iopddl;
using Request = iopddl::xla::AutoShardingSolverRequest;

namespace {

FileBytes bytes_of(const std::string& text) {
  FileBytes b;
  b.buffer.reset(static_cast<char*>(std::calloc(text.size() + 64, 1)));
  std::memcpy(b.buffer.get(), text.data(), text.size());
  b.size = text.size();
  return b;
}

XlaRequest convert(const Request& r, bool text) {
  std::string data;
  if (text)
    google::protobuf::TextFormat::PrintToString(r, &data);
  else
    r.SerializeToString(&data);
  return read_request("request", bytes_of(data));
}

std::string refusal(const std::string& text) {
  try {
    read_request("bad.textproto", bytes_of(text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

// A random request of XLA's shape: some followers, aliases, negative resharding entries.
Request random_request(Rng& rng, int nodes, bool soft) {
  Request r;
  r.set_num_nodes(nodes);
  std::vector<int> k(static_cast<std::size_t>(nodes));
  for (int v = 0; v < nodes; ++v) {
    k[static_cast<std::size_t>(v)] = 1 + static_cast<int>(rng.below(3));
    r.add_s_len(k[static_cast<std::size_t>(v)]);
    auto* comp = r.add_computation_costs();
    auto* comm = r.add_communication_costs();
    auto* mem = r.add_memory_costs();
    for (int s = 0; s < k[static_cast<std::size_t>(v)]; ++s) {
      comp->add_costs(static_cast<double>(rng.below(40)));
      comm->add_costs(static_cast<double>(rng.below(5)));
      mem->add_costs(static_cast<double>(rng.below(20)));
    }
  }
  const int steps = 6;
  for (int t = 0; t < steps; ++t) r.add_live();
  for (int v = 0; v < nodes; ++v) {
    if (rng.below(5) == 0) continue;  // never live
    const int lo = static_cast<int>(rng.below(steps));
    const int hi = std::min(steps - 1, lo + static_cast<int>(rng.below(3)));
    for (int t = lo; t <= hi; ++t) r.mutable_live(t)->add_nodes(v);
  }
  for (int e = 0; e < nodes; ++e) {
    const int u = static_cast<int>(rng.below(nodes)), v = static_cast<int>(rng.below(nodes));
    if (u == v) continue;
    auto* pair = r.add_edges();
    pair->set_first(u);
    pair->set_second(v);
    auto* c = r.add_resharding_costs();
    for (int i = 0; i < k[static_cast<std::size_t>(u)] * k[static_cast<std::size_t>(v)]; ++i)
      c->add_costs(static_cast<double>(static_cast<int>(rng.below(30)) - 5));  // a few negative
  }
  // A follower of an earlier node with as many strategies (chains, never cycles).
  bool any_follower = false;
  std::vector<std::int64_t> follow(static_cast<std::size_t>(nodes), -1);
  for (int v = 1; v < nodes; ++v)
    if (rng.below(4) == 0) {
      const int j = static_cast<int>(rng.below(v));
      if (k[static_cast<std::size_t>(j)] == k[static_cast<std::size_t>(v)]) {
        follow[static_cast<std::size_t>(v)] = j;
        any_follower = true;
      }
    }
  if (any_follower)
    for (auto j : follow) r.add_s_follow(j);
  if (nodes >= 2 && rng.below(2) == 0) {
    auto* pair = r.add_aliases();
    pair->set_first(0);
    pair->set_second(1);
    auto* c = r.add_value_costs();
    for (int i = 0; i < k[0] * k[1]; ++i) c->add_costs(rng.below(3) == 0 ? 1.0 : 0.0);
  }
  // A budget around the least-memory peak.
  std::vector<double> least(steps, 0);
  for (int t = 0; t < steps; ++t)
    for (auto v : r.live(t).nodes()) {
      const auto& m = r.memory_costs(static_cast<int>(v)).costs();
      least[static_cast<std::size_t>(t)] += *std::min_element(m.begin(), m.end());
    }
  const double peak = *std::max_element(least.begin(), least.end());
  r.set_memory_budget(static_cast<std::int64_t>(peak * (soft ? 0.9 : 1.2)) + (soft ? 0 : 1));
  if (soft) r.mutable_overbudget_coeff()->set_coeff(3.0);
  return r;
}

// The usage at every step of `x`, from the message's liveness: the live matrix, or, as XLA
// writes it today, node_intervals (inclusive steps; entry num_nodes + g for group g of
// node_groups, whose members are all live then).
std::vector<double> usage_by_step(const Request& r, const std::vector<int>& x) {
  const auto m = [&](std::int64_t v) {
    return r.memory_costs(static_cast<int>(v)).costs(x[static_cast<std::size_t>(v)]);
  };
  std::vector<double> used;
  const auto add = [&](std::int64_t first, std::int64_t second, double amount) {
    if (second >= static_cast<std::int64_t>(used.size()))
      used.resize(static_cast<std::size_t>(second) + 1, 0);
    for (std::int64_t t = first; t <= second; ++t) used[static_cast<std::size_t>(t)] += amount;
  };
  if (r.node_intervals().empty()) {
    used.assign(static_cast<std::size_t>(r.live_size()), 0);
    for (int t = 0; t < r.live_size(); ++t)
      for (auto v : r.live(t).nodes()) used[static_cast<std::size_t>(t)] += m(v);
    return used;
  }
  for (int v = 0; v < r.num_nodes(); ++v)
    add(r.node_intervals(v).first(), r.node_intervals(v).second(), m(v));
  for (int g = 0; g < r.node_groups_size(); ++g) {
    double sum = 0;
    for (auto v : r.node_groups(g).prims()) sum += m(v);
    const auto& i = r.node_intervals(static_cast<int>(r.num_nodes()) + g);
    add(i.first(), i.second(), sum);
  }
  return used;
}

// The request's live matrix as XLA writes liveness today: each node's interval, some of
// them split into an own piece and a later piece held by a group (nodes whose later pieces
// are the same share one group), as XLA's memory-term reduction leaves them.
void to_intervals(Request& r, Rng& rng) {
  const auto n = static_cast<std::size_t>(r.num_nodes());
  std::vector<std::pair<std::int64_t, std::int64_t>> own(n, {1, 0});  // (1, 0): never live
  for (int t = 0; t < r.live_size(); ++t)
    for (auto v : r.live(t).nodes()) {
      auto& i = own[static_cast<std::size_t>(v)];
      if (i.first > i.second) i = {t, t};
      i.second = t;
    }
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int64_t>> groups;
  for (std::size_t v = 0; v < n; ++v) {
    auto& i = own[v];
    if (i.first >= i.second || rng.below(2) == 0) continue;
    const std::int64_t split =
        i.first + 1 +
        static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(i.second - i.first)));
    groups[{split, i.second}].push_back(static_cast<std::int64_t>(v));
    i.second = split - 1;
  }
  r.clear_live();
  for (const auto& [first, second] : own) {
    auto* pair = r.add_node_intervals();
    pair->set_first(first);
    pair->set_second(second);
  }
  for (const auto& [piece, members] : groups) {
    auto* group = r.add_node_groups();
    for (auto v : members) group->add_prims(v);
  }
  for (const auto& [piece, members] : groups) {
    auto* pair = r.add_node_intervals();
    pair->set_first(piece.first);
    pair->set_second(piece.second);
  }
}

// The request's objective for `x`, from the message alone: nullopt if it breaks a
// follower, an alias or a hard budget.
std::optional<double> request_cost(const Request& r, const std::vector<int>& x,
                                   double peak_cap = INFINITY) {
  double cost = 0;
  for (int v = 0; v < r.num_nodes(); ++v) {
    cost += r.computation_costs(v).costs(x[static_cast<std::size_t>(v)]);
    if (!r.communication_costs().empty())
      cost += r.communication_costs(v).costs(x[static_cast<std::size_t>(v)]);
  }
  for (int e = 0; e < r.edges_size(); ++e) {
    const auto u = static_cast<std::size_t>(r.edges(e).first()),
               v = static_cast<std::size_t>(r.edges(e).second());
    cost +=
        r.resharding_costs(e).costs(static_cast<int>(x[u] * r.s_len(static_cast<int>(v)) + x[v]));
  }
  for (int v = 0; v < r.s_follow_size(); ++v)
    if (r.s_follow(v) >= 0 &&
        x[static_cast<std::size_t>(v)] != x[static_cast<std::size_t>(r.s_follow(v))])
      return std::nullopt;
  for (int a = 0; a < r.aliases_size(); ++a) {
    const auto u = static_cast<std::size_t>(r.aliases(a).first()),
               v = static_cast<std::size_t>(r.aliases(a).second());
    if (r.value_costs(a).costs(static_cast<int>(x[u] * r.s_len(static_cast<int>(v)) + x[v])) > 0.5)
      return std::nullopt;
  }
  const std::vector<double> used = usage_by_step(r, x);
  const double peak = used.empty() ? 0 : *std::max_element(used.begin(), used.end());
  if (peak > peak_cap) return std::nullopt;
  const double budget = static_cast<double>(r.memory_budget());
  if (r.memory_budget() > 0 && peak > budget) {  // (0: no budget)
    if (!r.has_overbudget_coeff()) return std::nullopt;
    cost += r.overbudget_coeff().coeff() * (peak - budget);
  }
  return cost;
}

// The least request cost over every assignment (nullopt if none is allowed).
std::optional<double> request_optimum(const Request& r, double peak_cap = INFINITY) {
  std::vector<int> x(static_cast<std::size_t>(r.num_nodes()), 0);
  std::optional<double> best;
  for (;;) {
    if (const auto c = request_cost(r, x, peak_cap); c && (!best || *c < *best)) best = c;
    int v = 0;
    while (v < r.num_nodes() && ++x[static_cast<std::size_t>(v)] == r.s_len(v))
      x[static_cast<std::size_t>(v++)] = 0;
    if (v == r.num_nodes()) return best;
  }
}

}  // namespace

TEST_CASE("XLA-shaped requests solve to the optimum of the request's own objective") {
  Rng rng(2025);
  int hard = 0, soft = 0, intervals = 0;
  for (int i = 0; i < 300; ++i) {
    const bool is_soft = i % 3 == 2;
    Request r = random_request(rng, 2 + i % 5, is_soft);
    if (i % 4 == 3) to_intervals(r, rng);  // liveness as XLA writes it today
    const XlaRequest q = convert(r, i % 2 == 0);
    // A soft budget is answered under the hard limit the conversion chose (see XlaRequest).
    const double cap = is_soft && q.problem.usage_limit()
                           ? static_cast<double>(*q.problem.usage_limit())
                           : INFINITY;
    const auto best = request_optimum(r, cap);
    RunOptions o;
    o.solver = test::deterministic_options(2);
    const RunResult result = solve(q.problem, o);
    const RequestAnswer answer = answer_request(q, q.problem, result.status, result.assignment,
                                                result.has_solution(), result.bound);
    if (!best) {
      CHECK(answer.s_val.empty());
      continue;
    }
    REQUIRE(!answer.s_val.empty());
    std::vector<int> x(answer.s_val.begin(), answer.s_val.end());
    const auto cost = request_cost(r, x);
    REQUIRE(cost);  // followers, aliases and a hard budget respected
    CHECK(answer.cost == doctest::Approx(*cost));
    // The peak steps, from the liveness of the message.
    const std::vector<double> used = usage_by_step(r, x);
    const double peak = used.empty() ? 0 : *std::max_element(used.begin(), used.end());
    std::vector<std::int64_t> at_peak;
    for (std::size_t t = 0; t < used.size(); ++t)
      if (peak > 0 && used[t] == peak) at_peak.push_back(static_cast<std::int64_t>(t));
    CHECK(answer.peak_times == at_peak);
    CHECK(answer.cost == doctest::Approx(*best));
    if (answer.lower_bound) CHECK(*answer.lower_bound <= *best + 1e-6);
    ++(is_soft ? soft : hard);
    intervals += r.node_intervals_size() > 0;
    // Soft: the answer is never cheaper than the request's own optimum (no cap).
    if (is_soft) CHECK(answer.cost >= *request_optimum(r) - 1e-6);
  }
  CHECK(hard > 100);
  CHECK(soft > 50);
  CHECK(intervals > 50);
}

TEST_CASE("soft budgets: overruns weighed against cost reach the request's own optimum") {
  // Budgets below, at and above the least-memory peak, overrun prices from free to dear:
  // the answer must be the brute-force optimum of cost + coeff x overrun, proven so.
  Rng rng(31);
  const double factors[] = {0.8, 1.0, 1.3, 2.0};
  const double coeffs[] = {0.0, 0.2, 1.0, 4.0, 100.0};
  int overruns = 0, compared = 0;
  for (int i = 0; i < 160; ++i) {
    Request r = random_request(rng, 2 + i % 5, true);
    const double factor = factors[i % 4];
    r.set_memory_budget(std::max<std::int64_t>(
        1, static_cast<std::int64_t>(static_cast<double>(r.memory_budget()) / 0.9 * factor)));
    r.mutable_overbudget_coeff()->set_coeff(coeffs[(i / 4) % 5]);
    if (i % 4 == 1) to_intervals(r, rng);
    const XlaRequest q = convert(r, i % 2 == 0);
    const auto soft = soft_budget(q);
    REQUIRE(soft);
    const Problem free = q.problem.with_usage_limit(std::nullopt);
    StopControl stop;
    IncumbentStore store(&stop);
    Log log(nullptr, &stop);
    const SoftOutcome out =
        solve_soft_budget(free, *soft, test::deterministic_options(2, 1), stop, store, log);
    const auto [a, has] = store.snapshot();
    const RequestAnswer answer =
        answer_request(q, free, out.proven ? SolveStatus::kOptimal : SolveStatus::kFeasible, a, has,
                       std::nullopt, OverrunWeighing{out.bound});
    const auto best = request_optimum(r);
    if (!best) {
      CHECK(answer.s_val.empty());
      continue;
    }
    REQUIRE(!answer.s_val.empty());
    const auto cost = request_cost(r, std::vector<int>(answer.s_val.begin(), answer.s_val.end()));
    REQUIRE(cost);
    CHECK(answer.cost == doctest::Approx(*cost));
    CHECK(answer.cost == doctest::Approx(*best));
    CHECK(answer.status == SolveStatus::kOptimal);
    REQUIRE(answer.lower_bound);
    CHECK(*answer.lower_bound <= *best + 1e-6);
    overruns += answer.overbudget_cost > 0;
    ++compared;
  }
  CHECK(compared > 100);
  CHECK(overruns > 20);  // cheap overruns were taken, not only answers within the budget
}

TEST_CASE("solve_request: the library answers a serialized request in its own terms") {
  // The contest example as a request: 445, proven, and the same in the response message.
  const Problem example = read_problem(test::source_path("examples/example.json"));
  RunOptions o;
  o.solver = test::deterministic_options(2, 1);
  const RequestResult r = solve_request(write_request(example, false), o);
  CHECK(r.status == SolveStatus::kOptimal);
  CHECK(r.is_optimal);
  CHECK(r.cost == doctest::Approx(445));
  CHECK(r.s_val == std::vector<std::int64_t>{0, 0, 2, 1, 0});
  iopddl::xla::AutoShardingSolverResult response;
  REQUIRE(response.ParseFromString(r.response));
  CHECK(response.status() == iopddl::xla::AutoShardingSolverResult::OPTIMAL);
  CHECK(response.cost() == doctest::Approx(445));
  // Soft budgets are weighed (the request's own optimum), fractional costs never "optimal".
  Rng rng(5);
  for (int i = 0; i < 20; ++i) {
    Request q = random_request(rng, 2 + i % 4, true);
    q.mutable_overbudget_coeff()->set_coeff(i % 2 == 0 ? 0.5 : 20.0);
    std::string bytes;
    q.SerializeToString(&bytes);
    const RequestResult soft = solve_request(bytes, o);
    const auto best = request_optimum(q);
    if (!best) continue;
    CHECK(soft.cost == doctest::Approx(*best));
    CHECK(soft.is_optimal);
  }
  Request fractional = random_request(rng, 3, false);
  fractional.mutable_computation_costs(0)->set_costs(0, 0.25000001);
  std::string bytes;
  fractional.SerializeToString(&bytes);
  const RequestResult f = solve_request(bytes, o);
  CHECK(!f.is_optimal);
  CHECK(f.message.find("scaled") != std::string::npos);
  // A field it does not implement refuses the request by name.
  Request makespan = random_request(rng, 3, false);
  makespan.mutable_makespan_coeff()->set_coeff(1.0);
  makespan.SerializeToString(&bytes);
  CHECK_THROWS_WITH_AS(solve_request(bytes, o), doctest::Contains("makespan_coeff"), InputError);
}

TEST_CASE("contest problems written as requests read back as the same problem") {
  Rng rng(77);
  for (int i = 0; i < 200; ++i) {
    test::TinySpec spec;
    spec.nodes = 2 + i % 4;
    spec.limit_factor = i % 4 == 0 ? 0 : 1.2;
    const Problem p = test::random_problem(rng, spec);
    if (p.usage_limit() && *p.usage_limit() == 0) continue;
    const std::string text = write_request(p, i % 2 == 0);
    const XlaRequest q = read_request("roundtrip", bytes_of(text));
    REQUIRE(q.problem.num_nodes() == p.num_nodes());
    test::for_each_assignment(p, [&](const std::vector<Strategy>& a) {
      const Evaluation before = evaluate(p, a), after = evaluate(q.problem, a);
      CHECK(before.feasible == after.feasible);
      CHECK((before.forbidden_picks > 0) == (after.forbidden_picks > 0));
      if (before.forbidden_picks == 0)
        CHECK(static_cast<double>(before.cost) ==
              doctest::Approx(static_cast<double>(after.cost) + q.offset));
    });
  }
}

TEST_CASE("followers and aliases come back as s_follow and aliases") {
  ModelBuilder b("patterns");
  b.add_node({1, 2}, {1, 1}, 0, 1);
  b.add_node({3, 4}, {1, 1}, 0, 1);
  b.add_node({5, 6, 7}, {1, 1, 1}, 0, 1);
  b.add_edge(1, 0, {0, kForbidden, kForbidden, 0});        // 1 follows 0
  b.add_edge(0, 2, {kForbidden, 3, 0, 0, 2, kForbidden});  // an alias beside costs
  b.add_edge(2, 0, {0, 0, 1, 0, 0, 0});                    // parallel: summed
  const Problem p = std::move(b).build();
  Request r;
  REQUIRE(r.ParseFromString(write_request(p, false)));
  REQUIRE(r.s_follow_size() == 3);
  CHECK(r.s_follow(0) == 1);  // oriented from the lower node: 0 follows 1, the same pattern
  CHECK(r.edges_size() == 1);
  CHECK(r.aliases_size() == 1);
  CHECK(r.resharding_costs(0).costs(0) == 0.0);  // forbidden: in the alias
  CHECK(r.resharding_costs(0).costs(1) == 4.0);  // 3 + the parallel edge's 1
  CHECK(r.value_costs(0).costs(0) == 1.0);
  CHECK(r.value_costs(0).costs(5) == 1.0);
}

TEST_CASE("bad requests are refused with the field named") {
  CHECK(refusal("num_nodes: 2 s_len: 1") == "bad.textproto: s_len: 1 entries, but num_nodes is 2");
  CHECK(refusal("num_nodes: 1 s_len: 2 computation_costs { costs: 1 }") ==
        "bad.textproto: computation_costs[0]: 1 costs, but s_len[0] is 2");
  CHECK(refusal("num_nodes: 1 s_len: 1 computation_costs { costs: -1 }") ==
        "bad.textproto: computation_costs[0][0]: negative node cost -1");
  CHECK(refusal("num_nodes: 2 s_len: [1, 1] computation_costs { costs: 1 } "
                "computation_costs { costs: 1 } s_follow: [1, 0]")
            .find("s_follow[1]: followers form a cycle") != std::string::npos);
  CHECK(refusal("num_nodes: 1 s_len: 1 computation_costs { costs: 1 } live { nodes: 3 }") ==
        "bad.textproto: live[0]: node 3 does not exist (1 nodes)");
  CHECK(refusal("num_nodes: 1 s_len: 1 computation_costs { costs: 1 } s_hint: 4") ==
        "bad.textproto: s_hint[0]: strategy 4 is out of range (1 strategies)");
  CHECK(refusal("num_nodes: 1 s_len: 1 computation_costs { costs: 1 } memory_costs { costs: -5 }")
            .find("memory_costs[0][0]: negative") != std::string::npos);
  CHECK(
      refusal("num_nodes: 1 s_len: 1 enable_memory_edge_costs: true computation_costs { costs: 1 }")
          .find("edge memory") != std::string::npos);
  CHECK(refusal("num_nodes: 1\nbogus_field: 3").find("line 2") != std::string::npos);
  // Liveness as intervals and groups: one interval per node in the end, and not with live.
  const std::string two =
      "num_nodes: 2 s_len: [1, 1] computation_costs { costs: 1 } "
      "computation_costs { costs: 1 } ";
  CHECK(refusal(two + "node_intervals { first: 0 second: 3 }") ==
        "bad.textproto: node_intervals: 1 entries, but num_nodes + node_groups is 2");
  CHECK(refusal(two + "node_intervals { first: 0 second: 3 } node_intervals { first: 1 second: 0 } "
                      "live { nodes: 0 }")
            .find("given with live as well") != std::string::npos);
  CHECK(refusal(two + "node_intervals { first: 0 second: 1 } node_intervals { first: 1 second: 0 } "
                      "node_groups { prims: 0 } node_intervals { first: 4 second: 5 }") ==
        "bad.textproto: node_intervals: node 0 is live over [0, 1] and [4, 5], which leave a gap: "
        "iopddl's model has one interval per node");
  CHECK(refusal(two + "node_intervals { first: 0 second: 2 } node_intervals { first: 1 second: 0 } "
                      "node_groups { prims: 0 } node_intervals { first: 2 second: 5 }")
            .find("which overlap") != std::string::npos);
  CHECK(refusal(two + "node_intervals { first: 0 second: 2 } node_intervals { first: 1 second: 0 } "
                      "node_groups { prims: 7 } node_intervals { first: 3 second: 5 }") ==
        "bad.textproto: node_groups[0]: node 7 does not exist (2 nodes)");
  CHECK(refusal(std::string("\x08\x01\x1a\x05", 4)).find("not a binary") != std::string::npos);
}

TEST_CASE("unsupported fields refuse the request unless asked, harmless ones are named") {
  const std::string text =
      "num_nodes: 1 s_len: 1 computation_costs { costs: 1 } "
      "departure_costs { costs: 1 } makespan_coeff { coeff: 2 } "
      "saltiplier: 0.5";
  CHECK(refusal(text) ==
        "bad.textproto: departure_costs, makespan_coeff: not supported by iopddl, and the answer "
        "would leave them out of the problem (--ignore-unsupported-fields solves without them)");
  RequestOptions ignore;
  ignore.ignore_unsupported_fields = true;
  CHECK(read_request("r", bytes_of(text), ignore).ignored ==
        std::vector<std::string>{"departure_costs", "makespan_coeff", "saltiplier"});
  CHECK(read_request("r", bytes_of("num_nodes: 1 s_len: 1 computation_costs { costs: 1 } "
                                   "saltiplier: 0.5 compute_iis: true"))
            .ignored == std::vector<std::string>{"compute_iis", "saltiplier"});
  // A field this version does not know (a newer XLA's), in binary.
  Request r;
  r.set_num_nodes(1);
  r.add_s_len(1);
  r.add_computation_costs()->add_costs(1);
  std::string data;
  r.SerializeToString(&data);
  data += std::string("\xc0\x02\x01", 3);  // field 40, varint 1
  CHECK(refusal(data).find("field 40 (unknown to this version): not supported") !=
        std::string::npos);
  CHECK(read_request("r", bytes_of(data), ignore).ignored ==
        std::vector<std::string>{"field 40 (unknown to this version)"});
}

TEST_CASE("the contest example as a request costs 445 in the request's units") {
  const Problem p = read_problem(test::source_path("examples/example.json"));
  const XlaRequest q = read_request("example", bytes_of(write_request(p, true)));
  RunOptions o;
  o.solver = test::deterministic_options(1);
  const RunResult r = solve(q.problem, o);
  const RequestAnswer a = answer_request(q, q.problem, r.status, r.assignment, true, r.bound);
  CHECK(a.cost == 445);
  CHECK(a.status == SolveStatus::kOptimal);
  CHECK(a.lower_bound == 445);
  // Steps are the request's, the input's own times (node_intervals): the answer's peak (50,
  // the limit) is where nodes 0, 1 and 2 are all live, 50 to 69.
  CHECK(a.peak_usage == 50);
  std::vector<std::int64_t> steps(20);
  std::iota(steps.begin(), steps.end(), 50);
  CHECK(a.peak_times == steps);
  // max_cost: an answer must beat it.
  XlaRequest capped =
      read_request("example", bytes_of(write_request(p, true) + "max_cost { coeff: 445 }"));
  const RequestAnswer refused =
      answer_request(capped, capped.problem, r.status, r.assignment, true, r.bound);
  CHECK(refused.s_val.empty());
  CHECK(refused.status == SolveStatus::kNoSolution);
}

TEST_CASE("fractional costs are scaled, not truncated, and never called optimal when rounded") {
  Rng rng(4242);
  int rounded = 0;
  for (int i = 0; i < 60; ++i) {
    Request r = random_request(rng, 2 + i % 4, false);
    // Seconds rather than integers: every cost divided by 10^4 (a few also by 3).
    const double divisor = i % 2 == 0 ? 1e4 : 3e4;
    for (auto* list : {r.mutable_computation_costs(), r.mutable_communication_costs(),
                       r.mutable_resharding_costs()})
      for (auto& costs : *list)
        for (double& c : *costs.mutable_costs()) c /= divisor;
    const XlaRequest q = convert(r, i % 3 == 0);
    CHECK(q.cost_scale > 1);
    CHECK(q.max_rounding_error <= 1e-9);
    const auto best = request_optimum(r);
    RunOptions o;
    o.solver = test::deterministic_options(2);
    const RunResult result = solve(q.problem, o);
    const RequestAnswer answer = answer_request(q, q.problem, result.status, result.assignment,
                                                result.has_solution(), result.bound);
    if (!best) continue;
    REQUIRE(!answer.s_val.empty());
    const auto cost = request_cost(r, std::vector<int>(answer.s_val.begin(), answer.s_val.end()));
    REQUIRE(cost);
    // The request's own optimum, to within the rounding (truncation made every cost 0).
    CHECK(*cost <= *best + 1e-8 * (1 + std::abs(*best)));
    CHECK(answer.cost == doctest::Approx(*cost).epsilon(1e-8));
    if (q.max_rounding_error > 0) {
      ++rounded;
      CHECK(answer.status != SolveStatus::kOptimal);
      CHECK(!answer.lower_bound);
      CHECK(answer.message.find("not proven for the costs as given") != std::string::npos);
    }
  }
  CHECK(rounded > 20);
  // Binary fractions scale exactly: nothing rounded, so the proof stands.
  const XlaRequest exact = read_request(
      "r", bytes_of("num_nodes: 2 s_len: [2, 1] computation_costs { costs: [2.5, 0.25] } "
                    "computation_costs { costs: 1 } edges { first: 0 second: 1 } "
                    "resharding_costs { costs: [0.5, 0.125] }"));
  CHECK(exact.max_rounding_error == 0);
  RunOptions o;
  o.solver = test::deterministic_options(1);
  const RunResult result = solve(exact.problem, o);
  const RequestAnswer answer =
      answer_request(exact, exact.problem, result.status, result.assignment, true, result.bound);
  CHECK(answer.status == SolveStatus::kOptimal);
  CHECK(answer.cost == 1.375);
  CHECK(answer.s_val == std::vector<Strategy>{1, 0});
  // Integers stay as they are.
  CHECK(read_request("r", bytes_of("num_nodes: 1 s_len: 1 computation_costs { costs: 7 }"))
            .cost_scale == 1);
}

TEST_CASE(
    "a cost scale given by the user replaces the chosen one, and never makes a cost infinite") {
  RequestOptions o;
  o.cost_scale = 4;
  const XlaRequest q = read_request(
      "r", bytes_of("num_nodes: 1 s_len: 2 computation_costs { costs: [2.5, 0.75] }"), o);
  CHECK(q.cost_scale == 4);
  CHECK(q.max_rounding_error == 0);
  CHECK(q.problem.costs(0)[0] == 10);
  CHECK(q.problem.costs(0)[1] == 3);
  o.cost_scale = 1e12;
  CHECK_THROWS_WITH_AS(
      read_request("r", bytes_of("num_nodes: 1 s_len: 1 computation_costs { costs: 10000000.5 }"),
                   o),
      "r: computation_costs[0][0]: cost 10000000.5 times the cost scale 1000000000000 reaches "
      "10^18, XLA's infinity",
      InputError);
  // XLA's infinity stays forbidden whatever the scale.
  o.cost_scale = 0.5;
  CHECK(is_forbidden(
      read_request("r", bytes_of("num_nodes: 1 s_len: 2 computation_costs { costs: [1e18, 1] }"), o)
          .problem.costs(0)[0]));
}
