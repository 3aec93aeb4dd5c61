#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer and runs each for a bounded number of
# inputs: the JSON reader (seeded with the example and the bad-input corpus) and the file
# bytes reader with its gzip decoder (seeded with gzipped copies of the same files), and
# the XLA request reader.
set -euo pipefail
clangxx=$1 src=$2 work=$3 runs=$4
mkdir -p "$work/corpus"
cp "$src"/examples/example.json "$src"/test/data/bad/*.json "$work/corpus/"
"$clangxx" -std=gnu++20 -O1 -g -fsanitize=fuzzer,address,undefined -I"$src/include" \
  "$src/test/fuzz/fuzz_reader.cpp" "$src/src/io/problem_reader.cpp" \
  "$src/src/io/read_bytes.cpp" "$src/src/io/input_kind.cpp" "$src/src/model/problem.cpp" "$src/src/util/stop.cpp" \
  -lsimdjson -ldeflate -lz -o "$work/fuzz_reader"
"$work/fuzz_reader" -runs="$runs" -max_len=4096 -seed=1 "$work/corpus" 2>&1 | tail -n 3
mkdir -p "$work/gzip_corpus"
for f in "$work"/corpus/*; do gzip -c "$f" > "$work/gzip_corpus/$(basename "$f").gz"; done
"$clangxx" -std=gnu++20 -O1 -g -fsanitize=fuzzer,address,undefined -I"$src/include" \
  "$src/test/fuzz/fuzz_file_bytes.cpp" "$src/src/io/read_bytes.cpp" "$src/src/io/input_kind.cpp" "$src/src/util/stop.cpp" \
  -ldeflate -lz -o "$work/fuzz_file_bytes"
"$work/fuzz_file_bytes" -runs="$runs" -max_len=4096 -seed=1 "$work/gzip_corpus" 2>&1 | tail -n 3
# The XLA request reader, seeded with a request in text format and in binary (protoc
# --encode), built with its generated messages and the system's libprotobuf.
mkdir -p "$work/request_corpus" "$work/generated"
protoc --cpp_out="$work/generated" -I "$src/proto" "$src/proto/auto_sharding_request.proto"
cp "$src"/test/data/requests/*.textproto "$work/request_corpus/"
for f in "$src"/test/data/requests/*.textproto; do
  protoc --encode=iopddl.xla.AutoShardingSolverRequest -I "$src/proto" \
    "$src/proto/auto_sharding_request.proto" < "$f" > "$work/request_corpus/$(basename "$f").pb"
done
"$clangxx" -std=gnu++20 -O1 -g -fsanitize=fuzzer,address,undefined -DIOPDDL_VERSION='"fuzz"' \
  -I"$src/include" -I"$src/src" -I"$src/src/request" -I"$work/generated" \
  "$src/test/fuzz/fuzz_request.cpp" "$src/src/request/read_request.cpp" \
  "$src/src/request/convert_request.cpp" "$src/src/request/request_liveness.cpp" "$src/src/request/answer.cpp" "$src/src/util/incumbent.cpp" \
  "$work/generated/auto_sharding_request.pb.cc" "$src/src/api/model_builder.cpp" \
  "$src/src/model/problem.cpp" "$src/src/eval/evaluate.cpp" "$src/src/io/problem_reader.cpp" \
  "$src/src/io/read_bytes.cpp" "$src/src/io/input_kind.cpp" "$src/src/util/stop.cpp" "$src/src/util/status_name.cpp" \
  -lprotobuf -lsimdjson -ldeflate -lz -lpthread -o "$work/fuzz_request"
"$work/fuzz_request" -runs="$runs" -max_len=4096 -seed=1 "$work/request_corpus" 2>&1 | tail -n 3
