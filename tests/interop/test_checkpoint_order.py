"""Storage record order in files torchlet writes: numeric key order, which the
.format_version "1" record promises torch 2.x (its calculate_storage_offsets load
mode computes each storage's offset from the previous one), checked on a checkpoint
with more than ten storages, where numeric and string order differ."""
import pathlib
import tempfile
import unittest
import zipfile

import torch

from torchlet_harness import FIXTURES, assert_same, require_environment, run


def storage_headers(path):
    """For each data/<key> record in file order: (key, local header offset, data end).
    torch 2.x's calculate_storage_offsets mode reads the first storage's offset and
    assumes every next storage's local header starts right after the previous
    storage's data and its data descriptor (16 bytes, 24 with zip64)."""
    out = []
    with zipfile.ZipFile(path) as z, open(path, "rb") as f:
        for info in z.infolist():
            if "/data/" not in info.filename:
                continue
            f.seek(info.header_offset + 26)
            name_len = int.from_bytes(f.read(2), "little")
            extra_len = int.from_bytes(f.read(2), "little")
            data_start = info.header_offset + 30 + name_len + extra_len
            out.append((info.filename.split("/data/", 1)[1], info.header_offset,
                        data_start + info.file_size))
    return out


class CheckpointStorageOrder(unittest.TestCase):
    def setUp(self):
        require_environment(self)

    def test_storages_are_written_in_numeric_key_order(self):
        src = FIXTURES / "checkpoint" / "good" / "resnet18.pt"
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "out.pt"
            run("convert", src, out)
            with zipfile.ZipFile(out) as z:
                keys = [n.split("/data/", 1)[1] for n in z.namelist() if "/data/" in n]
            self.assertGreater(len(keys), 10)
            self.assertEqual(keys, [str(i) for i in range(len(keys))])
            assert_same(self, torch.load(src), torch.load(out))

    def test_each_storage_header_follows_the_previous_storage(self):
        src = FIXTURES / "checkpoint" / "good" / "resnet18.pt"
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "out.pt"
            run("convert", src, out)
            records = storage_headers(out)
            self.assertEqual([k for k, _, _ in records], [str(i) for i in range(len(records))])
            for (_, _, prev_end), (key, header, _) in zip(records, records[1:]):
                self.assertEqual(header, prev_end + 16, f"data/{key}")

if __name__ == "__main__":
    unittest.main()
