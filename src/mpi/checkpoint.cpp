#include "checkpoint.hpp"

#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"

namespace iopddl::inline v0::mpi {
namespace {

// A checkpoint in a Boost text archive: every count (of a vector, of a string's bytes) is
// written before its items, and checked on loading against the file's size (each item
// takes at least one byte of text), so an edited or corrupt count is refused instead of
// allocated.
template <class T>
void save_items(boost::archive::text_oarchive& ar, const std::vector<T>& v) {
  const std::uint64_t n = v.size();
  ar << n;
  for (const T& x : v) ar << x;
}

void save_items(boost::archive::text_oarchive& ar, const std::string& s) {
  save_items(ar, std::vector<int>(s.begin(), s.end()));
}

template <class T>
void load_items(boost::archive::text_iarchive& ar, std::vector<T>& v, std::size_t file_bytes) {
  std::uint64_t n = 0;
  ar >> n;
  if (n > file_bytes)
    throw std::runtime_error("a count of " + std::to_string(n) + " items in a file of " +
                             std::to_string(file_bytes) + " bytes");
  v.resize(n);
  for (T& x : v) ar >> x;
}

void load_items(boost::archive::text_iarchive& ar, std::string& s, std::size_t file_bytes) {
  std::vector<int> bytes;
  load_items(ar, bytes, file_bytes);
  s.clear();
  for (int b : bytes) {
    if (b < -128 || b > 255) throw std::runtime_error("a character out of range");
    s += static_cast<char>(b);
  }
}

// The layout of the fields below; a checkpoint of another layout is refused by name. (The
// first layout had no number: its first field, the fingerprint, is a 64-bit hash, which
// is never this small.)
constexpr std::uint64_t kFormat = 2;

void save(boost::archive::text_oarchive& ar, const Checkpoint& c) {
  ar << kFormat;
  ar << c.fingerprint;
  save_items(ar, c.instance);
  save_items(ar, c.assignment);
  save_items(ar, c.cost);
  save_items(ar, c.prices);
  save_items(ar, c.lower_bound);
  save_items(ar, c.bound_multipliers);
  save_items(ar, c.agreement_multipliers);
  ar << c.seed << c.elapsed << c.rounds;
}

// Thrown for a checkpoint of another layout (an earlier or later iopddl).
struct OtherFormat : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void load(boost::archive::text_iarchive& ar, Checkpoint& c, std::size_t file_bytes) {
  std::uint64_t format = 0;
  ar >> format;
  if (format != kFormat)
    throw OtherFormat(format > 1000 ? std::string("written by an earlier iopddl")
                                    : "of format " + std::to_string(format) + ", not " +
                                          std::to_string(kFormat));
  ar >> c.fingerprint;
  load_items(ar, c.instance, file_bytes);
  load_items(ar, c.assignment, file_bytes);
  load_items(ar, c.cost, file_bytes);
  load_items(ar, c.prices, file_bytes);
  load_items(ar, c.lower_bound, file_bytes);
  load_items(ar, c.bound_multipliers, file_bytes);
  load_items(ar, c.agreement_multipliers, file_bytes);
  ar >> c.seed >> c.elapsed >> c.rounds;
}

}  // namespace
}  // namespace iopddl::inline v0::mpi

namespace iopddl::inline v0::mpi {

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
    save(archive, c);
  }
  write_file(path, text.str());  // through a temporary renamed into place: old or new
}

Checkpoint load_checkpoint(const std::string& path) {
  // Read whole (bounded like every input), then parsed from memory.
  const FileBytes bytes = read_file_bytes(path, 1);
  std::istringstream in(std::string(bytes.data(), bytes.size));
  Checkpoint c;
  try {
    boost::archive::text_iarchive archive(in);
    load(archive, c, bytes.size);
  } catch (const OtherFormat& e) {
    throw InputError(path + ": checkpoint " + e.what() +
                     " (this one cannot read it: start again without --resume)");
  } catch (const std::exception& e) {
    throw InputError(path + ": corrupt checkpoint (" + e.what() + ")");
  }
  return c;
}

bool refresh_checkpoint(const Problem& problem, const std::string& path,
                        const std::vector<Strategy>& incumbent, Total cost,
                        std::optional<Total> bound, double elapsed) {
  const std::uint64_t print = fingerprint(problem);
  Checkpoint c;
  bool kept = false;  // the one there is of this instance and at least as good
  if (std::ifstream(path).good()) {
    try {
      c = load_checkpoint(path);
    } catch (const InputError&) {
      c = Checkpoint{};  // corrupt, or of another layout: replaced
    }
    if (c.fingerprint != print) c = Checkpoint{};  // of another instance: replaced
    if (!c.assignment.empty()) {
      const Evaluation e = evaluate(problem, c.assignment);
      kept = e.valid && e.feasible && e.cost <= cost;
    }
  }
  const std::optional<Total> old_bound = parse_total(c.lower_bound);
  const bool better_bound = bound && (!old_bound || *bound > *old_bound);
  if (kept && !better_bound) return false;
  c.fingerprint = print;
  c.instance = problem.name();
  if (!kept) {
    c.assignment = incumbent;
    c.cost = to_string(cost);
  }
  if (better_bound) c.lower_bound = to_string(*bound);
  c.elapsed = elapsed;
  save_checkpoint(c, path);
  return true;
}

ResumePoint read_resume_point(const Problem& problem, const std::string& path) {
  const Checkpoint c = load_checkpoint(path);
  if (c.fingerprint != fingerprint(problem))
    throw InputError(path + ": checkpoint of another instance (\"" + c.instance + "\"), not of \"" +
                     problem.name() + "\"");
  ResumePoint r;
  if (!c.assignment.empty()) {
    if (!evaluate(problem, c.assignment).valid)
      throw InputError(path + ": checkpoint assignment does not fit the instance");
    r.assignment = c.assignment;
  }
  r.bound = parse_total(c.lower_bound);
  r.elapsed = c.elapsed;
  return r;
}

}  // namespace iopddl::inline v0::mpi
