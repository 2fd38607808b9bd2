"""safetensors benchmark: torchlet's mapped open and its .pt <-> .safetensors conversion,
against a plain file copy (`cp`) of the same bytes, interleaved in one run.

    /usr/bin/python3 bench/safetensors_bench.py [--build build] [--reps 3] [--gib 1]

Makes a state_dict of GIB GiB (1024 * GIB tensors of 1 MiB, float32) with torch.save,
then each repetition, alternating which goes first (page-cache state swings several-fold
on these VMs, so only side-by-side ratios mean anything):
  - `torchlet convert model.pt out.safetensors` vs `cp model.pt copy`
  - `torchlet convert model.safetensors out.pt` vs `cp model.safetensors copy`
  - the mapped open of model.safetensors, as `torchlet inspect --mode mapped` times it
    in-process (header parse + one aliasing tensor per entry; no tensor byte is read).
Targets: mapped open <= 5 ms; each conversion <= 2x its copy. Keep GIB <= 1 on the
shared 2-core machines, and do not run it beside a build.
"""
import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

MAPPED_TARGET_MS = 5.0
CONVERT_TARGET_RATIO = 2.0


def wall(cmd):
    t0 = time.perf_counter()
    subprocess.run([str(c) for c in cmd], check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - t0) * 1000


def mapped_open_ms(binary, path):
    out = subprocess.run([str(binary), "inspect", str(path), "--mode", "mapped"], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"loaded \(mapped\) in ([0-9.]+) ms", out)
    if not m:
        sys.exit(f"safetensors_bench: no load time in torchlet's inspect output:\n{out[-500:]}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--gib", type=float, default=1.0)
    a = ap.parse_args()
    if a.gib > 1.0:
        sys.exit("safetensors_bench: at most 1 GiB on these machines (--gib)")
    binary = pathlib.Path(a.build) / "torchlet"
    count = int(1024 * a.gib)
    with tempfile.TemporaryDirectory(dir=".") as tmp:  # the real disk, not a tmpfs
        tmp = pathlib.Path(tmp)
        pt, st = tmp / "model.pt", tmp / "model.safetensors"
        # In a child process, so this driver stays small.
        subprocess.run([sys.executable, "-c",
                        "import sys, torch; torch.save({f'layer{i}.weight': torch.full((1 << 18,), float(i)) "
                        "for i in range(%d)}, sys.argv[1])" % count, str(pt)], check=True)
        subprocess.run([str(binary), "convert", str(pt), str(st)], check=True)
        print(f"{count} tensors; model.pt {pt.stat().st_size / 2**30:.2f} GiB, "
              f"model.safetensors {st.stat().st_size / 2**30:.2f} GiB")
        results = {}
        jobs = {
            "pt -> safetensors": ([binary, "convert", pt, tmp / "out.safetensors"], ["cp", pt, tmp / "copy"]),
            "safetensors -> pt": ([binary, "convert", st, tmp / "out.pt"], ["cp", st, tmp / "copy"]),
        }
        for rep in range(a.reps):
            for name, (convert, copy) in jobs.items():
                order = [("torchlet", convert), ("cp", copy)]
                if rep % 2:
                    order.reverse()
                for tool, cmd in order:
                    pathlib.Path(cmd[-1]).unlink(missing_ok=True)  # neither pays for replacing a file
                    results.setdefault((name, tool), []).append(wall(cmd))
            results.setdefault(("mapped open", "torchlet"), []).append(mapped_open_ms(binary, st))
        print(f"{'operation':<20} {'torchlet ms':>12} {'cp ms':>10} {'ratio':>7} {'target':>8}")
        ok = True
        for name in jobs:
            tl = statistics.median(results[(name, "torchlet")])
            cp = statistics.median(results[(name, "cp")])
            ok &= tl / cp <= CONVERT_TARGET_RATIO
            print(f"{name:<20} {tl:>12.1f} {cp:>10.1f} {tl / cp:>7.2f} {'<= ' + str(CONVERT_TARGET_RATIO):>8}")
        mapped = statistics.median(results[("mapped open", "torchlet")])
        ok &= mapped <= MAPPED_TARGET_MS
        print(f"{'mapped open':<20} {mapped:>12.3f} {'-':>10} {'-':>7} {'<= ' + str(MAPPED_TARGET_MS) + ' ms':>8}")
        print("all targets met" if ok else "a target was missed")


if __name__ == "__main__":
    main()
