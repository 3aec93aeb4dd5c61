#include "checkpoint.hpp"

#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <functional>
#include <thread>

#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"

namespace boost::serialization {

template <class Archive>
void serialize(Archive& ar, iopddl::mpi::Checkpoint& c, const unsigned int /*version*/) {
  ar& c.fingerprint& c.instance& c.assignment& c.cost& c.prices& c.lower_bound& c.seed& c.elapsed& c
      .rounds;
}

}  // namespace boost::serialization

namespace iopddl::mpi {

namespace {
void mix(std::uint64_t& h, std::uint64_t x) {
  h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
}
}  // namespace

std::uint64_t fingerprint(const Problem& p) {
  std::uint64_t h = 0x1234567;
  mix(h, p.num_nodes());
  mix(h, p.num_edges());
  mix(h, static_cast<std::uint64_t>(p.usage_limit().value_or(-1)));
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    mix(h, static_cast<std::uint64_t>(p.interval_lo(v)));
    mix(h, static_cast<std::uint64_t>(p.interval_hi(v)));
    for (Cost c : p.costs(v)) mix(h, static_cast<std::uint64_t>(c));
    for (Usage u : p.usages(v)) mix(h, static_cast<std::uint64_t>(u));
  }
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    mix(h, p.edge_u(e));
    mix(h, p.edge_v(e));
    mix(h, p.edge_table(e));
  }
  for (std::uint32_t t = 0; t < p.num_tables(); ++t)
    for (Cost c : p.table(t)) mix(h, static_cast<std::uint64_t>(c));
  return h;
}

void save_checkpoint(const Checkpoint& c, const std::string& path) {
  std::ostringstream text;
  {
    boost::archive::text_oarchive archive(text);
    archive << c;
  }
  write_file(path, text.str());  // through a temporary renamed into place: old or new
}

Checkpoint load_checkpoint(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open checkpoint");
  Checkpoint c;
  try {
    boost::archive::text_iarchive archive(in);
    archive >> c;
  } catch (const std::exception& e) {
    throw InputError(path + ": corrupt checkpoint (" + e.what() + ")");
  }
  return c;
}

void refresh_checkpoint(const Problem& problem, const std::string& path,
                        const std::vector<Strategy>& incumbent, Total cost, double elapsed) {
  try {
    Checkpoint c;
    std::ifstream probe(path);
    if (probe.good()) {
      c = load_checkpoint(path);
      if (!c.assignment.empty()) {
        const Evaluation e = evaluate(problem, c.assignment);
        if (e.valid && e.feasible && e.cost <= cost) return;
      }
    } else {
      c.fingerprint = fingerprint(problem);
      c.instance = problem.name();
    }
    c.assignment = incumbent;
    c.cost = to_string(cost);
    c.elapsed = elapsed;
    save_checkpoint(c, path);
  } catch (...) {  // a checkpoint that cannot be refreshed stays as it was
  }
}

}  // namespace iopddl::mpi
