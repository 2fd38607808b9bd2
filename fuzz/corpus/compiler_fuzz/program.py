
def arith(a: int, b: int) -> Tuple[int, int, int, float, float, bool]:
    return a + b * 2, a // b, a % b, a / b, -a ** 2, a < b

def floats(x: float, y: float) -> float:
    z = x * y - 1.5
    z += x / 4
    return z if z > 0 else -z

def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps

def first_negative(xs: List[int]) -> int:
    for i in range(len(xs)):
        if xs[i] < 0:
            return i
    return -1

def sum_skip(xs: List[int], stop: int) -> int:
    total = 0
    for x in xs:
        if x == stop:
            break
        if x < 0:
            continue
        total += x
    return total

def ranges(n: int) -> List[int]:
    out: List[int] = []
    for i in range(2, n, 3):
        out.append(i)
    for j in range(n):
        out.append(j * j)
    return out

def classify(x: int) -> str:
    if x < 0:
        return "negative"
    elif x == 0:
        return "zero"
    elif x < 10:
        return "small"
    return "large"

def optional_add(x: Optional[int], y: int) -> int:
    if x is None:
        return y
    return x + y

def checked(x: int) -> int:
    if x > 100:
        raise ValueError("too big: " + str(x))
    assert x >= 0, "negative"
    return x * 2

def dict_count(words: List[str]) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for w in words:
        if w in counts:
            counts[w] = counts[w] + 1
        else:
            counts[w] = 1
    return counts

def comprehension(xs: List[int]) -> List[int]:
    return [x * 10 for x in xs]

def helper(a: int, b: int = 5) -> int:
    return a * b

def calls(a: int) -> int:
    return helper(a) + helper(a, 2) + helper(b=1, a=a)

def tuples(t: Tuple[int, str]) -> Tuple[str, int]:
    n, s = t
    return s, n + 1

def tensors(x: torch.Tensor, k: int) -> torch.Tensor:
    y = x * 2 + 1
    for _ in range(k):
        y = torch.relu(y - 3) + y.sum()
    y[0] = 7.0
    return y[1:] + x.shape[0]

def tensor_methods(x: torch.Tensor) -> Tuple[torch.Tensor, int, float]:
    m = x.view(2, -1).t().contiguous()
    return m.mean(dim=0), m.size(1), float(x.max())

def strings(s: str) -> List[str]:
    parts = s.split(",")
    out: List[str] = []
    for p in parts:
        out.append(p.strip().upper())
    return out

def booleans(a: bool, b: bool, n: int) -> bool:
    return (a and not b) or (n > 3 and b)

def pairs(xs: List[int], names: List[str]) -> List[str]:
    out: List[str] = []
    for i, x in enumerate(xs):
        out.append(str(i) + ":" + str(x))
    for x, name in zip(xs, names):
        out.append(name + "=" + str(x * 2))
    for ch in "ab":
        out.append(ch)
    return out

def nested_loops(n: int) -> int:
    count = 0
    i = 0
    while i < n:
        for j in range(i):
            if (i + j) % 3 == 0:
                count += i * j
        i += 1
    return count
