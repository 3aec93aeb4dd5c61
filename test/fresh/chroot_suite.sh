#!/usr/bin/env bash
# The README's two commands on a fresh Debian 12 system, as issue 29 asks: a minimal
# debootstrap chroot (no package of the host), a clean clone of COMMIT, a scrubbed
# environment; the set-up command once, then the test command RUNS times in a row.
#   test/fresh/chroot_suite.sh DIR [COMMIT] [RUNS]     (as root; needs debootstrap)
# Logs: DIR/work/setup.log and DIR/work/suite-N.log; exits non-zero if any run fails.
set -euo pipefail
dir=$1 commit=${2:-HEAD} runs=${3:-5}
src=$(cd "$(dirname "$0")/../.." && pwd)
[[ -x $dir/bin/bash ]] || debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian
cp /etc/hosts /etc/resolv.conf "$dir/etc/"
for m in proc sys dev; do  # recursively: slurmd needs /sys/fs/cgroup, MPI /dev/shm
  mountpoint -q "$dir/$m" || { mount --rbind "/$m" "$dir/$m" && mount --make-rslave "$dir/$m"; }
done
trap 'for m in dev sys proc; do umount -R -l "$dir/$m" 2> /dev/null || true; done' EXIT
rm -rf "$dir/work" && mkdir -p "$dir/work"
git clone -q "$src" "$dir/work/main" && git -C "$dir/work/main" checkout -q "$commit"
[[ -d $src/../shared ]] && cp -r "$src/../shared" "$dir/work/shared"
in_chroot() {  # a scrubbed environment, as CI's: root, no variables of this session
  chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    /bin/bash -c "cd /work/main && $1"
}
# The README's set-up command (install, build, solve the example), then its test command.
in_chroot 'apt-get update && xargs apt-get install -y < debian-packages.txt && cmake -S . -B build && cmake --build build -j && ./build/iopddl examples/example.json 5' \
  > "$dir/work/setup.log" 2>&1
status=0
for i in $(seq 1 "$runs"); do
  if in_chroot 'cmake -S . -B build && cmake --build build -j2 && ctest --test-dir build --output-on-failure -j2' \
    > "$dir/work/suite-$i.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
  echo "run $i: $r: $(grep -E 'tests passed|tests failed' "$dir/work/suite-$i.log" | tail -1)"
done
exit $status
