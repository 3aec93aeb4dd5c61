// The library's side: the same problem built and solved with iopddl's API, then judged by
// the contest side's evaluation; with a request file, that request answered as XLA's pass
// would ask (solve_request).
#include <cstdio>
#include <fstream>
#include <iopddl/iopddl.hpp>
#include <iopddl/request.hpp>
#include <iterator>
#include <span>
#include <string>

long long contest_side_cost(long long x, long long y);

int main(int argc, char** argv) {
  if (argc > 1) {
    std::ifstream in(argv[1], std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    iopddl::RunOptions o;
    o.time_limit = 2;
    const iopddl::RequestResult r = iopddl::solve_request(bytes, o);
    std::printf("request %g %s\n", r.cost, r.is_optimal ? "optimal" : "not proven");
    return 0;
  }
  iopddl::ModelBuilder b("two-ops");
  b.set_usage_limit(100);
  const auto x = b.add_node({10, 30}, {80, 40}, 0, 2);
  const auto y = b.add_node({20, 25}, {60, 30}, 1, 3);
  b.add_edge(x, y, {0, 12, 12, 0});
  iopddl::RunOptions o;
  o.time_limit = 2;
  const iopddl::RunResult r = iopddl::solve(std::move(b).build(), o);
  const std::span<const iopddl::Strategy> plan(r.assignment);  // (C++20)
  std::printf("library %s %s, contest side %lld\n", iopddl::status_name(r.status),
              iopddl::to_string(r.cost).c_str(), contest_side_cost(plan[0], plan[1]));
  return 0;
}
