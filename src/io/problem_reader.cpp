// Contest JSON reader on simdjson's On-Demand API. Values stream straight into flat arrays
// (edge tables deduplicated as they are read), so peak memory is the text plus the model.
// Keys may come in any order (real instances put "edges" before "nodes"), so cross-checks
// between sections run after the whole document has been read.
#include <simdjson.h>

#include <cstring>
#include <optional>

#include "checked_reads.hpp"
#include "iopddl/io.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {
namespace {

using json_reader::CheckedReads;
using json_reader::idx;
namespace od = simdjson::ondemand;

// What the reader collected, in flat arrays (the edge tables deduplicated in the builder),
// and the problem built from them once the document is read, with the checks that need
// all of it.
struct Columns {
  ProblemBuilder builder;
  std::optional<Usage> limit;
  std::vector<std::int64_t> lo, hi, costs, usages;
  std::vector<std::uint64_t> cost_begin{0}, usage_begin{0};
  std::vector<std::int64_t> edge_u, edge_v;
  std::vector<std::uint32_t> edge_table;

  Problem build(const CheckedReads& errors) && {
    add_nodes(errors);
    add_edges(errors);
    return std::move(builder).build();
  }

 private:
  void add_nodes(const CheckedReads& errors) {
    const std::size_t n = lo.size();
    const std::size_t nc = cost_begin.size() - 1, nu = usage_begin.size() - 1;
    if (nc != n)
      errors.fail("nodes.costs", "has " + std::to_string(nc) + " entries but nodes.intervals has " +
                                     std::to_string(n));
    if (nu != n)
      errors.fail("nodes.usages", "has " + std::to_string(nu) +
                                      " entries but nodes.intervals has " + std::to_string(n));
    if (n >= std::numeric_limits<NodeId>::max()) errors.fail("nodes", "too many nodes");
    builder.set_usage_limit(limit);
    builder.reserve_nodes(n, costs.size());
    for (std::size_t v = 0; v < n; ++v) {
      const std::size_t k = cost_begin[v + 1] - cost_begin[v];
      const std::size_t ku = usage_begin[v + 1] - usage_begin[v];
      if (k == 0) errors.fail("nodes.costs" + idx(v), "a node needs at least one strategy");
      if (ku != k)
        errors.fail("nodes.usages" + idx(v), "expected " + std::to_string(k) +
                                                 " entries (one per strategy in nodes.costs" +
                                                 idx(v) + "), found " + std::to_string(ku));
      if (k > static_cast<std::size_t>(std::numeric_limits<Strategy>::max() / 2))
        errors.fail("nodes.costs" + idx(v), "too many strategies");
      std::span<const Usage> row{usages.data() + usage_begin[v], k};
      for (std::size_t s = 0; s < k; ++s)
        if (row[s] < 0)
          errors.fail("nodes.usages" + idx(v) + idx(s), "negative usage " + std::to_string(row[s]));
      builder.add_node(lo[v], hi[v], {costs.data() + cost_begin[v], k}, row);
    }
  }

  void add_edges(const CheckedReads& errors) {
    const std::size_t n = lo.size();
    if (edge_u.size() != edge_table.size())
      errors.fail("edges", "edges.nodes has " + std::to_string(edge_u.size()) +
                               " entries but edges.costs has " + std::to_string(edge_table.size()));
    if (edge_u.size() >= std::numeric_limits<EdgeId>::max()) errors.fail("edges", "too many edges");
    for (std::size_t e = 0; e < edge_u.size(); ++e) {
      for (std::int64_t end : {edge_u[e], edge_v[e]})
        if (end < 0 || static_cast<std::size_t>(end) >= n)
          errors.fail("edges.nodes" + idx(e), "node " + std::to_string(end) + " does not exist (" +
                                                  std::to_string(n) + " nodes)");
      const auto u = static_cast<NodeId>(edge_u[e]), v = static_cast<NodeId>(edge_v[e]);
      const std::size_t ku = builder.strategies(u), kv = builder.strategies(v);
      const std::size_t found = builder.table_size(edge_table[e]);
      if (found != ku * kv)
        errors.fail("edges.costs" + idx(e), "expected " + std::to_string(ku * kv) + " entries (" +
                                                std::to_string(ku) + " x " + std::to_string(kv) +
                                                "), found " + std::to_string(found));
      builder.add_edge(u, v, edge_table[e]);
    }
  }
};

class Reader : CheckedReads {
 public:
  Reader(std::string source, const StopControl* stop)
      : CheckedReads(std::move(source)), stop_(stop, 256) {}

  // Polled once per row: a huge document is abandoned at the deadline.
  void poll() {
    if (stop_.tick()) throw ReadStopped(source_ + ": stopped while reading");
  }

  // Reads an array of integer arrays into `flat` with `begin` offsets (CSR).
  void int_lists(od::value v, const char* where, std::vector<std::int64_t>& flat,
                 std::vector<std::uint64_t>& begin) {
    begin.assign(1, 0);
    std::size_t i = 0;
    for (auto outer : array(v, where)) {
      poll();
      od::value row;
      if (auto e = outer.get(row)) check(e, where + idx(i), "an array");
      int_row(row, where, i, flat);
      begin.push_back(flat.size());
      ++i;
    }
  }

  void read_nodes(od::value v) {
    od::object obj;
    check(v.get_object().get(obj), "nodes", "an object");
    for (auto field : obj) {
      std::string_view key;
      check(field.unescaped_key().get(key), "nodes", "a key");
      if (key == "intervals") {
        seen(have_intervals_, "nodes.intervals");
        std::size_t i = 0;
        for (auto item : array(field.value(), "nodes.intervals")) {
          poll();
          const std::string here = "nodes.intervals" + idx(i);
          od::value iv;
          check(item.get(iv), here, "an array");
          std::int64_t pair[2];
          std::size_t k = 0;
          for (auto x : array(iv, here)) {
            od::value xv;
            check(x.get(xv), here, "an integer");
            if (k < 2) pair[k] = integer(xv, here + idx(k));
            ++k;
          }
          if (k != 2) fail(here, "expected 2 entries [lo, hi], found " + std::to_string(k));
          cols_.lo.push_back(pair[0]);
          cols_.hi.push_back(pair[1]);
          ++i;
        }
      } else if (key == "costs") {
        seen(have_costs_, "nodes.costs");
        int_lists(field.value(), "nodes.costs", cols_.costs, cols_.cost_begin);
      } else if (key == "usages") {
        seen(have_usages_, "nodes.usages");
        int_lists(field.value(), "nodes.usages", cols_.usages, cols_.usage_begin);
      }
    }
  }

  void read_edges(od::value v) {
    od::object obj;
    check(v.get_object().get(obj), "edges", "an object");
    for (auto field : obj) {
      std::string_view key;
      check(field.unescaped_key().get(key), "edges", "a key");
      if (key == "nodes") {
        seen(have_edge_nodes_, "edges.nodes");
        std::vector<std::int64_t> flat;
        std::vector<std::uint64_t> begin;
        int_lists(field.value(), "edges.nodes", flat, begin);
        for (std::size_t e = 0; e + 1 < begin.size(); ++e) {
          const std::size_t arity = begin[e + 1] - begin[e];
          if (arity != 2)
            fail("edges.nodes" + idx(e), "expected 2 node indices, found " + std::to_string(arity) +
                                             " (only pairwise edges are supported)");
          cols_.edge_u.push_back(flat[begin[e]]);
          cols_.edge_v.push_back(flat[begin[e] + 1]);
        }
      } else if (key == "costs") {
        seen(have_edge_costs_, "edges.costs");
        std::vector<Cost> scratch;
        std::size_t e = 0;
        for (auto item : array(field.value(), "edges.costs")) {
          poll();
          od::value row;
          if (auto err = item.get(row)) check(err, "edges.costs" + idx(e), "an array");
          scratch.clear();
          int_row(row, "edges.costs", e, scratch);
          cols_.edge_table.push_back(cols_.builder.add_table(scratch));
          ++e;
        }
      }
    }
  }

  void read_problem(od::value v) {
    od::object obj;
    check(v.get_object().get(obj), "problem", "an object");
    for (auto field : obj) {
      std::string_view key;
      check(field.unescaped_key().get(key), "problem", "a key");
      if (key == "name") {
        seen(have_name_, "problem.name");
        std::string_view name;
        check(field.value().get_string().get(name), "problem.name", "a string");
        cols_.builder.set_name(std::string(name));
      } else if (key == "nodes") {
        seen(have_nodes_, "problem.nodes");
        read_nodes(field.value());
      } else if (key == "edges") {
        seen(have_edges_, "problem.edges");
        read_edges(field.value());
      } else if (key == "usage_limit") {
        seen(have_limit_, "problem.usage_limit");
        od::value lv = field.value();
        bool is_null = false;
        check(lv.is_null().get(is_null), "problem.usage_limit", "an integer or null");
        if (!is_null) {
          std::int64_t limit = integer(lv, "problem.usage_limit");
          if (limit < 0) fail("problem.usage_limit", "must be non-negative");
          cols_.limit = limit;
        }
      }
    }
  }

  Problem parse(const char* bytes, std::size_t size) {
    bytes_ = bytes;
    size_ = size;
    od::parser parser;
    od::document doc;
    check(parser.iterate(bytes, size, size + simdjson::SIMDJSON_PADDING).get(doc), "",
          "a JSON document");
    od::object top;
    check(doc.get_object().get(top), "", "a JSON object at the top level");
    bool have_problem = false;
    for (auto field : top) {
      std::string_view key;
      check(field.unescaped_key().get(key), "", "a key");
      if (key == "problem") {
        seen(have_problem, "problem");
        od::value pv;
        check(field.value().get(pv), "problem", "an object");
        read_problem(pv);
      }
    }
    // Past the last token, current_location() reports OUT_OF_BOUNDS; anything else is
    // trailing content.
    const char* trailing = nullptr;
    if (doc.current_location().get(trailing) == simdjson::SUCCESS)
      fail("", "unexpected content after the JSON document");
    if (!have_problem) fail("", "missing key \"problem\"");
    return finish();
  }

 private:
  void seen(bool& flag, const char* where) {
    if (flag) fail(where, "duplicate key");
    flag = true;
  }

  Problem finish() {
    if (!have_nodes_) fail("problem", "missing key \"nodes\"");
    if (!have_intervals_) fail("problem.nodes", "missing key \"intervals\"");
    if (!have_costs_) fail("problem.nodes", "missing key \"costs\"");
    if (!have_usages_) fail("problem.nodes", "missing key \"usages\"");
    if (have_edges_ && !have_edge_nodes_) fail("problem.edges", "missing key \"nodes\"");
    if (have_edges_ && !have_edge_costs_) fail("problem.edges", "missing key \"costs\"");
    return std::move(cols_).build(*this);
  }

  StopPoll stop_;
  bool have_nodes_ = false, have_edges_ = false, have_intervals_ = false, have_costs_ = false,
       have_usages_ = false, have_edge_nodes_ = false, have_edge_costs_ = false, have_name_ = false,
       have_limit_ = false;
  Columns cols_;
};

}  // namespace

Problem parse_problem(const char* bytes, std::size_t size, const std::string& source,
                      const StopControl* stop) {
  // A UTF-8 byte order mark may open a JSON text (RFC 8259 lets parsers ignore it);
  // editors on some systems write one.
  if (size >= 3 && std::memcmp(bytes, "\xEF\xBB\xBF", 3) == 0) {
    bytes += 3;
    size -= 3;
  }
  return Reader(source, stop).parse(bytes, size);
}

Problem read_problem(const std::string& path, const StopControl* stop) {
  FileBytes bytes = read_file_bytes(path, simdjson::SIMDJSON_PADDING, stop);
  // (Contest JSON only: a request needs its own reader, which answers in its terms.)
  switch (input_kind(bytes.data(), bytes.size)) {
    case InputKind::kText:
    case InputKind::kBinary:
      throw InputError(path +
                       ": expected a JSON object (contest JSON); if this is an XLA "
                       "AutoShardingSolverRequest, solve_request (iopddl/request.hpp) answers "
                       "it in its own terms and `iopddl convert` writes it as contest JSON");
    case InputKind::kNone:
      throw InputError(not_an_input(path, bytes.data(), bytes.size));
    case InputKind::kJson:
      break;
  }
  return parse_problem(bytes.data(), bytes.size, path, stop);
}

}  // namespace iopddl::inline v0
