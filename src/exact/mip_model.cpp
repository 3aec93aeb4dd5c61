#include "mip_model.hpp"

#include <algorithm>
#include <optional>

#include "../lagrange/time_prices.hpp"

namespace iopddl::inline v0 {

namespace {

bool modelled(const Reduced& r, std::uint32_t e) {
  const std::size_t n =
      static_cast<std::size_t>(r.strategies(r.edge_u(e))) * r.strategies(r.edge_v(e));
  const Cost* t = r.table(e);
  return std::any_of(t, t + n, [](Cost c) { return c != 0; });
}

constexpr Total kExact = Total{1} << 52;

// The largest |cost| of a table's allowed entries.
Total largest(const Cost* c, std::size_t n) {
  Total most = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_forbidden(c[i])) most = std::max<Total>(most, c[i] < 0 ? -Total{c[i]} : c[i]);
  return most;
}

std::size_t add_column(MipModel& m, double cost, double upper, bool integer) {
  m.objective.push_back(cost);
  m.column_upper.push_back(upper);
  m.integer.push_back(integer);
  return m.columns++;
}

std::uint32_t add_row(MipModel& m, double lower, double upper) {
  m.row_lower.push_back(lower);
  m.row_upper.push_back(upper);
  return static_cast<std::uint32_t>(m.rows++);
}

// x: one per group strategy, exactly one per group. A forbidden node cost (left only when
// some node has nothing else) is a column fixed at 0. Returns the objective's magnitude.
Total add_groups(const Reduced& r, MipModel& m) {
  Total magnitude = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    m.x_begin.push_back(m.columns);
    magnitude += largest(r.costs(g), r.strategies(g));
    const std::uint32_t row = add_row(m, 1, 1);
    for (Strategy s = 0; s < r.strategies(g); ++s) {
      const Cost c = r.costs(g)[s];
      const auto col = add_column(m, is_forbidden(c) ? 0.0 : static_cast<double>(c),
                                  is_forbidden(c) ? 0.0 : 1.0, true);
      m.entries.push_back({row, static_cast<std::uint32_t>(col), 1.0});
    }
  }
  m.x_begin.push_back(m.columns);
  return magnitude;
}

// y: the allowed entries of each modelled edge, and its marginal rows. Returns the
// objective's magnitude, or nothing past max_nonzeros.
std::optional<Total> add_edges(const Reduced& r, std::size_t max_nonzeros, MipModel& m) {
  Total magnitude = 0;
  m.y_begin.assign(r.num_edges(), MipModel::kNone);
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    if (!modelled(r, e)) continue;
    const std::uint32_t u = r.edge_u(e), v = r.edge_v(e);
    const Strategy ku = r.strategies(u), kv = r.strategies(v);
    magnitude += largest(r.table(e), static_cast<std::size_t>(ku) * kv);
    const std::uint32_t row_u = static_cast<std::uint32_t>(m.rows);
    for (Strategy i = 0; i < ku; ++i) {
      add_row(m, 0, 0);
      m.entries.push_back({row_u + i, static_cast<std::uint32_t>(m.x_begin[u] + i), -1.0});
    }
    const std::uint32_t row_v = static_cast<std::uint32_t>(m.rows);
    for (Strategy j = 0; j < kv; ++j) {
      add_row(m, 0, 0);
      m.entries.push_back({row_v + j, static_cast<std::uint32_t>(m.x_begin[v] + j), -1.0});
    }
    m.y_begin[e] = m.columns;
    for (Strategy i = 0; i < ku; ++i)
      for (Strategy j = 0; j < kv; ++j) {
        const Cost c = r.table(e)[static_cast<std::size_t>(i) * kv + j];
        if (is_forbidden(c)) continue;
        const auto col =
            static_cast<std::uint32_t>(add_column(m, static_cast<double>(c), 1.0, false));
        m.entries.push_back({row_u + i, col, 1.0});
        m.entries.push_back({row_v + j, col, 1.0});
      }
    if (m.entries.size() > max_nonzeros) return std::nullopt;
  }
  return magnitude;
}

// One term of a memory row: a group strategy's usage in a kept segment above the group's least.
struct Term {
  std::uint32_t segment;  // index into the kept segments
  std::uint32_t column;
  Usage above;
};

// The memory terms, per group: the kept segments its members cover, swept with the usage of
// those live; least_sum and most_sum get each segment's least and most usage. False past
// max_nonzeros.
bool memory_terms(const Reduced& r, const std::vector<std::uint32_t>& kept,
                  std::size_t max_nonzeros, const MipModel& m, std::vector<Term>& terms,
                  std::vector<Total>& least_sum, std::vector<Total>& most_sum) {
  const Problem& p = r.original();
  std::vector<Usage> usage;
  std::vector<std::pair<std::uint32_t, std::size_t>> events;  // (kept index, member), +/-
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    const Strategy k = r.strategies(g);
    events.clear();
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      const NodeId v = r.member_node(mi);
      if (!p.has_memory(v)) continue;
      const auto lo = std::lower_bound(kept.begin(), kept.end(), p.seg_lo(v)) - kept.begin();
      const auto hi = std::lower_bound(kept.begin(), kept.end(), p.seg_hi(v)) - kept.begin();
      if (lo >= hi) continue;
      events.push_back({static_cast<std::uint32_t>(lo), mi * 2});
      events.push_back({static_cast<std::uint32_t>(hi), mi * 2 + 1});
    }
    std::sort(events.begin(), events.end());
    usage.assign(k, 0);
    std::ptrdiff_t live = 0;
    for (std::size_t i = 0; i < events.size();) {
      const std::uint32_t at = events[i].first;
      for (; i < events.size() && events[i].first == at; ++i) {
        const std::size_t mi = events[i].second / 2;
        const int sign = events[i].second % 2 == 0 ? 1 : -1;
        for (Strategy s = 0; s < k; ++s) usage[s] += sign * r.member_usage(mi, s);
        live += sign;
      }
      if (live == 0) continue;
      const std::uint32_t until =
          i < events.size() ? events[i].first : static_cast<std::uint32_t>(kept.size());
      const Usage least = *std::min_element(usage.begin(), usage.end());
      const Usage most = *std::max_element(usage.begin(), usage.end());
      for (std::uint32_t t = at; t < until; ++t) {
        least_sum[t] += least;
        most_sum[t] += most;
        if (most == least) continue;
        for (Strategy s = 0; s < k; ++s)
          if (usage[s] != least)
            terms.push_back({t, static_cast<std::uint32_t>(m.x_begin[g] + s), usage[s] - least});
        if (m.entries.size() + terms.size() > max_nonzeros) return false;  // (some rows go)
      }
    }
  }
  return true;
}

// Memory: per maximal segment that some choice overloads, each group's usage there by
// strategy, above its least. False past max_nonzeros.
bool add_memory(const Reduced& r, std::size_t max_nonzeros, MipModel& m) {
  const Usage limit = *r.original().usage_limit();
  if (static_cast<Total>(limit) >= kExact) m.exact_in_doubles = false;
  const std::vector<std::uint32_t> kept = maximal_segments(r.original());
  const std::size_t nk = kept.size();
  std::vector<Total> least_sum(nk, 0), most_sum(nk, 0);
  std::vector<Term> terms;
  if (!memory_terms(r, kept, max_nonzeros, m, terms, least_sum, most_sum)) return false;
  // Terms come by group: gathered by segment into the rows' CSR.
  std::vector<std::uint32_t> row_of(nk, kNoIndex);
  for (std::size_t t = 0; t < nk; ++t) {
    if (most_sum[t] <= limit) continue;  // no choice overloads it
    if (most_sum[t] - least_sum[t] >= kExact) m.exact_in_doubles = false;
    row_of[t] = static_cast<std::uint32_t>(m.memory_rhs.size());
    m.memory_rhs.push_back(static_cast<Total>(limit) - least_sum[t]);
  }
  std::vector<std::size_t> count(m.memory_rhs.size() + 1, 0);
  for (const Term& t : terms)
    if (row_of[t.segment] != kNoIndex) ++count[row_of[t.segment] + 1];
  for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
  m.memory_begin = count;
  m.memory_column.resize(count.back());
  m.memory_value.resize(count.back());
  for (const Term& t : terms) {
    if (row_of[t.segment] == kNoIndex) continue;
    const std::size_t at = count[row_of[t.segment]]++;
    m.memory_column[at] = t.column;
    m.memory_value[at] = t.above;
  }
  return true;
}

}  // namespace

MipModel MipModel::build(const Reduced& r, std::size_t max_nonzeros) {
  MipModel m;
  const Total groups = add_groups(r, m);
  const std::optional<Total> edges = add_edges(r, max_nonzeros, m);
  m.too_large = !edges;
  if (m.too_large) return m;
  m.exact_in_doubles = groups + *edges < kExact;
  if (r.original().usage_limit()) m.too_large = !add_memory(r, max_nonzeros, m);
  return m;
}

std::vector<Strategy> MipModel::assignment(const Reduced& r, const double* solution) const {
  std::vector<Strategy> x(r.num_nodes(), 0);
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    const double* v = solution + x_begin[g];
    x[g] = static_cast<Strategy>(std::max_element(v, v + r.strategies(g)) - v);
  }
  return x;
}

MipModel::Use MipModel::memory_use(const std::vector<Strategy>& x) const {
  std::vector<char> chosen(columns, 0);
  for (std::size_t g = 0; g < x.size(); ++g) chosen[x_begin[g] + x[g]] = 1;
  Use use(memory_rows(), 0);
  for (std::size_t i = 0; i < memory_rows(); ++i)
    for (std::size_t k = memory_begin[i]; k < memory_begin[i + 1]; ++k)
      if (chosen[memory_column[k]]) use[i] += memory_value[k];
  return use;
}

std::vector<std::uint32_t> MipModel::overloaded(const std::vector<Strategy>& x) const {
  const Use use = memory_use(x);
  std::vector<std::uint32_t> over;
  for (std::size_t i = 0; i < memory_rows(); ++i)
    if (use[i] > memory_rhs[i]) over.push_back(static_cast<std::uint32_t>(i));
  return over;
}

Total MipModel::cost(const Reduced& r, const std::vector<Strategy>& x) {
  Total c = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) c += r.costs(g)[x[g]];
  for (std::uint32_t e = 0; e < r.num_edges(); ++e)
    c += r.table(
        e)[static_cast<std::size_t>(x[r.edge_u(e)]) * r.strategies(r.edge_v(e)) + x[r.edge_v(e)]];
  return c;
}

std::vector<double> MipModel::columns_of(const Reduced& r, const std::vector<Strategy>& x) const {
  std::vector<double> c(columns, 0.0);
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) c[x_begin[g] + x[g]] = 1;
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    if (y_begin[e] == kNone) continue;
    const Strategy kv = r.strategies(r.edge_v(e));
    const std::size_t at = static_cast<std::size_t>(x[r.edge_u(e)]) * kv + x[r.edge_v(e)];
    const Cost* t = r.table(e);
    if (is_forbidden(t[at])) continue;  // no column: the answer is not a point of the model
    c[y_begin[e] + static_cast<std::size_t>(
                       std::count_if(t, t + at, [](Cost v) { return !is_forbidden(v); }))] = 1;
  }
  return c;
}

}  // namespace iopddl::inline v0
