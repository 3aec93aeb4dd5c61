// Read benchmark: for each instance, the time to parse it with our reader against a plain
// nlohmann::json DOM parse of the same (decompressed) bytes, in the same run. With
// --memory FILE it only reads FILE (gzip or plain) with our reader and reports the peak
// resident memory against the decompressed size, for a clean per-process measurement.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "iopddl/io.hpp"

using namespace iopddl;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

template <class F>
double best_of(int reps, F&& f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t = std::chrono::steady_clock::now();
    f();
    best = std::min(best, seconds_since(t));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--memory") == 0) {
    std::size_t size = read_file_bytes(argv[2]).size;  // the decompressed size
    auto t = std::chrono::steady_clock::now();
    Problem p = read_problem(argv[2]);
    const double s = seconds_since(t);
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double peak = static_cast<double>(ru.ru_maxrss) * 1024.0;
    std::printf(
        "%s: %.1f MB decompressed, read in %.3f s (with gunzip), peak RSS %.1f MB = %.2fx\n",
        argv[2], static_cast<double>(size) / 1e6, s, peak / 1e6, peak / static_cast<double>(size));
    return p.num_nodes() > 0 ? 0 : 1;
  }
  int reps = 3;
  std::printf("%-40s %9s %10s %10s %10s %8s\n", "instance", "MB", "ours MB/s", "DOM MB/s",
              "gunzip s", "ratio");
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
      continue;
    }
    const std::string path = argv[i];
    FileBytes bytes;
    const double gunzip = best_of(1, [&] { bytes = read_file_bytes(path); });
    const double mb = static_cast<double>(bytes.size) / 1e6;
    std::size_t nodes = 0;
    const double ours = best_of(reps, [&] {
      Problem p = parse_problem(bytes.data(), bytes.size, path);
      nodes = p.num_nodes();
    });
    const double dom = best_of(reps, [&] {
      auto j = nlohmann::json::parse(bytes.data(), bytes.data() + bytes.size);
      if (j["problem"]["nodes"]["costs"].size() != nodes) std::abort();
    });
    std::printf("%-40s %9.1f %10.0f %10.0f %10.3f %7.1fx\n", path.c_str(), mb, mb / ours, mb / dom,
                gunzip, dom / ours);
  }
  return 0;
}
