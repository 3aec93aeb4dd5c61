#include "problem_transfer.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace iopddl::inline v0 {

namespace {

// MPI counts are int: large arrays go in pieces of at most 1 GiB.
constexpr std::size_t kPiece = std::size_t{1} << 30;

void bytes(void* data, std::size_t size, int root, MPI_Comm comm) {
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < size; done += kPiece)
    MPI_Bcast(p + done, static_cast<int>(std::min(kPiece, size - done)), MPI_BYTE, root, comm);
}

// A vector of plain values (or a string): its length, then its bytes.
template <class Seq>
std::size_t sequence(Seq& v, bool sending, int root, MPI_Comm comm) {
  static_assert(std::is_trivially_copyable_v<typename Seq::value_type>);
  std::uint64_t n = v.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm);
  if (!sending) v.resize(n);
  const std::size_t size = n * sizeof(typename Seq::value_type);
  bytes(v.data(), size, root, comm);
  return size + sizeof n;
}

}  // namespace

std::size_t ProblemTransfer::broadcast(Problem& p, int root, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const bool sending = rank == root;
  std::size_t sent = 0;
  sent += sequence(p.name_, sending, root, comm);
  std::int64_t limit[2] = {p.usage_limit_.has_value(), p.usage_limit_.value_or(0)};
  MPI_Bcast(limit, 2, MPI_INT64_T, root, comm);
  if (!sending) p.usage_limit_ = limit[0] ? std::optional<Usage>(limit[1]) : std::nullopt;
  sent += sizeof limit;
  sent += sequence(p.strategy_begin_, sending, root, comm);
  sent += sequence(p.cost_, sending, root, comm);
  sent += sequence(p.usage_, sending, root, comm);
  sent += sequence(p.interval_lo_, sending, root, comm);
  sent += sequence(p.interval_hi_, sending, root, comm);
  sent += sequence(p.edge_u_, sending, root, comm);
  sent += sequence(p.edge_v_, sending, root, comm);
  sent += sequence(p.edge_table_, sending, root, comm);
  sent += sequence(p.table_begin_, sending, root, comm);
  sent += sequence(p.table_cost_, sending, root, comm);
  sent += sequence(p.adj_begin_, sending, root, comm);
  sent += sequence(p.adj_edge_, sending, root, comm);
  sent += sequence(p.times_, sending, root, comm);
  sent += sequence(p.seg_lo_, sending, root, comm);
  sent += sequence(p.seg_hi_, sending, root, comm);
  return sent;
}

}  // namespace iopddl::inline v0
