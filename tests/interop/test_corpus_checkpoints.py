"""The checkpoints other projects committed for their own readers
(../shared/corpus/external, manifest.json: 214 of torch 0.2 to 2.7+), as a second oracle
beside torch 1.13: every one torch 1.13 loads, `torchlet convert` must load and write
back so that torch.load gives the same object (keys in order, dtypes, shapes, bits).
They include the legacy stream saved with pickle protocols 1 to 5 (gopickle's test data),
whose first pickle is the magic number in that protocol's encoding."""
import json
import os
import pathlib
import subprocess
import tempfile
import unittest

import torch

from torchlet_harness import BIN, require_environment

# ../shared beside the checkout, as the brief places it, else where this machine keeps it.
_CANDIDATES = [os.environ.get("TORCHLET_CORPUS_DIR", ""),
               pathlib.Path(__file__).resolve().parents[3] / "shared" / "corpus" / "external",
               "/work/shared/corpus/external"]
CORPUS = next((pathlib.Path(c) for c in _CANDIDATES if c and (pathlib.Path(c) / "manifest.json").is_file()),
              pathlib.Path(_CANDIDATES[-1]))


def same(a, b):
    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and
                torch.equal(a.nan_to_num() if a.is_floating_point() else a,
                            b.nan_to_num() if b.is_floating_point() else b))
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) == type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) == type(b) and a == b


class CorpusCheckpoints(unittest.TestCase):
    def setUp(self):
        require_environment(self)
        manifest = CORPUS / "manifest.json"
        self.assertTrue(manifest.is_file(), f"{manifest} is missing (set TORCHLET_CORPUS_DIR)")
        self.files = [f for f in json.loads(manifest.read_text())["files"]
                      if f["kind"] == "checkpoint" and f["torch113"] == "ok"]

    def test_enough_files(self):
        self.assertGreaterEqual(len(self.files), 200)
        protocols = {n for f in self.files for n in range(1, 6) if f"_proto{n}.pt" in f["file"]}
        self.assertEqual({1, 2, 3, 4, 5}, protocols, "the legacy stream in every pickle protocol")

    def test_convert_gives_torch_the_same_object(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "out.pt"
            for f in self.files:
                with self.subTest(file=f["file"]):
                    src = CORPUS / f["file"]
                    proc = subprocess.run([BIN, "convert", str(src), str(out)], capture_output=True, text=True,
                                          timeout=600)
                    self.assertEqual(0, proc.returncode, proc.stderr)
                    # Some were saved from CUDA or MPS tensors: both loads map them to the CPU.
                    want = torch.load(src, map_location="cpu")
                    got = torch.load(out, map_location="cpu")
                    self.assertTrue(same(want, got), f"{f['file']}: torch.load differs after torchlet convert")


if __name__ == "__main__":
    unittest.main()
