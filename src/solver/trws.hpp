// Sequential tree-reweighted message passing (TRW-S, Kolmogorov 2006) on a pairwise cost
// network: the priced problem (no memory constraint left), or a region of it. Messages
// persist between calls, so changing the node costs a little (new prices) and iterating
// again warm-starts from the previous state. Exact on trees and forests.
#pragma once

#include <vector>

#include "network.hpp"

namespace iopddl {

class StopControl;

class Trws {
 public:
  // `net` must outlive this; its node costs may change between calls, its shape may not.
  explicit Trws(const CostNetwork& net);
  // One forward and one backward pass; `stop` (if given) is polled every few thousand
  // nodes, and an interrupted pass leaves valid (partly updated) messages.
  void iterate(const StopControl* stop = nullptr);
  // Labels nodes in order, each given its already-labelled neighbours and the messages
  // from the others.
  std::vector<Strategy> round() const;
  // A lower bound on the network's least energy: the messages reparametrise it (node costs
  // plus incoming messages, edge tables minus the messages they sent) without changing any
  // assignment's energy, so the sum of the smallest reparametrised entries bounds it.
  double lower_bound() const;
  void reset_messages();

 private:
  void pass(bool forward, const StopControl* stop);
  // Node i's costs plus every message into it, into out[0..k_i).
  void node_belief(std::uint32_t i, double* out) const;
  const double* in(std::uint32_t e, std::uint32_t to) const {
    return msg_.data() + mbegin_[e] + (net_.edge_u(e) == to ? 0 : net_.strategies(net_.edge_u(e)));
  }
  const CostNetwork& net_;
  std::vector<double> msg_;  // per edge: [to edge_u (k_u) | to edge_v (k_v)]
  std::vector<std::uint64_t> mbegin_;
  std::vector<double> gamma_;
};

}  // namespace iopddl
