// The graph executor: one plan per argument spec (dtype, rank, None-ness), built once
// and reused, bounded in number; graph_for shows the plan; optimisation off runs the
// graph as written with the same results; errors from inlined code keep every frame
// the user wrote. And shape propagation's soundness on real models: every type the
// plans' graphs claim for a tensor fits the tensor the plan then computes. Last, what
// jit::optimize may rewrite (only graphs not yet run).
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <torchlet/checkpoint.h>
#include <torchlet/graph_passes.h>
#include <torchlet/jit.h>
#include <torchlet/ops.h>

#include "../common/fixtures.h"
#include "jit/runtime/code.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/runtime/function.h"
#include "jit/runtime/interpreter.h"
#include "jit/runtime/module.h"
#include "runtime_test_util.h"

namespace torchlet::jit {
namespace {

// Restores the process-wide switch whatever a test does with it.
struct OptimizeSwitch {
  bool was = graph_executor_optimize();
  ~OptimizeSwitch() { set_graph_executor_optimize(was); }
};

const GraphFunction& function(const CompilationUnit& cu, const std::string& name) {
  const auto* gf = dynamic_cast<const GraphFunction*>(cu.find_function(name));
  if (!gf) throw std::runtime_error("no graph function " + name);
  return *gf;
}

std::shared_ptr<const ExecutionPlan> plan(const GraphFunction& fn, std::vector<IValue> args) {
  Stack stack = fn.bind_arguments(std::move(args), {});
  return fn.plan_for(stack);
}

IValue call(const GraphFunction& fn, std::vector<IValue> args) {
  Stack stack = fn.bind_arguments(std::move(args), {});
  fn.run(stack);
  return stack.back();
}

const char* kSource = R"PY(
from typing import Optional

def f(x: Tensor, bias: Optional[Tensor]) -> Tensor:
    y = x * 2
    if bias is not None:
        y = y + bias
    return y.sum(0)
)PY";

TEST(GraphExecutor, OnePlanPerSpecReusedByLaterCalls) {
  OptimizeSwitch keep;
  set_graph_executor_optimize(true);
  auto cu = compile(kSource);
  const GraphFunction& f = function(*cu, "f");
  const Tensor x = ones({2, 3}, DType::Float);
  auto first = plan(f, {IValue(x), IValue()});
  ASSERT_TRUE(first);
  EXPECT_EQ(plan(f, {IValue(ones({4, 5}, DType::Float)), IValue()}), first) << "same dtype, rank and None-ness";
  EXPECT_NE(plan(f, {IValue(ones({2, 3}, DType::Double)), IValue()}), first) << "another dtype";
  EXPECT_NE(plan(f, {IValue(ones({3}, DType::Float)), IValue()}), first) << "another rank";
  auto with_bias = plan(f, {IValue(x), IValue(ones({3}, DType::Float))});
  EXPECT_NE(with_bias, first) << "bias given";
  // Specialised on None, the plan has no branch left; with a bias it adds it.
  const std::string none_graph = first->graph->str(false), bias_graph = with_bias->graph->str(false);
  EXPECT_EQ(none_graph.find("prim::If"), std::string::npos) << none_graph;
  EXPECT_EQ(none_graph.find("aten::add"), std::string::npos) << none_graph;
  EXPECT_NE(bias_graph.find("aten::add"), std::string::npos) << bias_graph;
  // The plan knows the ranks and dtypes the spec gives and what follows from them.
  EXPECT_NE(none_graph.find("%x : Float(*, *"), std::string::npos) << none_graph;
  EXPECT_NE(none_graph.find("Float(*, device=cpu) = aten::sum"), std::string::npos) << "sum(0) of a matrix: " << none_graph;
  // And computes what the graph as written does.
  EXPECT_EQ(testing::compare_values(call(f, {IValue(x), IValue(full({3}, 0.5, DType::Float))}),
                                    IValue(full({3}, 5.0, DType::Float))),
            "");
}

TEST(GraphExecutor, OptimisationOffRunsTheGraphAsWritten) {
  OptimizeSwitch keep;
  auto cu = compile(kSource);
  const GraphFunction& f = function(*cu, "f");
  const std::vector<IValue> args{IValue(arange(6, DType::Float).reshape({2, 3})), IValue(ones({3}, DType::Float))};
  set_graph_executor_optimize(true);
  const IValue optimised = call(f, args);
  set_graph_executor_optimize(false);
  EXPECT_FALSE(plan(f, args));
  EXPECT_EQ(testing::compare_values(call(f, args), optimised), "");
  EXPECT_EQ(testing::compare_values(optimised, IValue(tensor<float>({8, 12, 16}))), "");
}

TEST(GraphExecutor, FunctionsCalledWithEverNewSpecsStopGettingPlans) {
  OptimizeSwitch keep;
  set_graph_executor_optimize(true);
  auto cu = compile("def f(x: Tensor) -> Tensor:\n    return x + 1\n");
  const GraphFunction& f = function(*cu, "f");
  size_t planned = 0;
  for (int64_t rank = 1; rank <= static_cast<int64_t>(GraphExecutor::kMaxPlans) + 6; ++rank) {
    const std::vector<int64_t> sizes(static_cast<size_t>(rank), 1);
    if (plan(f, {IValue(zeros(sizes, DType::Float))})) ++planned;
    // Planned or not, the call computes the same.
    const Tensor got = call(f, {IValue(zeros(sizes, DType::Float))}).toTensor();
    ASSERT_EQ(got.dim(), rank);
    ASSERT_EQ(got.item().to_double(), 1.0);
  }
  EXPECT_EQ(planned, GraphExecutor::kMaxPlans);
}

TEST(GraphExecutor, ErrorsFromInlinedCallsShowEveryFrame) {
  OptimizeSwitch keep;
  auto cu = compile(
      "def inner(x: Tensor) -> Tensor:\n"
      "    if x.dim() != 2:\n"
      "        raise ValueError('not a matrix')\n"
      "    return x\n"
      "def outer(x: Tensor) -> Tensor:\n"
      "    return inner(x) * 2\n",
      "model.py");
  const GraphFunction& outer = function(*cu, "outer");
  std::string traces[2];
  for (int optimise = 0; optimise < 2; ++optimise) {
    set_graph_executor_optimize(optimise == 1);
    try {
      call(outer, {IValue(ones({3}, DType::Float))});
      ADD_FAILURE() << "no error";
    } catch (const ScriptException& e) {
      traces[optimise] = e.what();
    }
  }
  // Inlined into outer's plan, inner's raise still shows the call in outer first.
  EXPECT_NE(traces[1].find("line 6, in outer"), std::string::npos) << traces[1];
  EXPECT_NE(traces[1].find("line 3, in inner"), std::string::npos) << traces[1];
  EXPECT_EQ(traces[1], traces[0]);
}

// Every tensor of the plan's top block (inputs, node outputs) whose type has details,
// returned beside the plan's own result, run, and compared with those details.
// Returns how many had a known rank and how many had every size known.
std::pair<size_t, size_t> expect_types_fit_values(const ExecutionPlan& plan, const GraphFunction& fn,
                                                  const std::vector<IValue>& args) {
  GraphPtr g = plan.graph->copy();
  std::vector<Value*> checked;
  for (Value* in : g->inputs())
    if (in->type()->tensor_details()) checked.push_back(in);
  for (Node* n : g->nodes())
    for (Value* out : n->outputs())
      if (out->type()->tensor_details()) checked.push_back(out);
  EXPECT_FALSE(checked.empty());
  Node* tuple = g->create_tuple(checked);
  tuple->insert_before(g->return_node());
  g->register_output(tuple->output());
  const Code code = emit_code(g, fn.qualname(), fn.owner());
  Stack stack = fn.bind_arguments(args, {});
  run_code(code, stack);
  const auto& values = stack.back().tupleRef().elements;
  EXPECT_EQ(values.size(), checked.size());
  if (values.size() != checked.size()) return {0, 0};
  size_t with_rank = 0, with_sizes = 0;
  for (size_t i = 0; i < checked.size(); ++i) {
    const TensorDetails& d = *checked[i]->type()->tensor_details();
    const std::string what = "%" + checked[i]->debug_name() + " : " + checked[i]->type()->str();
    EXPECT_TRUE(values[i].isTensor()) << what;
    if (!values[i].isTensor()) continue;
    const Tensor t = values[i].toTensor();
    // What the type leaves unknown is taken from the value (so compares equal).
    EXPECT_EQ(d.dtype.value_or(t.dtype()), t.dtype()) << what;
    EXPECT_EQ(d.device.value_or(Device{}), Device{}) << what;  // torchlet's tensors are all on the CPU
    EXPECT_EQ(d.requires_grad.value_or(t.requires_grad()), t.requires_grad()) << what;
    EXPECT_EQ(d.strides.value_or(t.strides().vec()), t.strides().vec()) << what;
    if (!d.sizes) continue;
    EXPECT_EQ(d.sizes->size(), static_cast<size_t>(t.dim())) << what;
    if (d.sizes->size() != static_cast<size_t>(t.dim())) continue;
    for (size_t k = 0; k < d.sizes->size(); ++k)
      EXPECT_EQ((*d.sizes)[k].value_or(t.sizes()[k]), t.sizes()[k]) << what << " dim " << k;
    ++with_rank;
    if (d.concrete_sizes()) ++with_sizes;
  }
  return {with_rank, with_sizes};
}

// Loaded, a model's weights are attributes of unknown sizes and little follows; frozen,
// they are constants of known sizes, and the spec's ranks with them give most values
// their rank and many their every size.
TEST(ShapePropagation, PlansOfTheFixtureModelsClaimOnlyWhatTheirValuesAre) {
  OptimizeSwitch keep;
  set_graph_executor_optimize(true);
  for (const char* name : {"small", "recurrent", "resnet18", "mobilenet_v2"}) {
    SCOPED_TRACE(name);
    const auto dir = torchlet::testing::fixture_dir() / "script";
    Module loaded = load((dir / (std::string(name) + ".pt")).string());
    loaded.eval();
    const IValue io = torchlet::load((dir / (std::string(name) + ".io.pt")).string());
    const IValue want = *io.dictRef().find(IValue("output"));
    const Module modules[] = {loaded, freeze(loaded, {"forward"})};
    for (int k = 0; k < 2; ++k) {
      const Module& m = modules[k];
      const bool frozen = k == 1;
      SCOPED_TRACE(frozen ? "frozen" : "loaded");
      std::vector<IValue> args{m.to_ivalue()};
      for (const IValue& a : io.dictRef().find(IValue("input"))->tupleRef().elements) args.push_back(a);
      const auto* fn = dynamic_cast<const GraphFunction*>(&m.get_method("forward").function());
      ASSERT_TRUE(fn);
      auto p = plan(*fn, args);
      ASSERT_TRUE(p);
      const auto [with_rank, with_sizes] = expect_types_fit_values(*p, *fn, args);
      if (frozen) {
        size_t tensors = 0;
        for (const Node* n : p->graph->nodes())
          for (const Value* out : n->outputs()) tensors += out->type()->kind() == TypeKind::Tensor;
        EXPECT_GT(with_rank, tensors / 2) << "of " << tensors << " tensors";
        EXPECT_GT(with_sizes, tensors / 4) << "of " << tensors << " tensors";
      }
      // The plan computes what torch did.
      EXPECT_EQ(testing::compare_values(call(*fn, args), want, 1e-4), "");
    }
  }
}

// jit::optimize rewrites a loaded module's forward in place, before its first call: the
// submodule calls are inlined and the results are the fixture's; after a call the graph
// is what the code and plans were made from, and rewriting it is refused.
TEST(ModuleOptimization, RewritesMethodsBeforeTheirFirstCallOnly) {
  const auto dir = torchlet::testing::fixture_dir() / "script";
  Module m = load((dir / "resnet18.pt").string());
  m.eval();
  auto calls_methods = [&] { return m.get_method("forward").graph().find("prim::CallMethod") != std::string::npos; };
  EXPECT_THROW(optimize(m, {"forward", "no_such_method"}), ValueError);
  EXPECT_TRUE(calls_methods()) << "a refused optimize changed forward";
  optimize(m, {"forward"});
  EXPECT_FALSE(calls_methods());
  EXPECT_TRUE(m.compilation_unit()->sources().empty()) << "jit::save would write the code as loaded";
  const IValue io = torchlet::load((dir / "resnet18.io.pt").string());
  std::vector<IValue> args = io.dictRef().find(IValue("input"))->tupleRef().elements;
  const Tensor got = m.get_method("forward")(args).toTensor();
  EXPECT_TRUE(allclose(got, io.dictRef().find(IValue("output"))->toTensor(), 1e-4, 1e-5));
  EXPECT_THROW(optimize(m, {"forward"}), ValueError);
  EXPECT_THROW(optimize(m, {"no_such_method"}), ValueError);
}

}  // namespace
}  // namespace torchlet::jit
