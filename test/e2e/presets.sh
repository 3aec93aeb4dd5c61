#!/usr/bin/env bash
# Every preset in configs/ takes effect: each of its key=value lines is read back by
# --dump-config after --config, the command line wins over the file, a run with the preset
# gives a feasible answer, and a config with an unknown key or a wrong type is an error
# that names the key.
set -uo pipefail
bin=$1 src=$2
ex=$src/examples/example.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$@"; exit 1; }
for preset in "$src"/configs/*.toml; do
  "$bin" solve "$ex" --config "$preset" --dump-config > "$tmp/dump" || fail "$preset: dump failed"
  lines=0
  while IFS= read -r line; do
    line=${line%%#*}; line=${line// /}
    [[ -z $line ]] && continue
    grep -qxF -- "$line" "$tmp/dump" || fail "$preset: '$line' did not take effect: $(cat "$tmp/dump")"
    lines=$((lines + 1))
  done < "$preset"
  [[ $lines -gt 0 ]] || fail "$preset: sets nothing"
  # The dump is itself a config that reproduces the same settings.
  "$bin" solve "$ex" --config "$tmp/dump" --dump-config > "$tmp/dump2" || fail "$preset: re-read failed"
  cmp -s "$tmp/dump" "$tmp/dump2" || fail "$preset: the dump does not read back as itself"
  "$bin" solve "$ex" --config "$preset" --time-limit 2 > "$tmp/out" || fail "$preset: run failed"
  "$bin" evaluate "$ex" "$tmp/out" > /dev/null || fail "$preset: infeasible answer"
done
printf 'seed=7\ntime-limit=0.5\n' > "$tmp/c.toml"
"$bin" solve "$ex" --config "$tmp/c.toml" --seed 9 --dump-config > "$tmp/dump" || fail "dump"
grep -qx 'seed=9' "$tmp/dump" || fail "the command line did not win over the file"
grep -qx 'time-limit=0.5' "$tmp/dump" || fail "the file's time limit was not read"
"$bin" solve "$ex" --config "$tmp/c.toml" > "$tmp/out" || fail "run with c.toml"
grep -q "time limit 0.5 s, seed 7" "$tmp/out" || fail "the run did not use the file's values"
# Nested keys: a [section] in the file, --section-key on the command line.
printf '[tree]\nblocks=7\nsize=11\n\n[prices]\nscales=[0.5, 2]\n' > "$tmp/n.toml"
"$bin" solve "$ex" --config "$tmp/n.toml" --tree-size 12 --dump-config > "$tmp/dump" || fail "nested dump"
sed -n '/^\[tree\]/,/^$/p' "$tmp/dump" | grep -qx 'blocks=7' || fail "[tree] blocks=7 not read: $(cat "$tmp/dump")"
sed -n '/^\[tree\]/,/^$/p' "$tmp/dump" | grep -qx 'size=12' || fail "--tree-size did not win"
grep -qxF 'scales=[0.5, 2.0]' "$tmp/dump" || fail "[prices] scales not read"
# Nested options reach the solver: without exact mode the example is proven optimal by the
# bound or its proof search (and stops at once); without either it is not proven optimal.
"$bin" solve "$ex" -t 1 > "$tmp/out" && grep -q "status optimal: proven optimal by complete" "$tmp/out" ||
  fail "exact mode"
printf '[exact]\nmax-nodes=0\n' > "$tmp/e.toml"
"$bin" solve "$ex" -t 1 --config "$tmp/e.toml" > "$tmp/out" || fail "run without exact mode"
grep -qE "status optimal: proven optimal by (the certified|a finished proof search)" "$tmp/out" ||
  fail "exact.max-nodes=0 did not reach the solver: $(grep final "$tmp/out")"
printf '[exact]\nmax-nodes=0\n[bound]\nshare=0\n' > "$tmp/e.toml"
"$bin" solve "$ex" -t 1 --config "$tmp/e.toml" > "$tmp/out" || fail "run without exact mode and bound"
! grep -q "status optimal" "$tmp/out" || fail "bound.share=0 did not reach the solver"
check_error() {  # config text, expected message
  printf '%b' "$1" > "$tmp/bad.toml"
  "$bin" solve "$ex" --config "$tmp/bad.toml" > "$tmp/out" 2> "$tmp/err"; rc=$?
  [[ $rc -eq 2 ]] || fail "config '$1': exit $rc, expected 2"
  grep -qF -- "$2" "$tmp/err" || fail "config '$1': message $(cat "$tmp/err"), expected '$2'"
  [[ ! -s $tmp/out ]] || fail "config '$1' printed on stdout: $(cat "$tmp/out")"
}
check_error 'no-such-key=1\n' 'bad.toml:1: unknown key "no-such-key"'
check_error '# a comment\nseed="seven"\n' 'bad.toml:2: seed: expected a number'
check_error 'threads=-1\n' 'threads: -1 is outside the range'
check_error 'deterministic=yes\n' 'deterministic: expected true or false'
check_error 'algorithm=portfolio\n' 'algorithm: expected a quoted string'
check_error 'algorithm="fastest"\n' 'algorithm: "fastest" is not one of baseline, portfolio'
check_error 'seed=1\nseed=2\n' 'seed: given twice'
check_error 'time-limit=nan\n' 'time-limit: expected a finite number of seconds'
check_error 'seed\n' 'expected key = value'
check_error '[tree]\nno-such=1\n' 'unknown key "tree.no-such"'
check_error '[prices]\nscales=0.5\n' 'prices.scales: expected a list'
check_error '[lns]\nmin-size=9\n' 'expected min <= first <= max'
"$bin" solve "$ex" --config "$tmp/none.toml" 2> "$tmp/err"; rc=$?
[[ $rc -eq 2 ]] && grep -q "none.toml: cannot open" "$tmp/err" || fail "missing config: exit $rc, $(cat "$tmp/err")"
echo "presets: ok"
