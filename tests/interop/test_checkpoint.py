"""Checkpoints both directions against real PyTorch: every good fixture torch.save wrote
is loaded and re-saved by `torchlet convert`, and real torch.load must see the same
object; every hostile file must be refused cleanly without running anything."""
import collections
import io
import pathlib
import pickletools
import re
import tempfile
import unittest
import zipfile

import torch

from torchlet_harness import FIXTURES, assert_same, require_environment, run


def zip_records(path):
    """{name below the archive's root folder: bytes} of a zip checkpoint."""
    with zipfile.ZipFile(path) as z:
        return {n.split("/", 1)[1]: z.read(n) for n in z.namelist()}


class CheckpointInterop(unittest.TestCase):
    def setUp(self):
        require_environment(self)
        self.good = sorted((FIXTURES / "checkpoint" / "good").glob("*.pt"))
        self.bad = sorted((FIXTURES / "checkpoint" / "bad").glob("*.pt"))
        self.assertGreater(len(self.good), 10)
        self.assertGreater(len(self.bad), 20)

    def test_convert_round_trips_every_fixture(self):
        with tempfile.TemporaryDirectory() as tmp:
            for src in self.good:
                with self.subTest(fixture=src.name):
                    out = pathlib.Path(tmp) / src.name
                    run("convert", src, out)
                    expected = torch.load(src)
                    got = torch.load(out)
                    assert_same(self, expected, got)
                    # And torchlet reads its own output back the same way.
                    again = pathlib.Path(tmp) / ("again_" + src.name)
                    run("convert", out, again)
                    assert_same(self, expected, torch.load(again))

    def test_saved_pickles_and_storages_are_byte_identical_to_torch_save(self):
        """data.pkl and every data/<key> record of a converted zip checkpoint are the bytes
        torch.save wrote, and torch.save of what torch.load reads from torchlet's file
        writes torchlet's data.pkl again."""
        zips = [src for src in self.good if zipfile.is_zipfile(src)]
        self.assertGreater(len(zips), 8)
        with tempfile.TemporaryDirectory() as tmp:
            for src in zips:
                with self.subTest(fixture=src.name):
                    out = pathlib.Path(tmp) / src.name
                    run("convert", src, out)
                    theirs, ours = zip_records(src), zip_records(out)
                    self.assertEqual(theirs["data.pkl"], ours["data.pkl"])
                    storages = sorted(k for k in theirs if k.startswith("data/"))
                    self.assertEqual(storages, sorted(k for k in ours if k.startswith("data/")))
                    for key in storages:
                        self.assertEqual(theirs[key], ours[key], key)
                    resaved = pathlib.Path(tmp) / ("torch_" + src.name)
                    torch.save(torch.load(out), resaved)
                    self.assertEqual(zip_records(resaved)["data.pkl"], ours["data.pkl"])

    def test_dis_prints_what_pickletools_prints(self):
        for src in [s for s in self.good if zipfile.is_zipfile(s)]:
            with self.subTest(fixture=src.name):
                listing = io.StringIO()
                pickletools.dis(zip_records(src)["data.pkl"], out=listing)
                self.assertEqual(run("dis", src).stdout, listing.getvalue())

    def test_saved_files_have_torch_2_records_in_torch_2_order(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "out.pt"
            run("convert", FIXTURES / "checkpoint" / "good" / "views.pt", out)
            with zipfile.ZipFile(out) as z:
                names = [i.filename for i in z.infolist()]
                for info in z.infolist():
                    # the local header's extra field (padding) differs from the central one
                    with open(out, "rb") as f:
                        f.seek(info.header_offset + 28)
                        extra_len = int.from_bytes(f.read(2), "little")
                    data_start = info.header_offset + 30 + len(info.filename.encode()) + extra_len
                    self.assertEqual(data_start % 64, 0, info.filename)
                records = zip_records(out)
            self.assertTrue(all(n.startswith("archive/") for n in names), names)
            self.assertEqual([n.split("/", 1)[1] for n in names],
                             ["data.pkl", ".format_version", ".storage_alignment", "byteorder",
                              "data/0", "version", ".data/serialization_id"])
            self.assertEqual(records[".format_version"], b"1")
            self.assertEqual(records[".storage_alignment"], b"64")
            self.assertEqual(records["byteorder"], b"little")
            self.assertEqual(records["version"], b"3\n")
            self.assertRegex(records[".data/serialization_id"].decode(), r"^[0-9]{40}$")

    def test_storage_alignment_is_the_one_asked_for_and_torch_loads_it(self):
        # torch 2.x's storage_alignment config: each record starts at a multiple of it.
        src = FIXTURES / "checkpoint" / "good" / "views.pt"
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "out.pt"
            run("convert", src, out, "--storage-alignment", "4096")
            with zipfile.ZipFile(out) as z, open(out, "rb") as f:
                for info in z.infolist():
                    f.seek(info.header_offset + 28)
                    extra_len = int.from_bytes(f.read(2), "little")
                    data_start = info.header_offset + 30 + len(info.filename.encode()) + extra_len
                    self.assertEqual(data_start % 4096, 0, info.filename)
            self.assertEqual(zip_records(out)[".storage_alignment"], b"4096")
            assert_same(self, torch.load(out), torch.load(src))
            bad = run("convert", src, out, "--storage-alignment", "48", check=False)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("storage_alignment must be a power of two", bad.stderr)

    def test_saved_files_are_zip_checkpoints_torch_recognises(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "out.pt"
            run("convert", FIXTURES / "checkpoint" / "good" / "legacy_views.pt", out)
            with open(out, "rb") as f:
                self.assertTrue(torch.serialization._is_zipfile(f))
            self.assertEqual(torch.load(out, weights_only=True)["row"].storage_offset(), 6)

    def test_big_endian_checkpoints_are_byte_swapped(self):
        proc = run("inspect", FIXTURES / "checkpoint" / "big_endian.pt", "--mode", "eager")
        self.assertIn("f: float32 [6]", proc.stdout)
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "le.pt"
            run("convert", FIXTURES / "checkpoint" / "big_endian.pt", out)
            got = torch.load(out)
            self.assertEqual(got["f"].tolist(), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
            self.assertEqual(got["h"].tolist(), [0, 1, 2, 3, 4])

    def test_every_load_mode_reads_the_same_values(self):
        src = FIXTURES / "checkpoint" / "good" / "views.pt"
        outputs = {mode: run("inspect", src, "--mode", mode).stdout.split("\n\n")[0]
                   for mode in ("eager", "mapped", "metadata")}
        self.assertEqual(outputs["eager"], outputs["mapped"])
        self.assertEqual(outputs["eager"], outputs["metadata"])

    def test_metadata_mode_reports_where_each_storage_is(self):
        """The offsets `inspect --mode metadata` prints are where Python's zipfile finds
        each data/<key> record's bytes, and those bytes are the storage torch loads."""
        src = FIXTURES / "checkpoint" / "good" / "resnet18.pt"
        proc = run("inspect", src, "--mode", "metadata")
        listed = re.findall(r"^  (data/\d+): (\w+) x (\d+) \((\d+) bytes\) at file offset (\d+)$",
                            proc.stdout, re.M)
        sd = torch.load(src)
        self.assertEqual(len(listed), len({t.storage().data_ptr() for t in sd.values()}))
        raw = src.read_bytes()
        with zipfile.ZipFile(src) as z:
            root = z.namelist()[0].split("/")[0]
            for record, dtype, numel, nbytes, offset in listed:
                info = z.getinfo(f"{root}/{record}")
                local = raw[info.header_offset:info.header_offset + 30]
                start = (info.header_offset + 30 + int.from_bytes(local[26:28], "little") +
                         int.from_bytes(local[28:30], "little"))
                self.assertEqual(int(offset), start, record)
                self.assertEqual(int(nbytes), info.file_size, record)
                self.assertEqual(raw[start:start + int(nbytes)], z.read(info), record)

    def test_deflated_storages_load_and_metadata_mode_leaves_them_unread(self):
        src = FIXTURES / "checkpoint" / "good" / "views.pt"
        with tempfile.TemporaryDirectory() as tmp:
            deflated = pathlib.Path(tmp) / "deflated.pt"
            with zipfile.ZipFile(src) as zin, zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as zout:
                for info in zin.infolist():
                    zout.writestr(info.filename, zin.read(info))
            expected = torch.load(deflated)  # torch reads deflated records too
            out = pathlib.Path(tmp) / "out.pt"
            run("convert", deflated, out)
            assert_same(self, expected, torch.load(out))
            meta = run("inspect", deflated, "--mode", "metadata").stdout
            self.assertIn("(deflated)", meta)
            self.assertEqual(meta.split("\n\n")[0],
                             run("inspect", deflated, "--mode", "eager").stdout.split("\n\n")[0])

    def test_hostile_files_are_refused_without_running_anything(self):
        marker = FIXTURES / "checkpoint" / "PWNED"
        if marker.exists():
            marker.unlink()
        for src in self.bad:
            with self.subTest(fixture=src.name):
                proc = run("inspect", src, "--mode", "eager", check=False)
                self.assertEqual(proc.returncode, 1, f"{src.name}: {proc.stdout} {proc.stderr}")
                self.assertTrue(proc.stderr.startswith("torchlet: "), proc.stderr)
                self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)
                self.assertFalse(marker.exists(), f"{src.name} ran its payload")

    def test_unsafe_globals_are_named(self):
        proc = run("inspect", FIXTURES / "checkpoint" / "bad" / "reduce_os_system.pt", check=False)
        self.assertIn("'os.system'", proc.stderr)
        self.assertIn("unsafe global", proc.stderr)
        scan = run("scan", FIXTURES / "checkpoint" / "bad" / "reduce_os_system.pt", check=False)
        self.assertEqual(scan.returncode, 1)
        self.assertIn("REFUSED  os.system", scan.stdout)
        ok = run("scan", FIXTURES / "checkpoint" / "good" / "state_dict.pt")
        self.assertIn("allowed  torch._utils._rebuild_tensor_v2", ok.stdout)

    def test_specific_errors_name_the_problem(self):
        cases = {
            "setitem_on_list.pt": "only dicts take items",
            "deep_nesting.pt": "nested deeper than",
            "deep_marks.pt": "MARK nesting deeper than",
            "memo_get_unset.pt": "is not in the memo",
            "storage_larger_than_record.pt": "needs 4000 bytes but its record holds 40",
            "tensor_past_storage.pt": "reaches element 14 of a storage with 10 elements",
            "stride_overflow.pt": "overflows",
            "self_reference.pt": "contains itself",
            "huge_binunicode.pt": "declares 2147483647 bytes",
            "ext1.pt": "extension",
            "not_a_checkpoint.pt": "not a PyTorch checkpoint",
            "central_directory_lies.pt": "central directory",
            "deflate_bomb.pt": "can inflate to",
            "inflates_past_declared_size.pt": "declared size",
        }
        for name, needle in cases.items():
            with self.subTest(fixture=name):
                proc = run("inspect", FIXTURES / "checkpoint" / "bad" / name, check=False)
                self.assertIn(needle, proc.stderr)

    def test_torchscript_archives_are_sent_to_the_right_loader(self):
        archive = FIXTURES / "checkpoint" / "torchscript_archive.pt"
        # inspect tells the two apart and shows the archive's module...
        shown = run("inspect", archive).stdout
        self.assertIn("parameter weight: Tensor = float32 [2, 2]", shown)
        # ...while the checkpoint loader (here: --inputs of run) names the right one.
        proc = run("run", archive, "--inputs", archive, check=False)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("TorchScript archive", proc.stderr)
        self.assertIn("torch.jit.load", proc.stderr)

    def test_inert_records_expose_whole_model_pickles(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "model.pt"
            torch.save(torch.nn.Linear(2, 2), path)
            refused = run("inspect", path, check=False)
            self.assertEqual(refused.returncode, 1)
            self.assertIn("torch.nn.modules.linear.Linear", refused.stderr)
            inert = run("inspect", path, "--inert")
            self.assertIn("object torch.nn.modules.linear.Linear", inert.stdout)

    def test_python_values_torch_2_6_allows_by_default_load_and_save_back(self):
        """The Python values torch >= 2.6's weights-only loader allows by default, as torch
        1.13's torch.save writes them (protocol 2: bytes through _codecs.encode, sets through
        __builtin__.set, ...; protocol 4: their own opcodes): torchlet loads them, and what
        it saves torch loads as the same values, the protocol-2 pickle byte for byte."""
        obj = {"ba": bytearray(b"a\xff\x00"), "ba0": bytearray(), "st": {1, "x", (2, 3)},
               "fs": frozenset([2, "y"]), "c": complex(1.5, -2.0), "cnt": collections.Counter("abca"),
               "size": torch.Size([2, 3]), "dev": torch.device("cpu"), "devi": torch.device("cuda", 1),
               "b": b"\x00\xffz", "e": b"", "lay": torch.strided, "t": torch.arange(4.0)}
        with tempfile.TemporaryDirectory() as tmp:
            for proto in (2, 4):
                with self.subTest(pickle_protocol=proto):
                    src = pathlib.Path(tmp) / f"values_p{proto}.pt"
                    torch.save(obj, src, pickle_protocol=proto)
                    shown = run("inspect", src, "--mode", "eager").stdout
                    self.assertIn("cnt: Counter (3 items)", shown)
                    self.assertIn("ba: bytearray(b'a", shown)
                    out = pathlib.Path(tmp) / f"out_p{proto}.pt"
                    run("convert", src, out)
                    assert_same(self, torch.load(src), torch.load(out))
                    assert_same(self, obj, torch.load(out))
                    if proto == 2:
                        self.assertEqual(zip_records(src)["data.pkl"], zip_records(out)["data.pkl"])

    def test_allow_loads_a_named_global_as_an_inert_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "model.pt"
            model = torch.nn.Linear(2, 2)
            torch.save(model, src)
            refused = run("inspect", src, check=False)
            self.assertEqual(refused.returncode, 1)
            self.assertIn("--allow torch.nn.modules.linear.Linear", refused.stderr)
            self.assertIn("LoadOptions::safe_globals", refused.stderr)
            self.assertEqual(refused.stderr.count("\n"), 1, refused.stderr)
            shown = run("inspect", src, "--allow", "torch.nn.modules.linear.Linear",
                        "--allow", "some.Other").stdout
            self.assertIn("object torch.nn.modules.linear.Linear", shown)
            # Saved back from the inert record, torch rebuilds the module itself.
            out = pathlib.Path(tmp) / "out.pt"
            run("convert", src, out, "--allow", "torch.nn.modules.linear.Linear")
            back = torch.load(out)
            self.assertIs(type(back), torch.nn.Linear)
            self.assertTrue(torch.equal(back.weight, model.weight))
            # Allowing another class does not allow this one; torch's blocked modules stay blocked.
            self.assertEqual(run("convert", src, out, "--allow", "torch.nn.Linear", check=False).returncode, 1)
            blocked = run("inspect", FIXTURES / "checkpoint" / "bad" / "reduce_os_system.pt",
                          "--allow", "os.system", check=False)
            self.assertEqual(blocked.returncode, 1)
            self.assertIn("cannot be allowed", blocked.stderr)

    def test_training_checkpoints_with_numpy_and_argparse_inspect_and_save_back(self):
        """What training scripts save beside the weights (numpy arrays and scalars, the
        argparse Namespace of their flags): `inspect --inert` shows them decoded from their
        bytes, and `convert --allow` keeps them as records torch.load rebuilds unchanged."""
        import argparse
        import numpy as np
        model = torch.nn.Linear(3, 2)
        ckpt = {"model": model.state_dict(), "epoch": 7,
                "args": argparse.Namespace(lr=0.05, arch="resnet", steps=[10, 20]),
                "best_acc": np.float64(0.875), "mean": np.array([0.485, 0.456, 0.406], dtype=np.float32),
                "confusion": np.arange(6, dtype=">i8").reshape(2, 3)}
        globals_used = ["numpy.core.multiarray._reconstruct", "numpy.ndarray", "numpy.dtype",
                        "numpy.core.multiarray.scalar", "argparse.Namespace"]
        with tempfile.TemporaryDirectory() as tmp:
            src, out = pathlib.Path(tmp) / "ckpt.pt", pathlib.Path(tmp) / "out.pt"
            torch.save(ckpt, src)
            scan = run("scan", src, check=False)
            self.assertEqual(scan.returncode, 1)
            for g in globals_used:
                self.assertIn(f"REFUSED  {g}", scan.stdout)
            shown = run("inspect", src, "--inert").stdout
            self.assertIn("best_acc: numpy.float64 0.875", shown)
            self.assertIn("mean: numpy.ndarray float32 [3] (12 bytes)", shown)
            self.assertIn("confusion: numpy.ndarray int64 [2, 3] (48 bytes)", shown)
            self.assertIn("args: argparse.Namespace (3 fields)", shown)
            self.assertIn("    lr: 0.05", shown)
            self.assertIn("    arch: 'resnet'", shown)
            allow = [a for g in globals_used for a in ("--allow", g)]
            run("convert", src, out, *allow)
            back, orig = torch.load(out), torch.load(src)  # numpy loads '>i8' as native int64
            self.assertEqual(back["args"], ckpt["args"])
            self.assertEqual(type(back["best_acc"]), np.float64)
            self.assertEqual(back["best_acc"], ckpt["best_acc"])
            for key in ("mean", "confusion"):
                self.assertEqual(back[key].dtype, orig[key].dtype)
                self.assertTrue(np.array_equal(back[key], ckpt[key]), key)
            assert_same(self, back["model"], ckpt["model"])

    def test_convert_twice_writes_identical_files(self):
        """No jitter: .data/serialization_id follows from the content, so converting the
        same input twice gives the same bytes (zip, legacy and tar inputs alike), and
        different tensor values give a different id."""
        sources = [FIXTURES / "checkpoint" / "good" / n for n in ("resnet18.pt", "views.pt", "legacy_views.pt")]
        sources += [s for s in self.good if not zipfile.is_zipfile(s)][:3]
        with tempfile.TemporaryDirectory() as tmp:
            for src in sources:
                with self.subTest(fixture=src.name):
                    a, b = pathlib.Path(tmp) / "a.pt", pathlib.Path(tmp) / "b.pt"
                    run("convert", src, a)
                    run("convert", src, b)
                    self.assertEqual(a.read_bytes(), b.read_bytes())
            one, two = pathlib.Path(tmp) / "one.pt", pathlib.Path(tmp) / "two.pt"
            torch.save({"w": torch.ones(8)}, one)
            torch.save({"w": torch.full((8,), 2.0)}, two)
            ids = []
            for src in (one, two):
                out = pathlib.Path(tmp) / ("out_" + src.name)
                run("convert", src, out)
                ids.append(zip_records(out)[".data/serialization_id"])
                self.assertRegex(ids[-1].decode(), r"^[0-9]{40}$")
            self.assertNotEqual(ids[0], ids[1])


if __name__ == "__main__":
    unittest.main()
