"""Shared helpers for interop tests: where the torchlet binary and fixtures are, running
the CLI, and comparing loaded objects with torch's strictness (types, key order,
dtypes, shapes, strides, offsets, bits, requires_grad, storage sharing)."""
import collections
import os
import pathlib
import subprocess

import torch

BIN = os.environ.get("TORCHLET_BIN", "")
FIXTURES = pathlib.Path(os.environ.get("TORCHLET_FIXTURES", ""))


def require_environment(test):
    test.assertTrue(BIN and os.path.exists(BIN), f"TORCHLET_BIN not set or missing: {BIN!r}")
    test.assertTrue(FIXTURES.is_dir(), f"fixtures missing: {FIXTURES}")


def run(*args, check=True):
    proc = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"torchlet {' '.join(map(str, args))} failed ({proc.returncode}):\n"
                             f"{proc.stdout}\n{proc.stderr}")
    return proc


def tensor_bits(t):
    # Through numpy's buffer, not a list of Python ints: the atomic-save test compares
    # 192 MiB per outcome, and tolist() took 73 of its 90 seconds.
    return t.detach().contiguous().view(-1).view(torch.uint8).numpy().tobytes()


def assert_same(test, a, b, path="root", storages=None):
    """a (what torch wrote) and b (what torchlet wrote back) must be equal in every way
    torch.load can observe; `storages` pairs storage identities between a and b."""
    if storages is None:
        storages = {}
    test.assertIs(type(a), type(b), f"{path}: {type(a)} vs {type(b)}")
    if isinstance(a, torch.Tensor):
        test.assertEqual(a.dtype, b.dtype, path)
        test.assertEqual(a.shape, b.shape, path)
        test.assertEqual(a.stride(), b.stride(), path)
        test.assertEqual(a.storage_offset(), b.storage_offset(), path)
        test.assertEqual(a.requires_grad, b.requires_grad, path)
        test.assertEqual(tensor_bits(a), tensor_bits(b), f"{path}: tensor bytes differ")
        sa, sb = a.storage().data_ptr(), b.storage().data_ptr()
        test.assertEqual(len(a.storage()), len(b.storage()), f"{path}: storage sizes")
        if sa in storages:
            test.assertEqual(storages[sa], sb, f"{path}: storage sharing differs")
        else:
            test.assertNotIn(sb, storages.values(), f"{path}: storages merged")
            storages[sa] = sb
    elif isinstance(a, dict):
        test.assertEqual(list(a.keys()), list(b.keys()), path)
        for k in a:
            assert_same(test, a[k], b[k], f"{path}[{k!r}]", storages)
        test.assertEqual(getattr(a, "__dict__", {}).keys(), getattr(b, "__dict__", {}).keys(), path)
        for k, v in getattr(a, "__dict__", {}).items():
            assert_same(test, v, b.__dict__[k], f"{path}.{k}", storages)
    elif isinstance(a, (list, tuple)):
        test.assertEqual(len(a), len(b), path)
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(test, x, y, f"{path}[{i}]", storages)
    elif isinstance(a, float):
        test.assertEqual(repr(a), repr(b), path)  # nan, -0.0 and inf compare by repr
    elif isinstance(a, complex):
        test.assertEqual(repr(a), repr(b), path)
    else:
        test.assertEqual(a, b, path)
