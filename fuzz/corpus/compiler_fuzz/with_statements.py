class Ctx:
    def __init__(self, log: List[int], k: int):
        self.log = log
        self.k = k

    def __enter__(self) -> int:
        self.log.append(self.k)
        return self.k * 10

    def __exit__(self, a: Any, b: Any, c: Any):
        self.log.append(-self.k)

def nested(x: int) -> List[int]:
    log: List[int] = []
    with Ctx(log, 1) as a, Ctx(log, 2) as b:
        log.append(a + b + x)
        if x > 3:
            return log
        with Ctx(log, 3):
            log.append(0)
    return log

def loop(n: int) -> List[int]:
    log: List[int] = []
    for i in range(n):
        with Ctx(log, i):
            if i == 1:
                continue
            if i == 3:
                break
            log.append(100 + i)
    return log

def grad(x: Tensor) -> Tuple[bool, Tensor]:
    with torch.no_grad():
        y = x * 2
        inside = torch.is_grad_enabled()
    return inside, y
