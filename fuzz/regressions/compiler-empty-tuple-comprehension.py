def g(t: Tuple[int, int, int], u: Tuple[int, str]) -> Tuple[int, bool, List[int], Tuple[int, str, float]]:
    return len(t), 4 in t, sorted(t) + list(t[8:-1]), u / (1.5,)


def f(x: Tensor, t: Tuple[int, int]) -> List[Tensor]:
    u, counts = torch.unique(x, return_counts=True)
    m = torch.median(x, 0)
    flags = [xx.requires_grad]
    y = x.view(t)
    return [3 - x, 2 / x, 0 < x, x <_split(x, 2)[0], x.diagonal(0, 0, -1)]
