// The options of `iopddl generate` (see option_table.hpp): the family and its shape.
#pragma once

#include "iopddl/generate.hpp"
#include "option_table.hpp"

namespace iopddl::inline v0::app {

// Lists every field of `g` in `table` (both must outlive the table's use).
void describe_generator_options(OptionTable& table, GeneratorOptions& g);

}  // namespace iopddl::inline v0::app
