// libFuzzer target: any byte string given to the reader either parses into a model that
// passes its own invariants or raises InputError. Anything else (crash, hang, sanitizer
// report, another exception) is a bug.
#include <cstdint>
#include <cstring>
#include <vector>

#include "iopddl/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<char> padded(size + 64, '\0');
  if (size) std::memcpy(padded.data(), data, size);
  try {
    iopddl::Problem p = iopddl::parse_problem(padded.data(), size, "fuzz");
    for (iopddl::EdgeId e = 0; e < p.num_edges(); ++e) {
      const std::size_t expected = static_cast<std::size_t>(p.strategies(p.edge_u(e))) *
                                   static_cast<std::size_t>(p.strategies(p.edge_v(e)));
      if (p.edge_costs(e).size() != expected) __builtin_trap();
    }
  } catch (const iopddl::InputError&) {
  }
  return 0;
}
