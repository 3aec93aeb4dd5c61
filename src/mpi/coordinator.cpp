#include "coordinator.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "../lagrange/bound.hpp"
#include "../util/total_halves.hpp"

namespace iopddl::inline v0::mpi {
namespace {

void sum_halves(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const TotalHalves*>(in);
  auto* b = static_cast<TotalHalves*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = split_total(join_total(a[i]) + join_total(b[i]));
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

// The memory LP lives on rank 0 alone: the other ranks' options turn it off.
BoundOptions lp_on_rank_0(BoundOptions o, int rank) {
  if (rank != 0) o.lp_every = 0;
  return o;
}

int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

}  // namespace

Partition shared_regions(const Reduced& r, MPI_Comm comm) {
  const int rank = rank_of(comm), size = size_of(comm);
  Partition part;
  std::vector<std::uint32_t> owner(r.num_nodes());
  std::uint64_t count = 0;
  if (rank == 0) {
    part = make_regions(r, static_cast<std::size_t>(size));
    owner = part.owner;
    count = part.regions.size();
  }
  MPI_Bcast(&count, 1, MPI_UINT64_T, 0, comm);
  MPI_Bcast(owner.data(), static_cast<int>(owner.size()), MPI_UINT32_T, 0, comm);
  if (rank != 0) part = regions_of(r, std::move(owner), count);
  return part;
}

bool split_bound(const Partition& part, const Reduced& r, const BoundOptions& o, Log& log) {
  if (part.regions.size() < 2) return false;
  std::size_t copies = 0;
  for (const Region& region : part.regions) copies += region.ghosts.size();
  if (static_cast<double>(copies) <= o.max_copy_share * static_cast<double>(r.num_nodes()))
    return true;
  log.info(
      "the regions' cut is wide (%zu ghost copies of %zu groups, bound.max-copy-share): "
      "rank 0 bounds the whole problem",
      copies, r.num_nodes());
  return false;
}

std::string peak_memory(MPI_Comm comm) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double mine = static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
  const int rank = rank_of(comm);
  std::vector<double> all(rank == 0 ? static_cast<std::size_t>(size_of(comm)) : 0);
  MPI_Gather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, comm);
  std::string list;
  for (double m : all) list += (list.empty() ? "" : ", ") + std::to_string(std::lround(m));
  return list;
}

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
  std::vector<TotalHalves> mine(values.size()), sum(values.size());
  std::transform(values.begin(), values.end(), mine.begin(),
                 [](Total v) { return split_total(v); });
  MPI_Reduce(mine.data(), sum.data(), static_cast<int>(mine.size()), type_, op_, root, comm);
  if (rank == root)
    std::transform(sum.begin(), sum.end(), values.begin(),
                   [](TotalHalves h) { return join_total(h); });
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
      lp_(r, lp_on_rank_0(o, rank_)),
      memory_(ascent_.memory()),
      agreement_(ascent_.agreement()) {}

Total Coordinator::round(std::optional<Total> upper, const StopControl* stop,
                         std::vector<Strategy>& assembled) {
  int lp_round = 0;
  if (rank_ == 0) {
    memory_ = ascent_.memory();
    agreement_ = ascent_.agreement();
    lp_round = lp_.due(ascent_.steps() + 1) ? 1 : 0;
  }
  MPI_Bcast(memory_.data(), static_cast<int>(memory_.size()), MPI_DOUBLE, 0, comm_);
  MPI_Bcast(agreement_.data(), static_cast<int>(agreement_.size()), MPI_DOUBLE, 0, comm_);
  MPI_Bcast(&lp_round, 1, MPI_INT, 0, comm_);
  const Total part = region_->solve(memory_, agreement_, o_.iterations, 2, o_.scale_bits, stop);
  // One exact sum over the ranks: the certified parts, the usage differences of the owned
  // groups, and the reparametrised costs of the copies and of their owners.
  const std::size_t segments = r_.original().num_segments(), entries = copies_.begin.back();
  std::vector<Total> usage(segments + 1, 0), copy(entries, 0), owner(entries, 0);
  region_->add_usage(usage);
  region_->add_copy_costs(copy, owner);
  std::vector<Total> sums{part};
  sums.insert(sums.end(), usage.begin(), usage.end());
  sums.insert(sums.end(), copy.begin(), copy.end());
  sums.insert(sums.end(), owner.begin(), owner.end());
  sum_.reduce(sums, 0, comm_);
  // The assembly: each group at its owner's label.
  std::vector<Strategy> labels(r_.num_nodes(), 0);
  region_->add_labels(labels);
  MPI_Allreduce(MPI_IN_PLACE, labels.data(), static_cast<int>(labels.size()), MPI_INT, MPI_SUM,
                comm_);
  assembled = std::move(labels);
  std::vector<double> theta;  // at the LP's rounds: the groups' unpriced costs, on rank 0
  if (lp_round) {
    if (offsets_.empty()) offsets_ = strategy_offsets(r_);
    theta.assign(offsets_.back(), 0.0);
    region_->add_unpriced_costs(agreement_, o_.scale_bits, offsets_, theta);
    MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : theta.data(), theta.data(),
               static_cast<int>(theta.size()), MPI_DOUBLE, MPI_SUM, 0, comm_);
  }
  if (rank_ != 0) return -(Total{1} << 126);
  const Total bound = ascent_.bound(sums[0]);
  const auto at = [&](std::size_t i) { return sums.begin() + static_cast<std::ptrdiff_t>(i); };
  usage.assign(at(1), at(1 + segments + 1));
  copy.assign(at(segments + 2), at(segments + 2 + entries));
  owner.assign(at(segments + 2 + entries), sums.end());
  if (lp_.active())
    ascent_.record(bound, usage);
  else
    ascent_.step(bound, upper, usage);
  ascent_.average_copies(copy, owner);
  if (lp_round && lp_.wants_costs(ascent_)) lp_.solve(ascent_, theta, stop);
  return bound;
}

}  // namespace iopddl::inline v0::mpi
