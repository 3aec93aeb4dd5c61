#!/usr/bin/env python3
"""Where two answers to one instance differ: the connected components (over the edges) of
the nodes whose strategies differ, the largest first, each with the cost it makes the second
answer dearer by (its nodes' costs and every edge touching it), its size and its highest
degree. Two answers from different basins differ in one large component on N (seed 6's
20-s answer against seed 1's: 2,845 nodes around a hub of degree 925).

    bench/basin_diff.py PROBLEM.json FIRST.json SECOND.json [--top N]

The answers are `solve -o` results (their "assignment") or bare JSON lists."""
import argparse
import collections
import json
import sys


def assignment(path):
    with open(path) as f:
        d = json.load(f)
    if isinstance(d, dict) and isinstance(d.get("assignment"), list):
        return d["assignment"]
    if isinstance(d, list):
        return d
    sys.exit(f"error: {path}: neither a result with an \"assignment\" nor a list of strategies")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problem")
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--top", type=int, default=8)
    args = ap.parse_args()
    with open(args.problem) as f:
        p = json.load(f)["problem"]
    costs = p["nodes"]["costs"]
    ends, tables = p["edges"]["nodes"], p["edges"]["costs"]
    a, b = assignment(args.first), assignment(args.second)
    if len(a) != len(costs) or len(b) != len(costs):
        sys.exit(f"error: the answers have {len(a)} and {len(b)} strategies; "
                 f"{args.problem} has {len(costs)} nodes")
    adj = collections.defaultdict(list)
    for k, (u, v) in enumerate(ends):
        adj[u].append((v, k))
        adj[v].append((u, k))
    differ = {i for i in range(len(costs)) if a[i] != b[i]}
    seen, comps = set(), []
    for s in differ:
        if s in seen:
            continue
        stack, comp = [s], []
        seen.add(s)
        while stack:
            x = stack.pop()
            comp.append(x)
            for y, _ in adj[x]:
                if y in differ and y not in seen:
                    seen.add(y)
                    stack.append(y)
        comps.append(comp)

    def delta(comp):
        d = sum(costs[i][b[i]] - costs[i][a[i]] for i in comp)
        for k in {k for i in comp for _, k in adj[i]}:
            u, v = ends[k]
            n = len(costs[v])
            d += tables[k][b[u] * n + b[v]] - tables[k][a[u] * n + a[v]]
        return d

    comps.sort(key=len, reverse=True)
    print(f"{len(differ)} of {len(costs)} nodes differ, in {len(comps)} components")
    print("nodes,second_minus_first,max_degree")
    for comp in comps[: args.top]:
        print(f"{len(comp)},{delta(comp)},{max(len(adj[i]) for i in comp)}")


if __name__ == "__main__":
    main()
