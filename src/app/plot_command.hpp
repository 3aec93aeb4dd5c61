// `iopddl plot FILE RESULT -o out.png`: an answer's memory over time against the limit
// (the peak marked, the heaviest operations live there named) and, for a result written
// by `solve --output`, its cost and certified bound over time.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "xla_request.hpp"

namespace iopddl::inline v0::app {

struct PlotCommand {
  std::string file, result, output, data;
  int named = 5;
  RequestOptions request;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app);
  int run() const;
};

}  // namespace iopddl::inline v0::app
