#include "cbc_child.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <coin/CbcEventHandler.hpp>
#include <coin/CbcModel.hpp>
#include <coin/CbcSolver.hpp>
#include <coin/CoinMessageHandler.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <coin/OsiClpSolverInterface.hpp>
#include <cstring>
#include <vector>

namespace iopddl::inline v0 {

namespace {

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

}  // namespace

[[noreturn]] void cbc_child(const Reduced& r, const MipModel& m, std::optional<Total> below,
                            int fd) {
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

}  // namespace iopddl::inline v0
