#!/usr/bin/env bash
# The library as a user meets it: `cmake --install` into a fresh prefix, the example program
# in examples/library configured against it with find_package(iopddl), built and run. Its
# answers are checked by the reference evaluator, and in deterministic mode it must give
# the command line's answer for the same seed.
set -euo pipefail
build=$1 source=$2
bin=$build/iopddl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
[[ -f $work/prefix/include/iopddl/iopddl.hpp ]] || { echo "iopddl.hpp not installed"; exit 1; }
for internal in distributed solve stop log incumbent rng; do  # (internals stay in the tree)
  [[ ! -e $work/prefix/include/iopddl/$internal.hpp ]] || { echo "$internal.hpp installed"; exit 1; }
done
cmake -S "$source/examples/library" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/example" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
program=$work/example/solve_with_library
# The program finds the library through the build's run path into the prefix, not through
# LD_LIBRARY_PATH or the build tree.
libraries=$(ldd "$program")  # (not piped into grep -q: pipefail and SIGPIPE)
[[ $libraries == *"$work/prefix/lib/libiopddl.so"* ]] || { echo "$libraries"; exit 1; }

"$program" > "$work/built_in.out"
[[ $(tail -n 1 "$work/built_in.out") == "[1, 1, 1]" ]] || { cat "$work/built_in.out"; exit 1; }
grep -q "status optimal, cost 64" "$work/built_in.out" || { cat "$work/built_in.out"; exit 1; }

"$program" "$source/examples/example.json" 1 > "$work/example.out"
grep -qE "^cost +445$" <<< "$("$bin" evaluate "$source/examples/example.json" "$work/example.out")" ||
  { cat "$work/example.out"; exit 1; }

# Deterministic: the library and the command line give the same answer.
instance=$work/generated.json
"$bin" generate --family memory -n 3000 --seed 5 -o "$instance"
"$program" "$instance" 0 3 150 > "$work/library.out"
"$bin" evaluate "$instance" "$work/library.out" > /dev/null
"$bin" solve "$instance" --deterministic --work-limit 150 --seed 3 --threads 2 --quiet \
  > "$work/cli.out"
if [[ "$(tail -n 1 "$work/library.out")" != "$(tail -n 1 "$work/cli.out")" ]]; then
  echo "library and command line differ in deterministic mode"; exit 1
fi
# As XLA would embed it: a program that also has the contest's own iopddl::Problem (another
# layout, the same name) and sets no C++ standard links and runs (the library's names live
# in iopddl::v0 and its target asks for C++20); the library exports its public API only.
cmake -S "$source/test/e2e/xla_embedding" -B "$work/embedding" -DCMAKE_PREFIX_PATH="$work/prefix" \
  > "$work/configure-embedding.log" || { cat "$work/configure-embedding.log"; exit 1; }
cmake --build "$work/embedding" > "$work/build-embedding.log" 2>&1 ||
  { cat "$work/build-embedding.log"; exit 1; }
embedded=$("$work/embedding/xla_embedding") || { echo "embedding: exit $?: $embedded"; exit 1; }
[[ $embedded == "library optimal 55, contest side 55" ]] || { echo "embedding: $embedded"; exit 1; }
"$bin" convert "$source/examples/example.json" "$work/example.pb" 2> /dev/null
answered=$("$work/embedding/xla_embedding" "$work/example.pb")
[[ $answered == "request 445 optimal" ]] || { echo "solve_request: $answered"; exit 1; }
exported=$(nm -D --defined-only "$work/prefix/lib/libiopddl.so" | c++filt)
[[ $exported == *"iopddl::v0::solve("* ]] || { echo "solve not exported"; exit 1; }
for internal in Portfolio DualAscent Reduced:: WindowSearch; do
  [[ $exported != *"$internal"* ]] || { echo "internal $internal exported"; exit 1; }
done

# The Python package, imported from the prefix (when this build has it).
site=$(find "$work/prefix" -path '*dist-packages/iopddl/__init__.py' | head -n 1)
if [[ -n $site ]]; then
  PYTHONPATH=$(dirname "$(dirname "$site")") /usr/bin/python3 -c "
import iopddl, sys
r = iopddl.solve(iopddl.load(sys.argv[1]), time_limit=1)
assert r.cost == 445 and r.status == 'optimal', r
assert iopddl.__file__.startswith(sys.argv[2]), iopddl.__file__
" "$source/examples/example.json" "$work/prefix"
fi
echo "library install: ok"
