// The request's fields read with their checks (for convert_request.cpp).
#pragma once

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "iopddl/cost_scale.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "request_format.hpp"

namespace iopddl::inline v0::request_fields {

inline std::string at(const char* field, std::size_t i) {
  return std::string(field) + "[" + std::to_string(i) + "]";
}
inline std::string at(const char* field, std::size_t i, std::size_t j) {
  return at(field, i) + "[" + std::to_string(j) + "]";
}

// The request's fields read with their checks: every refusal names the source and the
// field's entry.
class Fields {
 public:
  Fields(const Request& r, const std::string& source) : r_(r), source_(source) {}
  void set_nodes(std::size_t n) { n_ = n; }
  // Costs are multiplied by `scale` before they are rounded (see choose_cost_scale).
  void set_scale(double scale) { scale_ = scale; }
  double scale() const { return scale_; }
  // The largest relative error the rounding of a scaled cost made so far.
  double max_rounding_error() const { return max_error_; }

  [[noreturn]] void refuse(const std::string& where, const std::string& what) const {
    throw InputError(source_ + ": " + where + ": " + what);
  }
  std::string entries(const char* field, std::size_t have, const char* of, std::size_t want) const {
    return std::to_string(have) + " " + field + ", but " + of + " is " + std::to_string(want);
  }
  std::int64_t s_len(std::size_t v) const { return r_.s_len(static_cast<int>(v)); }

  // A request's cost as an integer: rounded; 10^18 or more (or +inf) forbidden. `where()`
  // names the entry, built only for an error (these loops run over every table entry).
  template <class Where>
  Cost to_cost(double x, Where&& where) const {
    if (std::isnan(x)) refuse(where(), "not a number");
    if (x >= static_cast<double>(kForbidden)) return kForbidden;
    if (x <= -9.2e18) refuse(where(), "cost " + request_number(x) + " is out of range");
    return static_cast<Cost>(std::llround(x));
  }
  // A cost in the request's units as the problem's: 10^18 or more (or +inf) forbidden, as
  // XLA's infinity; otherwise scaled and rounded, the relative error kept.
  template <class Where>
  Cost scaled_cost(double x, Where&& where) const {
    if (std::isnan(x) || x >= static_cast<double>(kForbidden)) return to_cost(x, where);
    const double y = x * scale_;
    if (y >= static_cast<double>(kForbidden))
      refuse(where(), "cost " + request_number(x) + " times the cost scale " +
                          request_number(scale_) + " reaches 10^18, XLA's infinity");
    const Cost c = to_cost(y, where);
    if (y != 0)
      max_error_ = std::max(max_error_, std::abs(static_cast<double>(c) - y) / std::abs(y));
    return c;
  }

  // The per-node cost lists have one entry per node and s_len[v] costs each.
  void check_costs(const google::protobuf::RepeatedPtrField<Request::Costs>& list,
                   const char* field, bool required) const {
    if (list.empty() && !required) return;
    if (static_cast<std::size_t>(list.size()) != n_)
      refuse(field, entries("entries", static_cast<std::size_t>(list.size()), "num_nodes", n_));
    for (std::size_t v = 0; v < n_; ++v)
      if (list[static_cast<int>(v)].costs_size() != s_len(v))
        refuse(at(field, v), std::to_string(list[static_cast<int>(v)].costs_size()) +
                                 " costs, but s_len[" + std::to_string(v) + "] is " +
                                 std::to_string(s_len(v)));
  }

  // Node v's strategy s: computation + communication cost, memory usage.
  Cost node_cost(std::size_t v, int s) const {
    const auto where = [&] { return at("computation_costs", v, static_cast<std::size_t>(s)); };
    double c = r_.computation_costs(static_cast<int>(v)).costs(s);
    if (!r_.communication_costs().empty()) {
      // Each part judged under its own name before they are summed.
      const double m = r_.communication_costs(static_cast<int>(v)).costs(s);
      const auto named = [&] { return at("communication_costs", v, static_cast<std::size_t>(s)); };
      if (std::isnan(m)) refuse(named(), "not a number");
      if (m <= -9.2e18) refuse(named(), "cost " + request_number(m) + " is out of range");
      c += m;
    }
    if (c < 0) refuse(where(), "negative node cost " + request_number(c));
    return scaled_cost(c, where);
  }
  Usage node_usage(std::size_t v, int s) const {
    if (r_.memory_costs().empty()) return 0;
    const double m = r_.memory_costs(static_cast<int>(v)).costs(s);
    if (!(m >= 0) || m >= 9.2e18)
      refuse(at("memory_costs", v, static_cast<std::size_t>(s)),
             m >= 9.2e18 ? "memory " + request_number(m) + " is out of range"
                         : "negative or undefined memory " + request_number(m));
    return static_cast<Usage>(std::llround(m));
  }

  NodeId endpoint(std::int64_t v, const std::string& where) const {
    if (v < 0 || static_cast<std::size_t>(v) >= n_)
      refuse(where,
             "node " + std::to_string(v) + " does not exist (" + std::to_string(n_) + " nodes)");
    return static_cast<NodeId>(v);
  }

  // The endpoints of pair i of `pairs` and its table in `tables`, whose size is checked:
  // the resharding edges and the aliases read the same way.
  struct PairTable {
    NodeId u, v;
    const google::protobuf::RepeatedField<double>& entries;
  };
  template <class Pairs, class Tables>
  PairTable pair_table(const Pairs& pairs, const Tables& tables, int i, const char* pair_field,
                       const char* table_field) const {
    const std::string where = at(pair_field, static_cast<std::size_t>(i));
    const NodeId u = endpoint(pairs[i].first(), where), v = endpoint(pairs[i].second(), where);
    const auto& list = tables[i].costs();
    const auto ku = s_len(u), kv = s_len(v);
    if (static_cast<std::int64_t>(list.size()) != ku * kv)
      refuse(at(table_field, static_cast<std::size_t>(i)),
             std::to_string(list.size()) + " entries, but " + where + " joins nodes of " +
                 std::to_string(ku) + " and " + std::to_string(kv) + " strategies");
    return PairTable{u, v, list};
  }

 private:
  const Request& r_;
  const std::string& source_;
  std::size_t n_ = 0;
  double scale_ = 1;
  mutable double max_error_ = 0;
};

// Calls visit(v) for each node of one encoded Nodes message (packed or not). False if
// the bytes are malformed.
template <class Visit>
bool for_each_live_node(const std::pair<const std::uint8_t*, int>& entry, Visit&& visit) {
  namespace io = google::protobuf::io;
  using google::protobuf::internal::WireFormatLite;
  io::CodedInputStream in(entry.first, entry.second);
  for (;;) {
    const std::uint32_t tag = in.ReadTag();
    if (tag == 0) return in.CurrentPosition() == entry.second;
    std::uint64_t v = 0;
    if (tag == WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_VARINT)) {
      if (!in.ReadVarint64(&v)) return false;
      visit(static_cast<std::int64_t>(v));
    } else if (tag == WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
      std::uint32_t length = 0;
      if (!in.ReadVarint32(&length)) return false;
      const auto limit = in.PushLimit(static_cast<int>(length));
      while (in.BytesUntilLimit() > 0) {
        if (!in.ReadVarint64(&v)) return false;
        visit(static_cast<std::int64_t>(v));
      }
      in.PopLimit(limit);
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      return false;
    }
  }
}

// The scale of a request's costs (choose_cost_scale over its node and resharding costs).
inline double cost_scale(const Request& r, std::size_t n) {
  CostRange range;
  for (std::size_t v = 0; v < n; ++v)
    for (int s = 0; s < static_cast<int>(r.s_len(static_cast<int>(v))); ++s)
      range.see(r.computation_costs(static_cast<int>(v)).costs(s) +
                (r.communication_costs().empty()
                     ? 0.0
                     : r.communication_costs(static_cast<int>(v)).costs(s)));
  for (const auto& table : r.resharding_costs())
    for (const double c : table.costs()) range.see(c);
  return choose_cost_scale(range);
}
// Live intervals of a request's nodes: node v is live on [lo[v], hi[v]) if seen[v]
// (request_liveness.cpp). Refuses, through f, a request whose liveness the model cannot hold.
struct Liveness {
  std::vector<std::int64_t> lo, hi;
  std::vector<char> seen;  // live at some step
};
Liveness request_liveness(const Request& r, const LiveBytes* live_bytes, std::size_t n, Fields& f);

}  // namespace iopddl::inline v0::request_fields
