// The Graph API built by hand: control-flow blocks as the overview specifies, use
// lists through mutation, torch's value naming, constants, topological order, and
// lint catching each broken invariant.
#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "jit/ir/ir.h"
#include "jit/ir/ir_parser.h"

namespace torchlet::jit {
namespace {

const Symbol kAdd = Symbol::from_qual_string("aten::add");
const Symbol kMul = Symbol::from_qual_string("aten::mul");
const Symbol kLt = Symbol::from_qual_string("aten::lt");

// def f(x, c: bool): y = x + 1 if c else x; for i in range(10): y = y * i
GraphPtr build_if_loop() {
  auto g = std::make_shared<Graph>();
  Value* x = g->add_input("x.1");
  Value* c = g->add_input("c")->set_type(Type::bool_());
  Value* one = g->insert_constant(IValue(1));
  Node* if_node = g->insert(sym::prim_If, {c});
  Value* y = if_node->output()->set_debug_name("y");
  {
    Block* then_b = if_node->add_block();
    InsertPointGuard guard(*g);
    g->set_insert_point(then_b);
    Value* a = g->insert(kAdd, {x, one})->output()->set_debug_name("a");
    then_b->register_output(a);
    if_node->add_block()->register_output(x);
  }
  Value* ten = g->insert_constant(IValue(10));
  Value* yes = g->insert_constant(IValue(true));
  Node* loop = g->insert(sym::prim_Loop, {ten, yes, y});
  loop->output()->set_debug_name("y");  // steals the name: the If's output becomes y.1
  Block* body = loop->add_block();
  Value* i = body->add_input("i")->set_type(Type::int_());
  Value* carried = body->add_input("y.3");
  {
    InsertPointGuard guard(*g);
    g->set_insert_point(body);
    Value* m = g->insert(kMul, {carried, i})->output()->set_debug_name("y.5");
    body->register_output(yes);
    body->register_output(m);
  }
  g->register_output(loop->output());
  return g;
}

constexpr const char* kIfLoopText =
    "graph(%x.1 : Tensor,\n"
    "      %c : bool):\n"
    "  %2 : int = prim::Constant[value=1]()\n"
    "  %y.1 : Tensor = prim::If(%c)\n"
    "    block0():\n"
    "      %a : Tensor = aten::add(%x.1, %2)\n"
    "      -> (%a)\n"
    "    block1():\n"
    "      -> (%x.1)\n"
    "  %5 : int = prim::Constant[value=10]()\n"
    "  %6 : bool = prim::Constant[value=1]()\n"
    "  %y : Tensor = prim::Loop(%5, %6, %y.1)\n"
    "    block0(%i : int, %y.3 : Tensor):\n"
    "      %y.5 : Tensor = aten::mul(%y.3, %i)\n"
    "      -> (%6, %y.5)\n"
    "  return (%y)\n";

TEST(Graph, BuildsIfAndLoopAndPrintsLikeTorch) {
  GraphPtr g = build_if_loop();
  g->lint();
  EXPECT_EQ(g->str(), kIfLoopText);
  // The copy prints the same and is independent.
  GraphPtr c = g->copy();
  c->lint();
  EXPECT_EQ(c->str(), kIfLoopText);
}

TEST(Graph, UseListsFollowMutation) {
  GraphPtr g = build_if_loop();
  Value* x = g->inputs()[0];
  ASSERT_EQ(x->uses().size(), 2u);  // aten::add and the else block's return
  Node* loop = g->outputs()[0]->node();
  Node* if_node = loop->input(2)->node();
  EXPECT_EQ(if_node->kind(), sym::prim_If);
  EXPECT_TRUE(if_node->is_before(loop));
  Node* add = if_node->blocks()[0]->nodes().front();
  EXPECT_TRUE(add->is_after(if_node->prev()));
  EXPECT_TRUE(add->is_before(loop));
  EXPECT_TRUE(loop->blocks()[0]->nodes().front()->is_after(add));
  // Return nodes end their blocks: after everything inside, before what follows the
  // block's owner (the emitter's last-use analysis relies on this).
  EXPECT_TRUE(add->is_before(g->return_node()));
  EXPECT_TRUE(loop->is_before(g->return_node()));
  EXPECT_FALSE(g->return_node()->is_before(add));
  EXPECT_TRUE(add->is_before(if_node->blocks()[0]->return_node()));
  EXPECT_TRUE(if_node->blocks()[0]->return_node()->is_before(loop));
  EXPECT_FALSE(if_node->blocks()[0]->return_node()->is_before(add));

  // Replace every use of x with a new constant placed first.
  Node* k = g->create_constant(IValue(2.5));
  k->insert_before(g->nodes().front());
  x->replace_all_uses_with(k->output());
  EXPECT_FALSE(x->has_uses());
  EXPECT_EQ(k->output()->uses().size(), 2u);
  EXPECT_EQ(add->input(0), k->output());
  g->lint();

  // Inputs shift with their use offsets.
  Value* one = add->input(1);
  add->insert_input(0, one);
  EXPECT_EQ(add->inputs().size(), 3u);
  g->lint();
  add->remove_input(0);
  g->lint();
  EXPECT_EQ(add->input(1), one);
  // A value used at neighbouring positions shifts once, not twice (the loop unroller's
  // ListConstruct(%b, %b) lost a use to that).
  add->insert_input(1, one);
  add->insert_input(0, one);
  g->lint();
  for (size_t i = 0; i < 3; ++i) add->remove_input(0);
  g->lint();
  EXPECT_EQ(add->inputs().size(), 1u);

  // Move a node later and back; destroying a used node is refused.
  Node* ten = loop->input(0)->node();
  ten->move_before(g->nodes().front());
  g->lint();
  EXPECT_THROW(ten->destroy(), InternalError);
  EXPECT_EQ(to_ivalue(ten->output())->toInt(), 10);
}

// Checked against torch: setDebugName("x") three times gives x.1, x.3, x.
TEST(Graph, NamesTakeDotSuffixesAsTorch) {
  Graph g;
  Value* a = g.add_input("x");
  Value* b = g.add_input("x");
  EXPECT_EQ(b->debug_name(), "x");
  EXPECT_EQ(a->debug_name(), "x.1");
  Value* c = g.add_input("x");
  EXPECT_EQ(b->debug_name(), "x.3");  // torch skips .2: the base's suffix counter moved on
  EXPECT_EQ(c->debug_name(), "x");
  EXPECT_EQ(b->debug_name_base(), "x");
  Value* d = g.add_input();
  EXPECT_EQ(d->debug_name(), "3");
  EXPECT_THROW(d->set_debug_name("12"), ValueError);
  g.erase_input(3);
  g.erase_input(0);
  EXPECT_EQ(g.inputs()[0]->debug_name(), "x.3");
  g.lint();
}

TEST(Graph, ConstantsAreTypedAsTorch) {
  Graph g;
  auto out = [&](const IValue& v) {
    Value* c = g.insert_constant(v);
    std::ostringstream os;
    c->node()->print(os, 0);
    return os.str();
  };
  EXPECT_EQ(out(IValue(true)), "%0 : bool = prim::Constant[value=1]()\n");
  EXPECT_EQ(out(IValue(1.0)), "%1 : float = prim::Constant[value=1.]()\n");
  EXPECT_EQ(out(IValue(0.1)), "%2 : float = prim::Constant[value=0.10000000000000001]()\n");
  EXPECT_EQ(out(IValue(-0.0)), "%3 : float = prim::Constant[value=-0.]()\n");
  EXPECT_EQ(out(IValue(12345678901.0)), "%4 : float = prim::Constant[value=12345678901]()\n");
  EXPECT_EQ(out(IValue(std::string("a\nb\"'"))), "%5 : str = prim::Constant[value=\"a\\nb\\\"\\'\"]()\n");
  EXPECT_EQ(out(IValue()), "%6 : NoneType = prim::Constant()\n");
  EXPECT_EQ(out(IValue(Device::parse("cpu"))), "%7 : Device = prim::Constant[value=\"cpu\"]()\n");
  EXPECT_EQ(out(IValue::list({IValue(1.0), IValue(2.5)}, Type::float_())),
            "%8 : float[] = prim::Constant[value=[1., 2.5]]()\n");
  EXPECT_EQ(out(IValue::tuple({IValue(1), IValue("a")})), "%9 : (int, str) = prim::Constant[value=(1, \"a\")]()\n");
  EXPECT_EQ(to_ivalue(g.nodes().front()->output())->toBool(), true);
  EXPECT_EQ(to_ivalue(g.nodes().back()->output())->tupleRef().elements.size(), 2u);
  g.lint();
}

TEST(Graph, LintCatchesBrokenInvariants) {
  {  // use before definition
    GraphPtr g = build_if_loop();
    Node* first = g->nodes().front();
    first->move_after(g->nodes().back());
    EXPECT_THROW(g->lint(), InternalError);
  }
  {  // an If block returning the wrong number of values
    GraphPtr g = build_if_loop();
    Node* if_node = g->outputs()[0]->node()->input(2)->node();
    if_node->blocks()[1]->register_output(g->inputs()[0]);
    EXPECT_THROW(g->lint(), InternalError);
  }
  {  // a Loop body missing its condition output
    GraphPtr g = build_if_loop();
    Block* body = g->outputs()[0]->node()->blocks()[0];
    body->erase_output(0);
    EXPECT_THROW(g->lint(), InternalError);
  }
  {  // a value defined inside a block used after it
    GraphPtr g = build_if_loop();
    Node* if_node = g->outputs()[0]->node()->input(2)->node();
    Value* inner = if_node->blocks()[0]->nodes().front()->output();
    g->return_node()->add_input(inner);
    EXPECT_THROW(g->lint(), InternalError);
  }
  {  // a constant with an input
    GraphPtr g = build_if_loop();
    g->nodes().front()->add_input(g->inputs()[0]);
    EXPECT_THROW(g->lint(), InternalError);
  }
  // Use lists no API can break, broken by hand: one that lost a use, one that lists a
  // use twice (lint finds both with a table of listed uses, not a search per input).
  auto lint_message = [](const Graph& g) -> std::string {
    try {
      g.lint();
    } catch (const InternalError& e) {
      return e.what();
    }
    return "lint passed";
  };
  {
    GraphPtr g = build_if_loop();
    auto& uses = const_cast<std::vector<Use>&>(g->inputs()[0]->uses());
    ASSERT_FALSE(uses.empty());
    uses.pop_back();
    EXPECT_NE(lint_message(*g).find("input %x.1 does not list this use"), std::string::npos) << lint_message(*g);
  }
  {
    GraphPtr g = build_if_loop();
    auto& uses = const_cast<std::vector<Use>&>(g->inputs()[0]->uses());
    uses.push_back(uses.front());
    EXPECT_NE(lint_message(*g).find("use list of %x.1 lists a use twice"), std::string::npos) << lint_message(*g);
  }
}

TEST(Graph, DestroyAndReplaceAfter) {
  GraphPtr g = build_if_loop();
  Node* loop = g->outputs()[0]->node();
  Node* if_node = loop->input(2)->node();
  Value* x = g->inputs()[0];
  // Uses of y.1 after the If (the loop) now read x; the If is then dead.
  if_node->output()->replace_all_uses_after_node_with(if_node, x);
  EXPECT_FALSE(if_node->has_uses());
  if_node->destroy();
  g->lint();
  EXPECT_EQ(loop->input(2), x);
  EXPECT_EQ(g->str().find("prim::If"), std::string::npos);
  // Destroying the block holding the insert point moves the point to the graph's end.
  g->set_insert_point(loop->blocks()[0]);
  loop->erase_block(0);
  EXPECT_EQ(g->insert_point(), g->return_node());
  EXPECT_THROW(g->lint(), InternalError);  // a Loop without its body
}

// Builders give the node kinds, attributes and output types torch's emitter gives.
TEST(Graph, BuildersTypeTheirOutputs) {
  ClassTypePtr m = ClassType::create("__torch__.M", true);
  m->add_attribute("w", Type::tensor(), ClassAttribute::Kind::Parameter);
  m->add_attribute("n", Type::int_());
  auto g = std::make_shared<Graph>();
  Value* self = g->add_input("self")->set_type(m);
  Value* a = g->add_input("a")->set_type(Type::int_());
  Value* b = g->add_input("b")->set_type(Type::str_());
  Value* t = g->insert_node(g->create_tuple({a, b}))->output();
  Node* unpack = g->insert_node(g->create_tuple_unpack(t));
  Value* l = g->insert_node(g->create_list(Type::int_(), {a, unpack->output(0)}))->output();
  Value* d = g->insert_node(g->create_dict(Type::str_(), Type::int_(), {b}, {a}))->output();
  Value* w = g->insert_node(g->create_get_attr(self, "w"))->output();
  g->insert_node(g->create_set_attr(self, "n", a));
  Value* u = g->insert_node(g->create_uninitialized(Type::tensor()))->output();
  Value* is = g->insert_node(g->create_isinstance(a, {Type::int_(), Type::str_()}))->output();
  Value* none = g->insert_node(g->create_none())->output();
  for (Value* v : {t, l, d, w, u, is, none}) g->register_output(v);
  g->lint();
  const std::string text =
      "graph(%self : __torch__.M,\n"
      "      %a : int,\n"
      "      %b : str):\n"
      "  %3 : (int, str) = prim::TupleConstruct(%a, %b)\n"
      "  %4 : int, %5 : str = prim::TupleUnpack(%3)\n"
      "  %6 : int[] = prim::ListConstruct(%a, %4)\n"
      "  %7 : Dict(str, int) = prim::DictConstruct(%b, %a)\n"
      "  %8 : Tensor = prim::GetAttr[name=\"w\"](%self)\n"
      "   = prim::SetAttr[name=\"n\"](%self, %a)\n"
      "  %9 : Tensor = prim::Uninitialized()\n"
      "  %10 : bool = prim::isinstance[types=[int, str]](%a)\n"
      "  %11 : NoneType = prim::Constant()\n"
      "  return (%3, %6, %7, %8, %9, %10, %11)\n";
  EXPECT_EQ(g->str(), text);
  EXPECT_THROW(g->create_get_attr(self, "missing"), TypeError);
  EXPECT_THROW(g->create_list(Type::int_(), {b}), TypeError);
  // The same text parses back (classes through the resolver) and prints identically.
  TypeResolver resolve = [&](std::string_view n) -> TypePtr { return n == "__torch__.M" ? m : nullptr; };
  GraphPtr p = parse_ir(text, resolve);
  p->lint();
  EXPECT_EQ(p->str(), text);
}

}  // namespace
}  // namespace torchlet::jit
