#include "process_clock.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace iopddl::inline v0::app {
namespace {

// Seconds since process `pid` started (/proc/PID/stat, field 22: its start in clock ticks
// after boot; ticks are 10 ms, rounded down, so the age is rounded up).
std::optional<double> age_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return std::nullopt;
  const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  unsigned long long start_ticks = 0;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) start_ticks = std::stoull(field);
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  timespec boot{};
  if (start_ticks == 0 || ticks_per_second <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &boot) != 0)
    return std::nullopt;
  const double now = static_cast<double>(boot.tv_sec) + 1e-9 * static_cast<double>(boot.tv_nsec);
  const double age = now - static_cast<double>(start_ticks) / static_cast<double>(ticks_per_second);
  return age >= 0 ? std::optional<double>(age) : std::nullopt;
}

}  // namespace

Clock::time_point process_start(Clock::time_point fallback, bool launched) {
  const Clock::time_point now = Clock::now();
  double age = std::chrono::duration<double>(now - fallback).count();
  if (const auto own = age_of(::getpid())) {
    // A process that exec'd long after its fork (a shell's `exec`) keeps its fork's start:
    // beyond a second, main's own clock is the better guess.
    if (*own - age < 1) age = std::max(age, *own);
    if (launched)
      if (const auto parent = age_of(::getppid()); parent && *parent - *own <= kMaxLaunchSeconds)
        age = std::max(age, *parent);
  }
  return now - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(age));
}

}  // namespace iopddl::inline v0::app
