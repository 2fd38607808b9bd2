"""Checkpoint benchmark: torchlet vs torch 1.13, interleaved in one run.

    /usr/bin/python3 bench/checkpoint_bench.py [--build build] [--reps 3] [--gib 1]

Makes two state_dicts of GIB GiB (1024 x 1 MiB and 256 x 4 MiB float32 tensors) and
times, alternating tools each repetition (page-cache state swings several-fold here,
so only side-by-side ratios mean anything): mapped open, eager load, eager load with
every page touched, in-memory copy of the same bytes, and save. Each timing runs in
its own process so peak RSS belongs to that operation.
"""
import argparse
import pathlib
import statistics
import subprocess
import sys
import tempfile

TORCH_SNIPPET = r"""
import sys, time, torch
mode, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
sd = torch.load(path)
if mode == "save":
    t0 = time.perf_counter()
    torch.save(sd, sys.argv[3])
elif mode == "touch":
    s = 0
    for t in sd.values():
        s += int(t.view(-1)[:: 1024].sum() != 0)
ms = (time.perf_counter() - t0) * 1000
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(f"ms={ms:.3f} rss_mb={int(hwm.split()[1]) / 1024:.1f}")
"""


def parse(out):
    fields = dict(kv.split("=") for kv in out.split())
    return float(fields["ms"]), float(fields["rss_mb"])


def run_torch(mode, *args):
    r = subprocess.run([sys.executable, "-c", TORCH_SNIPPET, mode, *map(str, args)],
                       capture_output=True, text=True, check=True)
    return parse(r.stdout)


def run_torchlet(binary, mode, *args):
    r = subprocess.run([str(binary), mode, *map(str, args)], capture_output=True, text=True, check=True)
    return parse(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--gib", type=float, default=1.0)
    a = ap.parse_args()
    import torch
    binary = pathlib.Path(a.build) / "bench" / "checkpoint_bench"
    with tempfile.TemporaryDirectory(dir=".") as tmp:
        tmp = pathlib.Path(tmp)
        layouts = {"1024x1MiB": (int(1024 * a.gib), 1 << 18), "256x4MiB": (int(256 * a.gib), 1 << 20)}
        for name, (count, numel) in layouts.items():
            # In a child process, so this driver stays small.
            subprocess.run([sys.executable, "-c",
                            "import sys, torch; torch.save({f't{i}': torch.full((%d,), float(i)) "
                            "for i in range(%d)}, sys.argv[1])" % (numel, count),
                            str(tmp / f"{name}.pt")], check=True)
        file_gib = {n: (tmp / f"{n}.pt").stat().st_size / 2**30 for n in layouts}
        print(f"torch {torch.__version__}; files: " + ", ".join(f"{n} {g:.2f} GiB" for n, g in file_gib.items()))
        results = {}
        for rep in range(a.reps):
            for name in layouts:
                f = tmp / f"{name}.pt"
                for op in ["mapped", "eager", "touch", "save"]:
                    extra = [tmp / "out.pt"] if op == "save" else []
                    order = ["torch", "torchlet"] if rep % 2 == 0 else ["torchlet", "torch"]
                    for tool in order:
                        if tool == "torch" and op == "mapped":
                            continue  # torch 1.13 has no mmap load
                        r = run_torch(op, f, *extra) if tool == "torch" else run_torchlet(binary, op, f, *extra)
                        results.setdefault((name, op, tool), []).append(r)
                results.setdefault((name, "memcpy", "torchlet"), []).append(run_torchlet(binary, "memcpy", f))
        print(f"{'layout':<10} {'operation':<8} {'torch ms':>10} {'torchlet ms':>12} {'ratio':>7} "
              f"{'torch RSS':>10} {'torchlet RSS':>13}")
        for name in layouts:
            for op in ["mapped", "eager", "touch", "save", "memcpy"]:
                tl = results[(name, op, "torchlet")]
                tl_ms = statistics.median(x[0] for x in tl)
                tl_rss = max(x[1] for x in tl)
                if (name, op, "torch") in results:
                    th = results[(name, op, "torch")]
                    th_ms = statistics.median(x[0] for x in th)
                    th_rss = max(x[1] for x in th)
                    print(f"{name:<10} {op:<8} {th_ms:>10.1f} {tl_ms:>12.1f} {tl_ms / th_ms:>7.2f} "
                          f"{th_rss:>9.0f}M {tl_rss:>12.0f}M")
                else:
                    print(f"{name:<10} {op:<8} {'-':>10} {tl_ms:>12.1f} {'-':>7} {'-':>10} {tl_rss:>12.0f}M")
        for name in layouts:
            eager = statistics.median(x[0] for x in results[(name, "eager", "torchlet")])
            copy = statistics.median(x[0] for x in results[(name, "memcpy", "torchlet")])
            rss = max(x[1] for x in results[(name, "eager", "torchlet")])
            print(f"{name}: eager load / in-memory copy = {eager / copy:.2f}; "
                  f"eager peak RSS / file size = {rss / 1024 / file_gib[name]:.2f}")


if __name__ == "__main__":
    main()
