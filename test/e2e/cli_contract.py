#!/usr/bin/env python3
"""The command line's contract, checked on the binary.

    cli_contract.py BIN SOURCE_DIR [--cases N] [--seed S]

First each defect found by probing the tool (issue 13) is replayed as a named check; then
N random runs (random valid and invalid option values, random signals at random times,
seeded) are checked against the contract that README states:

  - the exit status is a documented one, and it agrees with the output: 0 and 6 end with a
    feasible assignment (checked by `iopddl evaluate`), 4 with [], 2 and 3 print no final
    line, 128+N (a signal) ends with an assignment or [];
  - every other line of stdout starts with '#', and nothing follows the final line;
  - a timed run ends before its time limit; peak memory stays within a bound.

Only the standard library is used (Debian's python3).
"""
import argparse
import gzip
import json
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

DOCUMENTED = {0, 1, 2, 3, 4, 5, 6}
SIGNALS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
MAX_THREADS = 64  # --threads above this are capped (README)
CBC_MB = 512  # exact.mip-megabytes: what CBC's child may take beyond the solver (README)


COUNTS = {}


def baseline_kb(binary):
    """The peak of `iopddl --version`, measured as every run is: a child's peak includes
    this process's size at the fork, so it is measured again each time."""
    return run([binary, "--version"]).peak_kb


def problem_units(binary, problem):
    """nodes + strategies + edges + time segments of `problem` (`iopddl info`), 0 if it
    cannot be read."""
    if problem not in COUNTS:
        p = subprocess.run([binary, "info", problem], capture_output=True, text=True)
        units = 0
        for key in ("nodes", "strategies", "edges", "time segments"):
            m = re.search(r"^%s\s+(\d+)" % key, p.stdout, re.M)
            units += int(m.group(1)) if m else 0
        COUNTS[problem] = units
    return COUNTS[problem]


def memory_bound_kb(binary, problem, threads, cbc=False):
    """README's bound on peak memory: the process's own baseline (the peak of `iopddl
    --version`, shared libraries and all) + 8 MB + 3 x the decompressed input + (300 + 200 x worker
    threads) bytes per node, strategy, edge and time segment (threads capped at 64; 0 means
    one per core), + exact.mip-megabytes where CBC runs (`cbc`)."""
    size = 0
    try:
        with gzip.open(problem) as f:  # in steps: this process's own peak is inherited
            while chunk := f.read(1 << 20):
                size += len(chunk)
    except OSError:  # not gzipped
        size = os.path.getsize(problem)
    t = min(threads or os.cpu_count() or 1, MAX_THREADS)
    units = problem_units(binary, problem)
    cbc_kb = CBC_MB * 1024 if cbc else 0
    return baseline_kb(binary) + 8192 + cbc_kb + (3 * size + units * (300 + 200 * t)) // 1024


class Run:
    def __init__(self, rc, out, err, seconds, peak_kb):
        self.rc, self.out, self.err, self.seconds, self.peak_kb = rc, out, err, seconds, peak_kb

    def lines(self):
        return [l for l in self.out.split("\n") if l != ""]

    def final(self):
        """The final line, or None if stdout has only progress lines."""
        rest = [l for l in self.lines() if not l.startswith("#")]
        return rest[-1] if rest else None

    def __str__(self):
        return "exit %s after %.2f s, %d KB\nstdout: %s\nstderr: %s" % (
            self.rc, self.seconds, self.peak_kb, self.out[-600:], self.err[-600:])


def run(cmd, signal_after=None, sig=signal.SIGTERM, timeout=120, stdin=None, wait_for=None):
    """Runs cmd; optionally sends `sig` after `signal_after` s (or once stdout contains
    `wait_for`). Returns a Run with the child's own peak memory (wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=stdin or subprocess.DEVNULL)
        sent = False
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid != 0:
                break
            now = time.monotonic() - start
            if not sent and signal_after is not None and now >= signal_after:
                ready = True
                if wait_for is not None:
                    out.seek(0)
                    ready = wait_for.encode() in out.read()
                if ready:
                    p.send_signal(sig)
                    sent = True
            if now > timeout:
                p.kill()
                os.wait4(p.pid, 0)
                raise AssertionError("%s: no exit after %d s" % (cmd, timeout))
            time.sleep(0.005)
        p.returncode = os.waitstatus_to_exitcode(status)
        rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
        out.seek(0)
        err.seek(0)
        return Run(rc, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                   time.monotonic() - start, usage.ru_maxrss)


class Checker:
    def __init__(self, binary, tmp):
        self.bin, self.tmp, self.failures, self.checks = binary, tmp, [], 0

    def expect(self, cond, what, r=None):
        self.checks += 1
        if not cond:
            self.failures.append(what + ("\n" + str(r) if r else ""))
            print("FAIL: " + what + ("\n" + str(r) if r else ""), flush=True)

    def feasible(self, problem, r):
        """Whether the final line of r is a feasible assignment of `problem`."""
        path = os.path.join(self.tmp, "answer.txt")
        with open(path, "w") as f:
            f.write(r.out)
        e = subprocess.run([self.bin, "evaluate", problem, path], capture_output=True)
        return e.returncode == 0

    def contract(self, problem, r, limit=None, what="", threads=0, contest=False):
        """The contract every run keeps, whatever it was asked. In contest mode (`iopddl
        FILE TIMEOUT`) a malformed input (exit 3) still ends stdout with []."""
        self.expect(r.rc in DOCUMENTED or r.rc in SIGNALS.values(), what + ": undocumented exit", r)
        lines = r.lines()
        final = r.final()
        if final is not None:
            self.expect(lines[-1] == final, what + ": output after the final line", r)
            self.expect(all(l.startswith("#") for l in lines[:-1]),
                        what + ": a non-progress line before the final line", r)
        if r.rc in (0, 6):  # ([] is the answer of a problem of 0 nodes, which evaluate says)
            self.expect(final is not None and self.feasible(problem, r),
                        what + ": exit %d without a feasible final line" % r.rc, r)
        elif r.rc == 4:
            self.expect(final == "[]", what + ": exit 4 without []", r)
        elif r.rc == 3 and contest:
            self.expect(final == "[]", what + ": contest mode, exit 3 without []", r)
        elif r.rc in (2, 3):
            self.expect(final is None, what + ": an error printed a final line", r)
        elif r.rc in SIGNALS.values():
            self.expect(final is not None and final.startswith("["),
                        what + ": stopped by a signal without a final line", r)
            if final not in (None, "[]"):
                self.expect(self.feasible(problem, r), what + ": infeasible answer", r)
        if limit is not None and r.rc not in (2, 3):
            self.expect(r.seconds < limit, what + ": ran %.2f s, limit %g s" % (r.seconds, limit), r)
        if os.path.isfile(problem):
            # CBC's child may take exact.mip-megabytes more where it runs: the log says so
            # (a quiet run's log is empty: it may have).
            cbc = "CBC started" in r.err or "# [" not in r.err
            bound = memory_bound_kb(self.bin, problem, threads, cbc)
            self.expect(r.peak_kb < bound, what + ": peak memory %d KB, bound %d KB" %
                        (r.peak_kb, bound), r)


def write_wide_instance(path, k):
    """One node with k strategies (and a small edge elsewhere): presolve's pair scan."""
    rng = random.Random(1)
    nodes = {"intervals": [[0, 10], [5, 20], [15, 30]],
             "costs": [[rng.randint(0, 1000) for _ in range(k)], [1, 2], [3, 4]],
             "usages": [[rng.randint(0, 100) for _ in range(k)], [10, 20], [5, 5]]}
    edges = {"nodes": [[1, 2]], "costs": [[1, 2, 3, 4]]}
    with open(path, "w") as f:
        json.dump({"problem": {"name": "wide", "nodes": nodes, "edges": edges,
                               "usage_limit": 120}}, f)


def defects(c, ex, inst, running, tmp):
    """Issue 13's reproducers, each with the behaviour README documents. `running`: an
    instance no proof ends within a minute (a generated core of 300 groups: CBC's gap there
    is about 2 % after 60 s), for the runs that must still be running when stopped."""
    b = c.bin
    # --checkpoint and --resume exist in builds with MPI only.
    help_text = subprocess.run([b, "solve", "--help"], capture_output=True, text=True).stdout
    mpi = re.search(r"--checkpoint\s", help_text) is not None
    # 2. A huge time limit means no limit, not an expired one; NaN and inf are refused.
    r = run([b, running, "1e10"], signal_after=1.0)
    c.expect(r.rc == 143, "a 1e10 s limit: the run goes on until stopped", r)
    c.contract(running, r, what="1e10")
    for bad in ["NaN", "inf", "1e400", "0", "-1", "0x10", "abc"]:
        r = run([b, ex, bad])
        c.expect(r.rc == 2 and "TIMEOUT" in r.err and len(r.err) < 300,
                 "TIMEOUT %s: exit 2 with a short message naming TIMEOUT" % bad, r)
    r = run([b, "solve", ex, "-t", "1e300"])
    c.expect(r.rc == 0 and "status optimal" in r.out, "solve -t 1e300 runs to the end", r)
    r = run([b, "solve", ex, "--seed", "18446744073709551616"])
    c.expect(r.rc == 2 and "seed" in r.err, "a seed outside 64 bits is refused", r)
    # 3, 4. Files that cannot be written: refused before the run, or reported after it with
    # the answer printed all the same (exit 6).
    for opt in ["--output", "--checkpoint"] if mpi else ["--output"]:
        r = run([b, "solve", ex, opt, "/nonexistent/dir/f"])
        c.expect(r.rc == 2 and opt in r.err and "/nonexistent/dir/f" in r.err,
                 opt + " into a missing directory: exit 2 naming the option and path", r)
    gone = os.path.join(tmp, "gone")
    lost = [("--output", []), ("--checkpoint", ["--checkpoint-interval", "0.3"])]
    for opt, extra in lost if mpi else lost[:1]:
        os.makedirs(gone, exist_ok=True)
        cmd = [b, "solve", running, "-t", "2", opt, os.path.join(gone, "f")] + extra
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            p = subprocess.Popen(cmd, stdout=out, stderr=err)
            time.sleep(0.8)
            shutil.rmtree(gone)
            p.wait(60)
            out.seek(0)
            err.seek(0)
            r = Run(p.returncode, out.read().decode(), err.read().decode(), 0, 0)
        c.expect(r.rc == 6 and "cannot write" in r.err and os.path.join(gone, "f") in r.err,
                 opt + " lost mid-run: exit 6 naming the file", r)
        c.contract(running, r, what=opt + " lost mid-run")
    r = run([b, "generate", "-n", "10", "-o", "/dev/full"])
    c.expect(r.rc == 6 and "/dev/full" in r.err, "generate -o /dev/full: exit 6", r)
    with open("/dev/full", "w") as full:
        p = subprocess.run([b, "generate", "-n", "10"], stdout=full, stderr=subprocess.PIPE)
    c.expect(p.returncode == 6, "generate > /dev/full: exit 6")
    # 5. Memory bounded by the input.
    r = run([b, "solve", ex, "--threads", "100000", "-t", "1"])
    c.expect(r.rc == 0 and "using 64" in r.err, "--threads 100000 is capped with a message", r)
    c.contract(ex, r, 1, "--threads 100000", threads=100000)
    bomb = os.path.join(tmp, "bomb.json.gz")
    with gzip.open(bomb, "wb", compresslevel=1) as f:
        zeros = bytes(1 << 24)
        for _ in range(64):  # 1 GiB of zeros in about 1 MB
            f.write(zeros)
    r = run([b, bomb, "5"])
    c.expect(r.rc == 3 and "byte 0 is 0x00" in r.err and r.peak_kb < baseline_kb(b) + 50_000 and r.seconds < 1,
             "a gzip bomb is refused at once, in little memory", r)
    spaces = os.path.join(tmp, "spaces.json.gz")
    with gzip.open(spaces, "wb", compresslevel=1) as f:
        f.write(b'{"problem": ')
        for _ in range(32):  # 512 MiB of blanks: text, so decompressed, then refused
            f.write(b" " * (1 << 24))
    r = run([b, spaces, "1"])
    c.expect(r.rc in (3, 4), "an endless document is refused or stopped at the deadline", r)
    c.contract(spaces, r, 1, "spaces", contest=True)
    with open(inst, "rb") as f:
        gz = gzip.compress(f.read())
    trunc = os.path.join(tmp, "truncated.json.gz")
    with open(trunc, "wb") as f:
        f.write(gz[: len(gz) * 9 // 10])
    r = run([b, trunc, "5"])
    c.expect(r.rc == 3 and "corrupt gzip" in r.err and r.peak_kb < baseline_kb(b) + 20_000,
             "a truncated gzip is refused without allocating its claimed size", r)
    # 6. Presolve honours the deadline (a node with 150,000 strategies).
    wide = os.path.join(tmp, "wide.json")
    write_wide_instance(wide, 150_000)
    r = run([b, wide, "1"])
    c.expect(r.rc == 0, "the wide instance gets an answer", r)
    c.contract(wide, r, 1, "wide, 1 s", contest=True)
    # 7. A read that blocks is abandoned at the deadline with [].
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    r = run([b, fifo, "1"])
    c.expect(r.rc == 4 and r.final() == "[]" and "time limit" in r.err,
             "a FIFO with no writer: [] at the deadline", r)
    c.contract(ex, r, 1, "fifo", contest=True)
    # 8, 9. SIGHUP prints the answer like SIGTERM; with --checkpoint the answer stays last.
    r = run([b, "solve", running, "-t", "60"], signal_after=1.0, sig=signal.SIGHUP,
            wait_for="cost")
    c.expect(r.rc == 129, "SIGHUP: exit 129", r)
    c.contract(running, r, what="SIGHUP")
    if mpi:
        checkpoints(c, b, running, tmp)
        plain_checkpoints(c, b, ex, inst, tmp)
    # 10. evaluate judges the last line as the contest did.
    sol = os.path.join(tmp, "sol.txt")
    for text in ["[0, 0, 2, 1, 0] junk\n", "[0, 0, 2, 1, 0]\n# a comment\n"]:
        with open(sol, "w") as f:
            f.write(text)
        r = run([b, "evaluate", ex, sol])
        c.expect(r.rc == 3, "evaluate %r: refused" % text, r)


def files_where_pointed(c, ex, tmp):
    """Issue 29, 2 and 3: files go where the user points, through links, never over the
    input, and a FIFO nobody reads is given up at the deadline."""
    b = c.bin
    d = os.path.join(tmp, "where")
    os.makedirs(d)
    problem = os.path.join(d, "e.json")
    shutil.copy(ex, problem)
    # A link to our own stdout: the document comes out on stdout, the link stays a link.
    out_link = os.path.join(d, "stdout-link")
    os.symlink("/proc/self/fd/1", out_link)
    r = run([b, "convert", problem, out_link, "--to", "textproto"])
    c.expect(r.rc == 0 and "num_nodes: 5" in r.out and os.path.islink(out_link),
             "convert to a link to /proc/self/fd/1: written to stdout, the link kept", r)
    r = run([b, "solve", problem, "-t", "1", "-q", "-o", out_link])
    c.expect(r.rc == 0 and '"cost":445' in r.out and os.path.islink(out_link),
             "solve -o a link to stdout: the result on stdout, the link kept", r)
    # A link to a regular file (existing or not yet): the file is written, the link kept.
    for exists in (False, True):
        target, link = os.path.join(d, "real.json"), os.path.join(d, "link.json")
        if not exists:
            os.symlink("real.json", link)
        r = run([b, "solve", problem, "-t", "1", "-q", "-o", link])
        text = ""
        if os.path.exists(target):
            with open(target) as f:
                text = f.read()
        c.expect(r.rc == 0 and os.path.islink(link) and '"cost":445' in text,
                 "solve -o a link to %s file: written through the link" %
                 ("an existing" if exists else "a new"), r)
    # The input itself, by name or through a link: refused before the run, input intact.
    with open(problem) as f:
        before = f.read()
    same = os.path.join(d, "same")
    os.symlink(problem, same)
    for cmd in ([b, "solve", problem, "-t", "1", "-o", problem],
                [b, "solve", problem, "-t", "1", "--output", same],
                [b, "convert", problem, same, "--to", "json"]):
        r = run(cmd)
        with open(problem) as f:
            after = f.read()
        c.expect(r.rc == 2 and "input file" in r.err and after == before,
                 " ".join(cmd[1:]) + ": refused, the input kept", r)
    # A FIFO nobody reads: exit 6 naming it, within the limit; one that is read gets it.
    fifo = os.path.join(d, "out.fifo")
    os.mkfifo(fifo)
    r = run([b, "solve", problem, "-t", "1", "-q", "-o", fifo], timeout=20)
    c.expect(r.rc == 6 and "FIFO" in r.err and r.final() == "[0, 0, 2, 1, 0]" and r.seconds < 1,
             "solve -o a FIFO nobody reads: exit 6 before the limit, the answer printed", r)
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen([b, "solve", problem, "-t", "5", "-q", "-o", fifo], stdout=out)
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, waiting at most 20 s
        text, start = b"", time.monotonic()
        while time.monotonic() - start < 20:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                chunk = None
            if chunk == b"" and p.poll() is not None:
                break
            text += chunk or b""
            time.sleep(0.01)
        os.close(fd)
        try:
            rc = p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = None
        c.expect(rc == 0 and b'"cost":445' in text, "solve -o a FIFO that is read")


def inputs_told_by_content(c, ex, tmp):
    """Issue 29, 6-8: a byte order mark before a text request, a gzipped binary request,
    and inputs that are no problem at all (refused at byte 0, not read to the deadline)."""
    b = c.bin
    d = os.path.join(tmp, "kinds")
    os.makedirs(d)
    text = subprocess.run([b, "convert", ex, "/dev/fd/1", "--to", "textproto"],
                          capture_output=True, check=True).stdout
    binary = subprocess.run([b, "convert", ex, "/dev/fd/1", "--to", "request"],
                            capture_output=True, check=True).stdout
    with open(ex, "rb") as f:
        contest = f.read()
    cases = {"bom.textproto": b"\xef\xbb\xbf" + text, "bom.json": b"\xef\xbb\xbf" + contest,
             "request.pb.gz": gzip.compress(binary), "request.textproto.gz": gzip.compress(text)}
    for name, data in cases.items():
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        r = run([b, "solve", path, "-t", "1", "-q"])
        c.expect(r.rc == 0 and r.final() == "[0, 0, 2, 1, 0]", name + ": read and solved", r)
    zeros = os.path.join(d, "zeros")
    with open(zeros, "wb") as f:
        f.truncate(1 << 30)  # a sparse GiB of zeros
    for path in [zeros, "/dev/zero", "/dev/urandom"]:
        r = run([b, path, "5"])
        c.expect(r.rc == 3 and path in r.err and r.seconds < 1 and r.final() == "[]",
                 path + ": refused at once (contest mode: [] last)", r)


def request_answers(c, ex, tmp):
    """Issue 29, 4: a request's result never claims success without an answer, and
    coefficients that are not numbers are refused by name."""
    b = c.bin
    d = os.path.join(tmp, "answers")
    os.makedirs(d)
    text = subprocess.run([b, "convert", ex, "/dev/fd/1", "--to", "textproto"],
                          capture_output=True, check=True, text=True).stdout

    def solve(name, body):
        path = os.path.join(d, name + ".textproto")
        with open(path, "w") as f:
            f.write(body)
        out = os.path.join(d, name + ".json")
        r = run([b, "solve", path, "-t", "1", "-q", "-o", out])
        doc = None
        if os.path.exists(out):
            with open(out) as f:
                doc = json.load(f)  # strict JSON: no nan
        return r, doc

    forbidden = re.sub(r"(resharding_costs \{[^}]*\})",
                       lambda m: re.sub(r"costs: \S+", "costs: 1e30", m.group(1)), text)
    for name, body in [("max_cost", text + "max_cost { coeff: 10 }\n"),
                       ("forbidden", forbidden)]:
        r, doc = solve(name, body)
        answer = doc["request"] if doc else {}
        c.expect(r.rc == 4 and r.final() == "[]" and answer.get("status") == "no solution" and
                 answer.get("s_val") == [] and answer.get("is_optimal") is False,
                 name + ": [] and a result that says no solution", r)
    for field, value in [("overbudget_coeff", "nan"), ("overbudget_coeff", "inf"),
                         ("overbudget_coeff", "-2"), ("max_cost", "nan")]:
        r, _ = solve("bad", text + "%s { coeff: %s }\n" % (field, value))
        c.expect(r.rc == 3 and field in r.err, "%s %s: refused by name" % (field, value), r)


def smaller_defects(c, ex, tmp):
    """Issue 29, 11: contest mode ends a malformed input with []; a 0-node request is
    answered like an empty JSON problem; -inf in communication_costs is named so; a range
    is said once."""
    b = c.bin
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"problem": 3}')
    r = run([b, bad, "2"])
    c.expect(r.rc == 3 and r.final() == "[]" and "problem" in r.err,
             "contest mode, malformed input: exit 3 and [] last", r)
    r = run([b, "solve", bad])
    c.expect(r.rc == 3 and r.final() is None, "solve, malformed input: exit 3, no final line", r)
    zero_request, zero_json = os.path.join(tmp, "zero.textproto"), os.path.join(tmp, "zero.json")
    with open(zero_request, "w") as f:
        f.write("num_nodes: 0\n")
    with open(zero_json, "w") as f:
        json.dump({"problem": {"nodes": {"intervals": [], "costs": [], "usages": []},
                               "edges": {"nodes": [], "costs": []}}}, f)
    for path in (zero_request, zero_json):
        r = run([b, "solve", path, "-q"])
        c.expect(r.rc == 0 and r.final() == "[]", path + ": 0 nodes, the empty answer, exit 0", r)
    text = subprocess.run([b, "convert", ex, "/dev/fd/1", "--to", "textproto"],
                          capture_output=True, check=True, text=True).stdout
    costs = " ".join("costs: %s" % ("-inf" if i == 0 else "0") for i in range(2))
    inf = os.path.join(tmp, "inf.textproto")
    with open(inf, "w") as f:  # node 1 has 2 strategies
        f.write(text + "communication_costs { costs: 0 }\ncommunication_costs { %s }\n" % costs +
                "".join("communication_costs { %s }\n" % " ".join(["costs: 0"] * k)
                        for k in (3, 2, 1)))
    r = run([b, "solve", inf])
    c.expect(r.rc == 3 and "communication_costs[1][0]" in r.err, "-inf named as communication_costs", r)
    r = run([b, "solve", ex, "--gap-limit", "2"])
    c.expect(r.rc == 2 and r.err.count("from 0 to 1") == 1, "--gap-limit 2: the range said once", r)


def documents_are_json(c, ex, tmp):
    """Every JSON document the tool writes is JSON (strict UTF-8) whatever the instance's
    name holds: quotes, backslashes, control characters, bytes that are not UTF-8 (written
    as U+FFFD); and the name in it is the one given."""
    b = c.bin
    name = b'odd "quoted" \\ \x01 \t \n \xff.json'
    path = os.path.join(os.fsencode(tmp), name)
    shutil.copy(ex, path)
    shown = os.fsdecode(os.path.join(os.fsencode(tmp), name)).encode(
        "utf-8", "surrogateescape").decode("utf-8", "replace")
    result, mult = os.path.join(tmp, "odd-result.json"), os.path.join(tmp, "odd-mult.json")
    for cmd, doc in (([b, "solve", path, "-t", "1", "-q", "-o", result], result),
                     ([b, "bound", path, "-t", "1", "-q", "--multipliers", mult], mult)):
        r = run(cmd)
        try:
            with open(doc, "rb") as f:
                d = json.loads(f.read().decode("utf-8"))
            ok = r.rc == 0 and d["instance"] == shown
        except (OSError, ValueError, KeyError) as e:
            ok, r = False, "%s: %s" % (doc, e)
        c.expect(ok, "%s: a JSON document naming the instance as given" % cmd[1], r)
    with open(os.path.join(tmp, "odd-answer"), "w") as f:
        f.write("[0, 0, 2, 1, 0]\n")
    r = run([b, "evaluate", "--json", "--bound", "400", path, os.path.join(tmp, "odd-answer")])
    try:
        d = json.loads(r.out)
        ok = r.rc == 0 and d["cost"] == 445 and d["lower_bound"] == 400
    except ValueError:
        ok = False
    c.expect(ok, "evaluate --json --bound: one JSON object with the bound", r)


def large_inputs_in_bounded_memory(c, tmp):
    """Issue 29, 8: README's memory bound holds where the input is compact next to the
    problem (500,000 one-strategy nodes in 12 MB of JSON) and on a large memory-family
    instance under the contest interface."""
    b = c.bin
    ones = os.path.join(tmp, "ones.json")
    # Written by a child: a child's peak memory counts this process's size at the fork.
    subprocess.run([sys.executable, "-c", """if True:
        import json, sys
        n = 500_000
        nodes = {"intervals": [[i, i + 1] for i in range(n)], "costs": [[1]] * n,
                 "usages": [[1]] * n}
        with open(sys.argv[1], "w") as f:
            json.dump({"problem": {"name": "ones", "nodes": nodes,
                                   "edges": {"nodes": [], "costs": []}, "usage_limit": 10}},
                      f, separators=(",", ":"))""", ones], check=True)
    r = run([b, "solve", ones, "-t", "3", "--threads", "1", "-q"])
    c.contract(ones, r, 3, "500,000 one-strategy nodes, 1 thread", threads=1)
    big = os.path.join(tmp, "memory-100000.json")
    subprocess.run([b, "generate", "--family", "memory", "-n", "100000", "--seed", "1", "-o", big],
                   check=True)
    r = run([b, big, "4"])
    c.contract(big, r, 4, "generated memory family, 100,000 nodes")
    os.remove(ones)
    os.remove(big)


def plain_checkpoints(c, b, ex, inst, tmp):
    """Issue 29, 9: checkpoints of a plain run start no MPI (no child process but the
    solver's own CBC fork, which runs the same binary: Open MPI's singleton start forks
    orted), and the final one is written also when the run proves optimality at once; a
    plain run resumes from one."""
    ck = os.path.join(tmp, "plain.ck")
    r = run([b, "solve", ex, "--checkpoint", ck, "-q"])
    c.expect(r.rc == 0 and os.path.exists(ck), "solve E --checkpoint: proven at once, checkpoint written", r)
    if os.path.exists(ck):
        os.remove(ck)
    p = subprocess.Popen([b, "solve", inst, "-t", "1.5", "--checkpoint", ck, "-q"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children = set()
    while p.poll() is None:
        try:
            for task in os.listdir("/proc/%d/task" % p.pid):
                with open("/proc/%d/task/%s/children" % (p.pid, task)) as f:
                    for child in f.read().split():
                        try:  # CBC's child is a fork: the same executable
                            if os.readlink("/proc/%s/exe" % child) == os.path.realpath(b):
                                continue
                        except OSError:
                            continue  # gone already
                        children.add(child)
        except OSError:
            pass
        time.sleep(0.005)
    c.expect(p.returncode == 0 and not children and os.path.exists(ck),
             "solve --checkpoint starts no process (children: %s), writes the checkpoint" % children)
    r = run([b, "solve", inst, "-t", "1", "--resume", ck])
    c.expect(r.rc == 0 and "resumed from" in r.out and "resumed the certified bound" in r.out,
             "a plain run resumes the incumbent and the bound", r)


def checkpoints(c, b, inst, tmp):
    """9: SIGTERM with --checkpoint keeps the answer last; 5: an edited count is refused."""
    ck = os.path.join(tmp, "ck")
    r = run([b, "solve", inst, "-t", "60", "--checkpoint", ck], signal_after=1.0,
            wait_for="cost")
    c.expect(r.rc == 143 and os.path.exists(ck), "SIGTERM with --checkpoint: 143, checkpoint kept", r)
    c.contract(inst, r, what="SIGTERM with --checkpoint")
    # A checkpoint whose count was edited is refused at once.
    with open(ck) as f:
        words = f.read().split()
    words[5] = "4000000000"  # after the header (3 words), the format and the fingerprint: a count
    with open(ck, "w") as f:
        f.write(" ".join(words))
    r = run([b, "solve", inst, "-t", "1", "--resume", ck])
    c.expect(r.rc == 3 and "a count of 4000000000" in r.err and r.peak_kb < baseline_kb(b) + 150_000,
             "an edited checkpoint count is refused in bounded memory", r)


def random_runs(c, instances, n, rng, tmp):
    """Random option values, valid and not, and random signals at random times."""
    b = c.bin
    numbers = ["0", "1", "2", "0.5", "-1", "1e10", "nan", "x", "3.7", "18446744073709551615",
               "18446744073709551616", "0x10", "", "1e-3"]
    options = ["--seed", "--threads", "--work-limit", "--stale-rounds", "--lns-windows",
               "--sync-seconds", "--price-blend", "--algorithm",
               "--pricing", "--gap-limit", "--bound-share", "--simulate-ranks"]
    words = ["baseline", "portfolio", "member", "time", "mixed", "fast"]
    seen = {}
    for i in range(n):
        problem = rng.choice(instances)
        limit = rng.choice([0.3, 0.7, 1.5])
        contest = rng.random() < 0.3
        if contest:
            cmd = [b, problem, str(limit)]
        else:
            cmd = [b, "solve", problem, "-t", str(limit)]
            for _ in range(rng.randint(0, 3)):
                opt = rng.choice(options)
                value = rng.choice(words if opt in ("--algorithm", "--pricing") else numbers)
                if opt == "--threads" and value in ("1e10", "18446744073709551615"):
                    value = "3"
                cmd += [opt, value]
            if rng.random() < 0.2:
                cmd.append("--deterministic")
                cmd += ["--work-limit", str(rng.randint(1, 4))]
        sig = rng.choice(list(SIGNALS)) if rng.random() < 0.4 else None
        when = rng.uniform(0.0, limit)
        r = run(cmd, signal_after=when if sig else None, sig=sig or signal.SIGTERM, timeout=60)
        what = "random run %d: %s%s" % (i, " ".join(cmd[1:]),
                                        " + signal %d at %.2f s" % (sig, when) if sig else "")
        deterministic = "--deterministic" in cmd
        threads = 0
        if "--threads" in cmd:
            try:
                threads = int(cmd[len(cmd) - 1 - cmd[::-1].index("--threads") + 1])
            except ValueError:
                pass
        c.contract(problem, r, None if deterministic else limit, what, threads, contest)
        if r.rc == 2:
            c.expect("error" in r.err or ":" in r.err, what + ": exit 2 says why", r)
        seen[r.rc] = seen.get(r.rc, 0) + 1
    print("random runs by exit status: " +
          ", ".join("%d: %d" % (k, v) for k, v in sorted(seen.items())))


def varint(x):
    x &= (1 << 64) - 1  # negative int64 values take ten bytes, as protobuf writes them
    out = bytearray()
    while True:
        b = x & 0x7F
        x >>= 7
        if x:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, wire, payload):
    """One protobuf field: `payload` is an int (varint), bytes (length-delimited), or for
    wire types 1 and 5 raw bytes of 8 or 4."""
    tag = varint(number << 3 | wire)
    if wire == 0:
        return tag + varint(payload)
    if wire == 2:
        return tag + varint(len(payload)) + payload
    return tag + payload


def doubles(values):
    return field(1, 2, b"".join(struct.pack("<d", v) for v in values))


def ints(values):
    return field(1, 2, b"".join(varint(v) for v in values))


def random_request(rng):
    """A random AutoShardingSolverRequest (binary), valid or not: a small problem in fields
    1-35 as XLA writes it, then one or two mutations (a wrong length, a bad value, a node out
    of range, NaN or infinity, a truncation, a flipped byte, unknown fields 36-39)."""
    n = rng.randint(0, 5)
    k = [rng.randint(1, 3) for _ in range(n)]
    steps = rng.randint(1, 4)
    cost = lambda: rng.choice([0, 1, 7, 100, 2.5, 1e18, rng.uniform(0, 50)])
    msg = [field(1, 0, n), field(2, 0, rng.choice([0, 50, 100, 10**6]))]
    msg += [field(3, 2, b"".join(varint(x) for x in k))]
    lo = [rng.randint(0, steps - 1) for _ in range(n)]
    hi = [rng.randint(l, steps - 1) for l in lo]
    for t in range(steps):
        msg.append(field(7, 2, ints([v for v in range(n) if lo[v] <= t <= hi[v]])))
    for f in (8, 10) + ((9,) if rng.random() < 0.5 else ()):
        for v in range(n):
            msg.append(field(f, 2, doubles([cost() if f != 10 else rng.randint(0, 40)
                                            for _ in range(k[v])])))
    for _ in range(rng.randint(0, n)):
        u, v = rng.randrange(n), rng.randrange(n)
        if u == v:
            continue
        msg.append(field(6, 2, field(1, 0, u) + field(2, 0, v)))
        msg.append(field(12, 2, doubles([cost() for _ in range(k[u] * k[v])])))
    odd = [float("nan"), float("inf"), -1.0]  # coefficients no request may hold
    if rng.random() < 0.3:
        msg.append(field(18, 2, field(1, 1, struct.pack("<d", rng.choice([0.5, 2.0, 10.0] + odd)))))
    if rng.random() < 0.2:
        msg.append(field(25, 2, field(1, 1, struct.pack("<d", rng.choice([1.0, 1e6, 1e30] + odd)))))
    if rng.random() < 0.2 and n:
        msg.append(field(5, 2, b"".join(varint(rng.randrange(k[v])) for v in range(n))))
    if rng.random() < 0.2:
        msg.append(field(30, 2, b"random request"))
    if rng.random() < 0.2:
        msg.append(field(27, 0, 1))
    for _ in range(rng.choice([0, 0, 1, 2])):  # mutations
        kind = rng.randrange(7)
        if kind == 0 and msg:
            del msg[rng.randrange(len(msg))]
        elif kind == 1:
            wire = rng.choice([0, 2])
            msg.append(field(rng.randint(36, 39), wire,
                             rng.choice([1, 7]) if wire == 0 else rng.choice([ints([0, 1]),
                                                                              field(1, 0, 2)])))
        elif kind == 2:
            msg.append(field(rng.randint(1, 35), 0, rng.choice([-1, 2**40, 0])))
        elif kind == 3 and n:
            msg.append(field(8, 2, doubles([rng.choice([float("nan"), -float("inf"), -5.0])])))
        elif kind == 4:
            msg.append(field(6, 2, field(1, 0, rng.choice([-1, n, 2**33])) + field(2, 0, 0)))
        elif kind == 5:
            msg.append(field(rng.randint(1, 39), 5, b"\x00\x00\x80\x7f"))
        else:
            msg.append(field(3, 2, varint(rng.choice([0, 2**31, 5]))))
    data = b"".join(msg)
    if rng.random() < 0.1 and data:
        data = data[: rng.randrange(len(data))]
    if rng.random() < 0.1 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
    return data


def random_requests(c, n, rng, tmp):
    """Issue 29: random requests, valid and not, fields 1-39, through the command line: a
    documented exit that agrees with the output, never a crash or a hang; every answer is
    checked by `iopddl evaluate` against the request itself."""
    b = c.bin
    seen = {}
    for i in range(n):
        path = os.path.join(tmp, "random-%d.pb" % i)
        with open(path, "wb") as f:
            f.write(random_request(rng))
        contest = rng.random() < 0.5
        out = os.path.join(tmp, "random-%d.json" % i)
        cmd = [b, path, "1"] if contest else [b, "solve", path, "-t", "1", "-o", out]
        r = run(cmd, timeout=30)
        what = "random request %d (%s)" % (i, " ".join(cmd[1:]))
        c.contract(path, r, 1, what, contest=contest)
        c.expect(r.rc in (0, 3, 4), what + ": exit %d" % r.rc, r)
        if r.rc == 3:
            c.expect(path in r.err, what + ": the error names the file", r)
        if os.path.exists(out):  # strict JSON, and the request's answer agrees with stdout
            try:
                with open(out) as f:
                    answer = json.load(f, parse_constant=lambda x: 1 / 0)["request"]
                has = r.final() not in (None, "[]") or answer["s_val"] != []
                c.expect((answer["status"] in ("optimal", "feasible")) == (r.rc == 0) and
                         (answer["s_val"] != [] or not has), what + ": the result says " +
                         answer["status"] + " with s_val " + str(answer["s_val"])[:40], r)
            except (ValueError, ZeroDivisionError, KeyError) as e:
                c.expect(False, what + ": --output is not strict JSON with a request: %s" % e, r)
            os.remove(out)
        seen[r.rc] = seen.get(r.rc, 0) + 1
        os.remove(path)
    print("random requests by exit status: " +
          ", ".join("%d: %d" % (k, v) for k, v in sorted(seen.items())))


def random_mpi_runs(c, instances, n, rng):
    """Issue 29: random rank counts (1-3) under mpirun, random signals to mpirun at random
    times. Every rank ends with rank 0's status, so mpirun's status agrees with the final
    line; a signal to mpirun ends the job with Open MPI's own status (1) or 128+N, the
    final line printed all the same."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    seen = {}
    for i in range(n):
        problem, ranks = rng.choice(instances), rng.randint(1, 3)
        limit = rng.choice([1.5, 2.5])
        cmd = ["mpirun", "-np", str(ranks), c.bin]
        cmd += [problem, str(limit)] if rng.random() < 0.5 else \
            ["solve", problem, "-t", str(limit), "--seed", str(rng.randint(1, 9))]
        sig = rng.choice([signal.SIGINT, signal.SIGTERM]) if rng.random() < 0.4 else None
        when = rng.uniform(0.2, limit)
        os.environ.update(env)
        r = run(cmd, signal_after=when if sig else None, sig=sig or signal.SIGTERM, timeout=60)
        what = "mpi run %d: %s%s" % (i, " ".join(cmd[1:3] + cmd[4:]),
                                     " + signal %d at %.2f s" % (sig, when) if sig else "")
        final = r.final()
        if sig is None or r.rc in (0, 4):  # (a signal after the end changes nothing)
            c.expect(r.rc in (0, 4), what + ": exit 0 or 4", r)
            c.expect(r.seconds < limit + 1.5, what + ": ran %.2f s" % r.seconds, r)
        else:
            c.expect(r.rc in (1, 128 + sig), what + ": exit 1 or %d" % (128 + sig), r)
        c.expect(final is not None, what + ": no final line", r)
        if r.rc == 0 or (final not in (None, "[]") and sig):
            c.expect(final is not None and final != "[]" and c.feasible(problem, r),
                     what + ": exit %d without a feasible final line" % r.rc, r)
        if r.rc == 4:
            c.expect(final == "[]", what + ": exit 4 without []", r)
        lines = r.lines()
        if final is not None:
            c.expect(lines[-1] == final and all(l.startswith("#") for l in lines[:-1]),
                     what + ": the final line is not last, or a stray line", r)
        seen[r.rc] = seen.get(r.rc, 0) + 1
    print("mpi runs by exit status: " +
          ", ".join("%d: %d" % (k, v) for k, v in sorted(seen.items())))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("source")
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--requests", type=int, default=40, metavar="N",
                    help="random requests (fields 1-39, valid and not)")
    ap.add_argument("--mpi", type=int, default=0, metavar="N",
                    help="instead: N random runs under mpirun")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="iopddl-cli-")
    try:
        c = Checker(os.path.abspath(args.binary), tmp)
        ex = os.path.join(args.source, "examples", "example.json")
        inst = os.path.join(tmp, "forbidden-600.json")
        subprocess.run([c.bin, "generate", "--family", "forbidden", "-n", "600", "--seed", "3",
                        "-o", inst], check=True)
        mem = os.path.join(tmp, "memory-2000.json")
        subprocess.run([c.bin, "generate", "--family", "memory", "-n", "2000", "--seed", "4",
                        "-o", mem], check=True)
        if args.mpi:
            random_mpi_runs(c, [ex, inst, mem], args.mpi, random.Random(args.seed))
            print("%d passed, %d failed" % (c.checks - len(c.failures), len(c.failures)))
            return 1 if c.failures else 0
        running = os.path.join(tmp, "core-300.json")
        subprocess.run([c.bin, "generate", "--family", "core", "-n", "300", "--seed", "1",
                        "-o", running], check=True)
        defects(c, ex, inst, running, tmp)
        files_where_pointed(c, ex, tmp)
        inputs_told_by_content(c, ex, tmp)
        request_answers(c, ex, tmp)
        smaller_defects(c, ex, tmp)
        documents_are_json(c, ex, tmp)
        large_inputs_in_bounded_memory(c, tmp)
        random_runs(c, [ex, inst, mem], args.cases, random.Random(args.seed), tmp)
        random_requests(c, args.requests, random.Random(args.seed), tmp)
        print("%d passed, %d failed" % (c.checks - len(c.failures), len(c.failures)))
        return 1 if c.failures else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
