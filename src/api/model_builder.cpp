// ModelBuilder: the library's problem builder, which checks each element before it is
// added (the JSON reader checks the same things, naming JSON paths instead).
#include <limits>

#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0 {

const char* version() {
  return IOPDDL_VERSION;
}

namespace {

[[noreturn]] void refuse(const std::string& where, const std::string& what) {
  throw InputError(where + ": " + what);
}

}  // namespace

ModelBuilder::ModelBuilder(std::string name) {
  builder_.set_name(std::move(name));
}

void ModelBuilder::set_usage_limit(std::optional<Usage> limit) {
  if (limit && *limit < 0)
    refuse("usage limit", "must be non-negative, not " + std::to_string(*limit));
  builder_.set_usage_limit(limit);
}

NodeId ModelBuilder::add_node(std::span<const Cost> costs, std::span<const Usage> usages,
                              std::int64_t lo, std::int64_t hi) {
  const std::string where = "node " + std::to_string(builder_.num_nodes());
  if (builder_.num_nodes() + 1 >= std::numeric_limits<NodeId>::max())
    refuse(where, "too many nodes");
  if (costs.empty()) refuse(where, "a node needs at least one strategy");
  if (usages.size() != costs.size())
    refuse(where, std::to_string(costs.size()) + " costs but " + std::to_string(usages.size()) +
                      " usages (one of each per strategy)");
  if (costs.size() > static_cast<std::size_t>(std::numeric_limits<Strategy>::max() / 2))
    refuse(where, "too many strategies");
  for (std::size_t s = 0; s < usages.size(); ++s)
    if (usages[s] < 0)
      refuse(where,
             "strategy " + std::to_string(s) + ": negative usage " + std::to_string(usages[s]));
  return builder_.add_node(lo, hi, costs, usages);
}

EdgeId ModelBuilder::add_edge(NodeId u, NodeId v, std::span<const Cost> costs) {
  const std::string where =
      "edge " + std::to_string(edges_) + " (" + std::to_string(u) + "-" + std::to_string(v) + ")";
  const std::size_t n = builder_.num_nodes();
  if (edges_ + 1 >= std::numeric_limits<EdgeId>::max()) refuse(where, "too many edges");
  for (NodeId end : {u, v})
    if (end >= n)
      refuse(where, "node " + std::to_string(end) + " does not exist (" + std::to_string(n) +
                        " nodes so far)");
  const std::size_t ku = builder_.strategies(u), kv = builder_.strategies(v);
  if (costs.size() != ku * kv)
    refuse(where, "expected " + std::to_string(ku * kv) + " costs (" + std::to_string(ku) + " x " +
                      std::to_string(kv) + " strategies), found " + std::to_string(costs.size()));
  ++edges_;
  return builder_.add_edge(u, v, builder_.add_table(costs));
}

Problem ModelBuilder::build() && {
  return std::move(builder_).build();
}

}  // namespace iopddl::inline v0
