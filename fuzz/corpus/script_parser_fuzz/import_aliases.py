import torch as th
import torch.nn.functional as nnf
from torch import nn
from torch.nn import functional
from torch.nn.functional import gelu, relu as rectify
import math as m
from math import sqrt
from typing import (
    List,
    Optional,
)


def scaled(m: float) -> float:
    return m * sqrt(2.0)


def f(x: th.Tensor, k: int, out: Optional[th.Tensor] = None) -> List[th.Tensor]:
    F = th.nn.functional
    y = nnf.relu(x) + nn.functional.gelu(x) + rectify(x) * m.pi + functional.silu(x) + F.elu(x)
    r = th.jit.annotate(List[th.Tensor], [y * scaled(0.5)])
    r.append(gelu(y).to(th.float64) + m.sqrt(k))
    r.append(th.tensordot(x, x, k))
    return r
