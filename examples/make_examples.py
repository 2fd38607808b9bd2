"""Writes the bundled example checkpoint with real PyTorch (run once; output committed).

    /usr/bin/python3 examples/make_examples.py
"""
import pathlib

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
checkpoint = {"model": model.state_dict(), "epoch": 3, "lr": 0.01, "classes": ["cat", "dog"]}
torch.save(checkpoint, pathlib.Path(__file__).resolve().parent / "tiny_mlp.pt")
