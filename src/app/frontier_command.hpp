// `iopddl frontier FILE`: the best cost at several memory limits, as CSV and a picture.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "iopddl/options.hpp"
#include "iopddl/stop.hpp"
#include "xla_request.hpp"

namespace iopddl::inline v0::app {

struct FrontierCommand {
  std::string file, output, png;
  int points = 8;
  double time_limit = 30;
  bool quiet = false;
  SolverOptions solver;
  RequestOptions request;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app);
  int run() const;
};

}  // namespace iopddl::inline v0::app
