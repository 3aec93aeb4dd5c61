#include "command_support.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "iopddl/io.hpp"
#include "option_table.hpp"
#include "run.hpp"

namespace iopddl::inline v0::app {

int print_text(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "error: cannot write to standard output: %s\n", std::strerror(errno));
    return kExitOutput;
  }
  return kExitOk;
}

// Files named by options are checked before the run: an error now costs nothing, one at
// the end would cost the run's output file (the answer is printed whatever happens).
// A file named for output that is the input itself is refused: the run would overwrite
// the instance it solves.
void check_output_path(const std::string& option, const std::string& path,
                       const std::string& input) {
  if (path.empty()) return;
  if (same_file(path, input))
    throw OptionError(option + " " + path + ": is the input file " + input +
                      "; refusing to overwrite it");
  const std::string why = cannot_write(path);
  if (!why.empty()) throw OptionError(option + " " + path + ": cannot write: " + why);
}

void add_request_options(CLI::App* cmd, RequestOptions& o) {
  cmd->add_flag("--ignore-unsupported-fields", o.ignore_unsupported_fields,
                "For a request: read it without the fields that would change the problem but "
                "that iopddl does not implement (otherwise the request is refused)");
  cmd->add_option_function<double>(
         "--cost-scale", [&o](double scale) { o.cost_scale = scale; },
         "For a request: multiply its costs by this before rounding them to integers (default: "
         "1 for integer costs, else the least power of two that keeps each within 1e-9)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            const double v = std::strtod(text.c_str(), nullptr);
            return v > 0 && v <= 1e12 ? "" : "must be a number above 0 and at most 10^12";
          },
          "SCALE"));
}

}  // namespace iopddl::inline v0::app
