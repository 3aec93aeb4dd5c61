// The reduced problem as a mixed-integer program, for an LP-based branch-and-cut engine
// (exact/cbc_search.hpp). One binary x[g][s] per group strategy (exactly one per group);
// one continuous y[e][i][j] per allowed entry of each edge table that costs something
// somewhere or forbids something, tied to its ends by the marginal rows sum_j y[i][j] =
// x[u][i] and sum_i y[i][j] = x[v][j] (the local polytope: its LP is the Lagrangian bound's
// relaxation); and one row per maximal set of members live together (a time segment where
// a member starts and another ends next), each group's strategy weighed by its members'
// usage above the group's least there. Rows that no choice can overload are left out; the
// memory rows are kept apart, in exact integers, to check answers against.
// Costs are integers, so the objective of any answer is an integer: the engine's
// floating-point arithmetic only has to separate answers one unit apart.
#pragma once

#include <cstdint>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

struct MipModel {
  struct Entry {
    std::uint32_t row, column;
    double value;
  };
  std::size_t columns = 0, rows = 0;
  // Whether every sum the engine forms (objective, memory rows) stays below 2^52 in
  // magnitude, where doubles hold integers exactly: without it no proof is trusted.
  bool exact_in_doubles = true;
  std::vector<double> objective, column_upper;  // column lower bounds are all 0
  std::vector<bool> integer;
  std::vector<double> row_lower, row_upper;
  std::vector<Entry> entries;
  std::vector<std::size_t> x_begin;  // group g's strategies are columns x_begin[g] + s
  // The memory rows, apart: row i is
  // sum memory_value[k] x[memory_column[k]] over k in [memory_begin[i], memory_begin[i + 1])
  // at most memory_rhs[i], in exact integers.
  std::vector<std::size_t> memory_begin{0};
  std::vector<std::uint32_t> memory_column;
  std::vector<Usage> memory_value;
  std::vector<Total> memory_rhs;
  std::size_t memory_rows() const { return memory_rhs.size(); }
  std::size_t nonzeros() const { return entries.size() + memory_column.size(); }
  // Each memory row's left-hand side at assignment x (of the reduced problem).
  using Use = std::vector<Total>;
  Use memory_use(const std::vector<Strategy>& x) const;
  // The memory rows x overloads.
  std::vector<std::uint32_t> overloaded(const std::vector<Strategy>& x) const;
  // The objective at x, exactly: the reduced problem's cost of x.
  static Total cost(const Reduced& r, const std::vector<Strategy>& x);

  // The model, or, once it would have more than `max_nonzeros` nonzeros (counting the
  // terms of memory rows that turn out not to be needed), a part of it with too_large set
  // (built no further: the cap bounds the memory it takes).
  static MipModel build(const Reduced& r, std::size_t max_nonzeros = SIZE_MAX);
  bool too_large = false;
  // The reduced assignment in a column solution: each group's strategy of largest value.
  std::vector<Strategy> assignment(const Reduced& r, const double* solution) const;
  // The column solution of a reduced assignment (a point of the model for every answer).
  std::vector<double> columns_of(const Reduced& r, const std::vector<Strategy>& x) const;
  // Edge e's first y column (row-major over its allowed entries), or kNone: an edge whose
  // table is all zeros costs nothing and forbids nothing, and is left out.
  static constexpr std::size_t kNone = SIZE_MAX;
  std::vector<std::size_t> y_begin;
};

}  // namespace iopddl::inline v0
