// What the commands share: printing to stdout with its errors, and checking output paths.
#pragma once

#include <string>

namespace iopddl::app {

// Prints `text` on stdout; a failed write (a full disk, a closed pipe) is an error: returns
// the exit status.
int print_text(const std::string& text);

// Throws OptionError when `option`'s `path` cannot be written or is the `input` file itself.
void check_output_path(const std::string& option, const std::string& path,
                       const std::string& input);

}  // namespace iopddl::app
