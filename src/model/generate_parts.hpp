// What the generator's families share (generate.cpp, generate_memory.cpp): how a strategy
// that shards a tensor costs and uses memory, what resharding costs, and the usage limit.
#pragma once

#include <cmath>

#include "iopddl/generate.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/rng.hpp"

namespace iopddl::inline v0::generated {

struct Sharded {
  Cost cost;
  Usage usage;
};

// A tensor of `size` bytes and `flops` of compute split `d` ways: memory and compute divided
// by d, communication that grows with d, so replicated layouts are cheap and memory-hungry
// and cost and memory pull against each other, as in XLA's requests (without this, the
// least-memory layout is also nearly the cheapest and the memory limit costs little).
inline Sharded shard(Rng& rng, double size, double flops, int d) {
  const double comm = d > 1 ? size * (0.3 + 0.4 * std::log2(d)) * (0.5 + rng.uniform()) : 0.0;
  const auto cost = static_cast<Cost>(0.1 * flops / d + comm);
  return {cost, static_cast<Usage>(size / d * (0.8 + 0.4 * rng.uniform()))};
}

// Moving a tensor from a split into `da` parts to one into `dc` (`scale`: its weight): free
// when the degrees match.
inline Cost resharding(double scale, int da, int dc) {
  return da == dc ? 0 : static_cast<Cost>(scale * std::abs(std::log2(da) - std::log2(dc)) / 4.0);
}

// `factor` x the peak of the least-memory assignment of what `b` holds so far.
Usage least_memory_limit(const ProblemBuilder& b, double factor);

Problem generate_memory(const GeneratorOptions& options);

}  // namespace iopddl::inline v0::generated
