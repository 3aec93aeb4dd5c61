// The distributed bound: every rank bounds the priced subproblem of its region (lagrange/
// region.hpp), and the coordinator, rank 0, owns the only multipliers (lagrange/ascent.hpp:
// memory per time segment, agreement per copy and strategy), certifies the global bound
// and steps the multipliers. One region is the whole problem: a one-rank run steps exactly
// as the single-process bound engine does.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <vector>

#include "../lagrange/ascent.hpp"
#include "../lagrange/lp_schedule.hpp"
#include "../lagrange/region.hpp"
#include "../partition/regions.hpp"
#include "iopddl/log.hpp"

namespace iopddl::inline v0::mpi {

// A 128-bit integer as an MPI datatype (two 64-bit halves) with a summing operation, for
// exact sums of certified bounds and usage profiles over the ranks.
class TotalSum {
 public:
  TotalSum();
  ~TotalSum();
  TotalSum(const TotalSum&) = delete;
  TotalSum& operator=(const TotalSum&) = delete;
  // Sums `values` element-wise over the ranks of `comm` into rank `root`'s `values`.
  void reduce(std::vector<Total>& values, int root, MPI_Comm comm) const;

 private:
  MPI_Datatype type_;
  MPI_Op op_;
};

// One region per rank, the same on every rank: rank 0 partitions (partition/regions.hpp)
// and broadcasts the owners. Rank 0's partition also counts components and articulation
// points; the others' do not.
Partition shared_regions(const Reduced& r, MPI_Comm comm);
// Whether to split the bound over the ranks' regions: more than one rank, and a cut narrow
// enough (ghost copies at most bound.max-copy-share of the groups); a wide one is logged.
bool split_bound(const Partition& part, const Reduced& r, const BoundOptions& o, Log& log);
// Each rank's peak resident memory (MiB) as "a, b, ..." on rank 0 ("" elsewhere).
std::string peak_memory(MPI_Comm comm);

class Coordinator {
 public:
  // Collective: every rank of `comm` builds its region of `part` (one per rank).
  Coordinator(const Reduced& r, const Partition& part, const BoundOptions& o, MPI_Comm comm);

  // One round, collective over `comm`:
  //   1. rank 0 broadcasts the multipliers (two flat arrays of doubles on the certified grid);
  //   2. every rank prices its region, runs bound.iterations of TRW-S (warm) and certifies;
  //   3. the regions' certified sums, usage profiles and the copies' and owners'
  //      reparametrised costs are summed exactly on rank 0; the owners' labels are
  //      gathered on every rank (`assembled`: every group's owner label);
  //   4. rank 0 certifies the global bound, moves the memory multipliers (LpSchedule:
  //      the LP's, or a subgradient step towards `upper`) and each group's parts to their
  //      average (DualAscent). At the LP's rounds (rank 0 says which with the
  //      multipliers), the groups' unpriced costs are summed on rank 0 for it too
  //      (RegionBound::add_unpriced_costs).
  // Returns the certified bound on rank 0 (the lowest Total on the other ranks).
  Total round(std::optional<Total> upper, const StopControl* stop,
              std::vector<Strategy>& assembled);

  // Rank 0's multipliers, for checkpoints and resumption (set_* ignores other sizes).
  const DualAscent& ascent() const { return ascent_; }
  DualAscent& ascent() { return ascent_; }
  // Whether the last round's assembly fits the limit (rank 0).
  bool assembly_fits() const { return ascent_.fits(); }
  // Who moves the memory multipliers (rank 0; inactive elsewhere).
  const LpSchedule& lp() const { return lp_; }
  std::size_t regions() const { return size_; }

 private:
  const Reduced& r_;
  BoundOptions o_;
  MPI_Comm comm_;
  int rank_, size_;
  Partition part_;  // one region per rank
  CopyLayout copies_;
  std::unique_ptr<RegionBound> region_;
  DualAscent ascent_;                       // used on rank 0 only
  LpSchedule lp_;                           // rank 0's; inactive on the others
  std::vector<std::size_t> offsets_;        // the LP's cost layout, once an LP round came
  std::vector<double> memory_, agreement_;  // this round's multipliers, on every rank
  TotalSum sum_;
};

}  // namespace iopddl::inline v0::mpi
