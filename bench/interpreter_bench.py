"""Interpreter benchmark: torchlet vs torch 1.13 running the same TorchScript graph.

    /usr/bin/python3 bench/interpreter_bench.py [--build build] [--n 10000000] [--reps 5]

Scripts an integer-arithmetic loop with torch, dumps its graph as text, then runs that
exact text through torch's interpreter (torch._C.parse_ir + a function made from the
graph, so no optimisation pass rewrites it) and through torchlet's (build/bench/
interpreter_bench), best of REPS each, in the same run. Prints both times and the ratio
(target: torchlet <= 0.3 x torch). Results must agree or the run fails.
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile
import time

import torch


def int_arith(n: int) -> int:
    s = 0
    for i in range(n):
        s = (s + i * 3) % 1000003
        if s > 500000:
            s = s - 7
    return s


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()

    graph_text = str(torch.jit.script(int_arith).graph)
    graph = torch._C.parse_ir(graph_text)
    fn = torch._C._create_function_from_graph("int_arith", graph)
    best = float("inf")
    torch_result = None
    torch.set_num_threads(1)
    for _ in range(args.reps):
        t0 = time.perf_counter()
        torch_result = fn(args.n)
        best = min(best, (time.perf_counter() - t0) * 1000)

    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "int_arith.graph.txt"
        path.write_text(graph_text)
        binary = pathlib.Path(args.build) / "bench" / "interpreter_bench"
        out = subprocess.run([str(binary), str(path), str(args.n), str(args.reps)], capture_output=True,
                             text=True, check=True).stdout
    fields = dict(kv.split("=") for kv in out.split())
    if int(fields["result"]) != torch_result:
        print(f"results differ: torchlet {fields['result']}, torch {torch_result}", file=sys.stderr)
        return 1
    ms = float(fields["ms"])
    print(f"int loop x{args.n}: torch {best:.1f} ms, torchlet {ms:.1f} ms, ratio {ms / best:.3f} (target <= 0.3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
