"""torch.export archives (.pt2) against torch 1.13's eager results: every program
tests/fixtures/gen_pt2.py wrote (and the real torch 2.9 archive it lists) must run on
its inputs to torch's outputs, run on its own sample inputs, be described by `inspect`
and `graph`, and convert to a safetensors file holding torch's bytes; inputs outside a
symbol's range and every hostile archive must be refused with a clean error (exit
code 1, a message naming what is wrong, no crash, no raw bytes)."""
import json
import pathlib
import subprocess
import tempfile
import unittest
import zipfile

import torch

from torchlet_harness import BIN, FIXTURES, require_environment, run
from test_safetensors import DTYPES, bytes_of, read_safetensors

PT2 = FIXTURES / "pt2"
PROGRAMS = ["linear", "conv_bn_relu", "mlp_symbolic_batch", "flatten_view", "buffer_mutation",
            "multi_output", "attention", "conversions", "parameter_mutation", "cond_branches", "legacy_linear", "executorch_linear"]


def load_manifest(test, path):
    test.assertTrue(path.is_file(), f"{path} is missing: run tests/fixtures/generate.py {FIXTURES} pt2")
    return json.loads(path.read_text())


def archive_path(entry):
    # Joining keeps an absolute archive (the corpus file) as it is.
    return PT2 / entry["archive"]


def program_json(entry):
    """The ExportedProgram JSON inside an archive of either layout."""
    with zipfile.ZipFile(archive_path(entry)) as z:
        if entry["layout"] == "legacy":
            return json.loads(z.read("serialized_exported_program.json"))
        name = next(n for n in z.namelist() if n.endswith("/models/model.json"))
        return json.loads(z.read(name))


def op_name(target):
    """torch.ops.aten.linear.default -> aten::linear, torch.ops.aten.add.Tensor -> aten::add.Tensor;
    Python's operators on SymInts (_operator.ge) as they are."""
    if not target.startswith("torch.ops."):
        return target
    if target.startswith("torch.ops.higher_order."):  # no overloads: higher_order::cond
        return "higher_order::" + target[len("torch.ops.higher_order."):]
    namespace, op, overload = target[len("torch.ops."):].split(".")
    return f"{namespace}::{op}" if overload == "default" else f"{namespace}::{op}.{overload}"


def described(doc):
    """(parameter FQNs, user input names, op names, {symbol: "[min, max]"}) of a program."""
    params, users = [], []
    for spec in doc["graph_module"]["signature"]["input_specs"]:
        if "parameter" in spec:
            params.append(spec["parameter"]["parameter_name"])
        elif "user_input" in spec:
            users.append(spec["user_input"]["arg"]["as_tensor"]["name"])
    ops = sorted({op_name(n["target"]) for n in doc["graph_module"]["graph"]["nodes"]})
    ranges = {s: f"[{r['min_val']}, {r['max_val']}]" for s, r in doc["range_constraints"].items()}
    return params, users, ops, ranges


class Pt2Interop(unittest.TestCase):
    def setUp(self):
        require_environment(self)
        self.programs = load_manifest(self, PT2 / "manifest.json")
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_outputs_equal(self, expected, got, path="output"):
        if isinstance(expected, tuple):
            self.assertIsInstance(got, (tuple, list), path)
            self.assertEqual(len(expected), len(got), path)
            for i, (e, g) in enumerate(zip(expected, got)):
                self.assert_outputs_equal(e, g, f"{path}[{i}]")
            return
        self.assertIsInstance(got, torch.Tensor, path)
        self.assertEqual(expected.dtype, got.dtype, path)
        self.assertEqual(expected.shape, got.shape, path)
        torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5, msg=lambda m: f"{path}: {m}")

    def test_manifest_lists_every_program(self):
        self.assertEqual(sorted(PROGRAMS), sorted(e["name"] for e in self.programs))
        self.assertEqual({"pt2", "legacy"}, {e["layout"] for e in self.programs})
        for entry in self.programs:
            self.assertTrue(archive_path(entry).is_file(), entry["archive"])

    def test_run_matches_torch(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                out = self.dir / f"{entry['name']}.out.pt"
                run("run", archive_path(entry), "--inputs", PT2 / entry["inputs"], "--output", out)
                self.assert_outputs_equal(torch.load(PT2 / entry["expected"]), torch.load(out))

    def test_run_on_sample_inputs(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                run("run", archive_path(entry), "--sample-inputs")

    def test_inspect_describes_the_program(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                doc = program_json(entry)
                params, users, ops, ranges = described(doc)
                out = run("inspect", archive_path(entry)).stdout
                for needle in [doc["torch_version"], *params, *users, *ops]:
                    self.assertIn(needle, out)
                self.assertEqual(entry["symbolic"], bool(ranges))
                if entry["symbolic"]:
                    self.assertIn("s0", out)
                    self.assertEqual("[2, 1024]", ranges["s0"])
                    self.assertIn("[2, 1024]", out)

    def test_graph_names_every_op(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                _, _, ops, _ = described(program_json(entry))
                out = run("graph", archive_path(entry)).stdout
                for op in ops:
                    self.assertIn(op, out)

    def test_convert_holds_torchs_bytes(self):
        for entry in self.programs:
            with self.subTest(program=entry["name"]):
                out = self.dir / f"{entry['name']}.safetensors"
                run("convert", archive_path(entry), out)
                header, _, tensors = read_safetensors(out)
                names = dict(header)
                for fqn, t in torch.load(PT2 / entry["state_dict"]).items():
                    self.assertIn(fqn, names)
                    self.assertEqual(DTYPES[t.dtype][0], names[fqn]["dtype"], fqn)
                    self.assertEqual(list(t.shape), names[fqn]["shape"], fqn)
                    self.assertEqual(bytes_of(t), bytes_of(tensors[fqn]), f"{fqn}: bytes differ")

    def test_inputs_outside_the_range_are_refused(self):
        entries = [e for e in self.programs if "violating_inputs" in e]
        self.assertTrue(entries, "no program lists violating_inputs")
        for entry in entries:
            with self.subTest(program=entry["name"]):
                proc = run("run", archive_path(entry), "--inputs", PT2 / entry["violating_inputs"],
                           "--output", self.dir / "refused.pt", check=False)
                self.assertEqual(1, proc.returncode, proc.stderr)
                self.assertIn("s0", proc.stderr)
                self.assertNotIn("Traceback", proc.stdout + proc.stderr)


class Pt2HostileInterop(unittest.TestCase):
    def setUp(self):
        require_environment(self)
        self.hostile = load_manifest(self, PT2 / "hostile" / "manifest.json")

    def assert_refused(self, entry, *args):
        # Bytes, not text: decoding here would hide raw bytes in the message.
        proc = subprocess.run([BIN, *map(str, args)], capture_output=True, timeout=600)
        self.assertEqual(1, proc.returncode, f"exit {proc.returncode}: {proc.stderr[-2000:]!r}")
        try:
            err = proc.stderr.decode("utf-8")
        except UnicodeDecodeError:
            self.fail(f"stderr is not UTF-8: {proc.stderr[-2000:]!r}")
        odd = [c for c in err if not (c.isprintable() or c in "\n\t")]
        self.assertFalse(odd, f"unprintable characters in stderr: {err!r}")
        self.assertIn(entry["error_mentions"], err)
        self.assertNotIn("Traceback", err)

    def test_enough_hostile_archives(self):
        self.assertGreaterEqual(len(self.hostile), 15)

    def test_hostile_archives_are_refused(self):
        for entry in self.hostile:
            archive = PT2 / "hostile" / entry["archive"]
            self.assertTrue(archive.is_file(), archive)
            for command in (["inspect", archive], ["run", archive, "--sample-inputs"]):
                with self.subTest(archive=entry["archive"], command=command[0], what=entry["what"]):
                    self.assert_refused(entry, *command)


if __name__ == "__main__":
    unittest.main()
