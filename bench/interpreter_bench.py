"""Interpreter benchmark: torchlet vs torch 1.13 running the same TorchScript graph.

    /usr/bin/python3 bench/interpreter_bench.py [--build build] [--n N] [--reps 5]
        [--workload int|tensor] [--baseline OTHER_BUILD]

Scripts a loop with torch, dumps its graph as text, then runs that exact text through
torch's interpreter (torch._C.parse_ir + a function made from the graph, so no
optimisation pass rewrites it) and through torchlet's (build/bench/interpreter_bench),
best of REPS each, in the same run. Prints both times and the ratio. Results must agree
or the run fails.
- int: integer arithmetic, the interpreter's register-to-register scalar operators
  (target: torchlet <= 0.3 x torch).
- tensor: small-tensor operators, each a registry call, so the time is dominated by
  operator dispatch and argument passing (the boxing of Note [Boxing]).
--baseline runs a second torchlet build's binary on the same graph in the same run and
prints this build's time over it: a before/after measure of a change.
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


def tensor_ops(n: int) -> float:
    x = torch.ones(4)
    for i in range(n):
        y = torch.relu(x * 0.5 - 0.25)
        x = torch.clamp(torch.cat([y, x]).view(2, 4).sum(0) + 1.0, 0.0, 8.0)
        x = torch.sigmoid(x).mul(4.0).add(i % 3)
    return float(x.sum())


WORKLOADS = {"int": (int_arith, 10_000_000), "tensor": (tensor_ops, 100_000)}


def run_torchlet(build: str, graph_path: pathlib.Path, n: int, reps: int) -> dict:
    binary = pathlib.Path(build) / "bench" / "interpreter_bench"
    out = subprocess.run([str(binary), str(graph_path), str(n), str(reps)], capture_output=True, text=True,
                         check=True).stdout
    return dict(kv.split("=") for kv in out.split())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--workload", choices=sorted(WORKLOADS), default="int")
    ap.add_argument("--baseline", help="another torchlet build to time on the same graph")
    args = ap.parse_args()
    workload, default_n = WORKLOADS[args.workload]
    n = args.n or default_n

    graph_text = str(torch.jit.script(workload).graph)
    graph = torch._C.parse_ir(graph_text)
    fn = torch._C._create_function_from_graph(workload.__name__, graph)
    best = float("inf")
    torch_result = None
    torch.set_num_threads(1)
    for _ in range(args.reps):
        t0 = time.perf_counter()
        torch_result = fn(n)
        best = min(best, (time.perf_counter() - t0) * 1000)

    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "graph.txt"
        path.write_text(graph_text)
        fields = run_torchlet(args.build, path, n, args.reps)
        baseline = run_torchlet(args.baseline, path, n, args.reps) if args.baseline else None
    for f in [fields] + ([baseline] if baseline else []):
        same = int(f["result"]) == torch_result if isinstance(torch_result, int) else \
            abs(float(f["result"]) - torch_result) <= 1e-5 * max(1.0, abs(torch_result))
        if not same:
            print(f"results differ: torchlet {f['result']}, torch {torch_result}", file=sys.stderr)
            return 1
    ms = float(fields["ms"])
    target = " (target <= 0.3)" if args.workload == "int" else ""
    print(f"{args.workload} loop x{n}: torch {best:.1f} ms, torchlet {ms:.1f} ms, ratio {ms / best:.3f}{target}")
    if baseline:
        print(f"  this build / baseline {args.baseline}: {ms:.1f} / {float(baseline['ms']):.1f} ms = "
              f"{ms / float(baseline['ms']):.3f}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
