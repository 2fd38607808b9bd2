// ArgumentSpec: computing a call's spec and narrowing a graph's inputs to it.
#include "jit/runtime/argument_spec.h"

#include <functional>

#include <torchlet/error.h>

#include "values/type.h"

namespace torchlet::jit {

size_t ArgumentSpec::hash() const {
  size_t h = args.size();
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  for (const Arg& a : args) {
    mix(static_cast<size_t>(a.kind));
    if (a.kind != Kind::Tensor) continue;
    mix(static_cast<size_t>(a.dtype));
    mix(a.rank);
    mix(a.requires_grad);
    mix(static_cast<size_t>(a.device.kind) * 256 + static_cast<size_t>(a.device.index + 1));
  }
  return h;
}

namespace {

bool is_tensor_type(const TypePtr& t) { return t->kind() == TypeKind::Tensor; }

ArgumentSpec::Arg tensor_arg(const Tensor& t) {
  ArgumentSpec::Arg a;
  if (!t.defined() || t.dim() > 255) return a;
  a.kind = ArgumentSpec::Kind::Tensor;
  a.dtype = t.dtype();
  a.rank = static_cast<uint8_t>(t.dim());
  // The tensor's own flag, which x.requires_grad reads: torch's ArgumentSpec records it
  // as autograd sees it (false under no_grad), so its peephole answers x.requires_grad
  // differently with optimisation on and off; torchlet runs no autograd.
  a.requires_grad = t.requires_grad();
  return a;
}

}  // namespace

ArgumentSpec make_argument_spec(const Graph& graph, const IValue* args, size_t count) {
  TL_INTERNAL_ASSERT(count == graph.inputs().size(), "a spec of as many arguments as the graph has inputs");
  ArgumentSpec spec;
  spec.args.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const TypePtr& declared = graph.inputs()[i]->type();
    const IValue& v = args[i];
    ArgumentSpec::Arg& a = spec.args[i];
    if (declared->kind() == TypeKind::Optional) {
      if (v.isNone()) a.kind = ArgumentSpec::Kind::None;
      else if (is_tensor_type(declared->contained()[0]) && v.isTensor()) a = tensor_arg(v.toTensor());
      if (!v.isNone() && a.kind == ArgumentSpec::Kind::Unspecialised) a.kind = ArgumentSpec::Kind::Present;
    } else if (is_tensor_type(declared) && v.isTensor()) {
      a = tensor_arg(v.toTensor());
    }
  }
  return spec;
}

void specialise_input_types(Graph& graph, const ArgumentSpec& spec) {
  TL_INTERNAL_ASSERT(spec.args.size() == graph.inputs().size(), "a spec of as many arguments as the graph has inputs");
  for (size_t i = 0; i < spec.args.size(); ++i) {
    Value* input = graph.inputs()[i];
    const ArgumentSpec::Arg& a = spec.args[i];
    switch (a.kind) {
      case ArgumentSpec::Kind::Unspecialised: break;
      case ArgumentSpec::Kind::None: input->set_type(Type::none()); break;
      case ArgumentSpec::Kind::Present: input->set_type(input->type()->contained()[0]); break;
      case ArgumentSpec::Kind::Tensor: {
        TensorDetails d;
        d.dtype = a.dtype;
        d.sizes.emplace(a.rank);
        d.requires_grad = a.requires_grad;
        d.device = a.device;
        input->set_type(Type::refined_tensor(std::move(d)));
        break;
      }
    }
  }
}

}  // namespace torchlet::jit
