// The final line and the files that go with it (--output, --output-proto).
#include <cstdio>

#include "iopddl/io.hpp"
#include "result_document.hpp"
#include "run_state.hpp"

namespace iopddl::inline v0::app {

RequestAnswer request_answer(Run& run, const std::vector<Strategy>& a, bool has) {
  // (A watchdog or a signal may print before the search has reported its status.)
  const SolveStatus status = has && run.end.solve_status == SolveStatus::kNoSolution
                                 ? SolveStatus::kFeasible
                                 : run.end.solve_status;
  return answer_request(*run.request, *run.problem, status, a, has, run.store.bound(),
                        run.weighing);
}

// The final line goes out under the log's lock, and later progress lines go to stderr, so
// it stays the last line of stdout whatever other threads log. A failed --output write is
// reported after it (the answer is on stdout either way). The files are written after the
// lock is released: a signal that comes while a FIFO's reader is slow ends the run at once
// (the final line is out by then).
Printed print_final(Run& run, const char* why) {
  std::vector<std::pair<std::string, std::string>> files;  // (option, path) and text below
  std::vector<std::string> texts;
  bool has = false;
  {
    std::lock_guard lock(run.print.mutex);
    if (run.print.printed) return Printed::kAlready;
    run.print.printed = true;
    if (run.rank != 0) return run.store.has_solution() ? Printed::kSolution : Printed::kEmpty;
    if (why) std::fprintf(stderr, "warning: %s; printing the best solution so far\n", why);
    auto [a, found] = run.store.snapshot();
    has = found && !run.end.refused && !run.end.withheld;
    // The request's answer judges the store's own (max_cost, forbidden picks) and says why
    // it withholds it.
    const bool answerable = found && !run.end.refused;
    run.log.close([&, &a = a] {
      const std::string line = (has ? format_assignment(a) : "[]") + "\n";
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fflush(stdout);
    });
    std::optional<RequestAnswer> answer;
    if (run.request && run.problem &&
        !(run.settings.output_path.empty() && run.settings.proto_output_path.empty()))
      answer = request_answer(run, a, answerable);
    if (!run.settings.output_path.empty()) {
      files.emplace_back("--output", run.settings.output_path);
      texts.push_back(result_document(run, a, has, answer));
    }
    if (answer && !run.settings.proto_output_path.empty()) {  // (only requests: see read_input)
      files.emplace_back("--output-proto", run.settings.proto_output_path);
      texts.push_back(answer_proto(*answer));
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    try {
      write_file(files[i].second, texts[i], run.print.write_deadline);
    } catch (const OutputError& e) {
      run.print.output_error = e.what();
      std::fprintf(stderr, "error: %s %s\n", files[i].first.c_str(), e.what());
    }
  }
  run.print.solution = has;
  return has ? Printed::kSolution : Printed::kEmpty;
}

}  // namespace iopddl::inline v0::app
