#include "iopddl/log.hpp"

#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

void Log::info(const char* fmt, ...) {
  if (quiet_ || out_ == nullptr) return;
  char line[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(line, sizeof line, fmt, args);
  va_end(args);
  std::lock_guard lock(mutex_);
  std::fprintf(out_, "# [%7.3f] %s\n", clock_ ? clock_->elapsed() : 0.0, line);
  std::fflush(out_);
}

}  // namespace iopddl::inline v0

namespace iopddl::inline v0 {

void Log::close(const std::function<void()>& last_words) {
  std::lock_guard lock(mutex_);
  last_words();
  if (out_ != nullptr) out_ = stderr;
}

}  // namespace iopddl::inline v0
