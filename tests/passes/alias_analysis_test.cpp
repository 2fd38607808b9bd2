// AliasDb over parsed IR: the reference's examples (jit-technical-overview, Handling
// Mutability), schema annotations, containers, control flow, and the hazard rules of
// move_after/before_topologically_valid. Alias-aware dead code elimination and CSE,
// whose behaviour on writes torch's Python-bound passes cannot show (interop tests
// compare the rest with torch).
#include <gtest/gtest.h>

#include <string>

#include "jit/ir/ir_parser.h"
#include "jit/passes/alias_analysis.h"
#include "jit/passes/common_subexpression_elimination.h"
#include "jit/passes/dead_code_elimination.h"

namespace torchlet::jit {
namespace {

// The value named `name` (a graph input or a node output, in nested blocks too).
const Value* find(const Graph& g, const std::string& name) {
  for (const Value* v : g.inputs())
    if (v->debug_name() == name) return v;
  std::vector<const Block*> blocks{g.block()};
  while (!blocks.empty()) {
    const Block* b = blocks.back();
    blocks.pop_back();
    for (const Value* v : b->inputs())
      if (v->debug_name() == name) return v;
    for (const Node* n : b->nodes()) {
      for (const Value* v : n->outputs())
        if (v->debug_name() == name) return v;
      for (const Block* sub : n->blocks()) blocks.push_back(sub);
    }
  }
  ADD_FAILURE() << "no value %" << name;
  return nullptr;
}

Node* producer(const Graph& g, const std::string& name) { return find(g, name)->node(); }

// The reference's example:
//   def foo(a : Tensor, b : Tensor):
//       c = 2 * b
//       a += 1
//       if a.max() > 4: r = a[0]
//       else:           r = b[0]
//       return c, r
TEST(AliasDb, ReferenceExample) {
  GraphPtr g = parse_ir(R"IR(graph(%a : Tensor, %b : Tensor):
  %two : int = prim::Constant[value=2]()
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %four : int = prim::Constant[value=4]()
  %c : Tensor = aten::mul(%b, %two)
  %a2 : Tensor = aten::add_(%a, %one, %one)
  %m : Tensor = aten::max(%a2)
  %gt : Tensor = aten::gt(%m, %four)
  %cond : bool = aten::Bool(%gt)
  %r : Tensor = prim::If(%cond)
    block0():
      %ra : Tensor = aten::select(%a2, %zero, %zero)
      -> (%ra)
    block1():
      %rb : Tensor = aten::select(%b, %zero, %zero)
      -> (%rb)
  return (%c, %r)
)IR");
  // (Returned as two outputs: put into a tuple, c and r would become wildcards, as
  // everything put into a container does in torch's analysis.)
  AliasDb db(*g);
  const Value* a = find(*g, "a");
  const Value* b = find(*g, "b");
  const Value* c = find(*g, "c");
  const Value* r = find(*g, "r");
  // Inputs may alias each other (the caller may pass one tensor twice).
  EXPECT_TRUE(db.may_alias(a, b));
  // 2 * b is new memory.
  EXPECT_FALSE(db.may_alias(c, a));
  EXPECT_FALSE(db.may_alias(c, b));
  // r is a view of a or of b.
  EXPECT_TRUE(db.may_alias(r, a));
  EXPECT_TRUE(db.may_alias(r, b));
  EXPECT_TRUE(db.may_alias(find(*g, "a2"), a));  // add_ returns self
  // a += 1 writes a, so everything that may be a (b too) has writers; c does not.
  EXPECT_TRUE(db.has_writers(a));
  EXPECT_TRUE(db.has_writers(b));
  EXPECT_FALSE(db.has_writers(c));
  EXPECT_TRUE(db.writes_to_wildcard(producer(*g, "a2")));
  EXPECT_FALSE(db.may_alias(find(*g, "m"), a));  // max is a new tensor
}

TEST(AliasDb, ViewsWritesAndFreshValues) {
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %y : Tensor = aten::relu(%x)
  %sizes : int[] = prim::ListConstruct(%one)
  %v : Tensor = aten::view(%y, %sizes)
  %w : Tensor = aten::mul_(%v, %one)
  %z : Tensor = aten::neg(%x)
  return (%z)
)IR");
  AliasDb db(*g);
  const Value* y = find(*g, "y");
  const Value* v = find(*g, "v");
  const Value* z = find(*g, "z");
  EXPECT_TRUE(db.may_alias(y, v));
  EXPECT_FALSE(db.may_alias(y, z));
  EXPECT_FALSE(db.may_alias(y, find(*g, "x")));
  EXPECT_TRUE(db.has_writers(y));  // written through its view
  EXPECT_FALSE(db.has_writers(z));
  EXPECT_FALSE(db.escapes_scope(y));
  EXPECT_TRUE(db.escapes_scope(z));  // returned
  EXPECT_TRUE(db.writes_to_alias(producer(*g, "w"), {y}));
  EXPECT_FALSE(db.writes_to_alias(producer(*g, "w"), {z}));
  EXPECT_FALSE(db.writes_to_wildcard(producer(*g, "w")));
  EXPECT_TRUE(db.is_mutable(producer(*g, "w")));
  EXPECT_FALSE(db.is_mutable(producer(*g, "z")));
  // Immutable values alias nothing.
  EXPECT_FALSE(db.may_alias(find(*g, "one"), find(*g, "one")));
}

TEST(AliasDb, ContainersHoldWhatGoesIn) {
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %a : Tensor = aten::relu(%x)
  %b : Tensor = aten::neg(%x)
  %l : Tensor[] = prim::ListConstruct(%a)
  %e : Tensor = aten::__getitem__(%l, %zero)
  %c : Tensor = aten::cat(%l, %zero)
  return (%c, %b)
)IR");
  AliasDb db(*g);
  const Value* a = find(*g, "a");
  const Value* b = find(*g, "b");
  const Value* l = find(*g, "l");
  const Value* e = find(*g, "e");
  // An element taken out of a list may be anything put into one (torch's rule: list
  // contents are wildcards), the list itself is new.
  EXPECT_TRUE(db.may_alias(e, a));
  EXPECT_FALSE(db.may_alias(l, a));
  EXPECT_TRUE(db.may_contain_alias(l, a));
  EXPECT_FALSE(db.may_contain_alias(l, b));
  EXPECT_FALSE(db.may_alias(find(*g, "c"), a));  // cat makes a new tensor
}

TEST(AliasDb, ListAddInPlaceReturnsItsFirstArgument) {
  // aten::add_.t's schema says "-> t[]", but `a += b` gives back `a` itself.
  GraphPtr g = parse_ir(R"IR(graph(%x : int):
  %a : int[] = prim::ListConstruct(%x)
  %b : int[] = prim::ListConstruct(%x)
  %c : int[] = aten::add_(%a, %b)
  return (%c)
)IR");
  AliasDb db(*g);
  EXPECT_TRUE(db.may_alias(find(*g, "c"), find(*g, "a")));
  EXPECT_FALSE(db.may_alias(find(*g, "c"), find(*g, "b")));
}

TEST(AliasDb, AListOnlyReturnedKeepsItsElementsApart) {
  // Nothing in the graph can take an element back out of a list it only returns, so
  // the element stays itself rather than joining every tensor of the graph (torch
  // 1.13's dump says "%l contains: %c").
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %c : Tensor = aten::clone(%x, %none)
  %l : Tensor[] = prim::ListConstruct(%c)
  return (%l)
)IR");
  AliasDb db(*g);
  EXPECT_FALSE(db.may_alias(find(*g, "c"), find(*g, "x")));
  EXPECT_TRUE(db.may_contain_alias(find(*g, "l"), find(*g, "c")));
}

TEST(AliasDb, LoopCarriedValuesPointToBothEnds) {
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor, %n : int):
  %t : bool = prim::Constant[value=1]()
  %y : Tensor = aten::relu(%x)
  %z : Tensor = aten::neg(%x)
  %out : Tensor = prim::Loop(%n, %t, %y)
    block0(%i : int, %c : Tensor):
      %d : Tensor = aten::sigmoid(%c)
      -> (%t, %d)
  return (%out, %z)
)IR");
  AliasDb db(*g);
  EXPECT_TRUE(db.may_alias(find(*g, "out"), find(*g, "y")));  // zero iterations
  EXPECT_TRUE(db.may_alias(find(*g, "out"), find(*g, "d")));
  EXPECT_TRUE(db.may_alias(find(*g, "c"), find(*g, "y")));
  EXPECT_FALSE(db.may_alias(find(*g, "out"), find(*g, "z")));
}

TEST(AliasDb, MovesKeepDataAndMemoryOrder) {
  const char* text = R"IR(graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::relu(%x)
  %b : Tensor = aten::neg(%x)
  %w : Tensor = aten::add_(%a, %one, %one)
  %r : Tensor = aten::sigmoid(%a)
  %s : Tensor = aten::tanh(%b)
  %out : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%r, %s, %w)
  return (%out)
)IR";
  {
    GraphPtr g = parse_ir(text);
    AliasDb db(*g);
    // sigmoid(a) reads what add_ wrote: it cannot move before the write (RAW)...
    EXPECT_FALSE(db.move_before_topologically_valid(producer(*g, "r"), producer(*g, "w")));
    // ...nor the write after the read (WAR).
    EXPECT_FALSE(db.move_after_topologically_valid(producer(*g, "w"), producer(*g, "r")));
    // tanh(b) touches other memory: it may move up to just after b.
    EXPECT_TRUE(db.move_after_topologically_valid(producer(*g, "s"), producer(*g, "b")));
    EXPECT_EQ(producer(*g, "b")->next(), producer(*g, "s"));
    g->lint();
    // Moving relu(x) after neg(x) is fine; after its own user it is not.
    EXPECT_TRUE(db.could_move_after_topologically(producer(*g, "a"), producer(*g, "b")));
    EXPECT_FALSE(db.could_move_after_topologically(producer(*g, "a"), producer(*g, "out")));
  }
  {
    // Moving a node later takes along the nodes between that need it.
    GraphPtr g = parse_ir(text);
    AliasDb db(*g);
    EXPECT_TRUE(db.move_after_topologically_valid(producer(*g, "a"), producer(*g, "s")));
    g->lint();
    const Node* s = producer(*g, "s");
    EXPECT_EQ(s->next(), producer(*g, "a"));
    EXPECT_EQ(s->next()->next(), producer(*g, "w"));
    EXPECT_EQ(s->next()->next()->next(), producer(*g, "r"));
  }
}

// torch's placement: a node moved later to just before a point (or earlier to just after
// one) stays on its side and what depends on it goes past the point, so the point must
// not depend on that.
TEST(AliasDb, MovesToTheNearSideOfAPointSendTheirDependentsPastIt) {
  const char* text = R"IR(graph(%x : Tensor, %y : Tensor):
  %zero : int = prim::Constant[value=0]()
  %p : Tensor = aten::relu(%x)
  %q : Tensor = aten::neg(%p)
  %l : Tensor[] = prim::ListConstruct(%x, %y)
  %w : Tensor[] = aten::append(%l, %q)
  %s : Tensor = aten::tanh(%x)
  %r : Tensor = aten::cat(%l, %zero)
  %out : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%q, %s, %r)
  return (%out)
)IR";
  GraphPtr g = parse_ir(text);
  AliasDb db(*g);
  // The list cannot reach its cat unchanged: the append that writes it would have to
  // pass the cat, which reads it.
  EXPECT_FALSE(db.could_move_before_topologically(producer(*g, "l"), producer(*g, "r")));
  EXPECT_TRUE(db.move_before_topologically_valid(producer(*g, "p"), producer(*g, "s")));
  g->lint();
  const Node* s = producer(*g, "s");
  EXPECT_EQ(s->prev(), producer(*g, "p"));
  EXPECT_EQ(s->next(), producer(*g, "q"));
  EXPECT_EQ(s->next()->next(), producer(*g, "w"));
}

TEST(AliasDb, DumpNamesLocationsAndWrites) {
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %y : Tensor = aten::relu(%x)
  %w : Tensor = aten::add_(%y, %one, %one)
  return (%w)
)IR");
  const std::string dump = AliasDb(*g).dump();
  EXPECT_NE(dump.find("%x : Tensor -> {*Tensor}"), std::string::npos) << dump;
  EXPECT_NE(dump.find("%w : Tensor -> {%y}"), std::string::npos) << dump;
  EXPECT_NE(dump.find("aten::add_ -> %w writes {%y}"), std::string::npos) << dump;
}

// With alias analysis, a write nobody can see is dead; a write to an input, to what is
// returned, or to what a live value views is not.
TEST(DeadCodeElimination, AliasAwareWrites) {
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %dead : Tensor = aten::relu(%x)
  %w1 : Tensor = aten::add_(%dead, %one, %one)
  %live : Tensor = aten::neg(%x)
  %sizes : int[] = prim::ListConstruct(%one)
  %v : Tensor = aten::view(%live, %sizes)
  %w2 : Tensor = aten::mul_(%v, %one)
  %w3 : Tensor = aten::sub_(%x, %one, %one)
  return (%live)
)IR");
  GraphPtr conservative = g->copy();
  EXPECT_TRUE(eliminate_dead_code(*g, DeadCodeWrites::AliasAware));
  g->lint();
  const std::string out = g->str();
  EXPECT_EQ(out.find("aten::relu"), std::string::npos) << out;
  EXPECT_EQ(out.find("aten::add_"), std::string::npos) << out;
  EXPECT_NE(out.find("aten::mul_"), std::string::npos) << out;  // writes the returned tensor
  EXPECT_NE(out.find("aten::sub_"), std::string::npos) << out;  // writes the caller's tensor
  // torch's _jit_pass_dce (no alias analysis) keeps every write.
  EXPECT_FALSE(eliminate_dead_code(*conservative, DeadCodeWrites::KeepAll));
  EXPECT_NE(conservative->str().find("aten::add_"), std::string::npos);
}

TEST(DeadCodeElimination, SideEffectsStay) {
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor):
  %s : str = prim::Constant[value="hi"]()
  %u : Tensor = aten::relu(%x)
   = prim::Print(%s, %u)
  %d : Tensor = aten::neg(%x)
  return (%x)
)IR");
  EXPECT_TRUE(eliminate_dead_code(*g));
  const std::string out = g->str();
  EXPECT_NE(out.find("prim::Print"), std::string::npos) << out;
  EXPECT_NE(out.find("aten::relu"), std::string::npos) << out;
  EXPECT_EQ(out.find("aten::neg"), std::string::npos) << out;
}

TEST(CommonSubexpressionElimination, NeverAcrossWrites) {
  GraphPtr g = parse_ir(R"IR(graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %y : Tensor = aten::relu(%x)
  %a : Tensor = aten::sigmoid(%y)
  %w : Tensor = aten::add_(%y, %one, %one)
  %b : Tensor = aten::sigmoid(%y)
  %c : Tensor = aten::neg(%x)
  %d : Tensor = aten::neg(%x)
  %out : (Tensor, Tensor, Tensor, Tensor) = prim::TupleConstruct(%a, %b, %c, %d)
  return (%out)
)IR");
  EXPECT_FALSE(eliminate_common_subexpressions(*g));  // x, y written (x through the wildcard)
  GraphPtr pure = parse_ir(R"IR(graph(%x : Tensor):
  %y : Tensor = aten::relu(%x)
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::sigmoid(%y)
  %b : Tensor = aten::sigmoid(%y)
  %out : Tensor = aten::add(%a, %b, %one)
  return (%out)
)IR");
  EXPECT_TRUE(eliminate_common_subexpressions(*pure));
  pure->lint();
  const std::string out = pure->str();
  EXPECT_EQ(out.find("aten::sigmoid"), out.rfind("aten::sigmoid")) << out;
}

}  // namespace
}  // namespace torchlet::jit
