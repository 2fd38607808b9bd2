"""Shape and dtype propagation against what torch computes: each graph below takes
inputs of complete types (dtype and sizes) and returns every tensor it makes; torch
runs it on tensors of those types, and `torchlet graph FILE.ir --passes
propagate_shapes` must give each returned value exactly the dtype and sizes torch's
result has. The graphs stay within the operators the shape rules know, so a value left
without complete details is a failure too: a rule that stops answering is caught, not
only one that answers wrong.

torch's own legacy pass (_jit_pass_complete_shape_analysis) is no oracle: on these
graphs it types a Long / Int true division as Long, where(bool, Float, Double) as Float
and unsqueeze(x, -1) of a (2, 3, 4) tensor as (2, 3, 1, 4); running the graph is."""
import re
import tempfile
import pathlib
import unittest

import torch

import torchlet_harness as h

# ScalarType numbers as IR constants spell them.
LONG, FLOAT, DOUBLE = 4, 6, 7


def type_text(t):
    dtype = {torch.float32: "Float", torch.float64: "Double", torch.int64: "Long", torch.int32: "Int",
             torch.bool: "Bool", torch.uint8: "Byte"}[t.dtype]
    return f"{dtype}({', '.join(map(str, t.shape))}, strides={list(t.stride())}, requires_grad=0, device=cpu)"


CASES = {
    # Elementwise promotion: tensor-tensor, tensor-scalar (a scalar never lifts a tensor's
    # category unless it is of a higher one), true division of integers, comparisons.
    "promotion": ({"f": torch.randn(2, 3), "d": torch.randn(3, dtype=torch.float64),
                   "l": torch.arange(6).view(2, 3), "bo": torch.ones(2, 1, dtype=torch.bool),
                   "i": torch.arange(1, 4, dtype=torch.int32)}, """
  %one : int = prim::Constant[value=1]()
  %half : float = prim::Constant[value=0.5]()
  %a : Tensor = aten::add(%f, %d, %one)
  %b : Tensor = aten::mul(%l, %i)
  %c : Tensor = aten::mul(%l, %half)
  %e : Tensor = aten::add(%b, %one, %one)
  %g : Tensor = aten::div(%l, %i)
  %k : Tensor = aten::eq(%f, %l)
  %m : Tensor = aten::lt(%l, %half)
  %n : Tensor = aten::where(%bo, %f, %d)
  %o : Tensor = aten::mul(%bo, %bo)
  %p : Tensor = aten::add(%bo, %i, %one)
  %q : Tensor = aten::floor_divide(%l, %i)
  %r : Tensor = aten::sigmoid(%l)
  %s : Tensor = aten::neg(%i)
  %u : Tensor = aten::abs(%f)
  %v : Tensor = aten::relu(%l)
  %w : Tensor = aten::exp(%i)
"""),
    # Reductions and dtype arguments.
    "reductions": ({"f": torch.randn(2, 3, 4), "l": torch.arange(6).view(2, 3)}, """
  %none : NoneType = prim::Constant()
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %m1 : int = prim::Constant[value=-1]()
  %double : int = prim::Constant[value=7]()
  %d1 : int[] = prim::ListConstruct(%one)
  %d01 : int[] = prim::ListConstruct(%zero, %m1)
  %a : Tensor = aten::sum(%f, %d1, %false, %none)
  %b : Tensor = aten::sum(%f, %d01, %true, %none)
  %c : Tensor = aten::sum(%l, %none)
  %e : Tensor = aten::sum(%l, %d1, %false, %double)
  %g : Tensor = aten::mean(%f, %d1, %true, %none)
  %k : Tensor = aten::softmax(%f, %m1, %none)
  %n : Tensor = aten::softmax(%f, %one, %double)
  %o : Tensor = aten::log_softmax(%f, %zero, %none)
"""),
    # Views and shape arithmetic.
    "views": ({"f": torch.randn(2, 3, 4), "v": torch.randn(4)}, """
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %m1 : int = prim::Constant[value=-1]()
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %s1 : int[] = prim::ListConstruct(%m1, %two)
  %a : Tensor = aten::view(%f, %s1)
  %s2 : int[] = prim::ListConstruct(%three, %m1)
  %b : Tensor = aten::reshape(%f, %s2)
  %c : Tensor = aten::flatten(%f, %one, %m1)
  %e : Tensor = aten::flatten(%f, %zero, %m1)
  %pd : int[] = prim::ListConstruct(%two, %zero, %one)
  %g : Tensor = aten::permute(%f, %pd)
  %k : Tensor = aten::transpose(%f, %zero, %two)
  %n : Tensor = aten::unsqueeze(%f, %m1)
  %o : Tensor = aten::squeeze(%n, %m1)
  %p : Tensor = aten::select(%f, %one, %m1)
  %q : Tensor = aten::slice(%f, %two, %one, %none, %two)
  %r : Tensor = aten::slice(%f, %zero, %none, %none, %one)
  %es : int[] = prim::ListConstruct(%three, %m1)
  %t : Tensor = aten::expand(%v, %es, %false)
  %u : Tensor = aten::t(%c)
  %tl : Tensor[] = prim::ListConstruct(%f, %f)
  %w : Tensor = aten::cat(%tl, %one)
  %x : Tensor = aten::stack(%tl, %two)
  %y : Tensor = aten::stack(%tl, %zero)
"""),
    # Linear algebra.
    "matmul": ({"a": torch.randn(2, 3), "b": torch.randn(3, 5), "v": torch.randn(3),
                "ba": torch.randn(4, 2, 3), "bb": torch.randn(4, 3, 5), "bias": torch.randn(5),
                "w": torch.randn(5, 3)}, """
  %one : int = prim::Constant[value=1]()
  %a1 : Tensor = aten::matmul(%a, %b)
  %a2 : Tensor = aten::matmul(%a, %v)
  %a3 : Tensor = aten::matmul(%v, %b)
  %a4 : Tensor = aten::matmul(%ba, %b)
  %a5 : Tensor = aten::matmul(%ba, %bb)
  %a6 : Tensor = aten::mm(%a, %b)
  %a7 : Tensor = aten::bmm(%ba, %bb)
  %a8 : Tensor = aten::addmm(%bias, %a, %b, %one, %one)
  %a9 : Tensor = aten::linear(%a, %w, %bias)
  %a10 : Tensor = aten::linear(%ba, %w, %bias)
  %a11 : Tensor = aten::matmul(%v, %v)
"""),
    # Convolution and pooling, with padding, strides, groups and ceil mode.
    "conv_pool": ({"x": torch.randn(1, 4, 10, 10), "w": torch.randn(6, 2, 3, 3), "bias": torch.randn(6),
                   "x1": torch.randn(2, 3, 10), "w1": torch.randn(5, 3, 4)}, """
  %none : NoneType = prim::Constant()
  %false : bool = prim::Constant[value=0]()
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %s2 : int[] = prim::ListConstruct(%two, %two)
  %p1 : int[] = prim::ListConstruct(%one, %one)
  %d1 : int[] = prim::ListConstruct(%one, %one)
  %k3 : int[] = prim::ListConstruct(%three, %three)
  %c : Tensor = aten::conv2d(%x, %w, %bias, %s2, %p1, %d1, %two)
  %s1l : int[] = prim::ListConstruct(%two)
  %p0l : int[] = prim::ListConstruct(%zero)
  %d1l : int[] = prim::ListConstruct(%one)
  %c1 : Tensor = aten::conv1d(%x1, %w1, %none, %s1l, %p0l, %d1l, %one)
  %m : Tensor = aten::max_pool2d(%x, %k3, %s2, %p1, %d1, %false)
  %mc : Tensor = aten::max_pool2d(%x, %k3, %s2, %p1, %d1, %true)
  %av : Tensor = aten::avg_pool2d(%x, %k3, %s2, %p1, %true, %true, %none)
  %o2 : int[] = prim::ListConstruct(%two, %three)
  %ad : Tensor = aten::adaptive_avg_pool2d(%x, %o2)
  %relu : Tensor = aten::relu(%c)
"""),
    # Factories, conversions and lookups.
    "factories": ({"f": torch.randn(2, 3), "l": torch.arange(4), "table": torch.randn(10, 3)}, """
  %none : NoneType = prim::Constant()
  %false : bool = prim::Constant[value=0]()
  %m1 : int = prim::Constant[value=-1]()
  %two : int = prim::Constant[value=2]()
  %five : int = prim::Constant[value=5]()
  %long : int = prim::Constant[value=4]()
  %double : int = prim::Constant[value=7]()
  %size : int[] = prim::ListConstruct(%two, %five)
  %a : Tensor = aten::zeros(%size, %none, %none, %none, %none)
  %b : Tensor = aten::ones(%size, %long, %none, %none, %none)
  %c : Tensor = aten::ones_like(%f, %none, %none, %none, %none, %none)
  %e : Tensor = aten::zeros_like(%f, %double, %none, %none, %none, %none)
  %g : Tensor = aten::to(%f, %double, %false, %false, %none)
  %k : Tensor = aten::type_as(%l, %f)
  %n : Tensor = aten::embedding(%table, %l, %m1, %false, %false)
"""),
}


def graph_text(inputs, body):
    """The case's graph: its inputs typed completely, its body, and a tuple of every
    tensor the body defines as the result (in order)."""
    decl = ",\n      ".join(f"%{name} : {type_text(t)}" for name, t in inputs.items())
    made = re.findall(r"^\s*%(\w+) : Tensor = ", body, re.M)
    ret = ", ".join(f"%{v}" for v in made)
    return (f"graph({decl}):\n{body.strip(chr(10))}\n"
            f"  %result : ({', '.join(['Tensor'] * len(made))}) = prim::TupleConstruct({ret})\n"
            f"  return (%result)\n"), made


def details(type_str):
    """(dtype, sizes) of a printed tensor type; None for what it leaves unknown."""
    m = re.fullmatch(r"(\w+)(?:\((.*)\))?", type_str)
    if not m or m.group(1) in ("Tensor",):
        sizes = None
        if m and m.group(2):
            sizes = [s for s in m.group(2).split(", ") if "=" not in s] or None
        return None, sizes
    dtype = m.group(1)
    if dtype.endswith("Tensor") and not m.group(2):  # FloatTensor: dtype without rank
        return dtype[:-len("Tensor")], None
    inner = m.group(2) or ""
    inner = re.sub(r"strides=\[[^\]]*\]", "", inner)
    sizes = [s.strip() for s in inner.split(",") if s.strip() and "=" not in s]
    return dtype, sizes


def printed_types(text):
    """Every `%name : TYPE = ` line's type, by value name."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^\s*%([\w.]+) : (\S.*?) = ", text, re.M)}


class ShapePropagationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        h.require_environment(self)

    def torchlet_types(self, name, text):
        path = pathlib.Path(self.tmp.name) / f"{name}.ir"
        path.write_text(text)
        return printed_types(h.run("graph", path, "--passes", "propagate_shapes").stdout)

    def test_types_are_what_torch_computes(self):
        for name, (inputs, body) in CASES.items():
            with self.subTest(name):
                text, made = graph_text(inputs, body)
                fn = torch._C._create_function_from_graph(name, torch._C.parse_ir(text))
                results = fn(*inputs.values())
                ours = self.torchlet_types(name, text)
                self.assertEqual(len(results), len(made))
                for value, result in zip(made, results):
                    dtype, sizes = details(ours[value])
                    want_dtype = type_text(result).split("(")[0]
                    self.assertEqual(dtype, want_dtype, f"%{value} : {ours[value]}")
                    self.assertEqual(sizes, [str(s) for s in result.shape], f"%{value} : {ours[value]}")


if __name__ == "__main__":
    unittest.main()
