"""TorchScript both ways through the CLI: torch.jit.save archives that torch 1.13 writes
here are run by `torchlet run`, the result is written with torchlet's torch.save and
read back by real torch.load, and must equal what torch's own interpreter computes; the
demo's TorchScript step reports torch's numbers."""
import os
import pathlib
import tempfile
import unittest
from typing import Tuple

import torch

from torchlet_harness import FIXTURES, require_environment, run

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


def scaled_sum(x: torch.Tensor, k: int) -> torch.Tensor:
    return (x * k).sum(dim=0)


class Branch(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.lin(x))


class Forked(torch.nn.Module):
    """torch.jit.fork of a function on computed arguments and of a submodule: torch's
    archive spells each as a nested def that fork runs."""

    def __init__(self):
        super().__init__()
        self.branch = Branch()

    def forward(self, x: torch.Tensor, k: int) -> torch.Tensor:
        futs = [torch.jit.fork(scaled_sum, x + i, k) for i in range(3)]
        b = torch.jit.fork(self.branch, x)
        total = torch.jit.wait(b).sum(dim=0)
        for f in futs:
            total = total + torch.jit.wait(f)
        return total


class TrainingDropouts(torch.nn.Module):
    """Every dropout kind in training mode: the masks come from the default generator."""

    def __init__(self):
        super().__init__()
        self.plain = torch.nn.Dropout(0.3)
        self.channels = torch.nn.Dropout2d(0.4)
        self.alpha = torch.nn.AlphaDropout(0.2)
        self.feature_alpha = torch.nn.FeatureAlphaDropout(0.5)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        return self.plain(x), self.channels(x), self.alpha(x), self.feature_alpha(x)


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

    def test_training_dropouts_draw_torchs_masks(self):
        """`run --saved-mode` keeps the training flags: from the default seed (a fresh
        process's, which torch.manual_seed restores here) torchlet draws torch's masks and
        computes the same bits."""
        scripted = torch.jit.script(TrainingDropouts().train())
        x = torch.randn(2, 6, 5, 4)
        with tempfile.TemporaryDirectory() as tmp:
            archive, inputs, out = (pathlib.Path(tmp) / n for n in ("m.pt", "in.pt", "out.pt"))
            torch.jit.save(scripted, str(archive))
            torch.save((x,), inputs)
            run("run", archive, "--inputs", inputs, "--saved-mode", "--save", out)
            got = torch.load(out)
        torch.manual_seed(67280421310721)  # torch's default seed
        want = scripted(x)
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertTrue(torch.equal(g, w), (g, w))
        # Not all kept and not all dropped: the masks are real draws.
        channels = want[1].flatten(2).abs().sum(2)
        self.assertTrue(bool((channels == 0).any()) and bool((channels != 0).any()))

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

    def test_forked_module(self):
        torch.manual_seed(5)
        self.run_both(Forked(), (torch.randn(3, 4), 2))

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
        cases = [(Gated(), (torch.randn(3, 6), 0.5)), (Forked(), (torch.randn(3, 4), 3)),
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


    def test_resaved_archives_keep_torchs_source_ranges(self):
        # The .debug_pkl records are carried over: torch's error for a model torchlet
        # re-saved still names the user's file and line, not code/__torch__.py.
        with tempfile.TemporaryDirectory() as tmp:
            dst = pathlib.Path(tmp) / "out.pt"
            run("convert", FIXTURES / "script" / "raiser.pt", dst)
            model = torch.jit.load(str(dst))
            with self.assertRaises(torch.jit.Error) as caught:
                model(torch.zeros(3))
            self.assertIn("gen_script_archives.py", str(caught.exception))
            self.assertIn("expected a matrix", str(caught.exception))


class Commands(unittest.TestCase):
    """`torchlet code`, `graph` and `run` without inputs, on an archive torch wrote."""

    def setUp(self):
        require_environment(self)

    def test_code_graph_and_timed_runs(self):
        import re
        import zipfile
        torch.manual_seed(6)
        scripted = torch.jit.script(Gated().eval())
        with tempfile.TemporaryDirectory() as tmp:
            archive = pathlib.Path(tmp) / "gated.pt"
            torch.jit.save(scripted, str(archive))
            with zipfile.ZipFile(archive) as z:
                name = next(n for n in z.namelist() if n.endswith("code/__torch__/test_script.py"))
                torch_code = z.read(name).decode()
            code = run("code", archive).stdout
            self.assertEqual(code, torch_code)  # torch's own text of the module's class
            gate = run("code", archive, "--method", "gate").stdout
            self.assertTrue(gate.startswith("  def gate(self: __torch__.test_script.Gated,\n"), gate)
            self.assertIn(gate, torch_code)
            self.assertNotIn("def forward", gate)
            graph = run("graph", archive).stdout
            self.assertTrue(graph.startswith("graph(%self"), graph)
            loaded = torch.jit.load(str(archive))
            ops = lambda text: sorted(set(re.findall(r"(?:aten|prim)::\w+", text)))
            self.assertEqual(ops(graph), ops(str(loaded.forward.graph)))
            out = pathlib.Path(tmp) / "out.pt"
            inputs = pathlib.Path(tmp) / "in.pt"
            torch.save((torch.randn(2, 6), 0.5), inputs)
            timed = run("run", archive, "--inputs", inputs, "--output", out, "--repeat", "3", "--threads", "1").stdout
            self.assertRegex(timed, r"3 more calls: median [0-9.]+ ms, min [0-9.]+ ms")
            (x, bias) = torch.load(inputs)
            with torch.no_grad():
                torch.testing.assert_close(torch.load(out), scripted(x, bias), rtol=1e-5, atol=1e-5)
            # inspect: the module tree, schemas, parameters with shapes, attributes, extras.
            with_extra = pathlib.Path(tmp) / "gated_extra.pt"
            torch.jit.save(scripted, str(with_extra), _extra_files={"meta.json": "{}"})
            shown = run("inspect", with_extra).stdout
            self.assertIn("def gate(__torch__.test_script.Gated self, Tensor x, int k) -> Tensor", shown)
            self.assertIn("  proj (", shown)
            self.assertIn("parameter weight: Tensor = float32 [6, 6]", shown)
            self.assertIn("attribute steps: List[int] = [1, 2, 3]", shown)
            self.assertIn("extra file meta.json (2 bytes)", shown)
            # Without --inputs, a forward of tensors only gets random inputs of --shape.
            resnet = pathlib.Path(tmp) / "lin.pt"
            torch.jit.save(torch.jit.script(torch.nn.Linear(4, 3)), str(resnet))
            result = pathlib.Path(tmp) / "lin.out.pt"
            run("run", resnet, "--shape", "2,4", "--output", result)
            self.assertEqual(torch.load(result).shape, (2, 3))
            huge = run("run", resnet, "--shape", "70000,70000,3", check=False)
            self.assertEqual(huge.returncode, 2)
            self.assertIn("more than 2^31 elements", huge.stderr)

    def test_graph_of_source(self):
        # `torchlet graph SOURCE.py`: every function's graph, as CompilationUnit(src).f.graph;
        # the unannotated returns inside loops get the type torch infers.
        import re
        source = ("from typing import List\n\n"
                  "def first_over(xs: List[int], t: int):\n"
                  "    for v in xs:\n"
                  "        if v > t:\n"
                  "            return v\n\n"
                  "def scaled(x, k: int):\n"
                  "    for i in range(4):\n"
                  "        if i == k:\n"
                  "            return x * i\n"
                  "    return x\n")
        cu = torch.jit.CompilationUnit(source.split("\n\n", 1)[1])
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "funcs.py"
            path.write_text(source)
            printed = run("graph", path).stdout
            self.assertTrue(printed.startswith("# first_over\ngraph(%xs : int[],\n      %t : int):\n"), printed)
            parts = printed.split("\n# scaled\n")
            self.assertEqual(len(parts), 2, printed)
            ops = lambda text: sorted(set(re.findall(r"(?:aten|prim)::\w+", text)))
            returns = lambda text: re.findall(r"%\w+ : ([^ ]+) = prim::If", text)[-1]
            for text, fn in zip(parts, (cu.first_over, cu.scaled)):
                torch_ops = set(ops(str(fn.graph))) - {"prim::Constant"}
                self.assertTrue(torch_ops - {"aten::add", "aten::lt", "aten::__and__"} <= set(ops(text)), text)
                self.assertEqual(returns(text), str(fn.schema.returns[0].type).replace("Optional[int]", "int?"), text)
            only = run("graph", path, "--method", "scaled").stdout
            self.assertEqual(only, parts[1])
            self.assertEqual(run("graph", path, "--method", "nope", check=False).returncode != 0, True)


class WithState(torch.nn.Module):
    """__getstate__/__setstate__ that change what they carry, so a save that wrote the
    attributes instead of the state (or a load that skipped __setstate__) shows."""

    def __init__(self):
        super().__init__()
        self.scale = 2.0
        self.name = "w"
        self.weight = torch.nn.Parameter(torch.arange(3.0))

    @torch.jit.export
    def __getstate__(self) -> Tuple[float, str, torch.Tensor, bool]:
        return (self.scale, self.name + "!", self.weight, self.training)

    @torch.jit.export
    def __setstate__(self, state: Tuple[float, str, torch.Tensor, bool]):
        self.scale = state[0] * 10
        self.name = state[1]
        self.weight = state[2]
        self.training = state[3]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.scale + self.weight


class ScriptSaveState(unittest.TestCase):
    def setUp(self):
        require_environment(self)

    def test_getstate_modules_resave_like_torchs_own_resave(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "in.pt"
            ours = pathlib.Path(tmp) / "ours.pt"
            theirs = pathlib.Path(tmp) / "theirs.pt"
            torch.jit.save(torch.jit.script(WithState()), str(src))
            run("convert", src, ours)
            torch.jit.save(torch.jit.load(str(src)), str(theirs))
            a, b = torch.jit.load(str(ours)), torch.jit.load(str(theirs))
            self.assertEqual((a.scale, a.name), (b.scale, b.name))
            self.assertEqual(a.scale, 200.0)  # __setstate__ ran at both loads
            x = torch.ones(3)
            with torch.no_grad():
                torch.testing.assert_close(a(x), b(x), rtol=0, atol=0)


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


class PrintedArchives(unittest.TestCase):
    """The python printer: `torchlet script` compiles a source with classes, NamedTuples,
    loops that break and return, Optional refinement, dicts, strings and fork, and writes
    torch-style code; real torch.jit.load compiles that code and every function computes
    what torch's own compilation of the source computes. torch's re-save of the archive
    runs in torchlet with the same results."""

    SOURCE = '''from typing import Dict, List, NamedTuple, Optional, Tuple
import torch


class Stats(NamedTuple):
    count: int
    total: float


class Accumulator:
    def __init__(self, start: float):
        self.total = start
        self.seen: List[float] = []

    def add(self, v: float) -> float:
        self.total += v
        self.seen.append(v)
        return self.total


def first_over(xs: List[int], limit: int) -> int:
    for i in range(len(xs)):
        if xs[i] > limit:
            return i
    return -1


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
        if steps > 1000:
            break
    return steps


def summarize(values: List[float], scale: float = 2.5) -> Stats:
    acc = Accumulator(0.0)
    for v in values:
        acc.add(v * scale)
    return Stats(len(acc.seen), acc.total)


def lookup(table: Dict[str, int], key: Optional[str] = None) -> str:
    if key is None:
        return "none"
    if key in table:
        return "{}={}".format(key, table[key])
    parts: List[str] = []
    for k in sorted(table.keys()):
        parts.append(k.upper())
    return ",".join(parts)


def rows(x: torch.Tensor, k: int) -> Tuple[List[List[float]], List[int], torch.Tensor]:
    # tolist() prints as annotate(...) (torchlet printed ops.prim.tolist, which it then
    # could not load); ellipsis indices; list() of a range; an in-place list +=.
    y = x.clone()
    y[..., 0] += 10.0
    out: List[List[float]] = y.tolist()
    picked = list(range(k))
    alias = picked
    picked += [k]
    return out, alias, y[..., None, 1:]


def managed(x: torch.Tensor, n: int) -> Tuple[torch.Tensor, bool, List[int]]:
    # with statements print as torch prints them, and torch.no_grad's and
    # record_function's classes are printed into the archive from torchlet's copies.
    seen: List[int] = []
    with torch.no_grad():
        y = x * 2
        mode = torch.is_grad_enabled()
    for i in range(n):
        with torch.autograd.profiler.record_function("step"):
            if i == 1:
                continue
            if i == 3:
                break
            seen.append(i)
    with torch.no_grad():
        if n > 4:
            return y, mode, seen
    return y - 1, mode, seen


def mix(x: torch.Tensor, w: Optional[torch.Tensor] = None, n: int = 3) -> Tuple[torch.Tensor, int]:
    fut = torch.jit.fork(collatz, n)
    y = torch.relu(x) * 2.0 - 1
    if w is not None:
        y = y + w
    y = torch.softmax(y / 3, dim=-1)
    return torch.sum(y, dim=[0], keepdim=True) + x.mean(), torch.jit.wait(fut)
'''

    CALLS = {
        "first_over": ([3, 1, 7, 9], 5),
        "collatz": (27,),
        "summarize": ([1.0, 2.5, -3.0],),
        "lookup": ({"b": 2, "a": 1}, "zz"),
        "rows": (torch.arange(6.0).reshape(2, 3), 3),
        "managed": (torch.arange(3.0), 5),
        "mix": (torch.arange(6.0).reshape(2, 3) - 2, torch.ones(3)),
    }

    def setUp(self):
        require_environment(self)

    def assert_same(self, got, want):
        if isinstance(want, torch.Tensor):
            torch.testing.assert_close(got, want)
        elif isinstance(want, tuple):
            self.assertEqual(len(got), len(want))
            for g, w in zip(got, want):
                self.assert_same(g, w)
        else:
            self.assertEqual(got, want)

    @staticmethod
    def torch_compiled(path):
        """The oracle: torch.jit.script of every function of the source, imported as a
        module (torch compiles from the file's text, classes included)."""
        import importlib.util
        import sys
        import types
        spec = importlib.util.spec_from_file_location("torchlet_printed_prog", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
            return types.SimpleNamespace(**{
                name: torch.jit.script(getattr(module, name))
                for name in PrintedArchives.CALLS})
        finally:
            del sys.modules[spec.name]

    def test_every_function_runs_in_torch_like_torchs_compilation_and_back(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "prog.py"
            out = pathlib.Path(tmp) / "prog.pt"
            src.write_text(self.SOURCE)
            reference = self.torch_compiled(src)
            run("script", src, "-o", out, "--function", "mix")
            loaded = torch.jit.load(str(out))
            code = loaded.code  # forward, printed by torch from the graph it compiled
            self.assertIn("mix", code)
            for name, args in self.CALLS.items():
                with self.subTest(function=name):
                    self.assert_same(getattr(loaded, name)(*args), getattr(reference, name)(*args))
            self.assert_same(loaded(torch.ones(2, 3)), reference.mix(torch.ones(2, 3)))
            # torch's re-save of torchlet's archive, run by torchlet.
            resaved = pathlib.Path(tmp) / "resaved.pt"
            torch.jit.save(loaded, str(resaved))
            for name, args in self.CALLS.items():
                with self.subTest(resaved=name):
                    inputs = pathlib.Path(tmp) / f"{name}.in.pt"
                    result = pathlib.Path(tmp) / f"{name}.out.pt"
                    torch.save(args, inputs)
                    run("run", resaved, "--method", name, "--inputs", inputs, "--save", result)
                    self.assert_same(torch.load(result), getattr(reference, name)(*args))

    def test_printed_code_reads_like_torchs(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "prog.py"
            out = pathlib.Path(tmp) / "prog.pt"
            src.write_text(self.SOURCE)
            run("script", src, "-o", out)
            import zipfile
            with zipfile.ZipFile(out) as z:
                names = z.namelist()
                code = z.read(next(n for n in names if n.endswith("code/__torch__.py"))).decode()
                version = z.read(next(n for n in names if n.endswith("/version"))).decode()
        self.assertIn("class Stats(NamedTuple):\n  count : int\n  total : float\n", code)
        self.assertIn("class Accumulator:\n  total : float\n  seen : List[float]\n", code)
        self.assertIn("def summarize(values: List[float],\n    scale: float=2.5) -> __torch__.Stats:\n", code)
        self.assertIn("__torch__.Accumulator.__new__(__torch__.Accumulator)", code)
        self.assertIn("fork(__torch__.collatz, n)", code)
        self.assertIn("torch.softmax(torch.div(y0, 3), -1)", code)  # dtype=None left out
        self.assertEqual(version, "4\n")  # torch.div on tensors
        # with statements, and the classes of the context managers torch's library defines
        self.assertRegex(code, r"\n  with _\d+:\n    y = torch.mul\(x, 2\)\n")
        for module in ("grad_mode", "profiler"):
            self.assertTrue(any(n.endswith(f"code/__torch__/torch/autograd/{module}.py") for n in names), names)


class ScriptFunctional(unittest.TestCase):
    """torch.nn.functional in source `torchlet script` compiles (Note [torch.nn.functional]
    in jit/frontend/calls.cpp): its Python-level functions become functions of the archive
    (code/__torch__/torch/nn/functional.py, as torch writes them), which real torch loads
    and runs with the results of torch.jit.script of the same source; torch's re-save of
    the archive runs in torchlet with the same results again."""

    SOURCE = '''from typing import List, Tuple
import torch
import torch.nn.functional as F


def features(x: torch.Tensor, t: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    y = F.relu(x, inplace=False) + F.dropout(x, 0.25, training=False)
    up = F.interpolate(y, scale_factor=2.0, mode="bilinear", align_corners=False)
    pooled, where = F.max_pool2d(up, 2, return_indices=True)
    small = F.adaptive_avg_pool2d(pooled, 1).flatten(1)
    e = F.embedding(t, x.flatten(1), padding_idx=0)
    loss = F.cross_entropy(x.flatten(1)[:, :4], t, label_smoothing=0.1) + F.mse_loss(small, small * 2, reduction="sum")
    # torch.tensordot is torch.functional's Python; in archives it is the operator. With
    # an int known only at run time it is torch.functional.tensordot, a function of the
    # archive (code/__torch__/torch/functional.py).
    flat = x.flatten(1)
    runtime_dims = torch.tensordot(flat, flat.t(), int(t.numel()) - 1).sum()
    return F.normalize(small, dim=1), where, e.sum(1), loss + torch.tensordot(small, small) + runtime_dims
'''

    def setUp(self):
        require_environment(self)

    @staticmethod
    def torch_compiled(path):
        """The oracle: torch.jit.script of `features`, imported from the file."""
        import importlib.util
        import sys
        spec = importlib.util.spec_from_file_location("torchlet_functional_prog", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
            return torch.jit.script(module.features)
        finally:
            del sys.modules[spec.name]

    # The same kind of program written with import aliases (module_aliases.h): each
    # alias means what torch's Python globals make it mean; a parameter named like one
    # (m in scale) keeps its local meaning.
    ALIASED_SOURCE = '''import torch as th
import torch.nn.functional as nnf
from torch import nn
from torch.nn import functional
from torch.nn.functional import gelu, relu as rectify
import math as m
from math import sqrt
from typing import List


def scale(m: float) -> float:
    return m * sqrt(2.0)


def features(x: th.Tensor, t: th.Tensor) -> List[th.Tensor]:
    y = nnf.relu(x) + nn.functional.gelu(x) + rectify(x) * m.pi + functional.silu(x)
    out = th.jit.annotate(List[th.Tensor], [])
    out.append(gelu(y) * scale(0.5))
    out.append(th.sigmoid(y).to(th.float64) + nnf.one_hot(t, 3).sum())
    return out
'''

    def test_functional_calls_run_in_torch_like_torchs_compilation_and_back(self):
        names = self.check_script_round_trip(self.SOURCE)
        self.assertTrue(any(n.endswith("code/__torch__/torch/functional.py") for n in names), names)

    def test_import_aliases_mean_what_they_mean_in_torch(self):
        self.check_script_round_trip(self.ALIASED_SOURCE)

    def check_script_round_trip(self, source):
        import zipfile
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "fprog.py"
            out = pathlib.Path(tmp) / "fprog.pt"
            src.write_text(source)
            run("script", src, "-o", out, "--function", "features")
            with zipfile.ZipFile(out) as z:
                names = z.namelist()
            self.assertTrue(any(n.endswith("code/__torch__/torch/nn/functional.py") for n in names), names)
            loaded = torch.jit.load(str(out))
            reference = self.torch_compiled(src)
            gen = torch.Generator().manual_seed(5)
            args = (torch.randn(2, 3, 4, 4, generator=gen), torch.tensor([1, 0]))
            want = reference(*args)
            got = loaded(*args)
            self.assertEqual(len(got), len(want))
            for g, w in zip(got, want):
                torch.testing.assert_close(g, w)
            resaved = pathlib.Path(tmp) / "resaved.pt"
            torch.jit.save(loaded, str(resaved))
            inputs, result = pathlib.Path(tmp) / "in.pt", pathlib.Path(tmp) / "out.pt"
            torch.save(args, inputs)
            run("run", resaved, "--inputs", inputs, "--save", result)
            for g, w in zip(torch.load(result), want):
                torch.testing.assert_close(g, w)
            return names
