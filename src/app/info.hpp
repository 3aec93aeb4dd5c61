#pragma once

#include <string>

#include "iopddl/problem.hpp"

namespace iopddl::app {

// Instance statistics for `iopddl info`, as '#'-free text lines.
std::string instance_info(const Problem& problem);

}  // namespace iopddl::app
