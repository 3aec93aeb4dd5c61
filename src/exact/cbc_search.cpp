#include "cbc_search.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cbc_child.hpp"

namespace iopddl::inline v0 {

namespace {

// One field of a record from the pipe's bytes `b` at `at` (advanced past it); false when
// the bytes do not hold all of it yet.
template <class T>
bool take(const std::string& b, std::size_t& at, T& v) {
  if (b.size() - at < sizeof v) return false;
  std::memcpy(&v, b.data() + at, sizeof v);
  at += sizeof v;
  return true;
}

}  // namespace

CbcSearch::CbcSearch(const Reduced& r, MipModel model, std::optional<Total> below)
    : r_(r), model_(std::move(model)), below_(below), begin_(Clock::now()) {}

std::unique_ptr<CbcSearch> CbcSearch::start(const Reduced& r, std::optional<Total> below, Log& log,
                                            const CbcLimits& limits) {
  std::unique_ptr<CbcSearch> s(new CbcSearch(r, MipModel::build(r, limits.max_nonzeros), below));
  const MipModel& m = s->model_;
  if (m.too_large) {
    log.info("CBC left out: its program has more than exact.mip-nonzeros (%zu) nonzeros",
             limits.max_nonzeros);
    return nullptr;
  }
  if (!m.exact_in_doubles) {
    log.info("CBC left out: the costs or usages reach 2^52, beyond doubles' exact integers");
    return nullptr;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    log.info("CBC left out: no pipe (%s)", std::strerror(errno));
    return nullptr;
  }
  // Room for a few answers, so that the child rarely waits for the parent to read.
  ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    log.info("CBC left out: no child process (%s)", std::strerror(errno));
    ::close(fds[0]);
    ::close(fds[1]);
    return nullptr;
  }
  if (pid == 0) {
    // Dies with the thread that started it; nothing on the answer's stdout.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(0);
    ::close(fds[0]);
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2})
      ::signal(sig, SIG_DFL);
    if (limits.nice > 0) ::nice(limits.nice);  // a failure leaves it as nice as the caller
    limit_memory(limits.megabytes);
    try {
      cbc_child(r, m, below, fds[1]);
    } catch (...) {  // out of its memory: the parent reads the end of the pipe
      _exit(0);
    }
  }
  ::close(fds[1]);
  s->child_ = pid;
  s->fd_ = fds[0];
  log.info("CBC started (child process %d): %zu columns, %zu rows, %zu memory rows, %zu nonzeros",
           pid, m.columns, m.rows, m.memory_rows(), m.nonzeros());
  return s;
}

CbcSearch::~CbcSearch() {
  if (child_ > 0) {
    ::kill(child_, SIGKILL);
    while (::waitpid(child_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  if (fd_ >= 0) ::close(fd_);
}

double CbcSearch::seconds() const {
  return std::chrono::duration<double>(Clock::now() - begin_).count();
}

void CbcSearch::raise_bound(double best_possible, Update& u) {
  if (!std::isfinite(best_possible) || best_possible <= -1e40) return;  // none yet
  // Costs are integers: one unit below, less a relative margin for the LPs' tolerances.
  const double b = std::floor(best_possible - 1 - 1e-7 * std::fabs(best_possible));
  const Total cap = below_.value_or(kForbidden);
  const Total bound = b >= static_cast<double>(cap) ? cap : static_cast<Total>(b);
  if (!bound_ || bound > *bound_) bound_ = u.bound = bound;
}

bool CbcSearch::read_answer(std::size_t& at, Update& u) {
  double objective = 0;
  std::uint32_t n = 0;
  if (!take(buffer_, at, objective) || !take(buffer_, at, n) ||
      buffer_.size() - at < std::size_t{n} * 4)
    return false;
  std::vector<Strategy> x(n);
  for (auto& s : x) {
    std::uint32_t v = 0;
    take(buffer_, at, v);
    s = static_cast<Strategy>(v);
  }
  // An answer must be one of the reduced problem's and fit the exact memory rows.
  bool valid = n == r_.num_nodes();
  for (std::uint32_t g = 0; valid && g < n; ++g) valid = x[g] >= 0 && x[g] < r_.strategies(g);
  if (valid && model_.overloaded(x).empty()) {
    const Total cost = MipModel::cost(r_, x);
    if (cost < best_cost_ && (!below_ || cost < *below_)) {
      best_cost_ = cost;
      u.x = std::move(x);
    }
  }
  return true;
}

void CbcSearch::read_records(Update& u) {
  std::size_t at = 0;
  while (at < buffer_.size()) {
    const std::size_t record = at;
    char tag = 0;
    take(buffer_, at, tag);
    bool whole = false;
    if (tag == kAnswer) {
      whole = read_answer(at, u);
    } else if (tag == kBound) {
      double bp = 0;
      if (take(buffer_, at, bp)) {
        whole = true;
        raise_bound(bp, u);
      }
    } else if (tag == kEnd) {
      std::uint8_t finished = 0;
      double bp = 0;
      if (take(buffer_, at, finished) && take(buffer_, at, bp)) {
        whole = true;
        if (finished) {
          // No answer below `below` cheaper than the best sent: every answer costs at least
          // its cost (or `below`, or none is feasible).
          u.complete = complete_ = true;
          bound_ = u.bound = std::min(best_cost_, below_.value_or(kForbidden));
        } else {
          raise_bound(bp, u);
        }
      }
    } else {
      whole = true;  // cannot happen: an unknown tag ends the reading
      at = buffer_.size();
    }
    if (!whole) {
      at = record;
      break;
    }
  }
  buffer_.erase(0, at);
}

CbcSearch::Update CbcSearch::poll(double wait) {
  Update u;
  if (over_) {
    u.over = true;
    u.complete = complete_;
    return u;
  }
  pollfd p{fd_, POLLIN, 0};
  int timeout = static_cast<int>(std::ceil(std::max(wait, 0.0) * 1000));
  char chunk[1 << 16];
  for (;;) {
    const int ready = ::poll(&p, 1, timeout);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // the child is gone
      over_ = true;
      ::close(fd_);
      fd_ = -1;
      while (::waitpid(child_, nullptr, 0) < 0 && errno == EINTR) {
      }
      child_ = -1;
      break;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    timeout = 0;  // whatever else is there already, without waiting again
  }
  read_records(u);
  u.over = over_;
  u.complete = complete_;
  return u;
}

CbcSearch::Outcome CbcSearch::run(const Reduced& r, std::optional<Total> below,
                                  const StopControl& stop, const std::atomic<bool>* cancelled,
                                  Log& log, const CbcLimits& limits) {
  Outcome out;
  const std::unique_ptr<CbcSearch> s = start(r, below, log, limits);
  if (!s) return out;
  out.ran = true;
  for (;;) {
    Update u = s->poll(0.02);
    if (u.x) out.x = std::move(u.x);
    if (u.bound) out.bound = u.bound;
    out.complete = u.complete;
    if (u.over || stop.should_stop() || (cancelled && cancelled->load(std::memory_order_relaxed)))
      break;
  }
  return out;
}

}  // namespace iopddl::inline v0
