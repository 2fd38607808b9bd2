// The type system against torch 1.13: the Type every schema argument denotes prints as
// torch prints it, subtyping agrees with Type.isSubtypeOf on every pair of the types
// schemas use, and annotations parse and print back.
#include <functional>
#include <map>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "values/function_schema.h"
#include "values/type.h"

namespace torchlet::jit {
namespace {

std::vector<SchemaArgument> all_args(const FunctionSchema& s) {
  std::vector<SchemaArgument> v = s.arguments;
  v.insert(v.end(), s.returns.begin(), s.returns.end());
  return v;
}

TEST(Type, SchemaTypesPrintLikeTorch) {
  auto lines = testing::fixture_lines("ir/schema_types.txt");
  size_t checked = 0;
  for (const auto& line : lines) {
    size_t b = line.rfind('|'), a = line.rfind('|', b - 1);
    FunctionSchema s = parse_schema(line.substr(0, a));
    size_t index = std::stoul(line.substr(a + 1, b - a - 1));
    auto args = all_args(s);
    ASSERT_LT(index, args.size()) << line;
    EXPECT_EQ(type_from_schema(*args[index].type)->annotation_str(), line.substr(b + 1)) << line;
    ++checked;
  }
  EXPECT_GT(checked, 10000u);
}

TEST(Type, SubtypingMatchesTorchOnEveryPair) {
  auto lines = testing::fixture_lines("ir/subtypes.txt");
  std::map<std::string, TypePtr> parsed;
  auto get = [&](const std::string& text) {
    auto it = parsed.find(text);
    if (it == parsed.end()) it = parsed.emplace(text, parse_type_annotation(text, /*allow_type_variables=*/true)).first;
    EXPECT_EQ(it->second->annotation_str(), text);
    return it->second;
  };
  for (const auto& line : lines) {
    auto f = testing::split(line, '|');
    ASSERT_EQ(f.size(), 3u) << line;
    TypePtr a = get(f[0]), b = get(f[1]);
    EXPECT_EQ(a->is_subtype_of(*b), f[2] == "1") << f[0] << " <= " << f[1];
  }
  EXPECT_GT(parsed.size(), 80u);
}

// Both spellings of every type torch's schemas use, from torch's own annotation_str
// and str(): each parses from either and prints both.
TEST(Type, BothSpellingsOfEverySchemaType) {
  auto lines = testing::fixture_lines("ir/type_strs.txt");
  EXPECT_GT(lines.size(), 80u);
  for (const auto& line : lines) {
    size_t bar = line.rfind('|');
    std::string annotation = line.substr(0, bar), graph = line.substr(bar + 1);
    TypePtr a = parse_type_annotation(annotation, /*allow_type_variables=*/true);
    EXPECT_EQ(a->str(), graph) << annotation;
    TypePtr g = parse_graph_type(graph);
    EXPECT_EQ(g->annotation_str(), annotation) << graph;
    EXPECT_TRUE(g->equals(*a)) << graph;
  }
}

TEST(Type, AnnotationsParseAndPrint) {
  EXPECT_EQ(parse_type_annotation("Dict[str, List[Tuple[int, Tensor]]]")->annotation_str(),
            "Dict[str, List[Tuple[int, Tensor]]]");
  EXPECT_EQ(parse_type_annotation("Optional[ Tensor ]")->annotation_str(), "Optional[Tensor]");
  EXPECT_EQ(parse_type_annotation("None")->annotation_str(), "NoneType");
  EXPECT_EQ(parse_type_annotation("__torch__.foo.Bar")->annotation_str(), "__torch__.foo.Bar");
  EXPECT_FALSE(parse_type_annotation("int")->is_subtype_of(*parse_type_annotation("float")));
  EXPECT_FALSE(parse_type_annotation("List[int]")->is_subtype_of(*parse_type_annotation("List[number]")));
  EXPECT_TRUE(parse_type_annotation("Tuple[int, None]")
                  ->is_subtype_of(*parse_type_annotation("Tuple[number, Optional[int]]")));
  EXPECT_TRUE(parse_type_annotation("int")->is_subtype_of(*parse_type_annotation("Union[str, int]")));
  EXPECT_THROW(parse_type_annotation("List[t]"), CompileError);  // variables only in schemas
  for (const char* bad : {"List[int", "Dict[int]", "Frob", "List[int]]", ""}) {
    EXPECT_THROW(parse_type_annotation(bad), CompileError) << bad;
  }
}

}  // namespace
}  // namespace torchlet::jit

namespace torchlet::jit {
namespace {

// Graph spellings captured from torch 1.13 (print(torch.jit.script(f).graph) of
// functions annotated with these types); each parses back to the same annotation.
TEST(Type, GraphSpellingMatchesTorch) {
  struct Row {
    const char* annotation;
    const char* graph;
  };
  const Row rows[] = {
      {"List[int]", "int[]"},
      {"Dict[str, Tensor]", "Dict(str, Tensor)"},
      {"Optional[Tensor]", "Tensor?"},
      {"Tuple[int, float]", "(int, float)"},
      {"Union[int, str]", "Union(int, str)"},
      {"Union[int, str, None]", "Union(int, NoneType, str)"},
      {"Union[int, None]", "int?"},
      {"Tuple[()]", "()"},
      {"List[Optional[int]]", "int?[]"},
      {"Future[int]", "Future[int]"},
      {"Dict[int, List[float]]", "Dict(int, float[])"},
      {"Optional[List[Tuple[int, str]]]", "(int, str)[]?"},
      {"number", "Scalar"},
      {"Device", "Device"},
      {"complex", "complex"},
  };
  for (const auto& r : rows) {
    TypePtr t = parse_type_annotation(r.annotation);
    EXPECT_EQ(t->str(), r.graph) << r.annotation;
    TypePtr g = parse_graph_type(r.graph);
    EXPECT_EQ(g->str(), r.graph);
    EXPECT_TRUE(g->equals(*t)) << r.graph;
  }
  TypePtr nt = parse_graph_type("NamedTuple(a : int, b : Tensor)");
  EXPECT_TRUE(nt->is_named_tuple());
  EXPECT_EQ(nt->str(), "NamedTuple(a : int, b : Tensor)");
  EXPECT_EQ(Type::named_tuple("__torch__.P", {"a"}, {Type::int_()})->annotation_str(), "__torch__.P");
  EXPECT_EQ(parse_graph_type("Enum<__torch__.Color>")->str(), "Enum<__torch__.Color>");
  EXPECT_EQ(parse_graph_type("InterfaceType<Iface>")->str(), "InterfaceType<Iface>");
}

TEST(Type, UnionsFlattenAndCollapse) {
  auto i = Type::int_(), s = Type::str_(), n = Type::none();
  EXPECT_EQ(Type::union_of({Type::union_of({i, s}), Type::optional(i)})->str(), "Union(int, NoneType, str)");
  EXPECT_EQ(Type::union_of({i, i})->str(), "int");
  EXPECT_EQ(Type::union_of({n, Type::tensor()})->str(), "Tensor?");
  EXPECT_EQ(Type::union_of({Type::get(TypeKind::Number), i})->str(), "Scalar");
  EXPECT_TRUE(Type::union_of({i, s})->is_subtype_of(*Type::union_of({s, i, n})));
  EXPECT_FALSE(Type::union_of({i, s})->is_subtype_of(*i));
}

TEST(Type, Unification) {
  auto i = Type::int_(), f = Type::float_(), n = Type::none(), t = Type::tensor();
  EXPECT_FALSE(unify_types(i, f).has_value());  // int and float do not unify
  EXPECT_EQ((*unify_types(i, f, true))->str(), "Union(float, int)");
  EXPECT_EQ((*unify_types(n, t))->str(), "Tensor?");
  EXPECT_EQ((*unify_types(Type::optional(t), t))->str(), "Tensor?");
  EXPECT_EQ((*unify_types(Type::tuple({i, n}), Type::tuple({i, t})))->str(), "(int, Tensor?)");
  EXPECT_FALSE(unify_types(Type::list(i), Type::list(f)).has_value());  // lists are invariant
  EXPECT_EQ((*unify_types(i, f, false, Type::get(TypeKind::Number)))->str(), "Scalar");  // via the hint
  EXPECT_EQ((*unify_type_list({n, i, Type::optional(i)}))->str(), "int?");
  EXPECT_FALSE(unify_type_list({i, Type::str_()}).has_value());
  EXPECT_FALSE(unify_type_list({}).has_value());
}

TEST(Type, ClassesInterfacesAndResolver) {
  ClassTypePtr c = ClassType::create("__torch__.M", /*is_module=*/true);
  EXPECT_EQ(c->add_attribute("weight", Type::tensor(), ClassAttribute::Kind::Parameter), 0u);
  EXPECT_EQ(c->add_attribute("n", Type::int_()), 1u);
  EXPECT_THROW(c->add_attribute("n", Type::int_()), ValueError);
  EXPECT_EQ(*c->find_attribute("n"), 1u);
  EXPECT_FALSE(c->find_attribute("m").has_value());
  c->add_constant("k", IValue(3));
  EXPECT_EQ(c->find_constant("k")->toInt(), 3);
  EXPECT_EQ(c->str(), "__torch__.M");
  EXPECT_TRUE(c->is_subtype_of(*Type::get(TypeKind::AnyClass)));

  auto iface = std::make_shared<InterfaceType>("__torch__.I", false);
  iface->add_method(std::make_shared<FunctionSchema>(parse_schema("forward(Tensor x) -> Tensor")));
  EXPECT_FALSE(c->is_subtype_of(*iface));
  c->add_method("forward", nullptr);
  EXPECT_TRUE(c->is_subtype_of(*iface));

  TypeResolver resolve = [&](std::string_view n) -> TypePtr { return n == "__torch__.M" ? c : nullptr; };
  TypePtr t = parse_type_annotation("List[__torch__.M]", false, resolve);
  EXPECT_EQ(t->contained()[0].get(), c.get());
  EXPECT_EQ(t->annotation_str(), "List[__torch__.M]");
}

TEST(Type, TypeOfValues) {
  EXPECT_EQ(type_of(IValue(1))->str(), "int");
  EXPECT_EQ(type_of(IValue(1.5))->str(), "float");
  EXPECT_EQ(type_of(IValue("s"))->str(), "str");
  EXPECT_EQ(type_of(IValue())->str(), "NoneType");
  EXPECT_EQ(type_of(IValue::tuple({IValue(1), IValue("a")}))->str(), "(int, str)");
  EXPECT_EQ(type_of(IValue::list({IValue(1), IValue(2)}))->str(), "int[]");
  EXPECT_EQ(type_of(IValue::list({}, Type::tensor()))->str(), "Tensor[]");
  auto d = make_intrusive<DictImpl>();
  d->insert_or_assign(IValue("a"), IValue(1.0));
  EXPECT_EQ(type_of(IValue(d))->str(), "Dict(str, float)");
  ClassTypePtr c = ClassType::create("__torch__.Foo");
  IValue obj(make_intrusive<ObjectImpl>(c, 0));
  EXPECT_EQ(type_of(obj)->str(), "__torch__.Foo");
  EXPECT_NE(obj.repr().find("__torch__.Foo"), std::string::npos) << obj.repr();
}

}  // namespace
}  // namespace torchlet::jit

namespace torchlet::jit {
namespace {

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string limit_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const LimitError& e) {
    return e.what();
  }
  return "no LimitError";
}

// A type file text can nest without bound ("int" and 6000 "?" in a graph, found by the
// IR fuzzer: printing it overflowed the stack; "List[" a million times in a pickled type
// tag would overflow the parser). Both are refused at kMaxTypeDepth, the limit itself
// is usable.
TEST(Type, NestingIsBoundedWhereverATypeIsMade) {
  const std::string deepest = repeat("List[", kMaxTypeDepth - 1) + "int" + repeat("]", kMaxTypeDepth - 1);
  EXPECT_EQ(parse_type_annotation(deepest)->annotation_str(), deepest);
  const std::string too_deep = "List[" + deepest + "]";
  EXPECT_EQ(limit_message([&] { parse_type_annotation(too_deep); }), "type nested deeper than 256 levels");
  EXPECT_EQ(limit_message([&] { parse_type_annotation(repeat("List[", 1000000) + "int"); }),
            "type nested deeper than 256 levels");
  EXPECT_EQ(parse_graph_type("int" + repeat("?", kMaxTypeDepth - 1))->str(), "int" + repeat("?", kMaxTypeDepth - 1));
  EXPECT_EQ(limit_message([&] { parse_graph_type("int" + repeat("?", 6000)); }), "type nested deeper than 256 levels");
  EXPECT_EQ(limit_message([&] { parse_graph_type("int" + repeat("[]", 6000)); }), "type nested deeper than 256 levels");
  TypePtr t = Type::int_();
  for (size_t i = 1; i < kMaxTypeDepth; ++i) t = Type::future(t);
  EXPECT_EQ(limit_message([&] { Type::dict(Type::str_(), t); }), "type nested deeper than 256 levels");
  EXPECT_EQ(limit_message([&] { Type::tuple({Type::int_(), t}); }), "type nested deeper than 256 levels");
}

// Types share their parts: Tuple[t, t] holds t once but prints and compares it twice,
// so 40 doublings are 2^40 parts to walk. The unfolded count is bounded where a type is
// made; below it, such types print and compare as before.
TEST(Type, PartsAreBoundedEvenWhenShared) {
  TypePtr t = Type::int_();
  size_t parts = 1;
  while (2 * parts + 1 <= kMaxTypeParts) {
    t = Type::tuple({t, t});
    parts = 2 * parts + 1;
  }
  EXPECT_EQ(t->annotation_str().size(), 6 * parts - 3);  // 3 per "int" leaf, 9 per "Tuple[, ]"
  EXPECT_TRUE(*t == *Type::tuple(t->contained()));
  EXPECT_EQ(limit_message([&] { Type::tuple({t, t}); }),
            "type with more than 65536 parts (tuples holding tuples, a shared one counted wherever it appears)");
  EXPECT_EQ(limit_message([&] { Type::list(Type::tuple({t, Type::int_(), t})); }).substr(0, 30),
            "type with more than 65536 part");
}

// isinstance(x, list) / dict / tuple test the Python class, which lists' invariance
// would otherwise refuse (List[Tensor] is no subtype of List[Any]).
TEST(Type, IsinstanceOfThePythonClassesTakesAnyElementType) {
  const TypePtr any_list = Type::list(Type::any()), any_dict = Type::dict(Type::any(), Type::any());
  const TypePtr tensors = Type::list(Type::tensor());
  EXPECT_FALSE(tensors->is_subtype_of(*any_list));
  EXPECT_TRUE(tensors->passes_isinstance(*any_list));
  EXPECT_TRUE(Type::dict(Type::str_(), Type::tensor())->passes_isinstance(*any_dict));
  EXPECT_TRUE(Type::tuple({Type::int_(), Type::tensor()})->passes_isinstance(*Type::tuple({})));
  EXPECT_FALSE(Type::tensor()->passes_isinstance(*any_list));
  EXPECT_FALSE(tensors->passes_isinstance(*any_dict));
  // Other tests stay subtyping: List[int] is not List[float].
  EXPECT_FALSE(Type::list(Type::int_())->passes_isinstance(*Type::list(Type::float_())));
  EXPECT_TRUE(Type::int_()->passes_isinstance(*Type::int_()));
}

}  // namespace
}  // namespace torchlet::jit
