"""torchvision's detection operators (torchvision::nms, roi_align, roi_pool, ps_roi_align,
ps_roi_pool) through the torchlet CLI: torch 1.13 scripts modules that call them the
way detection models do (torchvision.ops' Python functions with [K, 5] rois, batched_nms
on both of its paths, a detector's box post-processing), torch.jit.saves them,
`torchlet run` runs the archive, and the results must equal torch's bit for bit.
The List[Tensor] boxes form runs through torchvision's isinstance(boxes, (list, tuple))
on a Union[Tensor, List[Tensor]]: the RoIAlign, RoIPool and MultiScaleRoIAlign modules."""
import pathlib
import tempfile
import unittest
from typing import List, Tuple

import torch
import torchvision
from torchvision import ops

from torchlet_harness import require_environment, run

GEN = torch.Generator().manual_seed(7)


def random_boxes(n, size=40.0, span=12.0, dtype=torch.float32):
    xy = torch.rand(n, 2, generator=GEN) * size
    wh = torch.rand(n, 2, generator=GEN) * span + 0.5
    return torch.cat([xy, xy + wh], 1).to(dtype)


class Nms(torch.nn.Module):
    def forward(self, boxes: torch.Tensor, scores: torch.Tensor, thr: float) -> torch.Tensor:
        return ops.nms(boxes, scores, thr)


class BatchedNms(torch.nn.Module):
    def forward(self, boxes: torch.Tensor, scores: torch.Tensor, idxs: torch.Tensor, thr: float) -> torch.Tensor:
        return ops.batched_nms(boxes, scores, idxs, thr)


class Postprocess(torch.nn.Module):
    """A detector's last step: drop small and low-score boxes, clip, then per-class NMS."""

    def forward(self, boxes: torch.Tensor, scores: torch.Tensor, labels: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        boxes = ops.clip_boxes_to_image(boxes, (30, 36))
        keep = ops.remove_small_boxes(boxes, 1.0)
        boxes, scores, labels = boxes[keep], scores[keep], labels[keep]
        keep = torch.where(scores > 0.2)[0]
        boxes, scores, labels = boxes[keep], scores[keep], labels[keep]
        keep = ops.batched_nms(boxes, scores, labels, 0.5)[:20]
        return boxes[keep], ops.box_iou(boxes[keep], boxes[keep])


class RoiOps(torch.nn.Module):
    def forward(self, x: torch.Tensor, rois: torch.Tensor) -> List[torch.Tensor]:
        return [ops.roi_align(x, rois, [3, 4], 0.5, 0, False), ops.roi_align(x, rois, 2, 0.5, 2, True),
                ops.roi_align(x, rois, (5, 3), 0.25, -1, True), ops.roi_pool(x, rois, [3, 2], 0.5),
                ops.roi_pool(x, rois, 4, 0.25)]


class RoiModulesOnBoxLists(torch.nn.Module):
    """The modules detectors hold, given per-image box lists: isinstance(boxes, (list,
    tuple)) must refine the Union to List[Tensor] in the compiler and answer True at run
    time for a list of tensors."""

    def __init__(self):
        super().__init__()
        self.align = ops.RoIAlign((3, 3), 0.5, 2, aligned=True)
        self.pool = ops.RoIPool(2, 0.5)
        self.multiscale = ops.MultiScaleRoIAlign(["p2", "p3"], 3, 2)

    def forward(self, x: torch.Tensor, p3: torch.Tensor, b0: torch.Tensor, b1: torch.Tensor) -> List[torch.Tensor]:
        boxes = [b0, b1]
        return [self.align(x, boxes), self.pool(x, boxes),
                self.multiscale({"p2": x, "p3": p3}, boxes, [(26, 22), (26, 22)])]


class PsRoiOps(torch.nn.Module):
    def forward(self, x: torch.Tensor, rois: torch.Tensor) -> List[torch.Tensor]:
        return [ops.ps_roi_align(x, rois, 2, 0.5, 0), ops.ps_roi_align(x, rois, 3, 0.5, 2),
                ops.ps_roi_pool(x, rois, 2, 0.5), ops.ps_roi_pool(x, rois, 3, 1.0)]


class DeformBlock(torch.nn.Module):
    """A DCNv2 block as detectors build it: a conv predicts offsets and a mask."""

    def __init__(self):
        super().__init__()
        self.offsets = torch.nn.Conv2d(4, 3 * 2 * 9, 3, padding=1)
        self.masks = torch.nn.Conv2d(4, 3 * 9, 3, padding=1)
        self.deform = ops.DeformConv2d(6, 6, 3, padding=1, groups=2)
        self.expand = torch.nn.Conv2d(4, 6, 1)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        offset = self.offsets(x)
        y = self.expand(x)
        with_mask = self.deform(y, offset[:, :18], torch.sigmoid(self.masks(x)[:, :9]))
        plain = ops.deform_conv2d(y, offset[:, 18:36] * 3, self.deform.weight, None, padding=(1, 1))
        return with_mask, plain


class TorchvisionOps(unittest.TestCase):
    def setUp(self):
        require_environment(self)

    def run_both(self, module, args, exact=True):
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
        if exact:
            self.assert_equal(got, want)
            return
        for g, w in zip(got, want):
            torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-5)

    def assert_equal(self, got, want, path="result"):
        if isinstance(want, torch.Tensor):
            self.assertIsInstance(got, torch.Tensor, path)
            self.assertEqual(got.dtype, want.dtype, path)
            self.assertEqual(got.shape, want.shape, path)
            self.assertTrue(torch.equal(got, want) or (got.isnan() == want.isnan()).all() and
                            torch.equal(got.nan_to_num(), want.nan_to_num()), f"{path}: {got} vs torch {want}")
            return
        self.assertEqual(len(got), len(want), path)
        for i, (g, w) in enumerate(zip(got, want)):
            self.assert_equal(g, w, f"{path}[{i}]")

    def test_nms_keeps_torchvisions_boxes(self):
        for dtype in [torch.float32, torch.float64]:
            boxes = random_boxes(60, dtype=dtype)
            tied = (torch.randint(0, 3, (60,), generator=GEN) / 3).to(dtype)
            for scores in [tied, torch.rand(60, generator=GEN).to(dtype)]:
                for thr in [0.2, 0.5]:
                    self.run_both(Nms(), (boxes, scores, thr))
            self.run_both(Nms(), (boxes[:0], tied[:0], 0.5))

    def test_batched_nms_on_both_paths(self):
        # Below 4000 coordinates batched_nms offsets each class's boxes apart; above, it
        # runs nms per class (torch.unique, where, index_put) and sorts what it kept.
        for n in [200, 1500]:
            boxes = random_boxes(n)
            scores = torch.randperm(n, generator=GEN).float() / n  # distinct: the final sort is torch's unstable one
            idxs = torch.randint(0, 5, (n,), generator=GEN)
            self.run_both(BatchedNms(), (boxes, scores, idxs, 0.4))

    def test_detection_postprocess(self):
        boxes = random_boxes(300) - 4
        scores = torch.randperm(300, generator=GEN).float() / 300
        self.run_both(Postprocess(), (boxes, scores, torch.randint(0, 4, (300,), generator=GEN)))

    def test_roi_align_and_roi_pool(self):
        for dtype in [torch.float32, torch.float64, torch.float16]:
            x = torch.randn(2, 3, 13, 11, generator=GEN).to(dtype)
            boxes = [random_boxes(4, size=22, dtype=dtype) - 2, random_boxes(3, size=22, dtype=dtype)]
            rois = torchvision.ops._utils.convert_boxes_to_roi_format(boxes)
            self.run_both(RoiOps(), (x, rois))
            # A strided (channels-last) feature map.
            self.run_both(RoiOps(), (x.contiguous(memory_format=torch.channels_last), rois))

    def test_roi_modules_on_box_lists(self):
        x = torch.randn(2, 3, 13, 11, generator=GEN)
        p3 = torch.randn(2, 3, 7, 6, generator=GEN)
        self.run_both(RoiModulesOnBoxLists(), (x, p3, random_boxes(4, size=22) - 2, random_boxes(3, size=22)))

    def test_position_sensitive_ops(self):
        for dtype in [torch.float32, torch.float64, torch.float16]:
            x = torch.randn(2, 36, 9, 10, generator=GEN).to(dtype)
            rois = torchvision.ops._utils.convert_boxes_to_roi_format(
                [random_boxes(3, size=16, dtype=dtype), random_boxes(2, size=16, dtype=dtype)])
            self.run_both(PsRoiOps(), (x, rois))


    def test_deform_conv2d(self):
        # The sampled columns are torchvision's exactly; the products are torchlet's mm.
        # float32 only: torchlet's conv2d (the block's offset convs) is; the kernel
        # fixtures (tests/kernels/detection_test.cpp) cover deform_conv2d in float64.
        self.run_both(DeformBlock(), (torch.randn(2, 4, 9, 8, generator=GEN),), exact=False)
        self.run_both(DeformBlock(), (torch.randn(1, 4, 5, 13, generator=GEN),), exact=False)


if __name__ == "__main__":
    unittest.main()
