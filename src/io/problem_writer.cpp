#include <ostream>

#include "iopddl/io.hpp"

namespace iopddl::inline v0 {
namespace {

template <class Range>
void write_list(std::ostream& out, const Range& values) {
  out << '[';
  bool first = true;
  for (auto x : values) {
    if (!first) out << ',';
    out << x;
    first = false;
  }
  out << ']';
}

std::string json_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) continue;  // control characters dropped
    r.push_back(c);
  }
  return r;
}

}  // namespace

void write_problem_json(std::ostream& out, const Problem& p) {
  const auto n = static_cast<NodeId>(p.num_nodes());
  out << "{\"problem\":{\"name\":\"" << json_escape(p.name()) << "\",\"nodes\":{\"intervals\":[";
  for (NodeId v = 0; v < n; ++v)
    out << (v ? "," : "") << '[' << p.interval_lo(v) << ',' << p.interval_hi(v) << ']';
  out << "],\"costs\":[";
  for (NodeId v = 0; v < n; ++v) {
    if (v) out << ',';
    write_list(out, p.costs(v));
  }
  out << "],\"usages\":[";
  for (NodeId v = 0; v < n; ++v) {
    if (v) out << ',';
    write_list(out, p.usages(v));
  }
  out << "]},\"edges\":{\"nodes\":[";
  for (EdgeId e = 0; e < p.num_edges(); ++e)
    out << (e ? "," : "") << '[' << p.edge_u(e) << ',' << p.edge_v(e) << ']';
  out << "],\"costs\":[";
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    if (e) out << ',';
    write_list(out, p.edge_costs(e));
  }
  out << "]}";
  if (p.usage_limit()) out << ",\"usage_limit\":" << *p.usage_limit();
  out << "}}\n";
}

}  // namespace iopddl::inline v0
