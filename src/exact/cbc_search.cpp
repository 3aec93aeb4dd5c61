#include "cbc_search.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <coin/CbcEventHandler.hpp>
#include <coin/CbcModel.hpp>
#include <coin/CbcSolver.hpp>
#include <coin/CoinMessageHandler.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <coin/OsiClpSolverInterface.hpp>
#include <cstdio>
#include <cstring>

namespace iopddl::inline v0 {

namespace {

// The child's records, each a tag and its fields in the machine's byte order:
//   'S' double objective, uint32 n, n x uint32: the final answer (the reduced strategies)
//   'B' double best possible objective (throttled)
//   'E' uint8 finished, double best possible: the search is over
constexpr char kAnswer = 'S', kBound = 'B', kEnd = 'E';

class Writer {
 public:
  explicit Writer(int fd) : fd_(fd) {}
  template <class T>
  void put(const T& v) {
    const auto* b = reinterpret_cast<const char*>(&v);
    buffer_.insert(buffer_.end(), b, b + sizeof v);
  }
  // Sends the record gathered; the parent gone, the child goes too.
  void send() {
    std::size_t at = 0;
    while (at < buffer_.size()) {
      const ssize_t n = ::write(fd_, buffer_.data() + at, buffer_.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(0);
      at += static_cast<std::size_t>(n);
    }
    buffer_.clear();
  }

 private:
  int fd_;
  std::vector<char> buffer_;
};

// CBC's messages go nowhere (its output is /dev/null in the child anyway).
class Quiet : public CoinMessageHandler {
 public:
  Quiet() { setLogLevel(0); }
  int print() override { return 0; }
  CoinMessageHandler* clone() const override { return new Quiet(*this); }
};

void send_answer(Writer& w, double objective, const std::vector<Strategy>& x) {
  w.put(kAnswer);
  w.put(objective);
  w.put(static_cast<std::uint32_t>(x.size()));
  for (Strategy s : x) w.put(static_cast<std::uint32_t>(s));
  w.send();
}

// Sends the search's best possible objective as it rises, at most every 0.2 s. Only the
// main search's: CBC's heuristics run small searches of restricted problems whose bounds
// bound only those (their models have a parent). The answers of the search are in the
// preprocessed problem's columns, where groups have been fixed and removed: the final one,
// in the model's columns, is sent at the end.
class Reporter : public CbcEventHandler {
 public:
  CbcAction event(CbcEvent) override {
    const CbcModel* model = getModel();
    if (!model || model->parentModel()) return noAction;
    const double bound = model->getBestPossibleObjValue();
    const auto now = Clock::now();
    if (bound > sent_->bound + 0.5 && now - sent_->at > std::chrono::milliseconds(200)) {
      sent_->bound = bound;
      sent_->at = now;
      w_->put(kBound);
      w_->put(bound);
      w_->send();
    }
    return noAction;
  }
  CbcAction event(CbcEvent e, void*) override { return event(e); }
  CbcEventHandler* clone() const override { return new Reporter(*this); }

  // Shared by the clones (CBC copies its model, the handler with it, for the preprocessed
  // problem).
  struct Sent {
    double bound = -1e300;
    Clock::time_point at{};
  };
  Reporter(Writer& w, Sent& sent) : w_(&w), sent_(&sent) {}

 private:
  Writer* w_;
  Sent* sent_;
};

// The child's whole life: CBC on the model, its findings down the pipe.
[[noreturn]] void child(const Reduced& r, const MipModel& m, std::optional<Total> below, int fd) {
  Writer w(fd);
  std::vector<int> ri, ci;
  std::vector<double> v, row_lower = m.row_lower, row_upper = m.row_upper;
  for (const auto& e : m.entries) {
    ri.push_back(static_cast<int>(e.row));
    ci.push_back(static_cast<int>(e.column));
    v.push_back(e.value);
  }
  for (std::uint32_t i = 0; i < m.memory_rows(); ++i) {
    const int row = static_cast<int>(row_lower.size());
    row_lower.push_back(-COIN_DBL_MAX);
    row_upper.push_back(static_cast<double>(m.memory_rhs[i]));
    for (std::size_t k = m.memory_begin[i]; k < m.memory_begin[i + 1]; ++k) {
      ri.push_back(row);
      ci.push_back(static_cast<int>(m.memory_column[k]));
      v.push_back(static_cast<double>(m.memory_value[k]));
    }
  }
  const CoinPackedMatrix matrix(false, ri.data(), ci.data(), v.data(),
                                static_cast<CoinBigIndex>(v.size()));
  const std::vector<double> lower(m.columns, 0.0);
  Quiet quiet;
  OsiClpSolverInterface solver;
  solver.passInMessageHandler(&quiet);
  solver.loadProblem(matrix, lower.data(), m.column_upper.data(), m.objective.data(),
                     row_lower.data(), row_upper.data());
  for (std::size_t c = 0; c < m.columns; ++c)
    if (m.integer[c]) solver.setInteger(static_cast<int>(c));
  CbcModel model(solver);
  model.passInMessageHandler(&quiet);
  Reporter::Sent sent;
  Reporter reporter(w, sent);
  model.passInEventHandler(&reporter);
  // Below `below`: costs are integers, so the cutoff half a unit under it; a gap under
  // one unit proves the best optimal.
  const std::string cutoff = below ? std::to_string(static_cast<double>(*below) - 0.5) : "1e50";
  // No time limit: CBC may report a search it stopped on time as finished (coin-or/Cbc
  // issue 364: an answer saved after the stop resets its clock, seen here on a generated
  // 30-group core); without a limit it stops only when the search is over, or is killed.
  const char* argv[] = {"iopddl",  "-log",         "0",         "-slog", "0",
                        "-cutoff", cutoff.c_str(), "-ratioGap", "0",     "-allowableGap",
                        "0.5",     "-solve",       "-quit"};
  CbcSolverUsefulData data;
  data.noPrinting_ = true;
  CbcMain0(model, data);
  model.passInMessageHandler(&quiet);
  CbcMain1(static_cast<int>(std::size(argv)), argv, model, nullptr, data);
  // The final answer is in the model's columns.
  if (model.bestSolution() && model.getObjValue() < 1e49)
    send_answer(w, model.getObjValue(), m.assignment(r, model.bestSolution()));
  const bool finished = model.status() == 0 && !model.isSecondsLimitReached() &&
                        (model.isProvenOptimal() || model.isProvenInfeasible());
  w.put(kEnd);
  w.put(static_cast<std::uint8_t>(finished));
  w.put(model.getBestPossibleObjValue());
  w.send();
  _exit(0);
}

// The child's data (heap and private mappings, RLIMIT_DATA) may grow `megabytes` beyond
// what it shares with the parent at the fork: an allocation past it fails, and the child
// ends (without a core dump) as a search that did not finish.
void limit_memory(std::size_t megabytes) {
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (megabytes == SIZE_MAX) return;
  std::size_t data_kb = 0;
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "VmData: %zu kB", &data_kb) == 1) break;
    std::fclose(f);
  }
  const rlim_t bytes = static_cast<rlim_t>(data_kb) * 1024 + (static_cast<rlim_t>(megabytes) << 20);
  const rlimit data{bytes, bytes};
  ::setrlimit(RLIMIT_DATA, &data);
}

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
      child(r, m, below, fds[1]);
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
