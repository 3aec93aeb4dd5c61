// What the commands share: printing to stdout with its errors, and checking output paths.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "xla_request.hpp"

namespace iopddl::inline v0::app {

// Prints `text` on stdout; a failed write (a full disk, a closed pipe) is an error: returns
// the exit status.
int print_text(const std::string& text);

// Throws OptionError when `option`'s `path` cannot be written or is the `input` file itself.
void check_output_path(const std::string& option, const std::string& path,
                       const std::string& input);

// The options of reading an XLA request: --ignore-unsupported-fields and --cost-scale.
void add_request_options(CLI::App* cmd, RequestOptions& o);

}  // namespace iopddl::inline v0::app
