#pragma once

#include <string>

#include "iopddl/problem.hpp"

namespace iopddl::inline v0 {

// Instance statistics for `iopddl info`, as '#'-free text lines.
// With regions > 0, also how the reduced graph splits into that many regions.
std::string instance_info(const Problem& problem, std::size_t regions = 0);

}  // namespace iopddl::inline v0
