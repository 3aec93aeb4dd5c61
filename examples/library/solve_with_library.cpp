// Uses the installed library the way a compiler pass would: builds a problem (or reads a
// contest file), solves it with a time limit, follows the improvements and prints the
// answer as the contest's last line.
//
//   solve_with_library                 the built-in three-node problem, 1 s
//   solve_with_library FILE [SECONDS]  a contest JSON file (plain or gzipped)
//   solve_with_library FILE 0 SEED WORK  deterministic: WORK million units per worker on 2
//                                        threads, as `iopddl solve FILE --deterministic
//                                        --work-limit WORK --seed SEED --threads 2`
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iopddl/iopddl.hpp>
#include <string>

namespace {

// Three operations, two shardings each: sharding halves the memory and costs
// communication with a neighbour sharded differently.
iopddl::Problem built_in_problem() {
  iopddl::ModelBuilder b("three-ops");
  b.set_usage_limit(100);
  const auto x = b.add_node({10, 30}, {80, 40}, 0, 2);
  const auto y = b.add_node({20, 25}, {60, 30}, 1, 3);
  const auto z = b.add_node({5, 9}, {20, 10}, 2, 4);
  b.add_edge(x, y, {0, 12, 12, 0});
  b.add_edge(y, z, {0, 4, 4, 0});
  return std::move(b).build();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const iopddl::Problem problem = argc > 1 ? iopddl::read_problem(argv[1]) : built_in_problem();
    iopddl::RunOptions options;
    options.time_limit = argc > 2 ? std::atof(argv[2]) : 1.0;
    if (argc > 4) {
      options.solver.seed = std::strtoull(argv[3], nullptr, 10);
      options.solver.deterministic = true;
      options.solver.work_limit = std::strtoull(argv[4], nullptr, 10);
      options.solver.threads = 2;
    }
    options.on_improvement = [](const iopddl::Progress& p) {
      std::printf("# %.3f s: cost %s (%s)\n", p.seconds, iopddl::to_string(p.cost).c_str(),
                  p.source.c_str());
    };
    const iopddl::RunResult result = iopddl::solve(problem, options);
    std::printf("# iopddl %s: status %s, cost %s, peak %s\n", iopddl::version(),
                iopddl::status_name(result.status), iopddl::to_string(result.cost).c_str(),
                iopddl::to_string(result.peak_usage).c_str());
    std::printf("%s\n", iopddl::format_assignment(result.assignment).c_str());
    return result.has_solution() ? 0 : 4;
  } catch (const iopddl::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 5;
  }
}
