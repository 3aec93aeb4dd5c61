// Progress logging: one object passed explicitly. Every line starts with '#', so the
// contest's "last line is the answer" rule holds whatever is logged.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <functional>
#include <mutex>

namespace iopddl::inline v0 {

class StopControl;

class Log {
 public:
  Log(std::FILE* out, const StopControl* clock, bool quiet = false)
      : out_(out), clock_(clock), quiet_(quiet) {}
  // printf-style; the line gets a "# [elapsed s] " prefix and a newline.
  void info(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
  // Runs `last_words` (which prints the final line) under the log's lock, then sends every
  // later progress line to stderr: nothing reaches the log's stream after the final line.
  void close(const std::function<void()>& last_words);

 private:
  std::FILE* out_;
  const StopControl* clock_;
  bool quiet_;
  std::mutex mutex_;
};

}  // namespace iopddl::inline v0
