#!/usr/bin/env bash
# Builds the reader fuzz target with clang's libFuzzer and runs it for a bounded number of
# inputs, seeded with the example and the bad-input corpus.
set -euo pipefail
clangxx=$1 src=$2 work=$3 runs=$4
mkdir -p "$work/corpus"
cp "$src"/examples/example.json "$src"/test/data/bad/*.json "$work/corpus/"
"$clangxx" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I"$src/include" \
  "$src/test/fuzz/fuzz_reader.cpp" "$src/src/io/problem_reader.cpp" \
  "$src/src/io/read_bytes.cpp" "$src/src/model/problem.cpp" "$src/src/util/stop.cpp" \
  -lsimdjson -ldeflate -lz -o "$work/fuzz_reader"
"$work/fuzz_reader" -runs="$runs" -max_len=4096 -seed=1 "$work/corpus" 2>&1 | tail -n 3
