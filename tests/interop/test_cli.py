"""The torchlet command: help, unknown commands and flags (exit 2, one line), the demo
on the bundled example, and the demo's numbers checked against real torch.load."""
import os
import pathlib
import unittest

import torch
from typing import Optional

from torchlet_harness import BIN, require_environment, run

SOURCE = pathlib.Path(os.environ.get("TORCHLET_SOURCE_DIR", "."))


class Cli(unittest.TestCase):
    def setUp(self):
        require_environment(self)

    def test_help_lists_every_command(self):
        out = run("--help").stdout
        for cmd in ["inspect", "convert", "scan", "dis", "demo", "version"]:
            self.assertIn(f"  {cmd} ", out)
        self.assertIn("usage: torchlet inspect FILE", run("help", "inspect").stdout)
        self.assertIn("usage: torchlet convert", run("convert", "--help").stdout)
        # A command's --help also lists its options, graph's every pass by name.
        graph_help = run("graph", "--help").stdout
        for text in ("--passes", "peephole ", "loop_unrolling ", "remove_mutation ", "--alias"):
            self.assertIn(text, graph_help)
        self.assertIn("--storage-alignment", run("convert", "--help").stdout)
        self.assertNotIn("Options:", run("version", "--help").stdout)

    def test_unknown_commands_and_flags_exit_2_with_one_line(self):
        for args in (["frobnicate"], ["inspect", "--bogus", "x.pt"], ["convert", "only_one"],
                     ["help", "nope"], ["inspect", "x.pt", "--mode", "lazy"]):
            with self.subTest(args=args):
                proc = run(*args, check=False)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)

    def test_missing_file_is_a_one_line_error(self):
        proc = run("inspect", "/nonexistent/file.pt", check=False)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("cannot open '/nonexistent/file.pt'", proc.stderr)

    def test_demo_runs_on_the_bundled_example_and_matches_torch(self):
        example = SOURCE / "examples" / "tiny_mlp.pt"
        out = run("demo", SOURCE / "examples").stdout
        ckpt = torch.load(example)
        self.assertIn(repr(ckpt["model"]["2.bias"]).replace("\n", "\n   "), out)
        self.assertIn("reloaded bias equal: yes", out)
        self.assertIn(f"lr: {ckpt['lr']!r}", out)
        self.assertIn(f"classes: {ckpt['classes']!r}", out)

    def test_dis_matches_pickletools_opcodes(self):
        import pickletools
        import zipfile
        example = SOURCE / "examples" / "tiny_mlp.pt"
        z = zipfile.ZipFile(example)
        data = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
        expected = [op.name for op, arg, pos in pickletools.genops(data)]
        out = run("dis", example).stdout
        got = [line.split()[2] for line in out.splitlines() if ":" in line[:6]]
        self.assertEqual(got, expected)

    def test_inspect_lists_a_shared_container_once(self):
        # torch.save memoizes a list reached twice; inspect names it the second time
        # instead of listing it again (a pickle sharing its parts can unfold to 2^40).
        import tempfile
        shared = [torch.zeros(2), 3]
        deep = [1]
        for _ in range(40):
            deep = [deep, deep]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "shared.pt")
            torch.save({"a": shared, "b": {"c": shared}, "deep": deep}, path)
            proc = run("inspect", path, check=False)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            out = proc.stdout
        self.assertIn("  a: list (2 items)\n    [0]: float32 [2] (8 bytes)\n    [1]: 3\n", out)
        self.assertIn("    c: list (2 items), the same list as ['a'] above\n", out)
        self.assertIn("[1]: list (2 items), the same list as ['deep'][0] above\n", out)
        self.assertLess(len(out.splitlines()), 200)

    def test_inspect_shows_what_an_archive_attribute_it_cannot_print_is(self):
        # A 600 KB repr is described instead of printed (so is one that would unfold a
        # shared list past the walk limit); the rest of the listing still prints.
        import tempfile
        from typing import List

        class Big(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.big: List[int] = list(range(100000))
                self.small: List[int] = [1, 2]

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x

        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "big.pt")
            torch.jit.save(torch.jit.script(Big()), path)
            proc = run("inspect", path, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("attribute big: List[int] = <too large to show>\n", proc.stdout)
        self.assertIn("attribute small: List[int] = [1, 2]\n", proc.stdout)
        self.assertIn("TorchScript archive loaded in", proc.stdout)

    def test_run_is_in_eval_mode_unless_asked_for_the_saved_one(self):
        import tempfile

        class Flag(torch.nn.Module):
            def forward(self, x: torch.Tensor) -> bool:
                return self.training

        with tempfile.TemporaryDirectory() as tmp:
            archive, inputs = os.path.join(tmp, "flag.pt"), os.path.join(tmp, "in.pt")
            torch.jit.save(torch.jit.script(Flag().train()), archive)
            torch.save((torch.zeros(1),), inputs)
            self.assertTrue(torch.jit.load(archive).training)
            self.assertEqual(run("run", archive, "--inputs", inputs).stdout.splitlines()[0], "False")
            self.assertEqual(run("run", archive, "--inputs", inputs, "--saved-mode").stdout.splitlines()[0], "True")

    def test_run_optimized_and_as_written_give_torchs_results(self):
        import tempfile

        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
                self.lin = torch.nn.Linear(4, 2)

            def forward(self, x: torch.Tensor, scale: Optional[float] = None) -> torch.Tensor:
                y = torch.relu(self.conv(x))
                for _ in range(3):
                    y = y * 0.5 + y.mean()
                if scale is not None:
                    y = y * scale
                return self.lin(y.mean([2, 3]))

        torch.manual_seed(0)
        model = torch.jit.script(Model().eval())
        x = torch.randn(2, 3, 8, 8)
        with tempfile.TemporaryDirectory() as tmp:
            archive, inputs = os.path.join(tmp, "m.pt"), os.path.join(tmp, "in.pt")
            torch.jit.save(model, archive)
            for args in [(x,), (x, 2.0)]:
                torch.save(args, inputs)
                with torch.no_grad():
                    want = model(*args)
                got = {}
                for flags in [(), ("--no-optimize",)]:
                    out = os.path.join(tmp, "out.pt")
                    run("run", archive, "--inputs", inputs, "--output", out, *flags)
                    got[flags] = torch.load(out)
                    torch.testing.assert_close(got[flags], want, rtol=1e-5, atol=1e-6)
                self.assertTrue(torch.equal(got[()], got[("--no-optimize",)]),
                                "the optimized plan computes the graph's very bits")
            # The plan run: inlined, typed by the inputs' dtype and rank, the loop unrolled.
            plan = run("graph", archive, "--optimized", "--inputs", inputs).stdout
            self.assertTrue(plan.startswith("graph("), plan)
            self.assertIn(" : Float(*, *, *, *, requires_grad=0, device=cpu)", plan)
            self.assertIn("aten::conv2d", plan)
            self.assertNotIn("prim::CallMethod", plan)
            self.assertNotIn("prim::Loop", plan)
            proc = run("graph", archive, "--optimized", "--shape", "1,3,8,8", check=False)
            self.assertEqual(proc.returncode, 2)
            self.assertIn("forward() takes a float? argument 'scale'; give --inputs ARGS.pt", proc.stderr)
            proc = run("graph", archive, "--optimized", check=False)
            self.assertEqual(proc.returncode, 2)
            self.assertIn("--optimized plans a call", proc.stderr)


if __name__ == "__main__":
    unittest.main()
