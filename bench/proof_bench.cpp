// Proof search benchmark: from an answer, the certified bound's reparametrisation after a
// number of multiplier steps, then the proof search (exact/proof_search.hpp) in each variant
// asked for, with a node and a time limit: whether it finished, its search nodes, work
// units and seconds. Deterministic except for the seconds (and the time limit).
//
//   proof_bench PROBLEM ANSWER STEPS NODES SECONDS VARIANTS
//
// ANSWER: the stdout of `iopddl solve` (its last line `[s0, s1, ...]`) or its --output
// JSON, read by read_solution. VARIANTS: a string of digits, 0 the static bound, 1 with the
// memory lookahead (and its reduced-cost fixing), 2 with the lookahead and the cells'
// knapsacks (the default of solve).
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "exact/proof_search.hpp"
#include "iopddl/io.hpp"
#include "lagrange/bound.hpp"
#include "lagrange/network.hpp"
#include "local/state.hpp"
#include "reduce/reduced.hpp"

using namespace iopddl;

int run(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: proof_bench PROBLEM ANSWER STEPS NODES SECONDS VARIANTS\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const Problem p = read_problem(argv[1]);
  const std::vector<Strategy> answer = read_solution(argv[2]);
  const int steps = std::stoi(argv[3]);
  const std::uint64_t nodes = std::stoull(argv[4]);
  const double seconds = std::stod(argv[5]);
  const std::string variants = argv[6];
  if (variants.empty() || variants.find_first_not_of("012") != std::string::npos) {
    std::fprintf(stderr, "VARIANTS: digits 0, 1 or 2, not '%s'\n", argv[6]);
    return 2;
  }
  const Reduced r = Reduced::build(p, true);
  std::vector<Strategy> x;
  if (answer.size() != p.num_nodes() || !r.contract(answer, x)) {
    std::fprintf(stderr, "%s: not an answer of %s\n", argv[2], argv[1]);
    return 2;
  }
  LocalState start(r);
  start.assign(x);
  if (!start.feasible()) {
    std::fprintf(stderr, "%s: over the usage limit\n", argv[2]);
    return 2;
  }
  BoundEngine engine(r, CostNetwork::from_reduced(r), BoundOptions{});
  for (int s = 0; s < steps; ++s) engine.step(start.cost(), nullptr);
  const Reparametrisation rep = engine.best_reparametrisation();
  std::printf("groups %zu cost %s\n", r.num_nodes(), to_string(start.cost()).c_str());
  for (const char v : variants) {
    const int variant = v - '0';
    LocalState state = start;
    ProofSearch search(r, rep, variant >= 1, variant >= 2);
    const StopControl stop(TimeSource::steady().now(), seconds);
    const auto t0 = std::chrono::steady_clock::now();
    const ProofSearch::Outcome out = search.run(state, nodes, stop);
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("variant %d complete %d improved %d nodes %llu work %llu seconds %.3f cost %s\n",
                variant, out.complete, out.improved, static_cast<unsigned long long>(out.nodes),
                static_cast<unsigned long long>(out.work), spent, to_string(state.cost()).c_str());
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // unreadable files, numbers that are not numbers
    std::fprintf(stderr, "proof_bench: %s\n", e.what());
    return 2;
  }
}
