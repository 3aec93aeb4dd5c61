#include "trws.hpp"

#include <algorithm>
#include <limits>

#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

Trws::Trws(const CostNetwork& net) : net_(net) {
  const std::size_t n = net.num_nodes();
  mbegin_.assign(net.num_edges() + 1, 0);
  for (std::uint32_t e = 0; e < net.num_edges(); ++e)
    mbegin_[e + 1] = mbegin_[e] + net.strategies(net.edge_u(e)) + net.strategies(net.edge_v(e));
  msg_.assign(mbegin_.back(), 0.0);
  // Peel nodes of degree 0 or 1 until only the 2-core is left; each peeled node's parent is
  // its one neighbour left when it was peeled.
  peeled_.assign(n, 0);
  parent_.assign(n, kNoIndex);
  std::vector<std::size_t> degree(n);
  std::vector<std::uint32_t> queue;
  for (std::uint32_t g = 0; g < n; ++g) {
    degree[g] = net.incident(g).size();
    if (degree[g] <= 1) queue.push_back(g);
  }
  std::vector<char> queued(n, 0);
  for (std::uint32_t g : queue) queued[g] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t g = queue[head];
    peeled_[g] = 1;
    peel_order_.push_back(g);
    for (std::uint32_t e : net.incident(g)) {
      const std::uint32_t j = net.other(e, g);
      if (peeled_[j]) continue;
      parent_[g] = e;
      if (--degree[j] <= 1 && !queued[j]) {
        queued[j] = 1;
        queue.push_back(j);
      }
    }
  }
  gamma_.resize(n);
  for (std::uint32_t g = 0; g < n; ++g) {
    std::size_t before = 0, after = 0;
    for (std::uint32_t e : net.incident(g)) {
      const std::uint32_t j = net.other(e, g);
      if (!peeled_[j]) (j < g ? before : after)++;
    }
    gamma_[g] = 1.0 / static_cast<double>(std::max<std::size_t>({before, after, 1}));
  }
}

void Trws::min_marginal(std::uint32_t e, std::uint32_t i, const double* score, double* to_j) const {
  const std::uint32_t j = net_.other(e, i);
  const Strategy ki = net_.strategies(i), kj = net_.strategies(j);
  const double* t = net_.table(e);
  std::fill(to_j, to_j + kj, std::numeric_limits<double>::infinity());
  if (net_.edge_u(e) == i) {
    for (Strategy si = 0; si < ki; ++si) {
      const double* row = t + static_cast<std::size_t>(si) * kj;
      for (Strategy sj = 0; sj < kj; ++sj) to_j[sj] = std::min(to_j[sj], score[si] + row[sj]);
    }
  } else {
    for (Strategy sj = 0; sj < kj; ++sj) {
      const double* row = t + static_cast<std::size_t>(sj) * ki;
      double m = std::numeric_limits<double>::infinity();
      for (Strategy si = 0; si < ki; ++si) m = std::min(m, score[si] + row[si]);
      to_j[sj] = m;
    }
  }
  double m = *std::min_element(to_j, to_j + kj);
  if (!(m < kInfinite * 4)) m = 0;
  for (Strategy sj = 0; sj < kj; ++sj) to_j[sj] = std::min(to_j[sj] - m, kInfinite);
}

void Trws::tree_messages(std::vector<double>& msg) const {
  std::vector<double> score;
  for (std::uint32_t g : peel_order_) {  // children before parents
    const std::uint32_t up = parent_[g];
    if (up == kNoIndex) continue;
    score.resize(static_cast<std::size_t>(net_.strategies(g)));
    // Every neighbour but the parent is a child, whose message is already final.
    node_belief(g, score.data(), msg, up);
    min_marginal(up, g, score.data(), msg.data() + slot(up, net_.other(up, g)));
  }
}

void Trws::reset_messages() {
  std::fill(msg_.begin(), msg_.end(), 0.0);
}

void Trws::pass(bool forward, const StopControl* stop) {
  const auto n = static_cast<std::int64_t>(net_.num_nodes());
  std::vector<double> belief, a;
  StopPoll poll(stop, 4096);
  for (std::int64_t step = 0; step < n; ++step) {
    const auto i = static_cast<std::uint32_t>(forward ? step : n - 1 - step);
    const Strategy ki = net_.strategies(i);
    // A step's work: the node's strategies times its tables (each entry is read).
    if (poll.tick(static_cast<std::uint64_t>(ki) * (1 + net_.incident(i).size()))) return;
    if (peeled_[i]) continue;
    belief.resize(static_cast<std::size_t>(ki));
    a.resize(static_cast<std::size_t>(ki));
    node_belief(i, belief.data());
    const double g = gamma_[i];
    for (std::uint32_t e : net_.incident(i)) {
      const std::uint32_t j = net_.other(e, i);
      if (peeled_[j] || (forward ? j < i : j > i)) continue;
      // a(s_i) = gamma * belief(s_i) - message into i along e
      const double* to_i = in(e, i);
      for (Strategy si = 0; si < ki; ++si) a[si] = g * belief[si] - to_i[si];
      min_marginal(e, i, a.data(), msg_.data() + slot(e, j));
    }
  }
}

void Trws::node_belief(std::uint32_t i, double* out) const {
  node_belief(i, out, msg_, kNoIndex);
}

void Trws::node_belief(std::uint32_t i, double* out, const std::vector<double>& msg,
                       std::uint32_t skip) const {
  const Strategy k = net_.strategies(i);
  std::copy(net_.unary(i), net_.unary(i) + k, out);
  for (std::uint32_t e : net_.incident(i)) {
    if (e == skip) continue;
    const double* m = msg.data() + slot(e, i);
    for (Strategy s = 0; s < k; ++s) out[s] += m[s];
  }
}

void Trws::iterate(const StopControl* stop) {
  tree_messages(msg_);
  pass(true, stop);
  pass(false, stop);
}

std::vector<Strategy> Trws::round() const {
  const std::size_t n = net_.num_nodes();
  std::vector<double> msg = msg_;
  tree_messages(msg);  // for the node costs as they are now
  std::vector<Strategy> x(n, 0);
  std::vector<double> score;
  auto label = [&](std::uint32_t i, bool exact_for_lower, std::uint32_t exact_edge) {
    const Strategy ki = net_.strategies(i);
    score.assign(net_.unary(i), net_.unary(i) + ki);
    for (std::uint32_t e : net_.incident(i)) {
      const std::uint32_t j = net_.other(e, i);
      // Labelled: the exact pairwise cost; else the message (a peeled child's is exact).
      if (e == exact_edge || (exact_for_lower && !peeled_[j] && j < i)) {
        const double* t = net_.table(e);
        const Strategy kj = net_.strategies(j);
        const bool i_is_u = net_.edge_u(e) == i;
        for (Strategy s = 0; s < ki; ++s)
          score[s] += i_is_u ? t[static_cast<std::size_t>(s) * kj + x[j]]
                             : t[static_cast<std::size_t>(x[j]) * ki + s];
      } else {
        const double* m = msg.data() + slot(e, i);
        for (Strategy s = 0; s < ki; ++s) score[s] += m[s];
      }
    }
    x[i] = static_cast<Strategy>(std::min_element(score.begin(), score.end()) - score.begin());
  };
  // The core in index order, each given its labelled core neighbours; then the peeled
  // nodes, parents first, each given its parent.
  for (std::uint32_t i = 0; i < n; ++i)
    if (!peeled_[i]) label(i, true, kNoIndex);
  for (auto it = peel_order_.rbegin(); it != peel_order_.rend(); ++it)
    label(*it, false, parent_[*it]);
  return x;
}

std::vector<double> Trws::reparametrisation() const {
  // The peeled trees' messages: up as in the passes, and down so that each peeled node's
  // own costs and its children's messages move onto the edge to its parent. Each tree is
  // then tight: its edges' minima add up to its optimum given its root.
  std::vector<double> msg = msg_;
  tree_messages(msg);
  for (std::uint32_t c : peel_order_) {
    const std::uint32_t up = parent_[c];
    if (up == kNoIndex) continue;
    double* down = msg.data() + slot(up, c);
    node_belief(c, down, msg, up);
    for (Strategy s = 0; s < net_.strategies(c); ++s) down[s] = -down[s];
  }
  return msg;
}

double Trws::lower_bound() const {
  // The reparametrisation: node costs plus incoming messages, edge tables minus the
  // messages they sent. Then each table's row minima are pushed into its first end and its
  // column minima into its second end (a block step of the local LP's dual, which never
  // lowers the bound); the bound is the sum of the node minima and the table minima.
  const std::vector<double> msg = reparametrisation();
  std::vector<double> node(net_.unary_size());
  for (std::uint32_t i = 0; i < net_.num_nodes(); ++i)
    node_belief(i, node.data() + net_.unary_begin(i), msg, kNoIndex);
  double bound = 0;
  std::vector<double> t;
  for (std::uint32_t e = 0; e < net_.num_edges(); ++e) {
    const std::uint32_t u = net_.edge_u(e), v = net_.edge_v(e);
    const Strategy ku = net_.strategies(u), kv = net_.strategies(v);
    const double *mu = msg.data() + slot(e, u), *mv = msg.data() + slot(e, v);
    t.assign(net_.table(e), net_.table(e) + static_cast<std::size_t>(ku) * kv);
    for (Strategy a = 0; a < ku; ++a)
      for (Strategy b = 0; b < kv; ++b) t[static_cast<std::size_t>(a) * kv + b] -= mu[a] + mv[b];
    double* nu = node.data() + net_.unary_begin(u);
    double* nv = node.data() + net_.unary_begin(v);
    for (Strategy a = 0; a < ku; ++a) {
      double* row = t.data() + static_cast<std::size_t>(a) * kv;
      const double r = *std::min_element(row, row + kv);
      for (Strategy b = 0; b < kv; ++b) row[b] -= r;
      nu[a] += r;
    }
    for (Strategy b = 0; b < kv; ++b) {
      double r = std::numeric_limits<double>::infinity();
      for (Strategy a = 0; a < ku; ++a) r = std::min(r, t[static_cast<std::size_t>(a) * kv + b]);
      nv[b] += r;  // the table's minimum is now 0
    }
  }
  for (std::uint32_t i = 0; i < net_.num_nodes(); ++i) {
    const double* b = node.data() + net_.unary_begin(i);
    bound += *std::min_element(b, b + net_.strategies(i));
  }
  return bound;
}

}  // namespace iopddl::inline v0
