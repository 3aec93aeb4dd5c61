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
