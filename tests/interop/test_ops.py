"""`torchlet ops` against torch 1.13's own operator registry: every schema torchlet
lists is one of torch's (printed identically), and `torchlet ops --coverage` counts,
per namespace, exactly the torch schemas whose name.overload torchlet registers."""
import collections
import unittest

import torch
import torchvision  # noqa: F401  (registers the torchvision:: operators torchlet has too)

from torchlet_harness import BIN, FIXTURES, require_environment, run


def key(schema: str) -> str:
    return schema[:schema.index("(")]


class Ops(unittest.TestCase):
    def setUp(self):
        require_environment(self)
        self.torch_schemas = [str(s) for s in torch._C._jit_get_all_schemas()]

    def test_help_lists_ops(self):
        self.assertIn("  ops ", run("--help").stdout)

    def test_every_listed_schema_is_torchs(self):
        listed = run("ops").stdout.splitlines()
        self.assertGreater(len(listed), 1000)
        self.assertEqual(listed, sorted(listed))
        self.assertEqual(len(listed), len(set(listed)))
        missing = sorted(set(listed) - set(self.torch_schemas))
        self.assertEqual(missing, [], "schemas torch 1.13 does not have")
        # The builtins and model operators the brief names are there.
        for k in ["aten::add.int", "aten::floordiv.int", "aten::__getitem__.t", "aten::append.t",
                  "aten::len.t", "aten::format", "aten::split.str", "aten::join", "aten::dict",
                  "aten::keys.str", "aten::__is__", "prim::Print", "aten::conv2d", "aten::batch_norm",
                  "aten::relu", "aten::max_pool2d", "aten::adaptive_avg_pool2d", "aten::flatten.using_ints",
                  "aten::linear", "aten::addmm", "aten::matmul", "aten::cat", "aten::view",
                  "aten::softmax.int", "aten::layer_norm", "aten::gelu", "aten::to.dtype", "aten::zeros",
                  "aten::arange.start_step"]:
            self.assertIn(k, {key(s) for s in listed}, k)

    def test_coverage_counts_match_the_dump(self):
        dump = FIXTURES / "ir" / "schemas.txt"
        out = run("ops", "--coverage", dump).stdout.splitlines()
        self.assertEqual(out[0].split(), ["namespace", "covered", "listed", "percent"])
        rows = {line.split()[0]: (int(line.split()[1]), int(line.split()[2])) for line in out[1:]}
        registered = {key(s) for s in run("ops").stdout.splitlines()}
        expected = collections.defaultdict(lambda: [0, 0])
        keys = {key(line) for line in dump.read_text().splitlines() if "(" in line}
        for k in keys:
            ns = k.split("::")[0]
            expected[ns][1] += 1
            expected[ns][0] += k in registered
        for ns, (covered, listed) in expected.items():
            self.assertEqual(rows[ns], (covered, listed), ns)
        self.assertEqual(rows["total"], (sum(c for c, _ in expected.values()), len(keys)))
        self.assertEqual(rows["total"][0], len(registered & keys))

    def test_missing_coverage_file_is_a_one_line_error(self):
        proc = run("ops", "--coverage", "/nonexistent/schemas.txt", check=False)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("cannot open '/nonexistent/schemas.txt'", proc.stderr)


if __name__ == "__main__":
    unittest.main()
