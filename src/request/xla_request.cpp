#include "xla_request.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "auto_sharding_request.pb.h"
#include "iopddl/iopddl.hpp"

namespace iopddl {

namespace pb = iopddl::xla;

namespace {

using Request = pb::AutoShardingSolverRequest;

// A request's number as a message shows it: shortest exact form ("2.5", "-4.3e+300").
std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

[[noreturn]] void refuse(const std::string& source, const std::string& where,
                         const std::string& what) {
  throw InputError(source + ": " + where + ": " + what);
}

std::string at(const char* field, std::size_t i) {
  return std::string(field) + "[" + std::to_string(i) + "]";
}
std::string at(const char* field, std::size_t i, std::size_t j) {
  return at(field, i) + "[" + std::to_string(j) + "]";
}

// A request's cost as an integer: rounded; 10^18 or more (or +inf) forbidden. `where()`
// names the entry, built only for an error (these loops run over every table entry).
template <class Where>
Cost to_cost(double x, const std::string& source, Where&& where) {
  if (std::isnan(x)) refuse(source, where(), "not a number");
  if (x >= static_cast<double>(kForbidden)) return kForbidden;
  if (x <= -9.2e18) refuse(source, where(), "cost " + number(x) + " is out of range");
  return static_cast<Cost>(std::llround(x));
}

// Collects the text-format parser's first error with its position.
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (text.empty())
      text = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) + ": " +
             message;
  }
  std::string text;
};

bool printable(const FileBytes& bytes) {
  for (std::size_t i = 0; i < bytes.size; ++i) {
    const auto c = static_cast<unsigned char>(bytes.data()[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
    if (c == 0x7f) return false;
  }
  return true;
}

// The strategies of `v` as the request lists them, checked against s_len.
void check_costs(const google::protobuf::RepeatedPtrField<Request::Costs>& list, const char* field,
                 const Request& r, bool required, const std::string& source) {
  const auto n = static_cast<std::size_t>(r.num_nodes());
  if (list.empty() && !required) return;
  if (static_cast<std::size_t>(list.size()) != n)
    refuse(source, field,
           std::to_string(list.size()) + " entries, but num_nodes is " + std::to_string(n));
  for (std::size_t v = 0; v < n; ++v)
    if (list[static_cast<int>(v)].costs_size() != r.s_len(static_cast<int>(v)))
      refuse(source, at(field, v),
             std::to_string(list[static_cast<int>(v)].costs_size()) + " costs, but s_len" + "[" +
                 std::to_string(v) + "] is " + std::to_string(r.s_len(static_cast<int>(v))));
}

// The `live` field's entries (field 7, one Nodes message per step) as their encoded
// bytes: a large binary request's live matrix (O(nodes x steps)) is read from the file as
// it lies, never stored as a message (N as a request: 809 MB as a message).
using LiveBytes = std::vector<std::pair<const std::uint8_t*, int>>;

// Splits a binary request into its live entries and the rest (re-encoded as it was, for
// the message parser). False if the bytes are not a well-formed message.
bool split_live(const char* data, std::size_t size, LiveBytes& live, std::string& rest) {
  namespace io = google::protobuf::io;
  using google::protobuf::internal::WireFormatLite;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
  io::CodedInputStream in(bytes, static_cast<int>(size));
  for (;;) {
    const int start = in.CurrentPosition();
    const std::uint32_t tag = in.ReadTag();
    if (tag == 0) return in.CurrentPosition() == static_cast<int>(size);
    if (tag == WireFormatLite::MakeTag(7, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
      std::uint32_t length = 0;
      if (!in.ReadVarint32(&length)) return false;
      const int at_payload = in.CurrentPosition();
      if (!in.Skip(static_cast<int>(length))) return false;
      live.emplace_back(bytes + at_payload, static_cast<int>(length));
    } else {
      if (!WireFormatLite::SkipField(&in, tag)) return false;
      rest.append(data + start, static_cast<std::size_t>(in.CurrentPosition() - start));
    }
  }
}

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

XlaRequest convert(const Request& r, const LiveBytes* live_bytes, const std::string& source) {
  XlaRequest out;
  out.name = !r.request_name().empty() ? r.request_name() : r.module_name();
  if (r.num_nodes() < 0 || r.num_nodes() >= static_cast<std::int64_t>(kNoIndex))
    refuse(source, "num_nodes", "must be within [0, 2^32 - 1)");
  const auto n = static_cast<std::size_t>(r.num_nodes());
  if (static_cast<std::size_t>(r.s_len_size()) != n)
    refuse(source, "s_len",
           std::to_string(r.s_len_size()) + " entries, but num_nodes is " + std::to_string(n));
  for (std::size_t v = 0; v < n; ++v)
    if (r.s_len(static_cast<int>(v)) < 1 || r.s_len(static_cast<int>(v)) > (1 << 30))
      refuse(source, at("s_len", v), "must be within [1, 2^30]");
  check_costs(r.computation_costs(), "computation_costs", r, true, source);
  check_costs(r.communication_costs(), "communication_costs", r, false, source);
  check_costs(r.memory_costs(), "memory_costs", r, false, source);
  if (r.enable_memory_edge_costs())
    refuse(source, "enable_memory_edge_costs",
           "edge memory (live_edges, memory_edge_costs) is not supported");

  // Live intervals from the live matrix: node v is live on [first step, last step + 1).
  std::vector<std::int64_t> lo(n, 0), hi(n, 0);
  std::vector<char> seen(n, 0);
  const std::size_t steps =
      live_bytes ? live_bytes->size() : static_cast<std::size_t>(r.live_size());
  for (std::size_t t = 0; t < steps; ++t) {
    const auto live_at = [&](std::int64_t v) {
      if (v < 0 || static_cast<std::size_t>(v) >= n)
        refuse(source, at("live", t),
               "node " + std::to_string(v) + " does not exist (" + std::to_string(n) + " nodes)");
      const auto u = static_cast<std::size_t>(v);
      if (!seen[u]) lo[u] = static_cast<std::int64_t>(t);  // steps come in order
      hi[u] = static_cast<std::int64_t>(t) + 1;
      seen[u] = 1;
    };
    if (!live_bytes)
      for (std::int64_t v : r.live(static_cast<int>(t)).nodes()) live_at(v);
    else if (!for_each_live_node((*live_bytes)[t], live_at))
      refuse(source, at("live", t), "malformed entry");
  }

  // Nodes, and the least-memory peak (for a soft budget that cannot be met).
  std::vector<std::vector<Cost>> costs(n);
  std::vector<std::vector<Usage>> usages(n);
  std::vector<Total> least(steps + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const int k = static_cast<int>(r.s_len(static_cast<int>(v)));
    costs[v].resize(static_cast<std::size_t>(k));
    usages[v].assign(static_cast<std::size_t>(k), 0);
    for (int s = 0; s < k; ++s) {
      const auto where = [&] { return at("computation_costs", v, static_cast<std::size_t>(s)); };
      double c = r.computation_costs(static_cast<int>(v)).costs(s);
      if (!r.communication_costs().empty()) {
        // Each part judged under its own name before they are summed.
        const double m = r.communication_costs(static_cast<int>(v)).costs(s);
        const auto named = [&] {
          return at("communication_costs", v, static_cast<std::size_t>(s));
        };
        if (std::isnan(m)) refuse(source, named(), "not a number");
        if (m <= -9.2e18) refuse(source, named(), "cost " + number(m) + " is out of range");
        c += m;
      }
      if (c < 0) refuse(source, where(), "negative node cost " + number(c));
      costs[v][static_cast<std::size_t>(s)] = to_cost(c, source, where);
      if (!r.memory_costs().empty()) {
        const double m = r.memory_costs(static_cast<int>(v)).costs(s);
        if (!(m >= 0) || m >= 9.2e18)
          refuse(source, at("memory_costs", v, static_cast<std::size_t>(s)),
                 m >= 9.2e18 ? "memory " + number(m) + " is out of range"
                             : "negative or undefined memory " + number(m));
        usages[v][static_cast<std::size_t>(s)] = static_cast<Usage>(std::llround(m));
      }
    }
    if (seen[v]) {
      const Usage u = *std::min_element(usages[v].begin(), usages[v].end());
      least[static_cast<std::size_t>(lo[v])] += u;  // a difference array: summed below
      least[static_cast<std::size_t>(hi[v])] -= u;
    }
  }

  if (r.memory_budget() > 0) out.budget = r.memory_budget();
  if (r.has_overbudget_coeff()) {
    const double coeff = r.overbudget_coeff().coeff();
    if (!std::isfinite(coeff) || coeff < 0)
      refuse(source, "overbudget_coeff",
             "must be a finite number of at least 0, found " + number(coeff));
    out.overbudget_coeff = coeff;
  }
  std::optional<Usage> limit = out.budget;
  if (out.budget && out.overbudget_coeff) {
    for (std::size_t t = 1; t < least.size(); ++t) least[t] += least[t - 1];
    const Total peak = least.empty() ? 0 : *std::max_element(least.begin(), least.end());
    if (peak > *out.budget) limit = static_cast<Usage>(peak);
  }

  ModelBuilder b(out.name);
  b.set_usage_limit(limit);
  for (std::size_t v = 0; v < n; ++v) b.add_node(costs[v], usages[v], lo[v], hi[v]);

  // Resharding edges, each shifted by its least entry.
  if (r.edges_size() != r.resharding_costs_size())
    refuse(source, "resharding_costs",
           std::to_string(r.resharding_costs_size()) + " tables, but edges has " +
               std::to_string(r.edges_size()));
  const auto endpoint = [&](std::int64_t v, const std::string& where) {
    if (v < 0 || static_cast<std::size_t>(v) >= n)
      refuse(source, where,
             "node " + std::to_string(v) + " does not exist (" + std::to_string(n) + " nodes)");
    return static_cast<NodeId>(v);
  };
  // The endpoints of pair i of `pairs` and its table in `tables`, whose size is checked:
  // the resharding edges and the aliases read the same way.
  struct PairTable {
    NodeId u, v;
    const google::protobuf::RepeatedField<double>& entries;
  };
  const auto pair_table = [&](const auto& pairs, const auto& tables, int i, const char* pair_field,
                              const char* table_field) {
    const std::string where = at(pair_field, static_cast<std::size_t>(i));
    const NodeId u = endpoint(pairs[i].first(), where), v = endpoint(pairs[i].second(), where);
    const auto& entries = tables[i].costs();
    const auto ku = r.s_len(static_cast<int>(u)), kv = r.s_len(static_cast<int>(v));
    if (static_cast<std::int64_t>(entries.size()) != ku * kv)
      refuse(source, at(table_field, static_cast<std::size_t>(i)),
             std::to_string(entries.size()) + " entries, but " + where + " joins nodes of " +
                 std::to_string(ku) + " and " + std::to_string(kv) + " strategies");
    return PairTable{u, v, entries};
  };
  std::vector<Cost> table;
  for (int e = 0; e < r.edges_size(); ++e) {
    const auto [u, v, t] =
        pair_table(r.edges(), r.resharding_costs(), e, "edges", "resharding_costs");
    const auto size = static_cast<std::size_t>(t.size());
    table.resize(size);
    Cost least_entry = kForbidden;
    for (std::size_t i = 0; i < size; ++i) {
      table[i] = to_cost(t[static_cast<int>(i)], source,
                         [&] { return at("resharding_costs", static_cast<std::size_t>(e), i); });
      if (!is_forbidden(table[i])) least_entry = std::min(least_entry, table[i]);
    }
    if (least_entry == kForbidden) least_entry = 0;
    for (Cost& c : table)
      if (!is_forbidden(c)) c -= least_entry;
    out.offset += static_cast<double>(least_entry);
    b.add_edge(u, v, table);
  }

  // Followers: s_follow[i] = j takes j's strategy. A chain must end (no cycles).
  if (r.s_follow_size() != 0 && static_cast<std::size_t>(r.s_follow_size()) != n)
    refuse(source, "s_follow",
           std::to_string(r.s_follow_size()) + " entries, but num_nodes is " + std::to_string(n));
  std::vector<char> state(n, 0);  // 0 unvisited, 1 on the current chain, 2 done
  for (std::size_t start = 0; start < static_cast<std::size_t>(r.s_follow_size()); ++start) {
    std::vector<std::size_t> chain;
    std::size_t v = start;
    while (state[v] == 0) {
      state[v] = 1;
      chain.push_back(v);
      const std::int64_t j = r.s_follow(static_cast<int>(v));
      if (j < 0) break;
      const NodeId w = endpoint(j, at("s_follow", v));
      if (w == v) refuse(source, at("s_follow", v), "a node cannot follow itself");
      if (r.s_len(static_cast<int>(v)) != r.s_len(static_cast<int>(w)))
        refuse(source, at("s_follow", v),
               "node " + std::to_string(v) + " has " +
                   std::to_string(r.s_len(static_cast<int>(v))) + " strategies but node " +
                   std::to_string(w) + " has " + std::to_string(r.s_len(static_cast<int>(w))));
      if (state[w] == 1)
        refuse(source, at("s_follow", v),
               "followers form a cycle through node " + std::to_string(w));
      v = w;
    }
    for (std::size_t c : chain) state[c] = 2;
  }
  for (std::size_t v = 0; v < static_cast<std::size_t>(r.s_follow_size()); ++v) {
    const std::int64_t j = r.s_follow(static_cast<int>(v));
    if (j < 0) continue;
    const auto k = static_cast<std::size_t>(r.s_len(static_cast<int>(v)));
    table.assign(k * k, kForbidden);
    for (std::size_t s = 0; s < k; ++s) table[s * k + s] = 0;
    b.add_edge(static_cast<NodeId>(v), static_cast<NodeId>(j), table);
  }

  // Aliases: value_costs x 10^18 (1 rules a pair of strategies out).
  if (r.aliases_size() != r.value_costs_size())
    refuse(source, "value_costs",
           std::to_string(r.value_costs_size()) + " tables, but aliases has " +
               std::to_string(r.aliases_size()));
  for (int a = 0; a < r.aliases_size(); ++a) {
    const auto [u, v, t] = pair_table(r.aliases(), r.value_costs(), a, "aliases", "value_costs");
    const auto size = static_cast<std::size_t>(t.size());
    table.resize(size);
    for (std::size_t i = 0; i < size; ++i) {
      const double x = t[static_cast<int>(i)];
      const auto where = [&] { return at("value_costs", static_cast<std::size_t>(a), i); };
      if (x < 0) refuse(source, where(), "negative value cost " + number(x));
      table[i] = to_cost(x * static_cast<double>(kForbidden), source, where);
    }
    b.add_edge(u, v, table);
  }

  if (r.s_hint_size() != 0) {
    if (static_cast<std::size_t>(r.s_hint_size()) != n)
      refuse(source, "s_hint",
             std::to_string(r.s_hint_size()) + " entries, but num_nodes is " + std::to_string(n));
    out.hint.resize(n);
    for (std::size_t v = 0; v < n; ++v) {
      const std::int64_t s = r.s_hint(static_cast<int>(v));
      if (s < 0 || s >= r.s_len(static_cast<int>(v)))
        refuse(source, at("s_hint", v),
               "strategy " + std::to_string(s) + " is out of range (" +
                   std::to_string(r.s_len(static_cast<int>(v))) + " strategies)");
      out.hint[v] = static_cast<Strategy>(s);
    }
  }
  if (r.has_max_cost()) {
    if (std::isnan(r.max_cost().coeff())) refuse(source, "max_cost", "not a number");
    out.max_cost = r.max_cost().coeff();
  }
  if (r.has_solver_timeout() && r.solver_timeout().solver_timeout_in_seconds() > 0)
    out.timeout_seconds = static_cast<double>(r.solver_timeout().solver_timeout_in_seconds());
  out.deterministic = r.deterministic_mode();

  // What is set but not used, said rather than dropped.
  const auto ignore = [&](bool set, const char* field) {
    if (set) out.ignored.emplace_back(field);
  };
  ignore(!r.departure_costs().empty(), "departure_costs");
  ignore(!r.duration_costs().empty(), "duration_costs");
  ignore(r.has_makespan_coeff(), "makespan_coeff");
  ignore(r.has_max_departures(), "max_departures");
  ignore(r.has_coeff_limit(), "coeff_limit");
  ignore(r.compute_iis(), "compute_iis");
  ignore(r.saltiplier() != 0, "saltiplier");
  ignore(!r.live_edges().empty() || !r.memory_edge_costs().empty(),
         "live_edges and memory_edge_costs (enable_memory_edge_costs is off)");
  ignore(!r.peak_times().empty(), "peak_times");
  const auto& unknown = r.GetReflection()->GetUnknownFields(r);
  for (int i = 0; i < unknown.field_count(); ++i)
    out.ignored.push_back("field " + std::to_string(unknown.field(i).number()) +
                          " (unknown to this version)");
  std::sort(out.ignored.begin(), out.ignored.end());
  out.ignored.erase(std::unique(out.ignored.begin(), out.ignored.end()), out.ignored.end());
  out.problem = std::move(b).build();
  return out;
}

}  // namespace

bool is_request(const FileBytes& bytes) {
  return input_kind(bytes.data(), bytes.size) != InputKind::kJson;
}

XlaRequest read_request(const std::string& path, const FileBytes& bytes) {
  Request r;
  if (printable(bytes)) {
    google::protobuf::TextFormat::Parser parser;
    FirstError error;
    parser.RecordErrorsTo(&error);
    // Parsed in place (a copy of the text would cost its size again).
    const std::size_t bom = byte_order_mark(bytes.data(), bytes.size);
    google::protobuf::io::ArrayInputStream text(bytes.data() + bom,
                                                static_cast<int>(bytes.size - bom));
    if (bytes.size > static_cast<std::size_t>(INT32_MAX) || !parser.Parse(&text, &r))
      throw InputError(path + ": not a text-format AutoShardingSolverRequest (nor contest JSON): " +
                       (error.text.empty() ? "parse error" : error.text));
    return convert(r, nullptr, path);
  }
  LiveBytes live;
  std::string rest;
  if (bytes.size > static_cast<std::size_t>(INT32_MAX) ||
      !split_live(bytes.data(), bytes.size, live, rest) || !r.ParseFromString(rest))
    throw InputError(path + ": not a binary AutoShardingSolverRequest (nor contest JSON)");
  return convert(r, &live, path);
}

Problem read_input_file(const std::string& path, const StopControl* stop,
                        std::optional<XlaRequest>* request) {
  FileBytes bytes = read_file_bytes(path, 64, stop);
  if (!is_request(bytes)) return parse_problem(bytes.data(), bytes.size, path, stop);
  XlaRequest q = read_request(path, bytes);
  Problem p = std::move(q.problem);
  if (request != nullptr) *request = std::move(q);
  return p;
}

std::string write_request(const Problem& p, bool text) {
  Request r;
  const std::size_t n = p.num_nodes();
  r.set_num_nodes(static_cast<std::int64_t>(n));
  r.set_request_name(p.name());
  if (p.usage_limit()) {
    if (*p.usage_limit() == 0)
      throw InputError(p.name() +
                       ": a usage limit of 0 has no request form (memory_budget 0 means none)");
    r.set_memory_budget(*p.usage_limit());
  }
  for (NodeId v = 0; v < n; ++v) {
    r.add_s_len(p.strategies(v));
    auto* c = r.add_computation_costs();
    auto* m = r.add_memory_costs();
    for (Strategy s = 0; s < p.strategies(v); ++s) {
      c->add_costs(static_cast<double>(p.costs(v)[static_cast<std::size_t>(s)]));
      m->add_costs(static_cast<double>(p.usages(v)[static_cast<std::size_t>(s)]));
    }
  }
  // Time as the problem's segments, keeping only those whose live set is not inside a
  // neighbour's: a segment where some node starts and after which some node ends. The
  // others' limits are implied (usages are non-negative), every node spans a kept one,
  // and the live matrix, O(nodes x steps), shrinks many times on long-lived nodes.
  const std::size_t segments = p.num_segments();
  std::vector<char> opens(segments + 1, 0), closes(segments + 1, 0);
  for (NodeId v = 0; v < n; ++v)
    if (p.seg_lo(v) < p.seg_hi(v)) {
      opens[p.seg_lo(v)] = 1;
      closes[p.seg_hi(v)] = 1;
    }
  std::vector<std::uint32_t> step(segments + 1, 0);  // kept segments before segment i
  for (std::size_t i = 0; i < segments; ++i) {
    const bool kept = opens[i] && closes[i + 1];
    step[i + 1] = step[i] + (kept ? 1 : 0);
    if (kept) r.add_live();
  }
  for (NodeId v = 0; v < n; ++v)
    for (std::uint32_t t = step[p.seg_lo(v)]; t < step[p.seg_hi(v)]; ++t)
      r.mutable_live(static_cast<int>(t))->add_nodes(v);

  // Parallel edges summed, as one table oriented from the lower node.
  std::map<std::pair<NodeId, NodeId>, std::vector<Total>> tables;
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    NodeId u = p.edge_u(e), v = p.edge_v(e);
    const bool flip = u > v;
    if (flip) std::swap(u, v);
    const auto ku = static_cast<std::size_t>(p.strategies(u)),
               kv = static_cast<std::size_t>(p.strategies(v));
    auto& t = tables[{u, v}];
    t.resize(ku * kv, 0);
    for (std::size_t a = 0; a < ku; ++a)
      for (std::size_t b = 0; b < kv; ++b)
        t[a * kv + b] += flip ? p.edge_cost(e, static_cast<Strategy>(b), static_cast<Strategy>(a))
                              : p.edge_cost(e, static_cast<Strategy>(a), static_cast<Strategy>(b));
  }
  std::vector<std::int64_t> follow(n, -1);
  const auto reaches = [&](std::int64_t from, NodeId target) {
    for (std::int64_t w = from; w >= 0; w = follow[static_cast<std::size_t>(w)])
      if (w == target) return true;
    return false;
  };
  for (const auto& [ends, t] : tables) {
    const auto [u, v] = ends;
    const auto ku = static_cast<std::size_t>(p.strategies(u)),
               kv = static_cast<std::size_t>(p.strategies(v));
    bool follower = ku == kv && u != v;
    bool any_forbidden = false, any_cost = false;
    for (std::size_t a = 0; a < ku; ++a)
      for (std::size_t b = 0; b < kv; ++b) {
        const Total c = t[a * kv + b];
        const bool forbidden = c >= kForbidden;
        any_forbidden |= forbidden;
        any_cost |= !forbidden && c != 0;
        if (a == b ? c != 0 : !forbidden) follower = false;
      }
    if (follower && follow[u] < 0 && !reaches(v, u)) {
      follow[u] = v;
      continue;
    }
    if (any_cost || !any_forbidden) {
      auto* pair = r.add_edges();
      pair->set_first(u);
      pair->set_second(v);
      auto* c = r.add_resharding_costs();
      for (const Total x : t) c->add_costs(x >= kForbidden ? 0.0 : static_cast<double>(x));
    }
    if (any_forbidden) {
      auto* pair = r.add_aliases();
      pair->set_first(u);
      pair->set_second(v);
      auto* c = r.add_value_costs();
      for (const Total x : t) c->add_costs(x >= kForbidden ? 1.0 : 0.0);
    }
  }
  if (std::any_of(follow.begin(), follow.end(), [](std::int64_t j) { return j >= 0; }))
    for (std::int64_t j : follow) r.add_s_follow(j);
  std::string out;
  if (text)
    google::protobuf::TextFormat::PrintToString(r, &out);
  else
    r.SerializeToString(&out);
  return out;
}

RequestAnswer answer_request(const XlaRequest& q, const Problem& problem, SolveStatus status,
                             const std::vector<Strategy>& a, bool has, std::optional<Total> bound) {
  RequestAnswer out;
  out.status = status;
  const auto say = [&](const std::string& what) {
    out.message += (out.message.empty() ? "" : "; ") + what;
  };
  if (!q.ignored.empty()) {
    std::string list;
    for (const std::string& f : q.ignored) list += (list.empty() ? "" : ", ") + f;
    say("ignored: " + list);
  }
  if (!has) {  // nothing to answer with: never "optimal" or "feasible"
    if (out.status != SolveStatus::kInfeasible) out.status = SolveStatus::kNoSolution;
    return out;
  }
  const Evaluation e = evaluate(problem, a);
  if (e.forbidden_picks > 0) {  // a follower, an alias or an infinite cost broken
    out.status = SolveStatus::kNoSolution;
    say("every answer found breaks a follower, an alias or an infinite cost");
    return out;
  }
  out.s_val = a;
  out.peak_usage = e.peak_usage;
  out.cost = static_cast<double>(e.cost) + q.offset;
  if (q.budget && q.overbudget_coeff && e.peak_usage > *q.budget) {
    out.overbudget_cost = *q.overbudget_coeff * static_cast<double>(e.peak_usage - *q.budget);
    out.cost += out.overbudget_cost;
    if (out.status == SolveStatus::kOptimal) out.status = SolveStatus::kFeasible;
    say("the soft budget cannot be met: answered at the least peak any assignment reaches");
  }
  if (bound && !(q.overbudget_coeff && q.budget && problem.usage_limit() != q.budget))
    out.lower_bound = static_cast<double>(*bound) + q.offset;
  // Every step at the peak (steps are the request's live indices).
  std::int64_t steps = 0;
  for (NodeId v = 0; v < problem.num_nodes(); ++v) steps = std::max(steps, problem.interval_hi(v));
  std::vector<Total> usage(static_cast<std::size_t>(steps) + 1, 0);
  for (NodeId v = 0; v < problem.num_nodes(); ++v)
    if (problem.has_memory(v)) {  // a difference array, summed below
      const Usage used = problem.usages(v)[static_cast<std::size_t>(a[v])];
      usage[static_cast<std::size_t>(problem.interval_lo(v))] += used;
      usage[static_cast<std::size_t>(problem.interval_hi(v))] -= used;
    }
  Total running = 0;
  for (std::int64_t t = 0; t < steps; ++t) {
    running += usage[static_cast<std::size_t>(t)];
    if (running == e.peak_usage && e.peak_usage > 0) out.peak_times.push_back(t);
  }
  if (q.max_cost && !(out.cost < *q.max_cost)) {
    say("no answer cheaper than max_cost " + std::to_string(*q.max_cost) + " (best " +
        std::to_string(out.cost) + ")");
    out.status = SolveStatus::kNoSolution;
    out.s_val.clear();
    out.peak_times.clear();
  }
  return out;
}

std::string answer_proto(const RequestAnswer& a) {
  pb::AutoShardingSolverResult r;
  switch (a.status) {
    case SolveStatus::kOptimal:
      r.set_status(pb::AutoShardingSolverResult::OPTIMAL);
      break;
    case SolveStatus::kFeasible:
      r.set_status(pb::AutoShardingSolverResult::FEASIBLE);
      break;
    case SolveStatus::kInfeasible:
      r.set_status(pb::AutoShardingSolverResult::INFEASIBLE);
      break;
    case SolveStatus::kNoSolution:
      r.set_status(pb::AutoShardingSolverResult::NO_SOLUTION);
      break;
  }
  for (Strategy s : a.s_val) r.add_s_val(s);
  r.set_cost(a.cost);
  r.set_is_optimal(a.status == SolveStatus::kOptimal);
  for (std::int64_t t : a.peak_times) r.add_peak_times(t);
  r.set_peak_usage(static_cast<std::int64_t>(a.peak_usage));
  r.set_overbudget_cost(a.overbudget_cost);
  if (a.lower_bound) r.set_lower_bound(*a.lower_bound);
  r.set_message(a.message);
  std::string out;
  r.SerializeToString(&out);
  return out;
}

}  // namespace iopddl
