// A request as a Problem (see XlaRequest for the rules), one field group at a time, in the
// order the checks name their errors.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "request_fields.hpp"
#include "request_format.hpp"

namespace iopddl::inline v0 {

std::string request_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

namespace {

using request_fields::at;
using request_fields::cost_scale;
using request_fields::Fields;
using request_fields::Liveness;
using request_fields::request_liveness;

// The hint, max_cost, the timeout and determinism.
void hint_and_settings(const Request& r, std::size_t n, const Fields& f, XlaRequest& out) {
  if (r.s_hint_size() != 0) {
    if (static_cast<std::size_t>(r.s_hint_size()) != n)
      f.refuse("s_hint",
               f.entries("entries", static_cast<std::size_t>(r.s_hint_size()), "num_nodes", n));
    out.hint.resize(n);
    for (std::size_t v = 0; v < n; ++v) {
      const std::int64_t s = r.s_hint(static_cast<int>(v));
      if (s < 0 || s >= f.s_len(v))
        f.refuse(at("s_hint", v), "strategy " + std::to_string(s) + " is out of range (" +
                                      std::to_string(f.s_len(v)) + " strategies)");
      out.hint[v] = static_cast<Strategy>(s);
    }
  }
  if (r.has_max_cost()) {
    if (std::isnan(r.max_cost().coeff())) f.refuse("max_cost", "not a number");
    out.max_cost = r.max_cost().coeff();
  }
  if (r.has_solver_timeout() && r.solver_timeout().solver_timeout_in_seconds() > 0)
    out.timeout_seconds = static_cast<double>(r.solver_timeout().solver_timeout_in_seconds());
  out.deterministic = r.deterministic_mode();
}

// What is set but not used, said rather than dropped: fields that leave the answer as it
// is are named; fields that would change the problem refuse the request unless asked.
void ignored_fields(const Request& r, const RequestOptions& options, const Fields& f,
                    XlaRequest& out) {
  std::vector<std::string> unsupported;
  const auto ignore = [&](bool set, const char* field) {
    if (set) out.ignored.emplace_back(field);
  };
  const auto changes = [&](bool set, const char* field) {
    if (set) unsupported.emplace_back(field);
  };
  changes(!r.departure_costs().empty(), "departure_costs");
  changes(!r.duration_costs().empty(), "duration_costs");
  changes(r.has_makespan_coeff(), "makespan_coeff");
  changes(r.has_max_departures(), "max_departures");
  const auto& unknown = r.GetReflection()->GetUnknownFields(r);
  for (int i = 0; i < unknown.field_count(); ++i)
    unsupported.push_back("field " + std::to_string(unknown.field(i).number()) +
                          " (unknown to this version)");
  std::sort(unsupported.begin(), unsupported.end());
  unsupported.erase(std::unique(unsupported.begin(), unsupported.end()), unsupported.end());
  if (!unsupported.empty() && !options.ignore_unsupported_fields) {
    std::string list;
    for (const std::string& name : unsupported) list += (list.empty() ? "" : ", ") + name;
    const bool one = unsupported.size() == 1;
    f.refuse(list, std::string("not supported by iopddl, and the answer would leave ") +
                       (one ? "it" : "them") +
                       " out of the problem (--ignore-unsupported-fields solves without " +
                       (one ? "it" : "them") + ")");
  }
  out.ignored = unsupported;
  ignore(r.has_coeff_limit(), "coeff_limit");
  ignore(r.compute_iis(), "compute_iis");
  ignore(r.saltiplier() != 0, "saltiplier");
  ignore(!r.live_edges().empty() || !r.memory_edge_costs().empty() || !r.edge_intervals().empty() ||
             !r.edge_groups().empty(),
         "live_edges, edge_intervals, edge_groups and memory_edge_costs "
         "(enable_memory_edge_costs is off)");
  ignore(!r.peak_times().empty(), "peak_times");
  std::sort(out.ignored.begin(), out.ignored.end());
  out.ignored.erase(std::unique(out.ignored.begin(), out.ignored.end()), out.ignored.end());
}

class Conversion {
 public:
  Conversion(const Request& r, const LiveBytes* live_bytes, const std::string& source,
             const RequestOptions& options)
      : f_(r, source), r_(r), live_bytes_(live_bytes), options_(options) {}

  XlaRequest run() && {
    out_.name = !r_.request_name().empty() ? r_.request_name() : r_.module_name();
    check_shape();
    live_intervals();
    choose_cost_scale();
    node_tables();
    budget();
    builder_.emplace(out_.name);
    builder_->set_usage_limit(limit_);
    for (std::size_t v = 0; v < n_; ++v)
      builder_->add_node(costs_[v], usages_[v], live_.lo[v], live_.hi[v]);
    resharding_edges();
    followers();
    aliases();
    hint_and_settings(r_, n_, f_, out_);
    ignored_fields(r_, options_, f_, out_);
    out_.cost_scale = f_.scale();
    out_.max_rounding_error = f_.max_rounding_error();
    out_.problem = std::move(*builder_).build();
    return std::move(out_);
  }

 private:
  void check_shape() {
    if (r_.num_nodes() < 0 || r_.num_nodes() >= static_cast<std::int64_t>(kNoIndex))
      f_.refuse("num_nodes", "must be within [0, 2^32 - 1)");
    n_ = static_cast<std::size_t>(r_.num_nodes());
    f_.set_nodes(n_);
    if (static_cast<std::size_t>(r_.s_len_size()) != n_)
      f_.refuse("s_len",
                f_.entries("entries", static_cast<std::size_t>(r_.s_len_size()), "num_nodes", n_));
    for (std::size_t v = 0; v < n_; ++v)
      if (f_.s_len(v) < 1 || f_.s_len(v) > (1 << 30))
        f_.refuse(at("s_len", v), "must be within [1, 2^30]");
    f_.check_costs(r_.computation_costs(), "computation_costs", true);
    f_.check_costs(r_.communication_costs(), "communication_costs", false);
    f_.check_costs(r_.memory_costs(), "memory_costs", false);
    if (r_.enable_memory_edge_costs())
      f_.refuse("enable_memory_edge_costs",
                "edge memory (live_edges, memory_edge_costs) is not supported");
  }

  // Live intervals (request_liveness.cpp).
  void live_intervals() { live_ = request_liveness(r_, live_bytes_, n_, f_); }

  // Costs as integers, never changed in silence (see cost_scale).
  void choose_cost_scale() { f_.set_scale(options_.cost_scale.value_or(cost_scale(r_, n_))); }

  // Nodes' tables, and the least-memory usage per step (for a soft budget that cannot be met).
  void node_tables() {
    costs_.resize(n_);
    usages_.resize(n_);
    least_.clear();
    for (std::size_t v = 0; v < n_; ++v) {
      const int k = static_cast<int>(f_.s_len(v));
      costs_[v].resize(static_cast<std::size_t>(k));
      usages_[v].assign(static_cast<std::size_t>(k), 0);
      for (int s = 0; s < k; ++s) {
        costs_[v][static_cast<std::size_t>(s)] = f_.node_cost(v, s);
        usages_[v][static_cast<std::size_t>(s)] = f_.node_usage(v, s);
      }
      if (live_.seen[v]) {
        const Usage u = *std::min_element(usages_[v].begin(), usages_[v].end());
        least_.emplace_back(live_.lo[v], u);  // events, swept in budget()
        least_.emplace_back(live_.hi[v], -Total{u});
      }
    }
  }

  // The usage limit: the budget, or for a soft budget that cannot be met the least peak.
  void budget() {
    if (r_.memory_budget() > 0) out_.budget = r_.memory_budget();
    if (r_.has_overbudget_coeff()) {
      const double coeff = r_.overbudget_coeff().coeff();
      if (!std::isfinite(coeff) || coeff < 0)
        f_.refuse("overbudget_coeff",
                  "must be a finite number of at least 0, found " + request_number(coeff));
      out_.overbudget_coeff = coeff;
    }
    limit_ = out_.budget;
    if (out_.budget && out_.overbudget_coeff) {
      // (Ends before starts at the same step: an interval's end is exclusive.)
      std::sort(least_.begin(), least_.end());
      Total peak = 0, live = 0;
      for (const auto& [step, change] : least_) peak = std::max(peak, live += change);
      if (peak > *out_.budget) limit_ = static_cast<Usage>(peak);
    }
  }

  // Resharding edges, each shifted by its least entry.
  void resharding_edges() {
    if (r_.edges_size() != r_.resharding_costs_size())
      f_.refuse("resharding_costs", std::to_string(r_.resharding_costs_size()) +
                                        " tables, but edges has " +
                                        std::to_string(r_.edges_size()));
    for (int e = 0; e < r_.edges_size(); ++e) {
      const auto [u, v, t] =
          f_.pair_table(r_.edges(), r_.resharding_costs(), e, "edges", "resharding_costs");
      const auto size = static_cast<std::size_t>(t.size());
      table_.resize(size);
      Cost least_entry = kForbidden;
      for (std::size_t i = 0; i < size; ++i) {
        table_[i] = f_.scaled_cost(t[static_cast<int>(i)], [&] {
          return at("resharding_costs", static_cast<std::size_t>(e), i);
        });
        if (!is_forbidden(table_[i])) least_entry = std::min(least_entry, table_[i]);
      }
      if (least_entry == kForbidden) least_entry = 0;
      for (Cost& c : table_)
        if (!is_forbidden(c)) c -= least_entry;
      out_.offset += static_cast<double>(least_entry);
      builder_->add_edge(u, v, table_);
    }
  }

  // Followers: s_follow[i] = j takes j's strategy. A chain must end (no cycles).
  void followers() {
    const auto count = static_cast<std::size_t>(r_.s_follow_size());
    if (count != 0 && count != n_)
      f_.refuse("s_follow", f_.entries("entries", count, "num_nodes", n_));
    std::vector<char> state(n_, 0);  // 0 unvisited, 1 on the current chain, 2 done
    for (std::size_t start = 0; start < count; ++start) {
      std::vector<std::size_t> chain;
      std::size_t v = start;
      while (state[v] == 0) {
        state[v] = 1;
        chain.push_back(v);
        const std::int64_t j = r_.s_follow(static_cast<int>(v));
        if (j < 0) break;
        const NodeId w = f_.endpoint(j, at("s_follow", v));
        if (w == v) f_.refuse(at("s_follow", v), "a node cannot follow itself");
        if (f_.s_len(v) != f_.s_len(w))
          f_.refuse(at("s_follow", v), "node " + std::to_string(v) + " has " +
                                           std::to_string(f_.s_len(v)) + " strategies but node " +
                                           std::to_string(w) + " has " +
                                           std::to_string(f_.s_len(w)));
        if (state[w] == 1)
          f_.refuse(at("s_follow", v), "followers form a cycle through node " + std::to_string(w));
        v = w;
      }
      for (std::size_t c : chain) state[c] = 2;
    }
    for (std::size_t v = 0; v < count; ++v) {
      const std::int64_t j = r_.s_follow(static_cast<int>(v));
      if (j < 0) continue;
      const auto k = static_cast<std::size_t>(f_.s_len(v));
      table_.assign(k * k, kForbidden);
      for (std::size_t s = 0; s < k; ++s) table_[s * k + s] = 0;
      builder_->add_edge(static_cast<NodeId>(v), static_cast<NodeId>(j), table_);
    }
  }

  // Aliases: value_costs x 10^18 (1 rules a pair of strategies out).
  void aliases() {
    if (r_.aliases_size() != r_.value_costs_size())
      f_.refuse("value_costs", std::to_string(r_.value_costs_size()) + " tables, but aliases has " +
                                   std::to_string(r_.aliases_size()));
    for (int a = 0; a < r_.aliases_size(); ++a) {
      const auto [u, v, t] =
          f_.pair_table(r_.aliases(), r_.value_costs(), a, "aliases", "value_costs");
      const auto size = static_cast<std::size_t>(t.size());
      table_.resize(size);
      for (std::size_t i = 0; i < size; ++i) {
        const double x = t[static_cast<int>(i)];
        const auto where = [&] { return at("value_costs", static_cast<std::size_t>(a), i); };
        if (x < 0) f_.refuse(where(), "negative value cost " + request_number(x));
        table_[i] = f_.to_cost(x * static_cast<double>(kForbidden), where);
      }
      builder_->add_edge(u, v, table_);
    }
  }

  Fields f_;
  const Request& r_;
  const LiveBytes* live_bytes_;
  RequestOptions options_;
  XlaRequest out_;
  std::size_t n_ = 0;
  Liveness live_;
  std::vector<std::vector<Cost>> costs_;
  std::vector<std::vector<Usage>> usages_;
  // The least-memory usage's changes: (step, +usage) where a node starts, (step, -usage) where
  // it ends.
  std::vector<std::pair<std::int64_t, Total>> least_;
  std::optional<Usage> limit_;
  std::optional<ModelBuilder> builder_;
  std::vector<Cost> table_;  // scratch for one edge's table
};

}  // namespace

XlaRequest convert_request(const Request& r, const LiveBytes* live_bytes, const std::string& source,
                           const RequestOptions& options) {
  return Conversion(r, live_bytes, source, options).run();
}

}  // namespace iopddl::inline v0
