#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer and runs each for a bounded number of
# inputs: the JSON reader (seeded with the example and the bad-input corpus) and the file
# bytes reader with its gzip decoder (seeded with gzipped copies of the same files).
set -euo pipefail
clangxx=$1 src=$2 work=$3 runs=$4
mkdir -p "$work/corpus"
cp "$src"/examples/example.json "$src"/test/data/bad/*.json "$work/corpus/"
"$clangxx" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I"$src/include" \
  "$src/test/fuzz/fuzz_reader.cpp" "$src/src/io/problem_reader.cpp" \
  "$src/src/io/read_bytes.cpp" "$src/src/model/problem.cpp" "$src/src/util/stop.cpp" \
  -lsimdjson -ldeflate -lz -o "$work/fuzz_reader"
"$work/fuzz_reader" -runs="$runs" -max_len=4096 -seed=1 "$work/corpus" 2>&1 | tail -n 3
mkdir -p "$work/gzip_corpus"
for f in "$work"/corpus/*; do gzip -c "$f" > "$work/gzip_corpus/$(basename "$f").gz"; done
"$clangxx" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I"$src/include" \
  "$src/test/fuzz/fuzz_file_bytes.cpp" "$src/src/io/read_bytes.cpp" "$src/src/util/stop.cpp" \
  -ldeflate -lz -o "$work/fuzz_file_bytes"
"$work/fuzz_file_bytes" -runs="$runs" -max_len=4096 -seed=1 "$work/gzip_corpus" 2>&1 | tail -n 3
