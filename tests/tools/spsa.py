#!/usr/bin/env python3
"""SPSA tuning of Chuhan's search parameters, driving `chuhan match`.

Needs a build with the `tune` feature, whose search parameters are runtime
values set through hidden `Tune_<name>` spin options:

    cargo build --release --features tune --target-dir target/tune
    python3 tests/tools/spsa.py target/tune/release/chuhan \
        --params RAZOR_BASE,RAZOR_SLOPE,FUTILITY_BASE --iterations 200 \
        --pairs 8 --tc 1+0.01 --state spsa.json

With `--nodes N` every move searches N nodes instead of playing on the clock
`--tc`: the games no longer depend on timing, so other work on the machine
slows the run without biasing it.

Each iteration draws a random sign per parameter, plays `--pairs` opening
pairs (each opening with both colours, `-repeat`) between the engine with
theta + c_k*delta and the engine with theta - c_k*delta, and moves theta by
a_k * (wins - losses) / (c_k * delta) per parameter (the usual SPSA
gradient estimate, with fishtest's schedules: c_k = c / k^0.101,
a_k = a / (A + k)^0.602, A = iterations / 10, where c is chosen so that
c at the last iteration is the parameter's step and a so that the last
step's learning rate a_k / c_k^2 is `--r-end`). Values are clamped to each
parameter's range and rounded when sent. The state (theta and the
iteration) is written to `--state` after every iteration, so an interrupted
run resumes from it.

The parameter table (names, defaults, ranges) is read from the engine's own
`uci` output; steps default to 1/20 of each range.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys


def engine_params(engine):
    out = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    params = {}
    for line in out.splitlines():
        m = re.match(r"option name Tune_(\w+) type spin default (-?\d+) min (-?\d+) max (-?\d+)", line)
        if m:
            name, d, lo, hi = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            params[name] = {"default": d, "min": lo, "max": hi, "step": max(1.0, (hi - lo) / 20)}
    if not params:
        sys.exit("error: the engine offers no Tune_ options; build it with --features tune")
    return params


def play(engine, plus, minus, args, seed):
    def side(name, values):
        opts = [f"option.Tune_{k}={int(round(v))}" for k, v in values.items()]
        return ["-engine", f"cmd={engine}", f"name={name}", "option.usebook=false", *opts]

    cmd = [
        engine, "match", *side("plus", plus), *side("minus", minus),
        "-each", f"nodes={args.nodes}" if args.nodes else f"tc={args.tc}", "option.Threads=1",
        f"option.Hash={args.hash}", "-games", str(2 * args.pairs), "-repeat",
        "-concurrency", str(args.concurrency), "-ratinginterval", "0",
        "-openings", f"file={args.openings}", "order=random", "-seed", str(seed),
    ]
    if args.openings == "builtin":
        cmd = cmd[: cmd.index("-openings")] + ["-seed", str(seed)]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    m = re.search(r"^plus vs minus: W-D-L (\d+)-(\d+)-(\d+)", out, re.M)
    if not m:
        sys.exit("error: no result from chuhan match:\n" + out[-2000:])
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="a chuhan binary built with --features tune")
    ap.add_argument("--params", required=True, help="comma-separated parameter names (without Tune_)")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=8, help="opening pairs per iteration (2 games each)")
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--nodes", type=int, default=0, help="a fixed node count per move instead of --tc")
    ap.add_argument("--hash", type=int, default=16, help="hash table MB per engine")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default="builtin", help="EPD suite (default: the built-in suite)")
    ap.add_argument("--r-end", type=float, default=0.002, help="learning rate a_k / c_k^2 at the last iteration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", default="spsa.json")
    args = ap.parse_args()

    table = engine_params(args.engine)
    names = [n.strip() for n in args.params.split(",") if n.strip()]
    unknown = [n for n in names if n not in table]
    if unknown:
        sys.exit(f"error: unknown parameter(s) {unknown}; the engine has {sorted(table)}")

    state = {"iteration": 0, "theta": {n: float(table[n]["default"]) for n in names}}
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
    rng = random.Random(args.seed * 1_000_003 + state["iteration"])
    big_a = args.iterations / 10
    alpha, gamma = 0.602, 0.101
    n_iter = args.iterations
    while state["iteration"] < n_iter:
        k = state["iteration"] + 1
        theta = state["theta"]
        plus, minus, deltas, cks = {}, {}, {}, {}
        for n in names:
            p = table[n]
            c = p["step"] * n_iter**gamma
            a_end = args.r_end * p["step"] ** 2
            a = a_end * (big_a + n_iter) ** alpha
            ck = c / k**gamma
            d = rng.choice((-1, 1))
            deltas[n], cks[n] = d, (ck, a / (big_a + k) ** alpha)
            plus[n] = min(p["max"], max(p["min"], theta[n] + ck * d))
            minus[n] = min(p["max"], max(p["min"], theta[n] - ck * d))
        w, dr, l = play(args.engine, plus, minus, args, args.seed + k)
        for n in names:
            ck, ak = cks[n]
            p = table[n]
            theta[n] = min(p["max"], max(p["min"], theta[n] + ak * (w - l) / (ck * deltas[n])))
        state["iteration"] = k
        with open(args.state, "w") as f:
            json.dump(state, f, indent=1)
        shown = " ".join(f"{n}={theta[n]:.1f}" for n in names)
        print(f"iteration {k}/{n_iter}: +{w} ={dr} -{l}  {shown}", flush=True)
    print("final: " + " ".join(f"Tune_{n}={int(round(v))}" for n, v in state["theta"].items()))


if __name__ == "__main__":
    main()
