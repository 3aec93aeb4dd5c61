// Sequential tree-reweighted message passing (TRW-S, Kolmogorov 2006) on a pairwise cost
// network: the priced problem (no memory constraint left), or a region of it. Messages
// persist between calls, so changing the node costs a little (new prices) and iterating
// again warm-starts from the previous state.
//
// The trees hanging off the network's 2-core (nodes peeled by repeatedly removing nodes of
// degree 0 or 1) are eliminated exactly: each peeled node's message to its parent is its
// subtree's min-marginal, computed leaves first at the start of every iteration and
// rounding, and the passes run over the core only. Rounding labels the core, then the
// peeled nodes parents first, each exactly given its parent. Exact on trees and forests.
#pragma once

#include <vector>

#include "network.hpp"

namespace iopddl::inline v0 {

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
  // The messages of that reparametrisation (the passes' messages, the peeled trees' up and
  // down), per edge at message_slot(e, to) for the k_to entries into `to`: node i's
  // reparametrised cost is its cost plus every message into it, an edge's entry its cost
  // minus the messages it sent to its two ends. The certified bound recomputes it exactly.
  std::vector<double> reparametrisation() const;
  std::size_t message_slot(std::uint32_t e, std::uint32_t to) const { return slot(e, to); }
  void reset_messages();

 private:
  void pass(bool forward, const StopControl* stop);
  // Messages from peeled nodes to their parents (subtree min-marginals) into `msg`.
  void tree_messages(std::vector<double>& msg) const;
  // Min over s_i of (score(s_i) + edge e's cost), for each strategy of e's other end j.
  void min_marginal(std::uint32_t e, std::uint32_t i, const double* score, double* to_j) const;
  // Node i's costs plus every message into it, into out[0..k_i).
  void node_belief(std::uint32_t i, double* out) const;
  // The same from the messages in `msg`, leaving out the one along edge `skip`.
  void node_belief(std::uint32_t i, double* out, const std::vector<double>& msg,
                   std::uint32_t skip) const;
  std::size_t slot(std::uint32_t e, std::uint32_t to) const {
    return mbegin_[e] + (net_.edge_u(e) == to ? 0 : net_.strategies(net_.edge_u(e)));
  }
  const double* in(std::uint32_t e, std::uint32_t to) const { return msg_.data() + slot(e, to); }
  const CostNetwork& net_;
  std::vector<double> msg_;  // per edge: [to edge_u (k_u) | to edge_v (k_v)]
  std::vector<std::uint64_t> mbegin_;
  std::vector<double> gamma_;
  std::vector<char> peeled_;               // per node: outside the 2-core
  std::vector<std::uint32_t> parent_;      // per peeled node: edge to its parent (none: a root)
  std::vector<std::uint32_t> peel_order_;  // leaves first
};

}  // namespace iopddl::inline v0
