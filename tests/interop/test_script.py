"""TorchScript both ways through the CLI: torch.jit.save archives that torch 1.13 writes
here are run by `torchlet run`, the result is written with torchlet's torch.save and
read back by real torch.load, and must equal what torch's own interpreter computes; the
demo's TorchScript step reports torch's numbers."""
import os
import pathlib
import tempfile
import unittest

import torch

from torchlet_harness import require_environment, run

SOURCE = pathlib.Path(os.environ.get("TORCHLET_SOURCE_DIR", "."))


class Gated(torch.nn.Module):
    """Control flow on a runtime value, a list attribute and a helper method."""

    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(6, 6)
        self.steps = [1, 2, 3]

    def gate(self, x: torch.Tensor, k: int) -> torch.Tensor:
        if bool(x.sum() > 0):
            return x * k
        return x - k

    def forward(self, x: torch.Tensor, bias: float) -> torch.Tensor:
        for s in self.steps:
            x = self.gate(torch.tanh(self.proj(x)), s) + bias
        return x


class Sequences(torch.nn.Module):
    """nn.LSTM, nn.GRU, nn.MultiheadAttention and a TransformerEncoder in one forward."""

    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(8, 8, num_layers=2, bidirectional=True, batch_first=True)
        self.gru = torch.nn.GRU(16, 8, batch_first=True)
        self.attn = torch.nn.MultiheadAttention(8, 2, batch_first=True)
        layer = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, _ = self.lstm(x)
        y, _ = self.gru(y)
        a, _ = self.attn(y, y, y)
        return self.encoder(a + y)


class Script(unittest.TestCase):
    def setUp(self):
        require_environment(self)

    def run_both(self, module, args):
        scripted = torch.jit.script(module.eval())
        with tempfile.TemporaryDirectory() as tmp:
            archive = pathlib.Path(tmp) / "m.pt"
            inputs = pathlib.Path(tmp) / "in.pt"
            out = pathlib.Path(tmp) / "out.pt"
            torch.jit.save(scripted, str(archive))
            torch.save(args, inputs)
            run("run", archive, "--inputs", inputs, "--save", out)
            got = torch.load(out)
        with torch.no_grad():
            want = scripted(*args)
        if isinstance(want, tuple):  # e.g. a NamedTuple: compare field by field
            self.assertEqual(len(got), len(want))
            for g, w in zip(got, want):
                torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-5)
        else:
            torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)

    def test_gated_module(self):
        torch.manual_seed(1)
        self.run_both(Gated(), (torch.randn(3, 6), 0.25))

    def test_torchvision_models(self):
        import torchvision
        torch.manual_seed(2)
        for make in (torchvision.models.squeezenet1_1, torchvision.models.shufflenet_v2_x0_5,
                     lambda: torchvision.models.googlenet(init_weights=False, aux_logits=False)):
            with self.subTest(model=getattr(make, "__name__", "googlenet")):
                self.run_both(make(), (torch.randn(1, 3, 64, 64),))

    def test_sequence_modules(self):
        torch.manual_seed(4)
        self.run_both(Sequences(), (torch.randn(2, 5, 8),))

    def test_demo_runs_the_bundled_archive_like_torch(self):
        out = run("demo", SOURCE / "examples").stdout
        model = torch.jit.load(str(SOURCE / "examples" / "tiny_cnn_scripted.pt"))
        (images,) = torch.load(SOURCE / "examples" / "tiny_cnn_inputs.pt")
        with torch.no_grad():
            probs = model(images)
        self.assertIn(repr(probs), out)
        self.assertIn("collatz(27) = 111", out)


if __name__ == "__main__":
    unittest.main()


class ScriptSave(unittest.TestCase):
    """torchlet's torch.jit.save, read by real torch.jit.load."""

    def setUp(self):
        require_environment(self)

    def test_resaved_archives_load_in_torch_and_run_the_same(self):
        import torchvision
        torch.manual_seed(3)
        cases = [(Gated(), (torch.randn(3, 6), 0.5)),
                 (torchvision.models.resnet18(), (torch.randn(1, 3, 64, 64),))]
        for module, args in cases:
            with self.subTest(model=type(module).__name__), tempfile.TemporaryDirectory() as tmp:
                original = torch.jit.script(module.eval())
                src = pathlib.Path(tmp) / "in.pt"
                dst = pathlib.Path(tmp) / "out.pt"
                torch.jit.save(original, str(src), _extra_files={"meta.json": '{"v": 1}'})
                run("convert", src, dst)
                extra = {"meta.json": ""}
                again = torch.jit.load(str(dst), _extra_files=extra)
                self.assertEqual(extra["meta.json"], b'{"v": 1}')
                with torch.no_grad():
                    torch.testing.assert_close(again(*args), original(*args), rtol=0, atol=0)
                for (n1, p1), (n2, p2) in zip(original.state_dict().items(), again.state_dict().items()):
                    self.assertEqual(n1, n2)
                    self.assertTrue(torch.equal(p1, p2), n1)
                self.assertEqual(again.training, original.training)


class ScriptCommand(unittest.TestCase):
    """`torchlet script SOURCE.py -o OUT.pt`: torch.jit.load reads the archive and its
    forward computes what torch's own compilation of the same source computes."""

    SOURCE = '''from typing import Dict, List
import torch


def weight(word: str, table: Dict[str, int]) -> int:
    if word in table:
        return table[word]
    return len(word)


def score(t: torch.Tensor, words: List[str], scale: float) -> torch.Tensor:
    table: Dict[str, int] = {"a": 10, "bb": 20}
    total = 0
    for i, w in enumerate(words):
        total += weight(w, table) * (i + 1)
    return t * scale + total
'''

    def setUp(self):
        require_environment(self)

    def test_archive_runs_in_torch_like_torchs_own_compilation(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "prog.py"
            out = pathlib.Path(tmp) / "prog.pt"
            src.write_text(self.SOURCE)
            run("script", src, "-o", out, "--function", "score")
            loaded = torch.jit.load(str(out))
        body = "\n".join(l for l in self.SOURCE.splitlines() if not l.startswith(("from ", "import "))) + "\n"
        reference = torch.jit.CompilationUnit(body).score
        args = (torch.arange(3.0), ["a", "ccc", "bb"], 0.5)
        torch.testing.assert_close(loaded(*args), reference(*args))

    def test_compile_errors_point_at_the_source(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "bad.py"
            src.write_text("def f(x: int) -> str:\n    return x + 1\n")
            proc = run("script", src, "-o", pathlib.Path(tmp) / "bad.pt", check=False)
            self.assertEqual(proc.returncode, 1, proc.stderr)
            self.assertIn("Return value was annotated as having type str but is actually of type int", proc.stderr)
            self.assertIn("bad.py", proc.stderr)
            self.assertFalse((pathlib.Path(tmp) / "bad.pt").exists())
