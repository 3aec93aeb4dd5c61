// The JSON result of `solve --output` (its fields are documented in the README).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "run_state.hpp"

namespace iopddl::inline v0::app {

// The document for the store's answer `a` (when `has`); `answer` is that answer in a
// request's terms, when the input is one.
std::string result_document(Run& run, const std::vector<Strategy>& a, bool has,
                            const std::optional<RequestAnswer>& answer);

}  // namespace iopddl::inline v0::app
