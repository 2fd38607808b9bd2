"""Freezing against torch.jit.freeze: torch scripts and saves a module, `torchlet optimize
--freeze` freezes it, real torch.jit.load runs the frozen archive, and its outputs must be
the unfrozen module's (within the archive suite's tolerance), as torch's own frozen
module's are. A frozen resnet18 has no aten::batch_norm and no prim::GetAttr left, like
torch's."""
import pathlib
import tempfile
import unittest

import torch
import torchvision

import torchlet_harness as h


class Recurrent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.head = torch.nn.Linear(16, 4)

    def forward(self, x):
        out, (hn, cn) = self.lstm(x)
        return self.head(out[:, -1]) + hn.sum() + cn.mean()


class Residual(torch.nn.Module):
    """Conv without bias then batch norm (folded), conv with bias then norm, a branch on
    a bool attribute and an Optional attribute (both folded by freezing)."""

    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn_a = torch.nn.BatchNorm2d(8)
        self.b = torch.nn.Conv2d(8, 8, 1, bias=True)
        self.bn_b = torch.nn.BatchNorm2d(8, affine=False)
        self.use_shortcut = True
        self.scale: torch.Tensor = torch.tensor(0.5)

    def forward(self, x):
        y = torch.relu(self.bn_a(self.a(x)))
        z = self.bn_b(self.b(y))
        if self.use_shortcut:
            z = z + y
        return z * self.scale


class ConvArithmetic(torch.nn.Module):
    """Convolutions followed by a per-channel add, a subtract of a number, a scale and a
    divide (folded into the convolutions), and dropout (gone in eval mode)."""

    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 6, 3)
        self.b = torch.nn.Conv2d(6, 6, 1, bias=False)
        self.shift = torch.nn.Parameter(torch.randn(1, 6, 1, 1))
        self.scale = torch.nn.Parameter(torch.rand(1, 6, 1, 1) + 0.5)
        self.drop = torch.nn.Dropout(0.3)

    def forward(self, x):
        y = self.a(x) + self.shift
        y = self.drop(torch.relu(y))
        z = (self.b(y) - 0.25) * self.scale
        return self.b(z) / 3.0


class SharedInputLinears(torch.nn.Module):
    """Three linears reading one input (attention's projections, say), one of another
    width, and one reading another input: the three become one matrix product."""

    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(8, 4)
        self.k = torch.nn.Linear(8, 4)
        self.v = torch.nn.Linear(8, 6)
        self.other = torch.nn.Linear(6, 4)

    def forward(self, x):
        v = self.v(x)
        return self.q(x) * self.k(x).sum(-1, keepdim=True) + self.other(v)


class LinearNorms(torch.nn.Module):
    """An MLP head: linears followed by BatchNorm1d. Behind flatten(x, 1) a linear's result
    is known to have rank 2, and its norm folds into it; fc3 reads an input of unknown
    rank, where a rank-3 input has the norm normalise another dimension than the linear's
    features, so its norm folds only in a plan that knows y has rank 2."""

    def __init__(self):
        super().__init__()
        self.fc1, self.bn1 = torch.nn.Linear(12, 6), torch.nn.BatchNorm1d(6)
        self.fc2, self.bn2 = torch.nn.Linear(6, 6), torch.nn.BatchNorm1d(6)
        self.fc3, self.bn3 = torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6)

    def forward(self, x, y):
        h = torch.relu(self.bn1(self.fc1(x.flatten(1))))
        h = self.bn2(self.fc2(h))
        z = self.bn3(self.fc3(y))
        return h + z if z.dim() == 2 else z


def op_counts(graph):
    """aten:: operators by count, without the shape checks torch's freezing drops (its
    "expected 4D input" tests, which torchlet keeps)."""
    import collections
    shape_checks = {"aten::dim", "aten::ne", "aten::format", "aten::eq", "aten::len", "aten::size", "aten::__getitem__",
                    "aten::mul", "aten::add", "aten::sub"}
    counts = collections.Counter(n.kind() for n in graph.nodes() if n.kind().startswith("aten::"))
    return counts, {k: v for k, v in counts.items() if k not in shape_checks}


def randomize_norms(model):
    # Fresh batch norms are the identity (mean 0, var 1): give them statistics, so that
    # folding them into the convolutions changes the weights.
    g = torch.Generator().manual_seed(0)
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)):
            m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) + 0.5)
    return model


def cases():
    image = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(1))
    return {
        "resnet18": (lambda: randomize_norms(torchvision.models.resnet18()), (image,)),
        "mobilenet_v2": (lambda: randomize_norms(torchvision.models.mobilenet_v2()), (image,)),
        "efficientnet_b0": (lambda: randomize_norms(torchvision.models.efficientnet_b0()), (image,)),
        "densenet121": (lambda: randomize_norms(torchvision.models.densenet121()), (image,)),
        "lstm": (Recurrent, (torch.randn(2, 5, 8),)),
        "transformer_encoder": (
            lambda: torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True), 2),
            (torch.randn(2, 7, 32),)),
        "residual": (lambda: randomize_norms(Residual()), (torch.randn(2, 3, 9, 9),)),
        "conv_arithmetic": (ConvArithmetic, (torch.randn(2, 3, 11, 11),)),
        "shared_input_linears": (SharedInputLinears, (torch.randn(2, 5, 8),)),
        "linear_norms": (lambda: randomize_norms(LinearNorms()), (torch.randn(4, 3, 2, 2), torch.randn(4, 4))),
    }


class FreezeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        h.require_environment(self)

    def freeze(self, name, make, *flags):
        torch.manual_seed(0)
        scripted = torch.jit.script(make().eval())
        src, dst = self.dir / f"{name}.pt", self.dir / f"{name}.frozen.pt"
        torch.jit.save(scripted, str(src))
        h.run("optimize", src, "-o", dst, "--freeze", *flags)
        return scripted, torch.jit.load(str(dst))

    def test_frozen_models_run_in_torch_as_the_originals(self):
        for name, (make, inputs) in cases().items():
            with self.subTest(model=name):
                scripted, frozen = self.freeze(name, make)
                with torch.no_grad():
                    want = scripted(*inputs)
                    got = frozen(*inputs)
                    torch_frozen = torch.jit.freeze(scripted)(*inputs)
                scale = max(1.0, want.abs().max().item())
                # torch's own freezing moves the results by as much (rounding of the
                # folded weights); the bound is the archive suite's.
                self.assertLess((got - want).abs().max().item(), 1e-4 * scale, name)
                self.assertLess((torch_frozen - want).abs().max().item(), 1e-4 * scale, name)
                # torchlet runs its own frozen archive to the same results.
                inputs_file, out_file = self.dir / f"{name}.in.pt", self.dir / f"{name}.out.pt"
                torch.save(tuple(inputs), inputs_file)
                h.run("run", self.dir / f"{name}.frozen.pt", "--inputs", inputs_file, "--save", out_file)
                ours = torch.load(out_file)
                self.assertLess((ours - want).abs().max().item(), 1e-4 * scale, f"{name} run by torchlet")
                graph = str(frozen.graph)
                self.assertNotIn("prim::GetAttr", graph, name)
                self.assertEqual(list(frozen.state_dict()), [], f"{name}: the frozen module keeps no tensors")

    def test_frozen_graphs_call_the_operators_torchs_do(self):
        # The same folds as torch's freezing: the operators left are torch's (shape
        # checks aside, see op_counts).
        for name, (make, inputs) in cases().items():
            with self.subTest(model=name):
                scripted, frozen = self.freeze(name + "_ops", make)
                _, ours = op_counts(frozen.graph)
                _, theirs = op_counts(torch.jit.freeze(scripted).graph)
                # A deliberate difference: torchlet also folds the batch norms whose
                # convolution's result is read by a shape check (densenet's), which
                # torch's fold refuses as a second use; the shape is unchanged by folding.
                self.assertLessEqual(ours.pop("aten::batch_norm", 0), theirs.pop("aten::batch_norm", 0), name)
                # Another: torch concatenates linears sharing an input only for CUDA
                # weights, torchlet for every weight (one slice per merged linear; the
                # models here merge one group at most).
                merged = ours.pop("aten::slice", 0) - theirs.pop("aten::slice", 0)
                self.assertEqual(ours.pop("aten::linear", 0) + merged - (1 if merged else 0),
                                 theirs.pop("aten::linear", 0), name)
                self.assertEqual(ours, theirs, name)

    def test_pointwise_ops_and_dropout_fold_away(self):
        make, inputs = cases()["conv_arithmetic"]
        _, frozen = self.freeze("conv_arithmetic_fold", make)
        counts, _ = op_counts(frozen.graph)
        self.assertEqual(dict(counts), {"aten::conv2d": 3, "aten::relu": 1}, str(frozen.graph))

    def test_batch_norms_fold_into_convolutions_unless_asked_not_to(self):
        make, inputs = cases()["resnet18"]
        _, frozen = self.freeze("resnet18_fold", make)
        self.assertNotIn("aten::batch_norm", str(frozen.graph))
        self.assertEqual(str(frozen.graph).count("aten::conv2d"), 20)
        _, unfolded = self.freeze("resnet18_nofold", make, "--no-fold")
        self.assertEqual(str(unfolded.graph).count("aten::batch_norm"), 20)
        # `torchlet graph --frozen` prints the frozen graph without writing an archive.
        shown = h.run("graph", self.dir / "resnet18_fold.pt", "--frozen").stdout
        self.assertEqual((shown.count("aten::batch_norm"), shown.count("prim::GetAttr")), (0, 0))
        self.assertEqual(shown.count("aten::conv2d"), 20)

    def test_linears_sharing_an_input_become_one_product(self):
        make, inputs = cases()["shared_input_linears"]
        _, frozen = self.freeze("shared_input_linears_merge", make)
        counts, _ = op_counts(frozen.graph)
        self.assertEqual((counts["aten::linear"], counts["aten::slice"]), (2, 3), str(frozen.graph))
        _, unmerged = self.freeze("shared_input_linears_nofold", make, "--no-fold")
        self.assertEqual(str(unmerged.graph).count("aten::linear"), 4)

    def test_batch_norms_fold_into_linears_of_known_rank(self):
        make, (x, y) = cases()["linear_norms"]
        scripted, frozen = self.freeze("linear_norms_fold", make)
        # bn1 and bn2 fold (flatten tells their linears' rank); bn3's linear reads y.
        self.assertEqual(str(frozen.graph).count("aten::batch_norm"), 1, str(frozen.graph))
        _, unfolded = self.freeze("linear_norms_nofold", make, "--no-fold")
        self.assertEqual(str(unfolded.graph).count("aten::batch_norm"), 3)
        # y of rank 3 (4, 6, 4): bn3 normalises fc3's dimension 1, of size 6 like its
        # features; folding it would compute something else without an error.
        for name, args in (("rank2", (x, y)), ("rank3", (x, torch.randn(4, 6, 4)))):
            with self.subTest(y=name), torch.no_grad():
                want = scripted(*args)
                self.assertLess((frozen(*args) - want).abs().max().item(), 1e-4, name)
                inputs_file, out_file = self.dir / f"ln_{name}.in.pt", self.dir / f"ln_{name}.out.pt"
                torch.save(args, inputs_file)
                h.run("run", self.dir / "linear_norms_fold.frozen.pt", "--inputs", inputs_file, "--save", out_file)
                self.assertLess((torch.load(out_file) - want).abs().max().item(), 1e-4, f"{name} run by torchlet")
                # The executor's plan folds bn3 too when it knows y has rank 2.
                plan = h.run("graph", self.dir / "linear_norms_fold.frozen.pt", "--optimized",
                             "--inputs", inputs_file).stdout
                self.assertEqual(plan.count("aten::batch_norm"), 0 if name == "rank2" else 1, plan)

    def test_refusals_are_named(self):
        class Counter(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.calls = 0

            def forward(self, x):
                self.calls += 1
                return x * self.calls

        path = self.dir / "counter.pt"
        torch.jit.save(torch.jit.script(Counter().eval()), str(path))
        proc = h.run("optimize", path, "-o", self.dir / "out.pt", "--freeze", check=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("sets self.calls", proc.stderr)
        self.assertFalse((self.dir / "out.pt").exists())


if __name__ == "__main__":
    unittest.main()
