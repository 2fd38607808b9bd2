"""Saves are atomic: SIGKILL a `torchlet convert` at random points while it writes a
large checkpoint over an existing file; the target must always hold either the old
file, byte for byte, or the complete new one that real torch.load reads equal. And a
file its user may not write is refused, as torch.save refuses it."""
import hashlib
import os
import pathlib
import random
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

import torch

from torchlet_harness import BIN, assert_same, require_environment


class AtomicSave(unittest.TestCase):
    def setUp(self):
        require_environment(self)

    def test_sigkill_mid_save_never_leaves_a_broken_target(self):
        rng = random.Random(1234)
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            src = tmp / "big.pt"
            torch.save({f"t{i}": torch.full((1 << 20,), float(i)) for i in range(48)}, src)  # 192 MiB
            target = tmp / "target.pt"
            torch.save({"old": torch.arange(3)}, target)
            old_digest = hashlib.sha256(target.read_bytes()).hexdigest()
            # How long a whole convert takes, to spread the kills over it.
            start = time.monotonic()
            subprocess.run([BIN, "convert", src, tmp / "timing.pt"], check=True)
            full = time.monotonic() - start
            outcomes = {"old": 0, "new": 0}
            for attempt in range(8):
                proc = subprocess.Popen([BIN, "convert", src, target])
                time.sleep(rng.uniform(0.0, full))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                digest = hashlib.sha256(target.read_bytes()).hexdigest()
                if digest == old_digest:
                    outcomes["old"] += 1
                    continue
                # Not the old file: it must be the complete new one.
                assert_same(self, torch.load(src), torch.load(target))
                outcomes["new"] += 1
                torch.save({"old": torch.arange(3)}, target)
                old_digest = hashlib.sha256(target.read_bytes()).hexdigest()
            self.assertEqual(sum(outcomes.values()), 8, outcomes)

    def test_a_file_without_write_permission_is_refused_as_torch_refuses_it(self):
        # As root every file is writable: run both savers as nobody.
        as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            tmp.chmod(0o777)  # the folder is writable: only the file's own permission refuses
            src = tmp / "src.pt"
            torch.save({"new": torch.ones(2)}, src)
            src.chmod(0o644)
            target = tmp / "protected.pt"
            torch.save({"old": torch.arange(3)}, target)
            target.chmod(0o444)
            before = target.read_bytes()
            oracle = subprocess.run(as_user + ["/usr/bin/python3", "-c",
                                               f"import torch; torch.save({{'new': 1}}, {str(target)!r})"],
                                    capture_output=True, text=True)
            self.assertNotEqual(oracle.returncode, 0)
            self.assertIn(f"File {target} cannot be opened", oracle.stderr)  # torch 1.13's words
            # A copy nobody can run whatever the permissions of the build folder's parents.
            tool = tmp / "torchlet"
            shutil.copy(BIN, tool)
            tool.chmod(0o755)
            ours = subprocess.run(as_user + [tool, "convert", src, target], capture_output=True, text=True)
            self.assertNotEqual(ours.returncode, 0)
            self.assertIn(f"cannot save to '{target}': Permission denied", ours.stderr)
            self.assertEqual(target.read_bytes(), before)
            self.assertEqual(sorted(p.name for p in tmp.iterdir()), ["protected.pt", "src.pt", "torchlet"])  # no temporary left


if __name__ == "__main__":
    unittest.main()
