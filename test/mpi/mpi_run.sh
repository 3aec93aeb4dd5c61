#!/usr/bin/env bash
# MPI end-to-end checks, one per invocation: mpi_run.sh CHECK BINARY INSTANCE RANKS [OTHER]
# (OTHER: another instance, for the foreign-checkpoint check). Every answer is checked by
# the reference evaluator; every wait is bounded.
set -euo pipefail
check=$1 bin=$2 instance=$3 ranks=$4 other=${5:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
run() { mpirun -np "$ranks" "$bin" "$@"; }
last_line_feasible() {
  local last; last=$(tail -n 1 "$1")
  [[ $last == \[*\] && $last != "[]" ]] || { echo "last line is not an assignment: $last"; exit 1; }
  if grep -v '^#' "$1" | head -n -1 | grep -q .; then echo "extra output lines"; exit 1; fi
  "$bin" evaluate "$instance" "$1" > /dev/null || { echo "infeasible answer"; exit 1; }
}
wait_for() {  # wait_for FILE PATTERN: bounded wait for a line
  for _ in $(seq 1 600); do grep -q "$2" "$1" 2> /dev/null && return 0; sleep 0.1; done
  echo "timed out waiting for '$2' in $1"; exit 1
}
case $check in
  contest)
    # (On a loaded machine the watchdog may print the answer before rank 0's report, whose
    # lines then go to stderr.)
    run "$instance" 4 > out.txt 2> err.txt
    last_line_feasible out.txt
    [[ $(cat out.txt err.txt | grep -c "final:") -le 1 ]] || { echo "more than one rank printed"; exit 1; } ;;
  deterministic)
    for mode in regions portfolio; do
      run solve "$instance" --distributed-mode $mode --deterministic --work-limit 10 --seed 3 > a.txt
      run solve "$instance" --distributed-mode $mode --deterministic --work-limit 10 --seed 3 > b.txt
      last_line_feasible a.txt
      [[ "$(tail -n 1 a.txt)" == "$(tail -n 1 b.txt)" ]] || { echo "$mode: different answers for the same seed"; exit 1; }
    done ;;
  sigterm)
    mpirun -np "$ranks" "$bin" solve "$instance" --time-limit 600 > out.txt &
    pid=$!  # mpirun itself (a function would put a subshell in between)
    wait_for out.txt "cost"
    kill -TERM "$pid"
    wait "$pid" || true
    last_line_feasible out.txt
    grep -q "stopped by signal 15" out.txt ;;
  sigusr1)
    mpirun -np "$ranks" "$bin" solve "$instance" --time-limit 600 --sync-seconds 0.2 \
      --distributed-region-seconds 0.2 > out.txt &
    pid=$!
    wait_for out.txt "cost"
    kill -USR1 "$pid"
    wait_for out.txt "checkpoint written to iopddl.checkpoint"
    [[ -s iopddl.checkpoint ]] || { echo "no checkpoint file"; exit 1; }
    kill -TERM "$pid"
    wait "$pid" || true
    last_line_feasible out.txt ;;
  checkpoint)
    run solve "$instance" --time-limit 3 --checkpoint ck.txt --sync-seconds 0.3 \
      --distributed-region-seconds 0.3 > first.txt
    last_line_feasible first.txt
    [[ -s ck.txt ]] || { echo "no checkpoint written"; exit 1; }
    first=$("$bin" evaluate --json "$instance" first.txt | sed -n 's/.*"cost":\([0-9]*\).*/\1/p')
    run solve "$instance" --time-limit 3 --resume ck.txt > second.txt
    grep -q "resumed from ck.txt" second.txt || { echo "did not resume"; exit 1; }
    last_line_feasible second.txt
    second=$("$bin" evaluate --json "$instance" second.txt | sed -n 's/.*"cost":\([0-9]*\).*/\1/p')
    [[ $second -le $first ]] || { echo "resumed run is worse: $second > $first"; exit 1; }
    # The certified bound goes on from the checkpoint's (with its multipliers).
    kept=$(sed -n 's/.*resumed the certified bound \(-\{0,1\}[0-9]*\).*/\1/p' second.txt)
    [[ -n $kept ]] || { echo "the certified bound was not resumed"; exit 1; }
    # Every bound the resumed run reports (its progress lines, its final line) starts there.
    while read -r bound; do
      ((bound >= kept)) || { echo "resumed run reports bound $bound below $kept"; exit 1; }
    done < <(sed -n -e 's/^# \[[ 0-9.]*\] bound \(-\{0,1\}[0-9]*\),.*/\1/p' \
      -e 's/.*certified lower bound \(-\{0,1\}[0-9]*\).*/\1/p' second.txt)
    # A checkpoint of another instance and a corrupt one are refused with a clear message.
    status=0
    run solve "$other" --resume ck.txt > other.txt 2> err.txt || status=$?
    [[ $status -eq 3 ]] && grep -q "checkpoint of another instance" err.txt ||
      { echo "foreign checkpoint: exit $status: $(cat err.txt)"; exit 1; }
    echo "garbage" > bad.txt
    status=0
    run solve "$instance" --resume bad.txt > bad_out.txt 2> err.txt || status=$?
    [[ $status -eq 3 ]] && grep -q "corrupt checkpoint" err.txt || { echo "corrupt checkpoint: $status $(cat err.txt)"; exit 1; } ;;
  regions)
    # (The portfolio mode:) the distributed bound runs (one region per rank, whatever their cut), the answer is
    # valid, and no bound rank 0 reports (progress lines, final line) exceeds its cost. By
    # work, not time: on a loaded machine a timed run's watchdog may end the job before
    # rank 0 reports its rounds.
    run solve "$instance" --distributed-mode portfolio --deterministic --work-limit 50 \
      --bound-max-copy-share 1 > out.txt
    last_line_feasible out.txt
    grep -q "$ranks ranks: $ranks regions" out.txt || { echo "no region per rank"; exit 1; }
    grep -q "distributed bound: [1-9][0-9]* rounds over $ranks regions" out.txt ||
      { echo "no rounds of the distributed bound"; exit 1; }
    cost=$("$bin" evaluate --json "$instance" out.txt | sed -n 's/.*"cost":\([0-9]*\).*/\1/p')
    bounds=$(sed -n -e 's/^# \[[ 0-9.]*\] bound \(-\{0,1\}[0-9]*\),.*/\1/p' \
      -e 's/.*certified lower bound \(-\{0,1\}[0-9]*\).*/\1/p' out.txt)
    [[ -n $bounds ]] || { echo "no lower bound reported"; exit 1; }
    for bound in $bounds; do
      ((bound <= cost)) || { echo "lower bound $bound above the answer's cost $cost"; exit 1; }
    done
    # Without the bound the run is still valid, in either mode.
    for mode in regions portfolio; do
      run solve "$instance" --distributed-mode $mode --time-limit 2 --bound-share 0 > plain.txt
      last_line_feasible plain.txt
    done ;;
  regions_mode)
    # Rank 0 runs the whole-problem solver, the others improve regions of the incumbent.
    # By work: the run reproduces, and gives what the simulation of as many ranks gives.
    "$bin" generate --family memory -n 2000 --seed 4 -o mem.json > /dev/null
    instance=mem.json
    args=(--deterministic --work-limit 20 --sync-rounds 2 --seed 2)
    run solve "$instance" --distributed-mode regions "${args[@]}" > a.txt
    last_line_feasible a.txt
    grep -q "round [0-9]*: cost [0-9]*, [1-9][0-9]* region changes kept" a.txt ||
      { echo "no region change was kept"; exit 1; }
    run solve "$instance" --distributed-mode regions "${args[@]}" > b.txt
    [[ "$(tail -n 1 a.txt)" == "$(tail -n 1 b.txt)" ]] || { echo "different answers for the same seed"; exit 1; }
    "$bin" solve "$instance" --simulate-ranks "$ranks" "${args[@]}" > sim.txt
    [[ "$(tail -n 1 a.txt)" == "$(tail -n 1 sim.txt)" ]] || { echo "mpirun and --simulate-ranks $ranks differ"; exit 1; }
    # Regions that may overbid the slack, priced by rank 0's memory prices, which every rank
    # must receive to give the simulation's answer.
    # (A tighter limit and 4 regions: there the prices change the answer.)
    "$bin" generate --family memory -n 2000 --seed 4 --limit-factor 1.03 -o tight.json > /dev/null
    market=(--distributed-region-overcommit 8 --distributed-memory-price-step 8 "${args[@]}")
    mpirun -np 5 "$bin" solve tight.json "${market[@]}" > m.txt
    (instance=tight.json; last_line_feasible m.txt)
    "$bin" solve tight.json --simulate-ranks 5 "${market[@]}" > simm.txt
    [[ "$(tail -n 1 m.txt)" == "$(tail -n 1 simm.txt)" ]] ||
      { echo "mpirun and --simulate-ranks 5 differ with memory prices"; exit 1; }
    # Twice as many region ranks as regions: each region improved in two copies, alike over MPI.
    copies=(--distributed-max-regions $((ranks - 1)) "${args[@]}")
    mpirun -np $((2 * ranks - 1)) "$bin" solve "$instance" "${copies[@]}" > c.txt
    last_line_feasible c.txt
    "$bin" solve "$instance" --simulate-ranks $((2 * ranks - 1)) "${copies[@]}" > simc.txt
    [[ "$(tail -n 1 c.txt)" == "$(tail -n 1 simc.txt)" ]] ||
      { echo "mpirun and --simulate-ranks $((2 * ranks - 1)) differ with copies of regions"; exit 1; }
    # By time: every rank exits 0 with the answer printed, in rounds of the length asked
    # (rounds of the default 3 s would give at most 2 in 4 s).
    run solve "$instance" --distributed-mode regions --time-limit 4 --distributed-region-seconds 0.3 > timed.txt
    last_line_feasible timed.txt
    grep -q "round 3: cost" timed.txt || { echo "rounds of 0.3 s not taken: $(grep -c 'round [0-9]*: cost' timed.txt) rounds"; exit 1; }
    # A rank bound to fewer cores than its threads says so; one with enough does not.
    mpirun -np 1 --bind-to core "$bin" solve "$instance" --deterministic --work-limit 1 --threads 2 > /dev/null 2> bound.txt
    grep -q "warning: this rank may run on 1 core" bound.txt || { echo "no warning for 2 threads on 1 core"; exit 1; }
    mpirun -np 1 --bind-to core "$bin" solve "$instance" --deterministic --work-limit 1 --threads 1 > /dev/null 2> bound.txt
    if grep -q "warning: this rank may run" bound.txt; then echo "a warning for 1 thread on 1 core"; exit 1; fi ;;
  bound)
    # The distributed bound (`iopddl bound` under mpirun, RANKS is the most ranks), split
    # into regions whatever their cut (--bound-max-copy-share 1): with one rank it steps
    # exactly as the single process does; with more it is still valid, at most the optimum
    # that exact mode proves on a small core, and near the one-rank bound. By default the
    # core's cut is too wide to split: rank 0 bounds it whole, as the single process does.
    "$bin" generate --family core -n 20 --seed 3 -o core.json > /dev/null
    "$bin" solve core.json -t 20 > exact.txt
    grep -q "status optimal" exact.txt || { echo "exact mode did not prove the optimum"; exit 1; }
    optimum=$("$bin" evaluate --json core.json exact.txt | sed -n 's/.*"cost":\([0-9]*\).*/\1/p')
    "$bin" bound core.json --steps 30 --exact-prove-nodes 0 > single.txt
    grep -q "after 30 steps" single.txt || { echo "--steps 30 not taken: $(grep steps single.txt)"; exit 1; }
    single=$(tail -n 1 single.txt)
    for np in $(seq 1 "$ranks"); do
      got=$(mpirun -np "$np" "$bin" bound core.json --steps 30 --bound-max-copy-share 1 |
        tee bound$np.txt | tail -n 1)
      [[ $got =~ ^-?[0-9]+$ ]] || { echo "$np ranks: no bound printed: $got"; exit 1; }
      ((got <= optimum)) || { echo "$np ranks: bound $got above the optimum $optimum"; exit 1; }
      grep -q "$np ranks: $np regions" bound$np.txt || { echo "$np ranks: not one region per rank"; exit 1; }
      grep -q "peak memory per rank (MiB): [0-9]" bound$np.txt || { echo "$np ranks: no memory report"; exit 1; }
      grep -q "after 30 steps" bound$np.txt || { echo "$np ranks: --steps 30 not taken"; exit 1; }
      if ((np == 1)); then
        [[ $got == "$single" ]] || { echo "one rank: bound $got, single process $single"; exit 1; }
      else  # and the regions' parts were all summed: near the one-rank bound (0.997 of it)
        ((got * 100 >= single * 95)) || { echo "$np ranks: bound $got far below $single"; exit 1; }
      fi
    done
    whole=$(mpirun -np "$ranks" "$bin" bound core.json --steps 30 | tee whole.txt | tail -n 1)
    grep -q "rank 0 bounds the whole problem" whole.txt || { echo "a wide cut was split"; exit 1; }
    [[ $whole == "$single" ]] || { echo "rank 0 alone: bound $whole, single process $single"; exit 1; } ;;
  one_reader)
    # Rank 0 reads the file once and sends the problem to the others: the input may be a
    # FIFO written once (with every rank reading, the ranks split its stream and fail), and
    # the deterministic answer is the file's.
    run solve "$instance" --deterministic --work-limit 10 --threads 1 > file.txt
    mkfifo in.fifo
    cat "$instance" > in.fifo &
    timeout 120 mpirun -np "$ranks" "$bin" solve in.fifo --deterministic --work-limit 10 \
      --threads 1 > fifo.txt || { echo "the run on a FIFO failed"; exit 1; }
    last_line_feasible fifo.txt
    grep -q "problem sent to $((ranks - 1)) ranks" fifo.txt || { echo "no problem sent"; exit 1; }
    [[ "$(tail -n 1 file.txt)" == "$(tail -n 1 fifo.txt)" ]] || { echo "different answers"; exit 1; } ;;
  *) echo "unknown check $check"; exit 2 ;;
esac
echo "mpi $check with $ranks ranks: ok"
