# shellcheck shell=bash disable=SC2034  # sourced: the variables are its callers'
# Sourced by the benchmark scripts: an instance's name, its best known cost and its budget,
# from bench/best_known.csv (name, best known cost, contest limit in seconds).
bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The instance's name: the file's, without .gz and .json.
instance_name() {
  local name
  name=$(basename "$1"); name=${name%.gz}; echo "${name%.json}"
}

# The best known cost of NAME ("" if unknown).
best_known() {
  awk -F, -v n="$1" '$1 == n {print $2}' "$bench_dir/best_known.csv"
}

# The budget of NAME: BUDGET seconds, or for "contest" its contest limit (an error if none).
budget_for() {
  local name=$1 budget=$2 limit
  if [[ $budget != contest ]]; then echo "$budget"; return; fi
  limit=$(awk -F, -v n="$name" '$1 == n {print $3}' "$bench_dir/best_known.csv")
  [[ -n $limit ]] || { echo "$name: no contest limit known" >&2; return 1; }
  echo "$limit"
}

# The options of the per-run benchmarks (quality, convergence, proof times): sets bin (the
# solver, $IOPDDL or the build's), budget (default $1), seeds, out, extra and files (the
# instance files left after the options); a usage error exits 2.
bench_options() {
  budget=$1; shift
  bin=${IOPDDL:-$bench_dir/../build/iopddl}
  seeds="1 2 3" out=$bench_dir/out extra=""
  local opt OPTIND=1
  while getopts "b:s:o:x:" opt; do
    case $opt in
      b) budget=$OPTARG ;; s) seeds=$OPTARG ;; o) out=$OPTARG ;; x) extra=$OPTARG ;;
      *) exit 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  [[ $# -gt 0 ]] || { echo "usage: $0 [-b BUDGET|contest] [-s SEEDS] [-o DIR] [-x ARGS] FILE..."; exit 2; }
  files=("$@")
  mkdir -p "$out"
}
