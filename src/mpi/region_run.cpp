#include "region_run.hpp"

#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

#include "../coordinator/decisions.hpp"
#include "../regional/region_rounds.hpp"
#include "../regional/whole_member.hpp"
#include "../util/total_halves.hpp"

namespace iopddl::inline v0::mpi {

namespace {

// The incumbent (input nodes) and its cost, from rank 0 to every rank.
void share_incumbent(std::vector<Strategy>& x, Total& cost, MPI_Comm comm) {
  std::int64_t halves[2] = {split_total(cost).high, low_bits(cost)};
  MPI_Bcast(halves, 2, MPI_INT64_T, 0, comm);
  cost = join_total(halves[0], halves[1]);
  MPI_Bcast(x.data(), static_cast<int>(x.size()), MPI_INT, 0, comm);
}

// Every rank's message on rank 0 (elsewhere empty): a stop flag, then its packed changes.
std::vector<std::vector<std::int64_t>> gather_messages(const std::vector<std::int64_t>& mine,
                                                       int rank, int size, MPI_Comm comm) {
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size));
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<int> offsets(static_cast<std::size_t>(size), 0);
  int total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = total;
    total += counts[i];
  }
  std::vector<std::int64_t> all(rank == 0 ? static_cast<std::size_t>(total) : 0);
  MPI_Gatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), offsets.data(),
              MPI_INT64_T, 0, comm);
  std::vector<std::vector<std::int64_t>> out;
  if (rank != 0) return out;
  for (std::size_t i = 0; i < counts.size(); ++i)
    out.emplace_back(all.begin() + offsets[i], all.begin() + offsets[i] + counts[i]);
  return out;
}

// Rank 0's whole-problem member in a timed run with polishers: the portfolio searches in a
// thread of its own from the first round to the last, never stopped at a round's end (a
// phase end cuts a polisher's pass short: N at 20 s, np 1 x 2 threads, seeds 1-3, 1.08 of
// one process in phases, 1.00 without). Without a polisher the member runs in phases, which
// end between pricing rounds (N at 20 s, np 2 x 1 thread, seeds 1-6, median 1.0014 of one
// process with 2 threads in phases, 1.013 without; bench/results/region_member_N_20s.csv).
// Stopped and joined on every way out.
class RunningMember {
 public:
  RunningMember(Portfolio& portfolio, StopControl& stop, IncumbentStore& store)
      : search_(stop, 1e18), thread_([&portfolio, &store, this] {
          portfolio.run(search_, store, std::numeric_limits<std::uint64_t>::max());
        }) {}
  ~RunningMember() { finish(); }
  // Whether the search has stopped (the run's stop, or the proof of its bound worker).
  bool stopped() const { return search_.should_stop(); }
  void finish() {
    search_.request_stop();
    if (thread_.joinable()) thread_.join();
  }

 private:
  StopControl search_;
  std::thread thread_;
};

// What every rank's part of a region run shares.
struct RegionRun {
  const Problem& p;
  const Reduced& r;
  const SolverOptions& o;
  const DistributedOptions& d;
  Portfolio& portfolio;
  StopControl& stop;
  IncumbentStore& store;
  Log& log;
  int rank, size;
};

// One rank's share of a round: rank 0 runs its phase (or lets its running member search
// until the round's end), the others improve their regions of the round's incumbent (by
// `work` million units each when deterministic). Returns their changes; phase_work gets
// rank 0's phase's work.
std::vector<coordinator::RegionChange> round_share(const RegionRun& run, RegionRounds& rounds,
                                                   std::optional<RunningMember>& member,
                                                   std::uint64_t work, std::uint64_t& phase_work) {
  const DistributedOptions& d = run.d;
  const double round_end = run.stop.elapsed() + d.region_seconds;
  std::vector<coordinator::RegionChange> mine;
  if (run.rank == 0 && member) {
    while (run.stop.elapsed() < round_end && !member->stopped())
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  } else if (run.rank == 0) {
    const std::uint64_t before = run.portfolio.work();
    if (run.o.deterministic)
      run.portfolio.run(run.stop, run.store, d.sync_rounds);
    else
      run.portfolio.run(run.stop, run.store, std::numeric_limits<std::uint64_t>::max(),
                        d.region_seconds);
    phase_work = run.portfolio.work() - before;
  } else {
    const std::size_t ranks = static_cast<std::size_t>(run.size);
    const std::vector<RegionRounds::Task> tasks = rounds.assigned(run.rank - 1, ranks - 1);
    for (std::size_t j = 0; j < tasks.size(); ++j) {
      // the round's time left, shared among the tasks left
      const double seconds =
          std::max(0.0, round_end - run.stop.elapsed()) / static_cast<double>(tasks.size() - j);
      mine.push_back(rounds.improve(tasks[j], work, seconds, run.stop));
    }
  }
  return mine;
}

// Rank 0's end of a round: the ranks' messages (a stop flag, then their packed changes)
// merged into the incumbent. Stops when any rank asks to or (deterministic) no work is left:
// the region ranks' work is rank 0's (`budget`), so only rank 0 reports work left. `next`,
// rank 0's phase's work, becomes the region ranks' work in a last round once rank 0's is
// spent.
bool end_region_round(const RegionRun& run, RegionRounds& rounds,
                      const std::vector<std::vector<std::int64_t>>& messages, std::uint64_t round,
                      RegionBudget& budget, std::uint64_t& next) {
  std::vector<coordinator::RegionChange> changes;
  std::size_t bytes = 0;
  std::vector<coordinator::PhaseReport> reports(messages.size());
  // (a running member's portfolio is not read: it is never deterministic)
  if (run.o.deterministic && run.portfolio.spent()) next = budget.last_round(run.portfolio.work());
  reports[0].work_left = run.o.deterministic && (!run.portfolio.spent() || next > 0);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::vector<std::int64_t>& m = messages[i];
    reports[i].stop = m.at(0) != 0;
    bytes += m.size() * sizeof(std::int64_t);
    std::vector<coordinator::RegionChange> theirs =
        unpack_changes(std::span<const std::int64_t>(m).subspan(1), run.p);
    for (auto& c : theirs) changes.push_back(std::move(c));
  }
  const coordinator::AssemblyOutcome end =
      end_round(run.p, run.r, rounds, run.portfolio, run.store, std::move(changes));
  if (run.size > 1)
    run.log.info("round %llu: cost %s, %zu region changes kept, %zu refused, %zu bytes gathered",
                 static_cast<unsigned long long>(round + 1), to_string(run.store.cost()).c_str(),
                 end.accepted, end.refused, bytes);
  return coordinator::stop_after_phase(reports, run.o.deterministic);
}

}  // namespace

void run_regions(const Problem& p, const Reduced& r, const SolverOptions& o,
                 const DistributedOptions& d, Portfolio& portfolio, MPI_Comm comm,
                 StopControl& stop, IncumbentStore& store, Log& log,
                 const AfterRound& after_round) {
  RegionRun run{p, r, o, d, portfolio, stop, store, log, 0, 1};
  MPI_Comm_rank(comm, &run.rank);
  MPI_Comm_size(comm, &run.size);
  // Round 0 starts from rank 0's best (its baseline at least).
  std::vector<Strategy> x(p.num_nodes(), 0);
  Total cost = 0;
  if (run.rank == 0) {
    auto [best, has] = store.snapshot();
    if (!has) throw std::logic_error("region run without an incumbent");
    x = best;
    cost = store.cost();
  }
  share_incumbent(x, cost, comm);
  RegionRounds rounds(p, r, o, region_count(run.size, d), x,
                      {d.region_overcommit, d.memory_price_step});
  // The work of rank 0's last phase (in the first round: its start's), which deterministic
  // region ranks spend in the round; after rank 0's last phase, what they have left of it.
  std::uint64_t last = portfolio.work();
  MPI_Bcast(&last, 1, MPI_UINT64_T, 0, comm);
  RegionBudget budget(rounds.regions(), static_cast<std::size_t>(run.size));
  std::optional<RunningMember> member;
  if (run.rank == 0 && !o.deterministic && portfolio.polishers() > 0)
    member.emplace(portfolio, stop, store);
  for (std::uint64_t round = 0;; ++round) {
    rounds.begin(round);
    std::uint64_t phase_work = 0;
    const std::vector<coordinator::RegionChange> mine =
        round_share(run, rounds, member, budget.round(last), phase_work);
    // (a deterministic run stops by work, judged on rank 0, or by a signal)
    const bool stopping_here = member            ? member->stopped()
                               : o.deterministic ? stop.stop_requested()
                                                 : stop.should_stop();
    std::vector<std::int64_t> message{stopping_here ? 1 : 0};
    const std::vector<std::int64_t> packed = pack_changes(mine);
    message.insert(message.end(), packed.begin(), packed.end());
    const auto messages = gather_messages(message, run.rank, run.size, comm);
    std::int64_t decision[2] = {0, 0};
    if (run.rank == 0) {
      const bool stopping = end_region_round(run, rounds, messages, round, budget, phase_work);
      decision[0] = stopping ? 1 : 0;
      decision[1] = static_cast<std::int64_t>(phase_work);
      // The member stops before the last checkpoint, which then holds its prices.
      if (stopping && member) member->finish();
      after_round(stopping, round, member && !stopping);
    }
    MPI_Bcast(decision, 2, MPI_INT64_T, 0, comm);
    if (decision[0] != 0) break;
    last = static_cast<std::uint64_t>(decision[1]);
    if (run.rank == 0) {
      x = rounds.incumbent();
      cost = rounds.cost();
    }
    share_incumbent(x, cost, comm);
    if (run.rank != 0) rounds.adopt(x, cost);
    if (d.memory_price_step > 0) {
      std::vector<double> prices = rounds.prices();
      MPI_Bcast(prices.data(), static_cast<int>(prices.size()), MPI_DOUBLE, 0, comm);
      if (run.rank != 0) rounds.adopt_prices(std::move(prices));
    }
  }
}

}  // namespace iopddl::inline v0::mpi
