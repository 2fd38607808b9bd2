"""Writes the bundled example checkpoint with real PyTorch (run once; output committed).

    /usr/bin/python3 examples/make_examples.py
"""
import pathlib

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
checkpoint = {"model": model.state_dict(), "epoch": 3, "lr": 0.01, "classes": ["cat", "dog"]}
torch.save(checkpoint, pathlib.Path(__file__).resolve().parent / "tiny_mlp.pt")

# A small scripted image classifier (torch.jit.save) and an input batch for it, for
# the demo's TorchScript step; the expected output is stored beside it.


class TinyCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
            torch.nn.MaxPool2d(2), torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d(1))
        self.classifier = torch.nn.Linear(16, 3)
        self.labels = ["circle", "square", "triangle"]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.features(x).flatten(1)
        return torch.softmax(self.classifier(y), dim=1)


here = pathlib.Path(__file__).resolve().parent
cnn = torch.jit.script(TinyCNN().eval())
torch.jit.save(cnn, str(here / "tiny_cnn_scripted.pt"))
images = torch.rand(2, 3, 16, 16)
torch.save((images,), here / "tiny_cnn_inputs.pt")
with torch.no_grad():
    torch.save(cnn(images), here / "tiny_cnn_expected.pt")
