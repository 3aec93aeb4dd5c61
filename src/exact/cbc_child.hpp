// The child process of a CBC search (cbc_search.hpp): CBC on the MIP model, its findings
// written down a pipe as records that the parent reads.
#pragma once

#include <cstddef>
#include <optional>

#include "../reduce/reduced.hpp"
#include "mip_model.hpp"

namespace iopddl::inline v0 {

// The child's records, each a tag and its fields in the machine's byte order:
//   'S' double objective, uint32 n, n x uint32: the final answer (the reduced strategies)
//   'B' double best possible objective (throttled)
//   'E' uint8 finished, double best possible: the search is over
constexpr char kAnswer = 'S', kBound = 'B', kEnd = 'E';

// The child's whole life: CBC on the model, its findings down the pipe `fd`; it never
// returns (an exception, out of its memory, may leave it: the caller exits then).
[[noreturn]] void cbc_child(const Reduced& r, const MipModel& m, std::optional<Total> below,
                            int fd);

// The child's data (heap and private mappings, RLIMIT_DATA) may grow `megabytes` beyond
// what it shares with the parent at the fork: an allocation past it fails, and the child
// ends (without a core dump) as a search that did not finish.
void limit_memory(std::size_t megabytes);

}  // namespace iopddl::inline v0
