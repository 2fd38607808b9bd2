"""safetensors both ways against real PyTorch. torch 1.13 has no safetensors module, so
this file reads and writes the format itself with struct + json (an oracle independent
of torchlet's C++): torch.save'd state_dicts converted by `torchlet convert` must hold
torch's tensors bit for bit, laid out byte for byte as the official writer lays them
out; files written here must convert to .pt files torch.load reads back equal."""
import collections
import json
import pathlib
import struct
import tempfile
import unittest

import torch

from torchlet_harness import require_environment, run

# torch dtype -> (safetensors name, position in the official Dtype enum, which the
# official writer sorts on, descending, then by name).
DTYPES = {
    torch.bool: ("BOOL", 0), torch.uint8: ("U8", 4), torch.int8: ("I8", 5), torch.int16: ("I16", 9),
    torch.float16: ("F16", 11), torch.bfloat16: ("BF16", 12), torch.int32: ("I32", 13),
    torch.float32: ("F32", 15), torch.complex64: ("C64", 16), torch.float64: ("F64", 17),
    torch.int64: ("I64", 18),
}
FROM_NAME = {name: dtype for dtype, (name, _) in DTYPES.items()}


def bytes_of(t):
    """A tensor's values as contiguous little-endian bytes (numpy has no bfloat16)."""
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes()


def write_safetensors(path, tensors, metadata=None, entry_order=None):
    """The official writer's layout: sorted by dtype (widest first) then name; compact
    JSON, __metadata__ first, then entries in data order (or `entry_order`, to check a
    reader does not rely on it); spaces pad the header to a multiple of 8."""
    names = sorted(tensors, key=lambda n: (-DTYPES[tensors[n].dtype][1], n.encode()))
    entries, data, offset = {}, [], 0
    for n in names:
        raw = bytes_of(tensors[n])
        entries[n] = {"dtype": DTYPES[tensors[n].dtype][0], "shape": list(tensors[n].shape),
                      "data_offsets": [offset, offset + len(raw)]}
        data.append(raw)
        offset += len(raw)
    header = {}
    if metadata:
        header["__metadata__"] = dict(sorted(metadata.items()))
    for n in entry_order or names:
        header[n] = entries[n]
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    pathlib.Path(path).write_bytes(struct.pack("<Q", len(text)) + text + b"".join(data))


def read_safetensors(path):
    """(header entries in JSON order, metadata, {name: tensor}), checking the layout rules
    the official reader checks."""
    raw = pathlib.Path(path).read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"), object_pairs_hook=collections.OrderedDict)
    metadata = header.pop("__metadata__", {})
    data = raw[8 + n:]
    pos, tensors = 0, collections.OrderedDict()
    for name, e in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        begin, end = e["data_offsets"]
        assert begin == pos, (name, begin, pos)
        dtype = FROM_NAME[e["dtype"]]
        numel = 1
        for d in e["shape"]:
            numel *= d
        assert end - begin == numel * torch.empty((), dtype=dtype).element_size(), name
        chunk = data[begin:end]
        t = torch.empty(e["shape"], dtype=dtype)
        if numel:
            flat = torch.frombuffer(bytearray(chunk), dtype=torch.int16 if dtype == torch.bfloat16 else dtype)
            t = flat.view(dtype).reshape(e["shape"]).clone()
        tensors[name] = t
        pos = end
    assert pos == len(data), "data not exactly covered"
    return list(header.items()), metadata, tensors


def sample_state_dict():
    """A real module's state_dict (an OrderedDict with num_batches_tracked, an int64
    0-d tensor) plus every dtype safetensors and torch 1.13 share, 0-d and empty ones."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.Linear(5, 2))
    sd = model.state_dict()
    for dtype in DTYPES:
        name = str(dtype).split(".")[1]
        base = torch.randn(3, 4) * 50
        sd[f"x.{name}"] = (base > 0) if dtype == torch.bool else base.to(dtype)
        sd[f"x.{name}.scalar"] = torch.tensor(7, dtype=dtype) if dtype != torch.bool else torch.tensor(True)
        sd[f"x.{name}.empty"] = torch.empty(2, 0, dtype=dtype)
    sd["x.float32.special"] = torch.tensor([float("nan"), float("inf"), -0.0, 1e-45])
    sd["unicode.é"] = torch.arange(3)
    return sd


class SafetensorsInterop(unittest.TestCase):
    def setUp(self):
        require_environment(self)
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_tensors_equal(self, expected, got):
        self.assertEqual(list(expected), list(got))
        for k in expected:
            with self.subTest(tensor=k):
                self.assertEqual(expected[k].dtype, got[k].dtype)
                self.assertEqual(expected[k].shape, got[k].shape)
                self.assertEqual(bytes_of(expected[k]), bytes_of(got[k]))

    def test_state_dict_converts_to_torchs_bits_in_the_official_layout(self):
        sd = sample_state_dict()
        src, out = self.dir / "model.pt", self.dir / "model.safetensors"
        torch.save(sd, src)
        proc = run("convert", src, out)
        self.assertEqual(proc.stderr, "")  # nothing shared, nothing to report
        entries, metadata, tensors = read_safetensors(out)
        self.assertEqual(metadata, {"format": "pt"})
        expected = torch.load(src)
        self.assertEqual(sorted(tensors), sorted(expected))
        for k, t in expected.items():
            with self.subTest(tensor=k):
                self.assertEqual(tensors[k].dtype, t.dtype)
                self.assertEqual(tensors[k].shape, t.shape)
                self.assertEqual(bytes_of(tensors[k]), bytes_of(t))
        # Byte for byte what the official writer's rules produce for the same tensors.
        oracle = self.dir / "oracle.safetensors"
        write_safetensors(oracle, expected, {"format": "pt"})
        self.assertEqual(out.read_bytes(), oracle.read_bytes())

    def test_python_written_file_converts_to_a_pt_torch_loads(self):
        tensors = collections.OrderedDict(sample_state_dict())
        src, out = self.dir / "in.safetensors", self.dir / "out.pt"
        # Entries listed in reverse in the JSON: the data's order is the file order.
        order = sorted(tensors, key=lambda n: (-DTYPES[tensors[n].dtype][1], n.encode()))
        write_safetensors(src, tensors, {"format": "pt", "note": "kept only in .safetensors"},
                          entry_order=list(reversed(order)))
        proc = run("convert", src, out)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertIn("__metadata__", proc.stderr)
        got = torch.load(out)
        self.assertIs(type(got), dict)
        self.assert_tensors_equal(collections.OrderedDict((n, tensors[n]) for n in order), got)
        self.assertEqual(list(got), order)  # in file order
        # And the .pt goes back to the same safetensors bytes, less the note.
        back = self.dir / "back.safetensors"
        run("convert", out, back)
        write_safetensors(src, tensors, {"format": "pt"})
        self.assertEqual(back.read_bytes(), src.read_bytes())

    def test_shared_storages_are_reported_once_and_written_as_values(self):
        base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
        sd = collections.OrderedDict(base=base, row=base[1], col=base[:, 2], t=base.t(), same=base,
                                     other=torch.ones(2))
        src, out = self.dir / "shared.pt", self.dir / "shared.safetensors"
        torch.save(sd, src)
        proc = run("convert", src, out)
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn("share", lines[0])
        self.assertIn("4 tensors", lines[0])
        _, _, tensors = read_safetensors(out)
        expected = torch.load(src)
        for k, t in expected.items():
            with self.subTest(tensor=k):
                self.assertEqual(bytes_of(tensors[k]), bytes_of(t))
                self.assertEqual(tensors[k].shape, t.shape)

    def test_converting_twice_gives_identical_bytes(self):
        src = self.dir / "model.pt"
        torch.save(sample_state_dict(), src)
        a, b, c = (self.dir / f"{x}.safetensors" for x in "abc")
        run("convert", src, a)
        run("convert", src, b)
        self.assertEqual(a.read_bytes(), b.read_bytes())
        run("convert", a, c)  # safetensors -> safetensors keeps the bytes too
        self.assertEqual(a.read_bytes(), c.read_bytes())

    def test_non_tensor_values_are_refused_by_name(self):
        cases = {
            "epoch": ({"w": torch.ones(2), "epoch": 3}, "safetensors holds only tensors: 'epoch' is an int"),
            "nested": ({"model": {"w": torch.ones(2)}}, "'model' is a dict"),
            "list root": ([torch.ones(2)], "holds a dict of str -> Tensor"),
        }
        for label, (obj, message) in cases.items():
            with self.subTest(case=label):
                src, out = self.dir / f"{label}.pt", self.dir / f"{label}.safetensors"
                torch.save(obj, src)
                proc = run("convert", src, out, check=False)
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertIn(message, proc.stderr)
                self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
                self.assertFalse(out.exists())

    def test_inspect_lists_header_and_refuses_hostile_files_in_one_line(self):
        src = self.dir / "x.safetensors"
        write_safetensors(src, {"w": torch.zeros(2, 3), "b": torch.zeros(3, dtype=torch.int64)}, {"format": "pt"})
        out = run("inspect", src).stdout
        self.assertIn("'b': I64 [3] data_offsets [0, 24] (24 bytes)", out)
        self.assertIn("'w': F32 [2, 3] data_offsets [24, 48] (24 bytes)", out)
        self.assertIn("'format': 'pt'", out)
        self.assertRegex(out, r"loaded \(mapped\) in [0-9.]+ ms")
        raw = src.read_bytes()
        hostile = {"truncated": raw[:-4], "huge length": struct.pack("<Q", 1 << 40) + raw[8:],
                   "bad json": raw[:8] + b"{\x1b[2J" + raw[13:]}
        for label, data in hostile.items():
            with self.subTest(case=label):
                bad = self.dir / "bad.safetensors"
                bad.write_bytes(data)
                proc = run("inspect", bad, check=False)
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
                self.assertNotIn("\x1b", proc.stderr)


if __name__ == "__main__":
    unittest.main()
