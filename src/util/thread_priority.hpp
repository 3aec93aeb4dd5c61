// Lowering the scheduling priority of the calling thread (Linux: a thread's nice value is
// its own), for the portfolio's exploring workers.
#pragma once

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace iopddl::inline v0 {

// Raises the calling thread's nice value by `by` (capped at 19); a failure leaves it as
// it was (the priority is a preference, never a requirement).
inline void lower_thread_priority(int by) {
  if (by <= 0) return;
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, tid);
  if (errno != 0) return;
  setpriority(PRIO_PROCESS, tid, std::min(19, now + by));
}

}  // namespace iopddl::inline v0
