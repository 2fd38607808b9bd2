"""Saves are atomic: SIGKILL a `torchlet convert` at random points while it writes a
large checkpoint over an existing file; the target must always hold either the old
file, byte for byte, or the complete new one that real torch.load reads equal."""
import hashlib
import pathlib
import random
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


if __name__ == "__main__":
    unittest.main()
