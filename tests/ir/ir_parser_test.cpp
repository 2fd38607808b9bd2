// The IR text parser and printer against torch 1.13: every graph gen_ir.py scripted
// (control flow, containers, constants, classes, fork subgraphs, torchvision models)
// parses, lints, and prints back byte for byte, with and without source locations.
// Plus IR written by hand and malformed text.
#include <fstream>
#include <sstream>
#include <typeinfo>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "jit/ir/ir_parser.h"

namespace torchlet::jit {
namespace {

std::string read_fixture(const std::string& relative) {
  std::ifstream in(testing::fixture_dir() / relative, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "missing fixture " << relative;
    return "";
  }
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

TEST(IRParser, TorchGraphsRoundTrip) {
  auto names = testing::fixture_lines("ir/graphs.txt");
  EXPECT_GE(names.size(), 20u);
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    std::string plain = read_fixture("ir/graphs/" + name + ".txt");
    std::string located = read_fixture("ir/graphs/" + name + ".src.txt");
    ASSERT_FALSE(plain.empty());
    GraphPtr g = parse_ir(plain);
    g->lint();
    EXPECT_EQ(g->str(false), plain);
    GraphPtr h = parse_ir(located);
    h->lint();
    EXPECT_EQ(h->str(true), located);
    EXPECT_EQ(h->str(false), plain);
    // A copy prints the same.
    EXPECT_EQ(h->copy()->str(true), located);
  }
}

TEST(IRParser, HandWrittenControlFlow) {
  const std::string text =
      "graph(%a.1 : int,\n"
      "      %b : int):\n"
      "  %2 : int = prim::Constant[value=0]()\n"
      "  %3 : bool = prim::Constant[value=1]()\n"
      "  %4 : bool = aten::gt(%a.1, %2)\n"
      "  %r : int = prim::If(%4)\n"
      "    block0():\n"
      "      %6 : bool = aten::gt(%b, %2)\n"
      "      %r.2 : int = prim::If(%6)\n"
      "        block0():\n"
      "          -> (%a.1)\n"
      "        block1():\n"
      "          -> (%b)\n"
      "      -> (%r.2)\n"
      "    block1():\n"
      "      -> (%2)\n"
      "  %s : int, %t : int = prim::Loop(%a.1, %3, %r, %2)\n"
      "    block0(%i : int, %s.3 : int, %t.3 : int):\n"
      "      %s.5 : int = aten::add(%s.3, %i)\n"
      "      %t.5 : int = aten::mul(%t.3, %s.5)\n"
      "      %c : bool = aten::lt(%s.5, %b)\n"
      "      -> (%c, %s.5, %t.5)\n"
      "   = prim::Print(%s, %t)\n"
      "  return (%s, %t)\n";
  std::unordered_map<std::string, Value*> values;
  GraphPtr g = parse_ir(text, nullptr, &values);
  g->lint();
  EXPECT_EQ(g->str(), text);
  Node* loop = values.at("s")->node();
  EXPECT_EQ(loop->kind(), sym::prim_Loop);
  EXPECT_EQ(loop->blocks()[0]->inputs().size(), 3u);
  EXPECT_EQ(values.at("r.2")->node()->owning_block()->owning_node(), values.at("r")->node());
  EXPECT_EQ(to_ivalue(values.at("3"))->toBool(), true);
  EXPECT_EQ(values.at("a.1")->uses().size(), 3u);
  // New values get ids past every numeric name in the text.
  Value* fresh = g->insert_constant(IValue(7));
  EXPECT_GT(fresh->unique(), 6u);
}

// torch writes a node without outputs as `aten::_set_item(...)` in the IR it parses and
// as ` = aten::_set_item(...)` when it prints; both read, and print torch's way.
TEST(IRParser, NodesWithoutOutputsWithOrWithoutTheEqualsSign) {
  const std::string printed =
      "graph(%d : Dict(str, int),\n"
      "      %k : str,\n"
      "      %v : int):\n"
      "   = aten::_set_item(%d, %k, %v)\n"
      "   = aten::_set_item(%d, %k, %v)\n"
      "  return (%d)\n";
  GraphPtr g = parse_ir(
      "graph(%d : Dict(str, int), %k : str, %v : int):\n"
      "  aten::_set_item(%d, %k, %v)\n"
      "   = aten::_set_item(%d, %k, %v)\n"
      "  return (%d)\n");
  g->lint();
  EXPECT_EQ(g->str(false), printed);
}

TEST(IRParser, AttributesAndConstants) {
  const std::string text =
      "graph(%x : Tensor):\n"
      "  %1 : float[] = prim::Constant[value=[1., 2.5]]()\n"
      "  %2 : int[] = prim::Constant[value=[]]()\n"
      "  %3 : str = prim::Constant[value=\"a\\\"b\\n\\'c\\\\\"]()\n"
      "  %4 : Tensor = prim::Constant[value={2}]()\n"
      "  %5 : (int, str) = prim::Constant[value=(1, \"a\")]()\n"
      "  %6 : bool = prim::isinstance[types=[int, str]](%x)\n"
      "  %7 : Tensor = foo::bar[i=-3, f=1.0000000000000001e-05, fs=[1., 2.], is=[1, 2], s=\"x\", ss=[\"a\", \"b\"]](%x)\n"
      "  %8 : float = prim::Constant[value=-inf]()\n"
      "  return (%1, %2, %3, %4, %5, %6, %7, %8)\n";
  std::unordered_map<std::string, Value*> v;
  GraphPtr g = parse_ir(text, nullptr, &v);
  EXPECT_EQ(g->str(), text);
  auto list = to_ivalue(v.at("1"));
  ASSERT_TRUE(list->isList());
  EXPECT_EQ(list->listRef().elements[0].toDouble(), 1.0);
  EXPECT_EQ(to_ivalue(v.at("3"))->toStringRef(), "a\"b\n'c\\");
  EXPECT_EQ(to_ivalue(v.at("4"))->toTensor().item().to_int(), 2);
  Node* foo = v.at("7")->node();
  EXPECT_EQ(foo->i(Symbol::from_qual_string("attr::i")), -3);
  EXPECT_EQ(foo->attribute_kind(Symbol::from_qual_string("attr::fs")), AttributeKind::fs);
  EXPECT_EQ(v.at("6")->node()->tys(Symbol::from_qual_string("attr::types")).size(), 2u);
}

// Types with arguments and suffixes in a types=[...] list (torch prints isinstance
// checks of unions so: Dict(str, int), int[], Tensor?).
TEST(IRParser, TypeListsWithConstructedTypes) {
  const std::string text =
      "graph(%x : Union(int[], Dict(str, int))):\n"
      "  %2 : bool = prim::isinstance[types=[Dict(str, int), int[], Tensor?]](%x)\n"
      "  return (%2)\n";
  std::unordered_map<std::string, Value*> v;
  GraphPtr g = parse_ir(text, nullptr, &v);
  EXPECT_EQ(g->str(), text);
  const auto& types = v.at("2")->node()->tys(Symbol::from_qual_string("attr::types"));
  ASSERT_EQ(types.size(), 3u);
  EXPECT_EQ(types[0]->str(), "Dict(str, int)");
  EXPECT_EQ(types[1]->str(), "int[]");
  EXPECT_EQ(types[2]->str(), "Tensor?");
}

TEST(IRParser, ResolverSuppliesClasses) {
  ClassTypePtr m = ClassType::create("__torch__.M", true);
  m->add_attribute("w", Type::tensor(), ClassAttribute::Kind::Parameter);
  TypeResolver resolve = [&](std::string_view n) -> TypePtr { return n == "__torch__.M" ? m : nullptr; };
  std::unordered_map<std::string, Value*> v;
  GraphPtr g = parse_ir(
      "graph(%self : __torch__.M):\n"
      "  %w : Tensor = prim::GetAttr[name=\"w\"](%self)\n"
      "  return (%w)\n",
      resolve, &v);
  EXPECT_EQ(v.at("self")->type().get(), m.get());
  EXPECT_EQ(v.at("w")->node()->s(sym::attr_name), "w");
}

TEST(IRParser, LocationCommentsAreReadBackAndOversizedOnesDropped) {
  // `# file:line:col` after a node is its source location; a column or line too large
  // to hold (or to pad a placeholder source with) leaves the node without one.
  GraphPtr g = parse_ir(
      "graph(%a : int):\n"
      "  %1 : int = aten::neg(%a) # model.py:12:7\n"
      "  %2 : int = aten::neg(%1) # model.py:3:99999999999999999999999\n"
      "  %3 : int = aten::neg(%2) # model.py:99999999999999999999999:1\n"
      "  %4 : int = aten::neg(%3) # model.py:1:4000000000\n"
      "  return (%4)\n");
  std::vector<std::optional<std::tuple<std::string, size_t, size_t>>> where;
  for (Node* n : g->block()->nodes()) where.push_back(n->source_range().file_line_col());
  ASSERT_EQ(where.size(), 4u);
  ASSERT_TRUE(where[0].has_value());
  EXPECT_EQ(*where[0], std::make_tuple(std::string("model.py"), size_t{12}, size_t{7}));
  for (size_t i = 1; i < 4; ++i) EXPECT_FALSE(where[i].has_value()) << i;
}

TEST(IRParser, MalformedTextIsACompileError) {
  const char* bad[] = {
      "graph(%x : Tensor):\n  return (%y)\n",                                 // undefined value
      "graph(%x : Tensor):\n  %1 : int = prim::Constant[value=1]\n  return (%1)\n",  // no input list
      "graph(%x : Tensor):\n  %x : int = aten::foo(%x)\n  return (%x)\n",     // defined twice
      "graph(%x : Frob[int]):\n  return (%x)\n",                              // bad type
      "graph(%x : Tensor):\n  %1 : str = prim::Constant[value=\"abc]()\n  return (%1)\n",
      "graph(%x : Tensor):\n  return (%x)\nextra",
  };
  for (const char* text : bad) {
    EXPECT_THROW(parse_ir(text), CompileError) << text;
  }
  try {
    parse_ir("graph(%x : Tensor):\n  %2 : Tensor = aten::relu(%q)\n  return (%2)\n");
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("<--- HERE"), std::string::npos) << e.what();
  }
}

// Truncated and corrupted text never crashes the parser: it parses or throws a
// CompileError (checked on every prefix and single-byte corruption of small graphs).
TEST(IRParser, DamagedTextFailsCleanly) {
  size_t checked = 0;
  for (const char* name : {"nested_ifs", "loop_carried", "constants", "forks", "enums", "containers"}) {
    std::string text = read_fixture(std::string("ir/graphs/") + name + ".src.txt");
    ASSERT_FALSE(text.empty()) << name;
    auto attempt = [&](const std::string& t) {
      try {
        parse_ir(t)->str();
      } catch (const CompileError&) {
      } catch (const std::exception& e) {
        ADD_FAILURE() << name << ": " << typeid(e).name() << " " << e.what() << "\non:\n" << t;
      }
      ++checked;
    };
    for (size_t cut = 0; cut < text.size(); cut += 7) attempt(text.substr(0, cut));
    const char bytes[] = {'%', '(', ')', '[', ']', ':', ',', '"', '=', '-', '9', '#', '<', '\\', 'x'};
    for (size_t at = 0; at < text.size(); at += 5) {
      std::string t = text;
      t[at] = bytes[at % sizeof(bytes)];
      attempt(t);
    }
  }
  EXPECT_GT(checked, 1000u);
}

// Nesting is bounded (2000 unindented prim::If levels, 134 KB, overflowed the stack in
// lint): 256 levels of blocks or of `with` subgraphs parse, one more is a LimitError.
TEST(IRParser, BlockAndSubgraphNestingIsBounded) {
  auto nested_ifs = [](size_t n) {
    std::string text = "graph(%c : bool, %x : int):\n";
    for (size_t i = 0; i < n; ++i) text += "%r" + std::to_string(i) + " : int = prim::If(%c)\nblock0():\n";
    for (size_t i = n; i-- > 0;)  // innermost block first
      text += "-> (" + (i + 1 < n ? "%r" + std::to_string(i + 1) : std::string("%x")) + ")\nblock1():\n-> (%x)\n";
    return text + "return (%r0)\n";
  };
  auto forks = [](size_t n) {
    std::string text = "graph(%x : Tensor):\n";
    for (size_t i = 1; i <= n; ++i) {
      text += "%f : Future[Tensor] = prim::fork_" + std::to_string(i) + "(%x)\nreturn (%x)\nwith prim::fork_" +
              std::to_string(i) + " = graph(%x : Tensor):\n";
    }
    return text + "return (%x)\n";
  };
  auto limit_message = [](const std::string& text) -> std::string {
    try {
      parse_ir(text);
    } catch (const LimitError& e) {
      return e.what();
    }
    return "no LimitError";
  };
  GraphPtr g = parse_ir(nested_ifs(256));
  g->lint();
  EXPECT_EQ(parse_ir(g->str())->str(), g->str());
  EXPECT_EQ(limit_message(nested_ifs(257)), "IR text: block nested deeper than 256 levels at line 515");
  EXPECT_EQ(limit_message(nested_ifs(100'000)), "IR text: block nested deeper than 256 levels at line 515");
  parse_ir(forks(256))->lint();
  EXPECT_EQ(limit_message(forks(257)), "IR text: subgraph nested deeper than 256 levels at line 772");
  // Attribute values: lists, tuples and one-element tensors inside one another.
  auto nested_attribute = [](size_t n, const std::string& open, const std::string& close) {
    std::string value = "1";
    for (size_t i = 0; i < n; ++i) value = open + value + close;
    return "graph(%x : int):\n  %y : int = prim::Constant[value=1]()\n  %z : NoneType = foo::bar[value=" + value +
           "]()\n  return (%y)\n";
  };
  GraphPtr tuples = parse_ir(nested_attribute(256, "(", ",)"));
  EXPECT_EQ(parse_ir(tuples->str())->str(), tuples->str());
  EXPECT_EQ(limit_message(nested_attribute(257, "[", "]")), "IR text: attribute value nested deeper than 256 levels at line 3");
  EXPECT_EQ(limit_message(nested_attribute(7000, "(", ",)")), "IR text: attribute value nested deeper than 256 levels at line 3");
  EXPECT_EQ(limit_message(nested_attribute(7000, "{", "}")), "IR text: attribute value nested deeper than 256 levels at line 3");
}

}  // namespace
}  // namespace torchlet::jit
