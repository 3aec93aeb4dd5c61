#!/usr/bin/env bash
# A build with -DIOPDDL_WITH_MPI=OFF builds, links no MPI library, and passes every test it
# has (the non-MPI ones). The Python package has nothing to do with MPI: it is left out.
set -euo pipefail
src=$1 dir=$2
cmake -S "$src" -B "$dir" -DIOPDDL_WITH_MPI=OFF -DIOPDDL_BUILD_BENCH=OFF -DIOPDDL_BUILD_PYTHON=OFF > "$dir.configure.log"
cmake --build "$dir" -j2 > "$dir.build.log"
if ldd "$dir/iopddl" | grep -qi mpi; then echo "the binary links MPI"; exit 1; fi
ctest --test-dir "$dir" -j2 -E "fuzz" --output-on-failure | tail -n 3
