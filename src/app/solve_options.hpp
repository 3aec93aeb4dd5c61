// The settings of `iopddl solve` and the options table that names them (see
// option_table.hpp): one list, read by the command line, config files and --dump-config.
#pragma once

#include "option_table.hpp"
#include "run.hpp"

namespace iopddl::inline v0::app {

// Lists every configurable field of `s` in `table` (both must outlive the table's use).
void describe_solve_options(OptionTable& table, RunSettings& s);
// The options of `iopddl bound`: the budget, presolve, and the bound's own.
void describe_bound_options(OptionTable& table, RunSettings& s);
// Checks what no single option can: lns sizes in order, at least one price level. Throws
// OptionError.
void check_solve_options(const RunSettings& s);

}  // namespace iopddl::inline v0::app
