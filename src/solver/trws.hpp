// Sequential tree-reweighted message passing (TRW-S, Kolmogorov 2006) for the priced
// problem: a pairwise cost network over the reduced graph with no memory constraint left.
// Messages persist between calls, so changing the unary costs a little (new memory prices)
// and iterating again warm-starts from the previous state. Exact on trees and forests.
#pragma once

#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl {

class StopControl;

class Trws {
 public:
  explicit Trws(const Reduced& r);
  // Unary costs, flat over groups in order (size = total strategies).
  std::vector<double>& unary() { return unary_; }
  std::size_t unary_begin(std::uint32_t g) const { return ubegin_[g]; }
  // One forward and one backward pass; `stop` (if given) is polled every few thousand
  // nodes, and an interrupted pass leaves valid (partly updated) messages.
  void iterate(const StopControl* stop = nullptr);
  // Labels nodes in order, each given its already-labelled neighbours and the messages
  // from the others.
  std::vector<Strategy> round() const;
  void reset_messages();

 private:
  void pass(bool forward, const StopControl* stop);
  const Reduced& r_;
  std::vector<std::uint64_t> ubegin_;
  std::vector<double> unary_;
  std::vector<double> table_;  // per edge, row-major in edge_u's strategy
  std::vector<std::uint64_t> tbegin_;
  std::vector<double> msg_;  // per edge: [to edge_u (k_u) | to edge_v (k_v)]
  std::vector<std::uint64_t> mbegin_;
  std::vector<double> gamma_;
};

}  // namespace iopddl
