def f(z: float) -> float:
    return z if z > 0 else z

def g(z: float, w: float) -> float:
    return (w) if z > 0 else (z)
