def g(t: Tuple[int, int, int], u: Tuple[int, str]) -> Tuple[int, bool, List[int], Tuple[int, str, float]]:
    return len(t), 2 in t, sorted(t) + list(t[::-1]), u + (1.5,)


def f(x: Tensor, t: Tuple[int, int]) -> List[Tensor]:
    u, counts = torch.unique(x, return_counts=True)
    m = torch.median(x, 0)
    flags = [x.is_cuda, x.is_sparse, x.requires_grad]
    y = x.view(t)
    return [3 - x, 2 / x, 0 < x, x << 1, y.mT, u, counts, m.values, x.kthvalue(1)[1],
            torch.searchsorted(x.sort().values, x), torch.masked_select(x, x > 0), x.nan_to_num(),
            torch.cross(y[:, :3], y[:, :3], dim=1), torch.tensor_split(x, 2)[0], x.diagonal(0, 0, -1)]
