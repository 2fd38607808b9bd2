"""`torchlet optimize` without --freeze: torch saves a scripted module, torchlet optimizes
its methods in place (calls inlined, constants folded, dead and common code removed) and
saves it; real torch.jit.load runs the result to the same bits as the original, in eval
and in training mode, with the same state_dict, and its forward calls no methods."""
import pathlib
import tempfile
import unittest

import torch

import torchlet_harness as h


def helper_scale(x: torch.Tensor, k: int) -> torch.Tensor:
    return x * k if k > 1 else x


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class WithHelpers(torch.nn.Module):
    """A submodule, a free function, a branch on a constant, a loop, and a second method:
    what the optimizer inlines and folds, and what it must keep."""
    __constants__ = ["k"]

    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = torch.nn.Linear(4, 2)
        self.k = 3

    def forward(self, x):
        y = helper_scale(self.block(x), self.k)
        parts = []
        for i in range(2):
            parts.append(y.mean([2, 3]) + i)
        return self.head(parts[0] + parts[1])

    @torch.jit.export
    def features(self, x):
        return self.block(x).sum()


class OptimizeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        h.require_environment(self)

    def optimize(self, name, module, *flags):
        src, dst = self.dir / f"{name}.pt", self.dir / f"{name}.opt.pt"
        torch.jit.save(module, str(src))
        h.run("optimize", src, "-o", dst, *flags)
        return torch.jit.load(str(src)), torch.jit.load(str(dst))

    def assert_same_results(self, want, got, what):
        if isinstance(want, torch.Tensor):
            self.assertTrue(torch.equal(want, got), what)
        else:
            self.assertEqual(len(want), len(got), what)
            for a, b in zip(want, got):
                self.assert_same_results(a, b, what)

    def test_fixture_archives_run_in_torch_as_before(self):
        fixtures = pathlib.Path(h.FIXTURES) / "script"
        for name in ("resnet18", "mobilenet_v2", "recurrent", "small", "versioned"):
            with self.subTest(model=name):
                dst = self.dir / f"{name}.fixture.opt.pt"
                h.run("optimize", fixtures / f"{name}.pt", "-o", dst)
                original, optimized = torch.jit.load(str(fixtures / f"{name}.pt")), torch.jit.load(str(dst))
                inputs = torch.load(fixtures / f"{name}.io.pt")["input"]
                inputs = inputs if isinstance(inputs, tuple) else (inputs,)
                original.eval()
                optimized.eval()
                with torch.no_grad():
                    self.assert_same_results(original(*inputs), optimized(*inputs), name)
                self.assertEqual(list(original.state_dict()), list(optimized.state_dict()), name)
                self.assertNotIn("prim::CallMethod", str(optimized.graph), name)

    def test_archive_suite_cases_run_in_torch_as_before(self):
        # Every module test_archive.py checks (scripted and traced, classes, named tuples,
        # containers, strings, __getstate__, exported methods ...), all its methods optimized.
        import test_archive
        # Their LSTM's, GRU's and RNN's PackedSequence overloads call aten::lstm.data,
        # gru.data and rnn_tanh.data, which torchlet lacks: those methods do not compile,
        # the archive cannot be printed, and optimize says so before writing anything.
        refused = {"sequences_scripted", "more_sequences_scripted"}
        for name, (make, calls) in test_archive.cases().items():
            with self.subTest(case=name):
                methods = ",".join(sorted({method for method, _ in calls}))
                src, dst = self.dir / f"{name}.suite.pt", self.dir / f"{name}.suite.opt.pt"
                torch.jit.save(make(), str(src))
                proc = h.run("optimize", src, "-o", dst, "--method", methods, check=name not in refused)
                if name in refused:
                    self.assertNotEqual(proc.returncode, 0)
                    self.assertIn("did not compile in torchlet", proc.stderr)
                    self.assertFalse(dst.exists())
                    continue
                original, optimized = torch.jit.load(str(src)), torch.jit.load(str(dst))
                for method, args in calls:
                    torch.manual_seed(0)
                    want = getattr(original, method)(*args)
                    torch.manual_seed(0)
                    got = getattr(optimized, method)(*args)
                    self.assertEqual(repr(got), repr(want), f"{name}.{method}")
                    if isinstance(want, torch.Tensor):
                        self.assertTrue(torch.equal(got, want), f"{name}.{method}")

    def test_submodules_functions_and_other_methods(self):
        torch.manual_seed(0)
        scripted = torch.jit.script(WithHelpers())
        self.assertIn("prim::CallMethod", str(scripted.graph))
        x = torch.randn(2, 3, 6, 6)
        original, optimized = self.optimize("helpers", scripted, "--method", "forward,features")
        for graph in (optimized.graph, optimized.features.graph):
            self.assertNotIn("prim::CallMethod", str(graph))
            self.assertNotIn("prim::CallFunction", str(graph))
        # The branch on the constant k is gone; the loop stays (unrolling it would grow
        # the saved code; the executor's plans unroll it).
        self.assertIn("prim::CallFunction", str(original.graph))  # helper_scale, whose k > 1 tests
        self.assertNotIn("aten::gt", str(optimized.graph))
        self.assertIn("prim::Loop", str(optimized.graph))
        for mode in ("eval", "train"):
            with self.subTest(mode=mode):
                getattr(original, mode)()
                getattr(optimized, mode)()
                # Training mode: the batch norm normalises by the batch's statistics and
                # updates its running buffers, alike in both.
                self.assert_same_results(original(x), optimized(x), mode)
                self.assert_same_results(original.features(x), optimized.features(x), mode)
                for (k, a), (_, b) in zip(original.state_dict().items(), optimized.state_dict().items()):
                    self.assertTrue(torch.equal(a, b), f"{mode}: {k}")
        # torchlet runs its own optimized archive to torch's results.
        inputs_file, out_file = self.dir / "helpers.in.pt", self.dir / "helpers.out.pt"
        torch.save((x,), inputs_file)
        h.run("run", self.dir / "helpers.opt.pt", "--inputs", inputs_file, "--save", out_file)
        fresh = torch.jit.load(str(self.dir / "helpers.pt")).eval()  # the calls above moved the running stats
        self.assertTrue(torch.allclose(torch.load(out_file), fresh(x), atol=1e-6))

    def test_attribute_writes_stay(self):
        # What freezing refuses (the code sets an attribute) optimizing keeps as it is.
        class Counter(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.calls = 0

            def forward(self, x):
                self.calls += 1
                return x * self.calls

        _, optimized = self.optimize("counter", torch.jit.script(Counter()))
        x = torch.ones(2)
        self.assertEqual([optimized(x).tolist(), optimized(x).tolist()], [[1.0, 1.0], [2.0, 2.0]])
        self.assertEqual(optimized.calls, 2)

    def test_refusals_are_named(self):
        scripted = torch.jit.script(WithHelpers())
        path = self.dir / "refusals.pt"
        torch.jit.save(scripted, str(path))
        proc = h.run("optimize", path, "-o", self.dir / "r.pt", "--method", "nope", check=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("no method 'nope'", proc.stderr)
        proc = h.run("optimize", path, "-o", self.dir / "r.pt", "--preserve", "features", check=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("--preserve and --no-fold are for --freeze", proc.stderr)
        self.assertFalse((self.dir / "r.pt").exists())


if __name__ == "__main__":
    unittest.main()
