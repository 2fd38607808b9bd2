"""Whole-model benchmark: torchlet vs torch 1.13 (libtorch's TorchScript loader and
interpreter, driven from Python) on the same archives and inputs, in one run.

    /usr/bin/python3 bench/model_bench.py [--build build] [--reps 10] [--models resnet18,...]
                                          [--frozen] [--unoptimized] [--openblas | --no-openblas]

With --frozen, each model also runs frozen: torchlet's `torchlet optimize --freeze`
archive against torch's optimize_for_inference(freeze(m)) (rows NAME+frozen; torch's
load time then includes its optimization). With --unoptimized, rows NAME+as-written run
torchlet with the graph executor off (`torchlet run --no-optimize`), against the same
torch run: what plans cost on the first call (which builds them) and gain after.

Scripts resnet18, mobilenet_v2 (torchvision, random weights) and a BERT-base-sized
TransformerEncoder (12 layers, d_model 768, 12 heads, feed-forward 3072, batch 1, seq
128), saves each with torch.jit.save, then for 1 and 2 threads times in separate
processes, alternating tools: load until forward can be called, the first call, and
the median of REPS steady-state calls after two warm-ups, and the median of those
calls' process CPU time (cpu_ms: with one thread, what a call costs however loaded
the machine is; with two it also counts threads spinning on each other). torch runs under no_grad
(torchlet has no autograd). Ratios are torchlet / torch: below 1 is faster.

torch 1.13 from Debian is built with BLAS_INFO=generic: its matrix products (nn.Linear,
attention) call whatever libblas.so.3 the system selects — the reference BLAS unless
an optimised one is installed (`apt-get install libopenblas0-pthread`). Convolutions
go through oneDNN in both. The system default stays the reference BLAS (torchlet's
interop fixtures are generated with it), so --openblas (on by default when Debian's
OpenBLAS is installed) gives only torch's processes OpenBLAS, by putting its folder
first on LD_LIBRARY_PATH. Each torch process reports the libblas it actually mapped,
and the run prints it: quote it with the figures.
"""
import argparse
import collections
import os
import pathlib
import subprocess
import sys
import tempfile

TORCH_SNIPPET = r"""
import sys, time, statistics, torch
path, inputs, threads, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
optimize = len(sys.argv) > 5 and sys.argv[5] == "optimize"
torch.set_num_threads(threads)
args = torch.load(inputs)
t0 = time.perf_counter()
m = torch.jit.load(path)
if optimize:  # what torch offers for inference: freeze, then its frozen-graph optimizations
    m = torch.jit.optimize_for_inference(torch.jit.freeze(m.eval()))
load_ms = (time.perf_counter() - t0) * 1000
with torch.no_grad():
    t0 = time.perf_counter()
    m(*args)
    first_ms = (time.perf_counter() - t0) * 1000
    for _ in range(2):
        m(*args)
    times, cpu = [], []
    for _ in range(reps):
        c0 = time.process_time()
        t0 = time.perf_counter()
        m(*args)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
times.sort()
cpu.sort()
blas = sorted({l.split()[-1] for l in open("/proc/self/maps") if "blas" in l.split()[-1]})
print(f"blas={','.join(blas) or 'none'}")
print(f"load_ms={load_ms:.3f} first_ms={first_ms:.3f} median_ms={times[len(times) // 2]:.3f} min_ms={times[0]:.3f} "
      f"cpu_ms={cpu[len(cpu) // 2]:.3f}")
"""

FIELDS = ("load_ms", "first_ms", "median_ms", "cpu_ms")
OPENBLAS_DIR = pathlib.Path("/usr/lib/x86_64-linux-gnu/openblas-pthread")


def parse(out):
    """key=value words; numbers become floats, `blas` stays the library path(s)."""
    fields = dict(kv.split("=", 1) for kv in out.split())
    return {k: (v if k == "blas" else float(v)) for k, v in fields.items()}


def models(names):
    import torch
    import torchvision
    torch.manual_seed(0)
    made = {}
    if "resnet18" in names:
        made["resnet18"] = (torchvision.models.resnet18(), (torch.randn(1, 3, 224, 224),))
    if "mobilenet_v2" in names:
        made["mobilenet_v2"] = (torchvision.models.mobilenet_v2(), (torch.randn(1, 3, 224, 224),))
    if "bert_encoder" in names:
        layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, batch_first=True)
        made["bert_encoder"] = (torch.nn.TransformerEncoder(layer, 12), (torch.randn(1, 128, 768),))
    return made


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--models", default="resnet18,mobilenet_v2,bert_encoder")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--frozen", action="store_true", help="also time frozen models (see above)")
    ap.add_argument("--unoptimized", action="store_true", help="also time torchlet without the graph executor")
    ap.add_argument("--openblas", action=argparse.BooleanOptionalAction, default=OPENBLAS_DIR.is_dir(),
                    help=f"run torch with the OpenBLAS in {OPENBLAS_DIR} (default: on when it exists)")
    a = ap.parse_args()
    if a.openblas and not OPENBLAS_DIR.is_dir():
        sys.exit(f"model_bench.py: --openblas: {OPENBLAS_DIR} does not exist (apt-get install libopenblas0-pthread)")
    import torch
    binary = pathlib.Path(a.build) / "bench" / "model_bench"
    blas_seen = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'model':<22}{'threads':>8}  {'':<10}{'torch ms':>10}{'torchlet ms':>13}{'ratio':>8}")
        for name, (module, args) in models(a.models.split(",")).items():
            archive = pathlib.Path(tmp) / f"{name}.pt"
            inputs = pathlib.Path(tmp) / f"{name}.in.pt"
            torch.jit.save(torch.jit.script(module.eval()), str(archive))
            torch.save(args, inputs)
            variants = [(name, archive, archive, [], [])]
            if a.unoptimized:
                variants.append((name + "+as-written", archive, archive, [], ["--no-optimize"]))
            if a.frozen:
                frozen = pathlib.Path(tmp) / f"{name}.frozen.pt"
                subprocess.run([str(pathlib.Path(a.build) / "torchlet"), "optimize", str(archive), "-o", str(frozen),
                                "--freeze"], check=True, capture_output=True)
                variants.append((name + "+frozen", archive, frozen, ["optimize"], []))
            for (label, theirs_archive, ours_archive, torch_flags, ours_flags), threads in (
                    (v, t) for v in variants for t in map(int, a.threads.split(","))):
                cmd = [str(inputs), str(threads), str(a.reps)]
                # torch's matrix products go through the system BLAS when it is not MKL;
                # an OpenBLAS there gets the same thread count.
                env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
                if a.openblas:
                    env["LD_LIBRARY_PATH"] = os.pathsep.join(
                        p for p in (str(OPENBLAS_DIR), os.environ.get("LD_LIBRARY_PATH")) if p)
                theirs = parse(subprocess.run([sys.executable, "-c", TORCH_SNIPPET, str(theirs_archive), *cmd,
                                               *torch_flags], capture_output=True, text=True, check=True,
                                              env=env).stdout)
                ours = parse(subprocess.run([str(binary), str(ours_archive), *cmd, *ours_flags], capture_output=True,
                                            text=True, check=True).stdout)
                blas_seen[theirs["blas"]] += 1
                for field in FIELDS:
                    if field not in theirs or field not in ours:  # an older model_bench binary
                        continue
                    print(f"{label:<22}{threads:>8}  {field:<10}{theirs[field]:>10.1f}{ours[field]:>13.1f}"
                          f"{ours[field] / theirs[field]:>8.2f}", flush=True)
    for lib, runs in blas_seen.items():
        print(f"torch's BLAS ({runs} runs): {lib}")


if __name__ == "__main__":
    main()
