// Parser tests: Python's precedence table, literal values, every statement form, what
// torch's printer writes into archives, refused constructs, nesting limits and the
// error messages with their highlighted line. parser_interop_test.cpp checks the same
// printer output against CPython's own parse of real archives and random expressions.
#include "jit/frontend/parser.h"

#include <set>

#include <gtest/gtest.h>

#include <torchlet/error.h>

namespace torchlet::jit {
namespace {

std::string sx(std::string src) { return to_sexpr(*parse_expression(std::move(src))); }
std::string file(std::string src) { return to_sexpr(parse_file(std::move(src))); }

// The message of the CompileError parsing src as a file raises ("no error" if none).
std::string error_of(std::string src) {
  try {
    parse_file(std::move(src));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "no error";
}
std::string expr_error_of(std::string src) {
  try {
    parse_expression(std::move(src));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "no error";
}
bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

constexpr TreeKind kAllTreeKinds[] = {
#define TL_TREE(name, printed, category, description) TreeKind::name,
#include "jit/frontend/tree_kinds.def"
#undef TL_TREE
};

TEST(TreeTable, NamesAndPrintedHeadsAreUnique) {
  std::set<std::string> names, printed;
  for (TreeKind k : kAllTreeKinds) {
    EXPECT_TRUE(names.insert(tree_kind_name(k)).second) << tree_kind_name(k);
    EXPECT_TRUE(printed.insert(tree_kind_printed(k)).second) << tree_kind_printed(k);
  }
  EXPECT_EQ(tree_kind_count(), std::size(kAllTreeKinds));
}

TEST(Precedence, PowerAndUnary) {
  EXPECT_EQ(sx("-2 ** 2"), "(- (** 2 2))");  // == -4 in Python
  EXPECT_EQ(sx("2 ** -1"), "(** 2 (- 1))");
  EXPECT_EQ(sx("2 ** 3 ** 2"), "(** 2 (** 3 2))");  // right-associative
  EXPECT_EQ(sx("-a ** -b ** c"), "(- (** a (- (** b c))))");
  EXPECT_EQ(sx("(-a) ** b"), "(** (- a) b)");
  EXPECT_EQ(sx("~a ** b"), "(~ (** a b))");
  EXPECT_EQ(sx("a ** b * c"), "(* (** a b) c)");
  EXPECT_EQ(sx("-a * b"), "(* (- a) b)");
  EXPECT_EQ(sx("a * -b"), "(* a (- b))");
  EXPECT_EQ(sx("- - +a"), "(- (- (+ a)))");
  EXPECT_EQ(sx("-a.b(c)[d]"), "(- (sub (call (. a b) c) d))");
}

TEST(Precedence, ArithmeticAndBitwise) {
  EXPECT_EQ(sx("a + b * c - d / e // f % g @ h"), "(- (+ a (* b c)) (@ (% (// (/ d e) f) g) h))");
  EXPECT_EQ(sx("a - b - c"), "(- (- a b) c)");  // left-associative
  EXPECT_EQ(sx("a // b // c"), "(// (// a b) c)");
  EXPECT_EQ(sx("a << b + c"), "(<< a (+ b c))");
  EXPECT_EQ(sx("a & b << c"), "(& a (<< b c))");
  EXPECT_EQ(sx("a | b ^ c & d"), "(| a (^ b (& c d)))");
  EXPECT_EQ(sx("a ^ b | c"), "(| (^ a b) c)");
  EXPECT_EQ(sx("a | b < c & d"), "(compare (| a b) < (& c d))");  // bitwise binds tighter than comparisons
}

TEST(Precedence, ComparisonsAndBooleans) {
  EXPECT_EQ(sx("a < b < c"), "(compare a < b < c)");
  EXPECT_EQ(sx("a < b == c != d >= e <= f > g"), "(compare a < b == c != d >= e <= f > g)");
  EXPECT_EQ(sx("a in b not in c"), "(compare a in b not in c)");
  EXPECT_EQ(sx("a is not b is c"), "(compare a is not b is c)");
  EXPECT_EQ(sx("not a == b"), "(not (compare a == b))");  // not is looser than comparisons
  EXPECT_EQ(sx("not a in b"), "(not (compare a in b))");
  EXPECT_EQ(sx("not a and b or c"), "(or (and (not a) b) c)");
  EXPECT_EQ(sx("a or b and c"), "(or a (and b c))");
  EXPECT_EQ(sx("a and b and c"), "(and (and a b) c)");
  EXPECT_EQ(sx("a and not b"), "(and a (not b))");
  EXPECT_EQ(sx("not not a"), "(not (not a))");
  EXPECT_EQ(sx("a == b and c != d or not e"), "(or (and (compare a == b) (compare c != d)) (not e))");
}

TEST(Precedence, Ternary) {
  EXPECT_EQ(sx("a if b else c"), "(ifexp b a c)");
  EXPECT_EQ(sx("a if b else c if d else e"), "(ifexp b a (ifexp d c e))");  // right-nested
  EXPECT_EQ(sx("(a if b else c) if d else e"), "(ifexp d (ifexp b a c) e)");
  EXPECT_EQ(sx("not a if b or c else d"), "(ifexp (or b c) (not a) d)");
  EXPECT_EQ(sx("a + b if c else d"), "(ifexp c (+ a b) d)");  // lowest of all
  EXPECT_EQ(sx("a if not b else not c"), "(ifexp (not b) a (not c))");
  EXPECT_EQ(sx("a, b if c else d"), "(tuple a (ifexp c b d))");
}

TEST(Precedence, PrefixOperatorsWherePythonRefusesThem) {
  EXPECT_TRUE(contains(expr_error_of("a == not b"), "'not' cannot appear here"));
  EXPECT_TRUE(contains(expr_error_of("a + not b"), "'not' cannot appear here"));
  EXPECT_TRUE(contains(expr_error_of("- not a"), "'not' cannot appear here"));
  EXPECT_TRUE(contains(expr_error_of("a ** not b"), "'not' cannot appear here"));
  EXPECT_TRUE(contains(expr_error_of("a if b"), "expected 'else' after 'if' expression"));
}

TEST(Parser, LiteralValues) {
  EXPECT_EQ(sx("[0, 7, 1_000_000, 0x1F, 0o17, 0b1010, 0xdead_beef, 9223372036854775807]"),
            "(list 0 7 1000000 31 15 10 3735928559 9223372036854775807)");
  EXPECT_EQ(sx("(1.5, .5, 1., 1e10, 1E-3, 1_0.0_1, 1e400, 2.)"),
            "(tuple 1.5 0.5 1.0 10000000000.0 0.001 10.01 inf 2.0)");
  EXPECT_EQ(sx("(3j, 1.5J, 1e3j)"), "(tuple 3.0j 1.5j 1000.0j)");
  // Out of a double's range: inf or 0.0 as Python rounds them; subnormals kept.
  EXPECT_EQ(sx("(1e400, 0.001e-400, 1e-400, 12345e-330, 0.0e999, 1" + std::string(400, '0') + ".0, 5e-324)"),
            "(tuple inf 0.0 0.0 0.0 0.0 inf 4.9406564584124654e-324)");
  EXPECT_EQ(sx("('a' \"b\", r'\\n', '\\u00e9')"), "(tuple \"ab\" \"\\\\n\" \"\\xc3\\xa9\")");
  EXPECT_EQ(sx("(True, False, None, ...)"), "(tuple True False None ...)");
  // torch 1.13 accepts INT64_MIN written as a negated literal, and refuses larger ones.
  EXPECT_EQ(sx("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(sx("x - 9223372036854775807"), "(- x 9223372036854775807)");
  EXPECT_EQ(sx("--9223372036854775807"), "(- (- 9223372036854775807))");
  EXPECT_EQ(error_of("x = 9223372036854775808\n"),
            "Integral constant out of range (must fit in a signed 64 bit integer):\n"
            "x = 9223372036854775808\n"
            "    ~~~~~~~~~~~~~~~~~~~ <--- HERE\n");
  EXPECT_TRUE(contains(expr_error_of("-9223372036854775808 ** 2"), "Integral constant out of range"));
  EXPECT_TRUE(contains(expr_error_of("0x1_0000_0000_0000_0000"), "Integral constant out of range"));
  TreeRef f = parse_expression("1_0.25");
  EXPECT_EQ(f->kind(), TreeKind::FloatLiteral);
  EXPECT_EQ(f->float_value(), 10.25);
  EXPECT_EQ(f->str(), "1_0.25");  // the spelling is kept for messages
}

TEST(Parser, Postfix) {
  EXPECT_EQ(sx("f()"), "(call f)");
  EXPECT_EQ(sx("f(a, b, *c, k=1, j=g(2))"), "(call f a b (* c) (kw k 1) (kw j (call g 2)))");
  EXPECT_EQ(sx("f(a,)"), "(call f a)");
  EXPECT_EQ(sx("f(a)(b)[c].d"), "(. (sub (call (call f a) b) c) d)");
  EXPECT_EQ(sx("a.b.c"), "(. (. a b) c)");
  EXPECT_EQ(sx("x[1:2, ::3, a:b:c, ...]"), "(sub x (slice 1 2 _) (slice _ _ 3) (slice a b c) ...)");
  EXPECT_EQ(sx("x[:]"), "(sub x (slice _ _ _))");
  EXPECT_EQ(sx("x[::]"), "(sub x (slice _ _ _))");
  EXPECT_EQ(sx("x[a:]"), "(sub x (slice a _ _))");
  EXPECT_EQ(sx("x[:b]"), "(sub x (slice _ b _))");
  EXPECT_EQ(sx("x[a, b]"), "(sub x a b)");
  EXPECT_EQ(sx("x[a,]"), "(sub x a)");
  EXPECT_EQ(sx("x[(a, b)]"), "(sub x (tuple a b))");
  EXPECT_EQ(sx("x[..., None]"), "(sub x ... None)");
  EXPECT_EQ(sx("x[-1][1:-1]"), "(sub (sub x (- 1)) (slice 1 (- 1) _))");
  EXPECT_TRUE(contains(expr_error_of("f(k=1, a)"), "positional argument follows keyword argument"));
  EXPECT_TRUE(contains(expr_error_of("f(k=1, k=2)"), "keyword argument repeated: k"));
  EXPECT_TRUE(contains(expr_error_of("x[1:2:3:4]"), "expected ']'"));
}

TEST(Parser, Displays) {
  EXPECT_EQ(sx("[]"), "(list)");
  EXPECT_EQ(sx("[a, *b, c,]"), "(list a (* b) c)");
  EXPECT_EQ(sx("()"), "(tuple)");
  EXPECT_EQ(sx("(a,)"), "(tuple a)");
  EXPECT_EQ(sx("(a)"), "a");
  EXPECT_EQ(sx("(a, b, *c)"), "(tuple a b (* c))");
  EXPECT_EQ(sx("a, *b"), "(tuple a (* b))");
  EXPECT_EQ(sx("{}"), "(dict)");
  EXPECT_EQ(sx("{a: b, 'c': [d],}"), "(dict a b \"c\" (list d))");
  EXPECT_EQ(sx("[x * y for x in a if x for y in b if y if x]"),
            "(listcomp (* x y) (gen x a x) (gen y b y x))");
  EXPECT_EQ(sx("[v for k, v in d.items()]"), "(listcomp v (gen (tuple k v) (call (. d items))))");
  EXPECT_EQ(sx("{k: v + 1 for k, v in d}"), "(dictcomp k (+ v 1) (gen (tuple k v) d))");
  // The iterable of a comprehension is an or_test: `if` starts a condition.
  EXPECT_TRUE(contains(expr_error_of("[a for a in b if c else d]"), "expected ']' but found 'else'"));
  EXPECT_EQ(sx("[a for a in (b if c else d)]"), "(listcomp a (gen a (ifexp c b d)))");
}

TEST(Parser, RefusedExpressions) {
  EXPECT_TRUE(contains(expr_error_of("lambda x: x"), "lambda expressions are not supported in TorchScript"));
  EXPECT_TRUE(contains(expr_error_of("(a := 1)"), "assignment expressions (:=) are not supported"));
  EXPECT_TRUE(contains(expr_error_of("{a, b}"), "set literals are not supported"));
  EXPECT_TRUE(contains(expr_error_of("{**a}"), "dict unpacking (**) is not supported"));
  EXPECT_TRUE(contains(expr_error_of("f(**k)"), "keyword argument unpacking (**) is not supported"));
  EXPECT_TRUE(contains(expr_error_of("(x for x in y)"), "generator expressions are not supported"));
  EXPECT_TRUE(contains(expr_error_of("sum(x for x in y)"), "generator expressions are not supported"));
  EXPECT_TRUE(contains(expr_error_of("await x"), "await is not supported"));
  EXPECT_TRUE(contains(expr_error_of("*a"), "cannot use starred expression here"));
  EXPECT_TRUE(contains(expr_error_of("(*a)"), "cannot use starred expression here"));
}

TEST(Parser, Assignments) {
  EXPECT_EQ(file("a = 1\n"), "(= a 1)\n");
  EXPECT_EQ(file("a = b = c.d = e[0] = f()\n"), "(= a b (. c d) (sub e 0) (call f))\n");
  EXPECT_EQ(file("x, y = y, x\n"), "(= (tuple x y) (tuple y x))\n");
  EXPECT_EQ(file("(p, q), [r, *s] = t\n"), "(= (tuple (tuple p q) (list r (* s))) t)\n");
  EXPECT_EQ(file("*u, v = w\n"), "(= (tuple (* u) v) w)\n");
  EXPECT_EQ(file("a, = b\n"), "(= (tuple a) b)\n");
  EXPECT_EQ(file("z: int = 3\n"), "(annassign z int 3)\n");
  EXPECT_EQ(file("self.k: List[int]\n"), "(annassign (. self k) (sub List int) _)\n");
  EXPECT_EQ(file("n += 1\nm[i] //= 2\no.p **= q\nb <<= 1; b |= 4; b ^= c; b &= d; b >>= e; b -= f; b %= g; b @= h; b /= i; b *= j\n"),
            "(+= n 1)\n(//= (sub m i) 2)\n(**= (. o p) q)\n(<<= b 1)\n(|= b 4)\n(^= b c)\n(&= b d)\n(>>= b e)\n"
            "(-= b f)\n(%= b g)\n(@= b h)\n(/= b i)\n(*= b j)\n");
  TreeRef aug = parse_file("n += 1\n").statements[0];
  EXPECT_EQ(AugAssignView(*aug).op(), TokenKind::Plus);
}

TEST(Parser, InvalidTargets) {
  EXPECT_TRUE(contains(error_of("f() = 1\n"), "cannot assign to function call"));
  EXPECT_TRUE(contains(error_of("1 = x\n"), "cannot assign to literal"));
  EXPECT_TRUE(contains(error_of("a + b = c\n"), "cannot assign to expression"));
  EXPECT_TRUE(contains(error_of("a, f() = c\n"), "cannot assign to function call"));
  EXPECT_TRUE(contains(error_of("*a, *b = c\n"), "multiple starred expressions in assignment"));
  EXPECT_TRUE(contains(error_of("a, b += 1\n"), "cannot use augmented assignment on a tuple here"));
  EXPECT_TRUE(contains(error_of("a, b: int = 1\n"), "only single target (not tuple) can be annotated"));
  EXPECT_TRUE(contains(error_of("for f() in x:\n  pass\n"), "cannot assign to function call"));
  EXPECT_TRUE(contains(error_of("del f()\n"), "cannot delete function call"));
  EXPECT_TRUE(contains(error_of("None = 1\n"), "cannot assign to None"));
}

TEST(Parser, ControlFlow) {
  EXPECT_EQ(file("if a:\n  b\nelif c:\n  d\nelif e: f\nelse:\n  g\n  h\n"),
            "(if a ((expr b)) ((if c ((expr d)) ((if e ((expr f)) ((expr g) (expr h)))))))\n");
  EXPECT_EQ(file("if a: pass\n"), "(if a ((pass)) ())\n");
  EXPECT_EQ(file("while x < 3:\n    x += 1\n    if x: break\n    continue\n"),
            "(while (compare x < 3) ((+= x 1) (if x ((break)) ()) (continue)))\n");
  EXPECT_EQ(file("for i, (a, b) in enumerate(zip(xs, ys)):\n    pass\n"),
            "(for (tuple i (tuple a b)) (call enumerate (call zip xs ys)) ((pass)))\n");
  EXPECT_EQ(file("for x in 1, 2: pass\n"), "(for x (tuple 1 2) ((pass)))\n");
  EXPECT_EQ(file("for k in a if b else c: pass\n"), "(for k (ifexp b a c) ((pass)))\n");
  EXPECT_EQ(file("return\nreturn a\nreturn a, b\nraise\nraise E('x')\nassert a\nassert a, 'm'\ndel a, b[0], c.d\n"),
            "(return _)\n(return a)\n(return (tuple a b))\n(raise _)\n(raise (call E \"x\"))\n(assert a _)\n"
            "(assert a \"m\")\n(del a (sub b 0) (. c d))\n");
  EXPECT_EQ(file("a; b;\nc\n"), "(expr a)\n(expr b)\n(expr c)\n");
  EXPECT_EQ(file("import torch\nimport __torch__.a.b\n"), "(import torch)\n(import __torch__.a.b)\n");
}

TEST(Parser, ImportsKeepEachBinding) {
  EXPECT_EQ(file("import torch.nn.functional as F, math, torch as th\n"),
            "(import torch.nn.functional as F)\n(import math)\n(import torch as th)\n");
  EXPECT_EQ(file("from torch import nn, cat as c\n"), "(import torch.nn as nn)\n(import torch.cat as c)\n");
  EXPECT_EQ(file("from typing import (\n    List,\n    Optional as O,\n)\nx = 1\n"),
            "(import typing.List as List)\n(import typing.Optional as O)\n(= x 1)\n");
  // Relative and star imports bind nothing a TorchScript function can use.
  EXPECT_EQ(file("from . import a\nfrom ..b import c\nfrom d import *\nimport e; from f import g\n"),
            "(import e)\n(import f.g as g)\n");
  EXPECT_TRUE(contains(error_of("from a import\n"), "expected a name to import"));
  EXPECT_TRUE(contains(error_of("import a as\n"), "expected a name after 'as'"));
  EXPECT_TRUE(contains(error_of("from a import (b\n"), "'(' was never closed"));
  EXPECT_TRUE(contains(error_of("import a.\n"), "expected a name after '.'"));
}

TEST(Parser, WithStatements) {
  EXPECT_EQ(file("with torch.no_grad():\n  y = x\n"),
            "(with ((with-item (call (. torch no_grad)) _)) ((= y x)))\n");
  EXPECT_EQ(file("with a as b, c(1), d as e: pass\n"),
            "(with ((with-item a b) (with-item (call c 1) _) (with-item d e)) ((pass)))\n");
  EXPECT_EQ(file("with a:\n  with b:\n    return\n"), "(with ((with-item a _)) ((with ((with-item b _)) ((return _)))))\n");
  // Torch binds a with target to a name only.
  EXPECT_TRUE(contains(error_of("with a as b.c:\n  pass\n"), "expected ':'"));
  EXPECT_TRUE(contains(error_of("with a as (b, c):\n  pass\n"), "a variable name after 'as'"));
  EXPECT_TRUE(contains(error_of("with a\n  pass\n"), "expected ':'"));
  EXPECT_TRUE(contains(error_of("with:\n  pass\n"), "with"));
  EXPECT_TRUE(contains(error_of("with a:\npass\n"), "expected an indented block"));
}

TEST(Parser, DefsAndClasses) {
  EXPECT_EQ(file("def f(x: Tensor, n: int = 2, *, flag: bool = False, g) -> Tensor:\n    return x\n"),
            "(def f ((param x Tensor _) (param n int 2) (param* flag bool False) (param* g _ _)) Tensor ((return x)))\n");
  EXPECT_EQ(file("def f(): pass\n"), "(def f () _ ((pass)))\n");
  EXPECT_EQ(file("@torch.jit.export\n@staticmethod\ndef g(a):\n    def inner(y):\n        return y\n    return inner(a)\n"),
            "(def g ((param a _ _)) _ ((def inner ((param y _ _)) _ ((return y))) (return (call inner a))) "
            "(@ (. (. torch jit) export) staticmethod))\n");
  EXPECT_EQ(file("class C(I, Base):\n    '''doc'''\n    x : int\n    def m(self): pass\n"),
            "(class C (I Base) ((expr \"doc\") (annassign x int _) (def m ((param self _ _)) _ ((pass)))))\n");
  EXPECT_EQ(file("class E:\n  A = 1\n"), "(class E () ((= A 1)))\n");
  EXPECT_EQ(file("@torch.jit.interface\nclass I(object):\n  pass\n"), "(class I (object) ((pass)) (@ (. (. torch jit) interface)))\n");
  TreeRef def = parse_file("def f(a: int, b=3) -> int:\n  return a\n").statements[0];
  DefView d(*def);
  EXPECT_EQ(d.name(), "f");
  ASSERT_EQ(d.params().size(), 2u);
  EXPECT_EQ(ParamView(*d.params()[0]).name(), "a");
  EXPECT_EQ(to_sexpr(*ParamView(*d.params()[0]).annotation()), "int");
  EXPECT_EQ(ParamView(*d.params()[1]).annotation(), nullptr);
  EXPECT_EQ(to_sexpr(*ParamView(*d.params()[1]).default_value()), "3");
  EXPECT_EQ(d.body().size(), 1u);
  EXPECT_EQ(d.type_comment(), nullptr);
  EXPECT_EQ(d.range().text(), "def f(a: int, b=3) -> int:");  // compound statements span their header
}

TEST(Parser, DefErrors) {
  EXPECT_TRUE(contains(error_of("def f(a=1, b): pass\n"), "non-default argument follows default argument"));
  EXPECT_TRUE(contains(error_of("def f(a, a): pass\n"), "duplicate argument 'a' in function definition"));
  EXPECT_TRUE(contains(error_of("def f(*args): pass\n"), "variable positional arguments (*args) are not supported"));
  EXPECT_TRUE(contains(error_of("def f(**kw): pass\n"), "variable keyword arguments (**kwargs) are not supported"));
  EXPECT_TRUE(contains(error_of("def f(a, /): pass\n"), "positional-only parameters ('/') are not supported"));
  EXPECT_TRUE(contains(error_of("def f(*): pass\n"), "named arguments must follow bare '*'"));
  EXPECT_TRUE(contains(error_of("def f():\nreturn 1\n"), "expected an indented block after function definition"));
  EXPECT_TRUE(contains(error_of("def f():"), "expected an indented block after function definition"));
  EXPECT_TRUE(contains(error_of("@dec\nx = 1\n"), "expected 'def' or 'class' after a decorator"));
  EXPECT_TRUE(contains(error_of("class C(metaclass=M): pass\n"), "class keyword arguments (such as metaclass=)"));
}

TEST(Parser, TypeComments) {
  EXPECT_EQ(file("def f(x, y):  # type: (int, Tensor) -> Tensor\n    return y + x\n"),
            "(def f ((param x _ _) (param y _ _)) _ ((return (+ y x))) (type-comment (int Tensor) Tensor))\n");
  EXPECT_EQ(file("def g(x,\n      y):\n    # type: (List[int], Optional[str]) -> Tuple[int, str]\n    return x\n"),
            "(def g ((param x _ _) (param y _ _)) _ ((return x)) "
            "(type-comment ((sub List int) (sub Optional str)) (sub Tuple int str)))\n");
  // Type comments elsewhere are not part of the tree.
  EXPECT_EQ(file("x = []  # type: List[int]\n# type: int\ny = 1\n"), "(= x (list))\n(= y 1)\n");
  TreeRef def = parse_file("def f(x):\n  # type: (int) -> int\n  return x\n").statements[0];
  const Tree* tc = DefView(*def).type_comment();
  ASSERT_NE(tc, nullptr);
  EXPECT_EQ(FuncTypeCommentView(*tc).return_type().range().text(), "int");
  EXPECT_EQ(FuncTypeCommentView(*tc).arg_types()[0]->range().text(), "int");
  // A malformed type comment is an error pointing into the comment.
  EXPECT_EQ(error_of("def f(x):  # type: (int) int\n  return x\n"),
            "expected '->' but found 'int':\n"
            "def f(x):  # type: (int) int\n"
            "                         ~~~ <--- HERE\n"
            "  return x\n");
  EXPECT_TRUE(contains(error_of("def f(x):  # type: (int -> int\n  return x\n"), "'(' was never closed"));
}

TEST(Parser, RefusedStatements) {
  EXPECT_TRUE(contains(error_of("def f():\n  global x\n"), "global statements are not supported in TorchScript"));
  EXPECT_TRUE(contains(error_of("def f():\n  nonlocal x\n"), "nonlocal statements are not supported in TorchScript"));
  EXPECT_TRUE(contains(error_of("try:\n  pass\nexcept E:\n  pass\n"), "try statements are not supported"));
  EXPECT_TRUE(contains(error_of("f = lambda: 1\n"), "lambda expressions are not supported"));
  EXPECT_TRUE(contains(error_of("def f():\n  yield 1\n"), "yield (generators) is not supported"));
  EXPECT_TRUE(contains(error_of("async def f(): pass\n"), "async functions are not supported"));
  EXPECT_TRUE(contains(error_of("x = from\n"), "'from' outside an import statement is not supported"));
  EXPECT_TRUE(contains(error_of("raise E from e\n"), "'raise ... from ...' is not supported"));
  EXPECT_TRUE(contains(error_of("while a:\n  pass\nelse:\n  pass\n"), "'else' after a while loop is not supported"));
  EXPECT_TRUE(contains(error_of("for a in b:\n  pass\nelse:\n  pass\n"), "'else' after a for loop is not supported"));
  EXPECT_EQ(error_of("def f(x):\n    global y\n    return x\n"),
            "global statements are not supported in TorchScript:\n"
            "def f(x):\n"
            "    global y\n"
            "    ~~~~~~ <--- HERE\n"
            "    return x\n");
}

TEST(Parser, LayoutErrors) {
  EXPECT_EQ(error_of("x = 1\n    y = 2\n"),
            "unexpected indent:\n"
            "x = 1\n"
            "    y = 2\n"
            "~~~~ <--- HERE\n");
  EXPECT_TRUE(contains(error_of("else:\n  pass\n"), "'else' without a matching 'if'"));
  EXPECT_TRUE(contains(error_of("x = 1 2\n"), "expected the end of the statement but found '2'"));
  EXPECT_TRUE(contains(error_of("if x\n  pass\n"), "expected ':' but found NEWLINE"));
  EXPECT_EQ(error_of("def f(x):\n    return x +\n"),
            "expected an expression but found NEWLINE:\n"
            "def f(x):\n"
            "    return x +\n"
            "              ~ <--- HERE\n");
}

TEST(Parser, WhatTorchsPrinterWrites) {
  std::string src =
      "class M(Module):\n"
      "  __parameters__ = [\"weight\", \"bias\", ]\n"
      "  __buffers__ = []\n"
      "  weight : Tensor\n"
      "  __annotations__[\"0\"] = __torch__.torch.nn.modules.linear.___torch_mangle_3.Linear\n"
      "  in_features : Final[int] = 2\n"
      "  def forward(self: __torch__.M,\n"
      "    x: Tensor) -> Tensor:\n"
      "    _0 = CONSTANTS.c0\n"
      "    _1 = ops.prim.unchecked_cast(Tensor, x)\n"
      "    _2 = annotate(List[int], [])\n"
      "    _3 = uninitialized(Tensor)\n"
      "    _4 = unchecked_cast(Tensor, _1)\n"
      "    _5 = (getattr(self, \"0\")).forward(x, )\n"
      "    return torch.add(_5, _0, alpha=1)\n";
  EXPECT_EQ(file(src),
            "(class M (Module) ("
            "(= __parameters__ (list \"weight\" \"bias\")) "
            "(= __buffers__ (list)) "
            "(annassign weight Tensor _) "
            "(= (sub __annotations__ \"0\") (. (. (. (. (. (. __torch__ torch) nn) modules) linear) ___torch_mangle_3) Linear)) "
            "(annassign in_features (sub Final int) 2) "
            "(def forward ((param self (. __torch__ M) _) (param x Tensor _)) Tensor ("
            "(= _0 (. CONSTANTS c0)) "
            "(= _1 (call (. (. ops prim) unchecked_cast) Tensor x)) "
            "(= _2 (call annotate (sub List int) (list))) "
            "(= _3 (call uninitialized Tensor)) "
            "(= _4 (call unchecked_cast Tensor _1)) "
            "(= _5 (call (. (call getattr self \"0\") forward) x)) "
            "(return (call (. torch add) _5 _0 (kw alpha 1)))))))\n");
}

TEST(Parser, Ranges) {
  auto src = std::make_shared<const Source>("y = foo(a, b) + bar[1]\n");
  ParsedFile f = parse_file(src);
  AssignView assign(*f.statements[0]);
  EXPECT_EQ(assign.value().range().text(), "foo(a, b) + bar[1]");
  EXPECT_EQ(assign.value().child(0)->range().text(), "foo(a, b)");
  EXPECT_EQ(assign.value().child(1)->range().text(), "bar[1]");
  EXPECT_EQ(f.statements[0]->range().text(), "y = foo(a, b) + bar[1]");
  TreeRef cmp = parse_expression("a not in b");
  EXPECT_EQ(CompareView(*cmp).op(0), TokenKind::NotIn);
  EXPECT_EQ(CompareView(*cmp).op_tree(0).range().text(), "not in");
  EXPECT_EQ(parse_expression("(a + b) * c")->range().text(), "(a + b) * c");
}

// Nesting limits: deep inputs fail with a LimitError naming the limit, not a crash.
TEST(Parser, NestingLimits) {
  auto expect_limit = [](const std::string& src) {
    try {
      parse_file(src);
      ADD_FAILURE() << "no error for input of " << src.size() << " bytes";
    } catch (const LimitError& e) {
      EXPECT_TRUE(contains(e.what(), "limit") || contains(e.what(), "nested too deeply")) << e.what();
      EXPECT_TRUE(contains(e.what(), "<--- HERE")) << e.what();
    }
  };
  const size_t n = 100000;
  expect_limit("x = " + std::string(n, '(') + "1" + std::string(n, ')') + "\n");
  expect_limit("x = " + std::string(n, '[') + std::string(n, ']') + "\n");
  expect_limit("x = " + std::string(n, '-') + "1\n");
  std::string nots, calls, subs, pows, chain, attrs;
  for (size_t i = 0; i < n / 10; ++i) {
    nots += "not ";
    calls += "f(";
    subs += "x[";
    pows += "a ** ";
    chain += "a + ";
    attrs += ".a";
  }
  expect_limit("x = " + nots + "a\n");
  expect_limit("x = " + calls + std::string(n / 10, ')') + "\n");
  expect_limit("x = " + subs + "0" + std::string(n / 10, ']') + "\n");
  expect_limit("x = " + pows + "a\n");
  expect_limit("x = " + chain + "a\n");  // left-nested: bounded by the tree depth
  expect_limit("x = a" + attrs + "\n");
  // Deep but reasonable nesting parses.
  EXPECT_EQ(sx(std::string(150, '(') + "1" + std::string(150, ')')), "1");
  std::string sum = "a";
  for (int i = 0; i < 500; ++i) sum += " + a";
  EXPECT_NO_THROW(parse_expression(sum));
}

TEST(Parser, NestedBlocksAtTheIndentationLimit) {
  std::string src;
  for (size_t i = 0; i < 99; ++i) src += std::string(i, ' ') + "if a:\n";
  src += std::string(99, ' ') + "pass\n";
  ParsedFile f = parse_file(src);
  EXPECT_EQ(f.statements[0]->depth(), 2u * 99 + 1);
}

// lint_tree accepts what the parser builds and names the node when a layout is broken.
TEST(Parser, LintTree) {
  ParsedFile f = parse_file(
      "@d\nclass C(B):\n  x : int = 1\n  def f(self, a: int = 2, *, b) -> int:  # type: (int) -> int\n"
      "    for i, *j in {k: v for k, v in y if k}.items():\n      del a[i], b\n    while a < b <= c:\n      a += -1\n"
      "    assert a, [x for x in z][1:2:3]\n    return f(a, *b, k=c)(d) if e else not g\n");
  for (const TreeRef& s : f.statements) EXPECT_NO_THROW(lint_tree(*s));
  SourceRange r;
  TreeRef bad_binop = Tree::make(TreeKind::BinOp, r, {Tree::name(r, "a")});
  try {
    lint_tree(*bad_binop);
    ADD_FAILURE() << "no error";
  } catch (const InternalError& e) {
    EXPECT_TRUE(contains(e.what(), "BinOp node has 1 children, not 2")) << e.what();
  }
  TreeRef stmt_in_expr = Tree::make(TreeKind::UnaryOp, r, {Tree::make(TreeKind::Pass, r)});
  EXPECT_THROW(lint_tree(*stmt_in_expr), InternalError);
}

// An elif chain is read without recursion: 400 clauses parse (800 tree levels).
TEST(Parser, LongElifChain) {
  std::string src = "if x == 0:\n  y = 0\n";
  for (int i = 1; i < 400; ++i) src += "elif x == " + std::to_string(i) + ":\n  y = " + std::to_string(i) + "\n";
  src += "else:\n  y = -1\n";
  ParsedFile f = parse_file(src);
  const Tree* t = f.statements[0].get();
  for (int i = 0; i < 399; ++i) t = IfView(*t).else_body()[0].get();
  EXPECT_EQ(to_sexpr(*t), "(if (compare x == 399) ((= y 399)) ((= y (- 1))))");
  EXPECT_NO_THROW(lint_tree(*f.statements[0]));
}

TEST(Parser, EmptyAndBlankFiles) {
  EXPECT_EQ(file(""), "");
  EXPECT_EQ(file("\n\n# comment\n"), "");
  EXPECT_TRUE(contains(expr_error_of(""), "expected an expression but found EOF"));
}

}  // namespace
}  // namespace torchlet::jit
