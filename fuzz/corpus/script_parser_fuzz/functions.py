def f(x: Tensor, n: int = 2, *, flag: bool = False) -> Tuple[Tensor, List[int]]:
    out = [i * 2 for i in range(n) if i % 2]
    d = {k: v for k, v in zip(["a", 'b'], [1, 2])}
    while n > 0 and not flag:
        n -= 1
        if n == 3: continue
        elif n < -1:
            break
    a, *b = out
    x = -x ** 2 if n else x[1:, ::2, ...] @ x
    assert x is not None, "x"
    return x, out

def g(x, y):  # type: (int, Tensor) -> Tensor
    return y + x << 0x1f | 0o7 & 0b1 ^ 1_000 // 2.5e-3 % 3j
