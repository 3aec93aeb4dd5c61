#include "coordinator.hpp"

#include <algorithm>
#include <cstdint>

#include "../lagrange/bound.hpp"

namespace iopddl::mpi {
namespace {

// A Total as two 64-bit halves (high signed, low unsigned bits), the same on every rank
// whatever the compiler's layout of __int128.
struct Halves {
  std::int64_t high;
  std::uint64_t low;
};

Halves split(Total v) {
  return {static_cast<std::int64_t>(v >> 64), static_cast<std::uint64_t>(v)};
}

Total join(Halves h) {
  return (static_cast<Total>(h.high) << 64) | static_cast<Total>(h.low);
}

void sum_halves(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const Halves*>(in);
  auto* b = static_cast<Halves*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = split(join(a[i]) + join(b[i]));
}

// The partition with one region per rank: a graph with fewer groups than ranks leaves the
// last ranks an empty region.
Partition one_per_rank(Partition part, int size) {
  if (part.regions.size() < static_cast<std::size_t>(size))
    part.regions.resize(static_cast<std::size_t>(size));
  return part;
}

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

}  // namespace

TotalSum::TotalSum() {
  MPI_Type_contiguous(2, MPI_INT64_T, &type_);
  MPI_Type_commit(&type_);
  MPI_Op_create(&sum_halves, /*commute=*/1, &op_);
}

TotalSum::~TotalSum() {
  MPI_Op_free(&op_);
  MPI_Type_free(&type_);
}

void TotalSum::reduce(std::vector<Total>& values, int root, MPI_Comm comm) const {
  const int rank = rank_of(comm);
  std::vector<Halves> mine(values.size()), sum(values.size());
  std::transform(values.begin(), values.end(), mine.begin(), split);
  MPI_Reduce(mine.data(), sum.data(), static_cast<int>(mine.size()), type_, op_, root, comm);
  if (rank == root) std::transform(sum.begin(), sum.end(), values.begin(), join);
}

Coordinator::Coordinator(const Reduced& r, const Partition& part, const BoundOptions& o,
                         MPI_Comm comm)
    : r_(r),
      o_(o),
      comm_(comm),
      rank_(rank_of(comm)),
      size_(size_of(comm)),
      part_(one_per_rank(part, size_)),
      copies_(r, part_),
      region_(std::make_unique<RegionBound>(
          r, RegionShape(r, part_, copies_, static_cast<std::uint32_t>(rank_)), copies_)),
      ascent_(r, copies_, o),
      memory_(ascent_.memory()),
      agreement_(ascent_.agreement()) {}

Total Coordinator::round(std::optional<Total> upper, const StopControl* stop,
                         std::vector<Strategy>& assembled) {
  if (rank_ == 0) {
    memory_ = ascent_.memory();
    agreement_ = ascent_.agreement();
  }
  MPI_Bcast(memory_.data(), static_cast<int>(memory_.size()), MPI_DOUBLE, 0, comm_);
  MPI_Bcast(agreement_.data(), static_cast<int>(agreement_.size()), MPI_DOUBLE, 0, comm_);
  // The certified sum first, then the usage differences of the owned groups.
  std::vector<Total> sums(r_.original().num_segments() + 2, 0);
  sums[0] = region_->solve(memory_, agreement_, o_.iterations, 2, o_.scale_bits, stop);
  std::vector<Total> usage(sums.size() - 1, 0);
  region_->add_usage(usage);
  std::copy(usage.begin(), usage.end(), sums.begin() + 1);
  sum_.reduce(sums, 0, comm_);
  // Labels: each group's from its owner, each copy's from the region holding it.
  const RegionShape& shape = region_->shape();
  const std::size_t n = r_.num_nodes();
  std::vector<int> labels(n + copies_.size(), 0);
  for (std::size_t i = 0; i < shape.owned; ++i) labels[shape.group[i]] = region_->labels()[i];
  for (std::size_t j = 0; j + shape.owned < shape.group.size(); ++j)
    labels[n + shape.ghost_copy[j]] = region_->labels()[shape.owned + j];
  MPI_Allreduce(MPI_IN_PLACE, labels.data(), static_cast<int>(labels.size()), MPI_INT, MPI_SUM,
                comm_);
  assembled.assign(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(n));
  if (rank_ != 0) return -(Total{1} << 126);
  const Total bound = ascent_.bound(sums[0]);
  const std::vector<Strategy> copy_labels(labels.begin() + static_cast<std::ptrdiff_t>(n),
                                          labels.end());
  usage.assign(sums.begin() + 1, sums.end());
  ascent_.step(bound, upper, usage, assembled, copy_labels);
  return bound;
}

}  // namespace iopddl::mpi
