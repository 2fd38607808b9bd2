// End to end: torchvision models scripted by torch 1.13 (tests/fixtures/gen_models.py)
// run as IR graphs through torchlet's interpreter and operators, with the models' own
// weights, and must reproduce torch's outputs; after torch's graph passes (constant
// propagation, pooling, CSE, DCE) they must give the very same bits. The module classes
// are rebuilt from the graph itself: every prim::GetAttr names an attribute of its
// input's class.
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>

#include "../common/fixtures.h"
#include "jit/ir/ir_parser.h"
#include "jit/passes/pass_manager.h"
#include "jit/runtime/compilation_unit.h"

namespace torchlet::jit {
namespace {

void add_attributes_from_get_attrs(const Block* b) {
  for (const Node* n : b->nodes()) {
    if (n->kind() == sym::prim_GetAttr) {
      auto* cls = const_cast<ClassType*>(n->input(0)->type()->as_class());
      const std::string& name = n->s(sym::attr_name);
      if (cls && !cls->find_attribute(name)) cls->add_attribute(name, n->output()->type());
    }
    for (const Block* sub : n->blocks()) add_attributes_from_get_attrs(sub);
  }
}

IValue build_object(const ClassTypePtr& cls, const std::string& prefix, const DictImpl& attrs,
                    std::shared_ptr<CompilationUnit>& cu) {
  auto obj = make_intrusive<ObjectImpl>(cls, cls->attributes().size());
  for (size_t i = 0; i < cls->attributes().size(); ++i) {
    const ClassAttribute& a = cls->attributes()[i];
    const std::string path = prefix.empty() ? a.name : prefix + "." + a.name;
    if (const ClassType* sub = a.type->as_class()) {
      obj->slots[i] = build_object(cu->find_class(sub->name()), path, attrs, cu);
      continue;
    }
    const IValue* v = attrs.find(IValue(path));
    if (!v) {
      ADD_FAILURE() << "the fixture has no value for attribute " << path;
      continue;
    }
    obj->slots[i] = *v;
  }
  return IValue(obj);
}

TEST(ModelGraphs, TorchvisionModelsMatchTorch) {
  size_t ran = 0;
  for (const auto& name : torchlet::testing::fixture_lines("models/names.txt")) {
    if (name.empty()) continue;
    SCOPED_TRACE(name);
    std::ifstream in(torchlet::testing::fixture_dir() / "models" / (name + ".graph.txt"));
    std::stringstream text;
    text << in.rdbuf();
    auto cu = std::make_shared<CompilationUnit>();
    TypeResolver resolve = [&](std::string_view qualname) -> TypePtr {
      if (auto t = cu->find_type(qualname)) return t;
      auto cls = ClassType::create(std::string(qualname), /*is_module=*/true);
      cu->register_type(cls);
      return cls;
    };
    GraphPtr g = parse_ir(text.str(), resolve);
    add_attributes_from_get_attrs(g->block());
    auto root = cu->find_class(g->inputs()[0]->type()->name());
    ASSERT_NE(root, nullptr);
    IValue data = torchlet::load((torchlet::testing::fixture_dir() / "models" / (name + ".pt")).string());
    const DictImpl& d = data.dictRef();
    IValue self = build_object(root, "", d.find(IValue("attrs"))->dictRef(), cu);
    GraphPtr optimized = g->copy();
    run_passes(*optimized, {"peephole", "constprop_immutable", "constant_pooling", "cse", "dce"}, /*lint=*/true);
    EXPECT_NE(optimized->str(), g->str()) << "the passes found nothing to do";
    auto* forward = cu->create_function(name + ".forward", g);
    auto* forward_optimized = cu->create_function(name + ".forward_optimized", optimized);
    Tensor got = (*forward)({self, *d.find(IValue("input"))}).toTensor();
    Tensor got_optimized = (*forward_optimized)({self, *d.find(IValue("input"))}).toTensor();
    ASSERT_EQ(shape_repr(got_optimized.sizes()), shape_repr(got.sizes()));
    EXPECT_EQ(std::memcmp(got.contiguous().data_ptr(), got_optimized.contiguous().data_ptr(), got.nbytes()), 0)
        << "the optimized graph computes other bits";
    Tensor want = d.find(IValue("output"))->toTensor();
    ASSERT_EQ(shape_repr(got.sizes()), shape_repr(want.sizes()));
    double max_abs = 0, max_diff = 0;
    for (int64_t i = 0; i < want.numel(); ++i) {
      const double w = want.reshape({-1}).at({i}).to_double(), o = got.reshape({-1}).at({i}).to_double();
      max_abs = std::max(max_abs, std::abs(w));
      max_diff = std::max(max_diff, std::abs(w - o));
    }
    // Convolutions sum in a different order than torch's: allow 1e-4 of the output's scale.
    EXPECT_LE(max_diff, 1e-4 * std::max(1.0, max_abs)) << "max |torch - torchlet| = " << max_diff;
    ++ran;
  }
  EXPECT_EQ(ran, 3u);
}

}  // namespace
}  // namespace torchlet::jit
