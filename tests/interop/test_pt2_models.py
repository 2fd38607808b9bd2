"""torch.export archives of real models (tests/fixtures/gen_pt2_models.py: make_fx's
aten graphs of resnet18, mobilenet_v2, a TransformerEncoderLayer traced with autograd on
and off, and an MLP) against the models' own eager outputs: every program must run on
its inputs to torch's output, run on its own sample inputs, be described by `inspect`
(every parameter FQN) and `graph` (every operator), and convert to a safetensors file
holding the state dict's bytes. A missing fixture is a failure (and a missing
torchvision fails the generator, so leaves the fixtures missing)."""
import pathlib
import tempfile
import unittest

import torch

from torchlet_harness import FIXTURES, require_environment, run
from test_pt2 import described, load_manifest, program_json
from test_safetensors import DTYPES, bytes_of, read_safetensors

MODELS = FIXTURES / "pt2_models"
PROGRAMS = ["mlp_layernorm_gelu", "transformer_encoder", "transformer_encoder_no_grad", "mobilenet_v2", "resnet18"]
# Convolution networks sum hundreds to thousands of products per output through 20
# (resnet18) to 52 (mobilenet_v2) layers, and torchlet's kernels add them in another
# order than torch's (oneDNN, BLAS), so float32 rounding drifts as it goes: about 6e-6
# at the outputs on this machine, too close to the small programs' 1e-5 to hold on
# every CPU path; 1e-4 is still far below any real error at these outputs (~1).
TOLERANCE = {"resnet18": 1e-4, "mobilenet_v2": 1e-4}


def absolute(entry):
    """The entry with its archive joined to MODELS, which test_pt2's program_json
    keeps as it is (it joins paths to its own fixture folder)."""
    return dict(entry, archive=str(MODELS / entry["archive"]))


class Pt2ModelsInterop(unittest.TestCase):
    def setUp(self):
        require_environment(self)
        path = MODELS / "manifest.json"
        self.assertTrue(path.is_file(), f"{path} is missing: run tests/fixtures/generate.py {FIXTURES} pt2_models")
        self.programs = [absolute(e) for e in load_manifest(self, path)]
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_manifest_lists_every_program(self):
        self.assertEqual(sorted(PROGRAMS), sorted(e["name"] for e in self.programs))
        for entry in self.programs:
            self.assertEqual("pt2", entry["layout"], entry["name"])
            self.assertFalse(entry["symbolic"], entry["name"])
            for key in ("archive", "inputs", "expected", "state_dict"):
                self.assertTrue((MODELS / entry[key]).is_file(), f"{entry['name']}: {entry[key]}")

    def test_run_matches_torch(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                out = self.dir / f"{entry['name']}.out.pt"
                run("run", entry["archive"], "--inputs", MODELS / entry["inputs"], "--output", out)
                expected, got = torch.load(MODELS / entry["expected"]), torch.load(out)
                self.assertIsInstance(got, torch.Tensor)
                self.assertEqual(expected.dtype, got.dtype)
                self.assertEqual(expected.shape, got.shape)
                tol = TOLERANCE.get(entry["name"], 1e-5)
                torch.testing.assert_close(got, expected, rtol=tol, atol=tol)

    def test_run_on_sample_inputs(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                run("run", entry["archive"], "--sample-inputs")

    def test_inspect_lists_every_parameter(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                doc = program_json(entry)
                params, users, _, _ = described(doc)
                self.assertTrue(params, "the program has no parameters")
                out = run("inspect", entry["archive"]).stdout
                for needle in [doc["torch_version"], *params, *users]:
                    self.assertIn(needle, out)

    def test_graph_names_every_op(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                _, _, ops, _ = described(program_json(entry))
                out = run("graph", entry["archive"]).stdout
                for op in ops:
                    self.assertIn(op, out)

    def test_convert_holds_the_state_dict(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                out = self.dir / f"{entry['name']}.safetensors"
                run("convert", entry["archive"], out)
                header, _, tensors = read_safetensors(out)
                names = dict(header)
                state = torch.load(MODELS / entry["state_dict"])
                self.assertTrue(state)
                for fqn, t in state.items():
                    self.assertIn(fqn, names)
                    self.assertEqual(DTYPES[t.dtype][0], names[fqn]["dtype"], fqn)
                    self.assertEqual(list(t.shape), names[fqn]["shape"], fqn)
                    self.assertEqual(bytes_of(t), bytes_of(tensors[fqn]), f"{fqn}: bytes differ")


if __name__ == "__main__":
    unittest.main()
