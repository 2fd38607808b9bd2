// torch's Python functions the compiler lowers itself, as torch's builtin_functions
// and torch.functional do: torch.unique, torch.norm and torch.tensordot.
#include "jit/frontend/function_compiler.h"

namespace torchlet::jit {

// Binds a call's arguments to the parameters of a Python function the compiler lowers
// itself (torch.functional's unique and norm): one slot per parameter, nullptr where not
// given, with Python's errors for too many, unknown, repeated or missing arguments (the
// first parameter is required).
std::vector<Value*> bind_python_call(std::string_view name, const std::vector<std::string>& params,
                                     const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                     const SourceRange& range) {
  std::vector<Value*> given(params.size(), nullptr);
  if (args.size() > params.size())
    throw_compile_error(range, fmt::format("{}() takes at most {} arguments but {} were given", name, params.size(), args.size()));
  for (size_t i = 0; i < args.size(); ++i) given[i] = args[i].value;
  for (const CallKwarg& k : kwargs) {
    auto it = std::find(params.begin(), params.end(), k.name);
    if (it == params.end()) throw_compile_error(k.range, fmt::format("{}() got an unexpected keyword argument '{}'", name, k.name));
    const auto at = static_cast<size_t>(it - params.begin());
    if (given[at]) throw_compile_error(k.range, fmt::format("{}() got multiple values for argument '{}'", name, k.name));
    given[at] = k.value;
  }
  if (!given[0]) throw_compile_error(range, fmt::format("{}() missing required argument '{}'", name, params[0]));
  return given;
}

// torch.unique is Python (torch.functional) that picks its result's shape from constant
// flags and calls aten::_unique2, or aten::unique_dim with a dim; compiled the same way:
// the output alone, or a tuple with the inverse and/or the counts.
Value* FunctionCompiler::emit_torch_unique(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                           const SourceRange& range) {
  static const std::vector<std::string> kParams = {"input", "sorted", "return_inverse", "return_counts", "dim"};
  const std::vector<Value*> given = bind_python_call("unique", kParams, args, kwargs, range);
  auto flag = [&](size_t i, bool dflt) {
    if (!given[i]) return dflt;
    auto c = to_ivalue(given[i]);
    if (!c || !c->isBool()) fail(range, fmt::format("unique(): {} must be a constant bool", kParams[i]));
    return c->toBool();
  };
  const bool sorted = flag(1, true), inverse = flag(2, false), counts = flag(3, false);
  const bool has_dim = given[4] && given[4]->type()->kind() != TypeKind::None;
  std::vector<CallArg> call = {{given[0], range}};
  if (has_dim) call.push_back({given[4], range});
  for (bool b : {sorted, inverse, counts}) call.push_back({constant(IValue(b)), range});
  Value* all = emit_builtin(Symbol::from_qual_string(has_dim ? "aten::unique_dim" : "aten::_unique2"), call, {}, range);
  std::vector<Value*> picked = {tuple_item(all, 0, range)};
  if (inverse) picked.push_back(tuple_item(all, 1, range));
  if (counts) picked.push_back(tuple_item(all, 2, range));
  if (picked.size() == 1) return picked[0];
  return graph_->insert_node(graph_->create_tuple(picked))->set_source_range(range)->output();
}

// torch.norm is Python too (torch.functional): a string p ("fro", its default, or
// "nuc") calls aten::frobenius_norm or aten::nuclear_norm, any other p aten::norm over
// dim (every dim when None); an int dim is a one-element list. Compiled straight to the
// operator its branch calls; a string p must be a constant, as torch's branches are
// taken on its value. torch's refusals (another string, dtype= with a string p) raise
// when reached, as torch's do.
Value* FunctionCompiler::emit_torch_norm(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                         const SourceRange& range) {
  static const std::vector<std::string> kParams = {"input", "p", "dim", "keepdim", "out", "dtype"};
  const std::vector<Value*> given = bind_python_call("norm", kParams, args, kwargs, range);
  auto is_none = [&](size_t i) { return !given[i] || given[i]->type()->kind() == TypeKind::None; };
  Value* dim = nullptr;  // torch's None
  if (!is_none(2)) {
    dim = given[2];
    if (dim->type()->kind() == TypeKind::Int)
      dim = graph_->insert_node(graph_->create_list(Type::int_(), {dim}))->set_source_range(range)->output();
  }
  auto all_dims = [&] { return constant(IValue::list({}, Type::int_())); };
  auto raise = [&](const std::string& message, const char* cls) {
    insert(sym::prim_RaiseException, {constant(IValue(message)), constant(IValue(std::string(cls)))}, range, 0);
    return graph_->insert_node(graph_->create_uninitialized(Type::tensor()))->output();
  };
  std::vector<CallArg> call = {{given[0], range}};
  std::vector<CallKwarg> named;
  if (!is_none(4)) named.push_back({"out", given[4], range});
  Value* keepdim = given[3] ? given[3] : constant(IValue(false));
  if (given[1] && given[1]->type()->kind() != TypeKind::Str) {
    call.push_back({given[1], range});
    call.push_back({dim ? dim : all_dims(), range});
    call.push_back({keepdim, range});
    if (!is_none(5)) named.push_back({"dtype", given[5], range});
    return emit_builtin(Symbol::from_qual_string("aten::norm"), std::move(call), std::move(named), range);
  }
  std::string p = "fro";
  if (given[1]) {
    const auto c = to_ivalue(given[1]);
    if (!c || !c->isString()) fail(range, "torch.norm: torchlet needs a string p to be a constant ('fro' or 'nuc')");
    p = c->toStringRef();
  }
  if (p != "fro" && p != "nuc") return raise(fmt::format("only valid string values are 'fro' and 'nuc', found {}", p), "builtins.RuntimeError");
  if (!is_none(5))
    return raise(fmt::format("dtype argument is not supported in {} norm", p == "fro" ? "frobenius" : "nuclear"), "builtins.ValueError");
  if (p == "fro") {
    call.push_back({dim ? dim : all_dims(), range});
  } else if (dim) {
    call.push_back({dim, range});
  }
  call.push_back({keepdim, range});
  return emit_builtin(Symbol::from_qual_string(p == "fro" ? "aten::frobenius_norm" : "aten::nuclear_norm"), std::move(call),
                     std::move(named), range);
}

// torch.tensordot is Python too (torch.functional): dims is an int d (default 2: the
// last d dims of a with the first d of b), a (dims_a, dims_b) tuple or a two-list list,
// or a Tensor; each form ends in aten::tensordot(a, b, dims_a, dims_b). Compiled straight
// to that call. An int dims must be a constant here (torch builds the two lists at run
// time); a Tensor dims is not taken yet.
Value* FunctionCompiler::emit_torch_tensordot(const std::vector<CallArg>& args, const std::vector<CallKwarg>& kwargs,
                                              const SourceRange& range) {
  static const std::vector<std::string> kParams = {"a", "b", "dims", "out"};
  const std::vector<Value*> given = bind_python_call("tensordot", kParams, args, kwargs, range);
  if (!given[1]) fail(range, "tensordot() missing required argument 'b'");
  Value* dims = given[2];
  Value* dims_a = nullptr;
  Value* dims_b = nullptr;
  const TypePtr type = dims ? dims->type() : Type::int_();
  if (type->kind() == TypeKind::Int) {
    const auto c = dims ? to_ivalue(dims) : std::optional<IValue>(IValue(int64_t{2}));
    if (!c) {  // Note [tensordot's dims]
      std::vector<CallArg> call = {{given[0], range}, {given[1], range}, {dims, range}};
      std::vector<CallKwarg> named;
      if (given[3]) named.push_back({"out", given[3], range});
      return emit_user_call(*file_.tensordot_function(range), std::move(call), std::move(named), range);
    }
    const int64_t d = c->toInt();
    if (d < 0) {
      insert(sym::prim_RaiseException,
             {constant(IValue(fmt::format("tensordot expects dims >= 0, but got dims={}", d))),
              constant(IValue(std::string("builtins.RuntimeError")))},
             range, 0);
      return graph_->insert_node(graph_->create_uninitialized(Type::tensor()))->output();
    }
    // The lists are built here, so a literal like 10**12 must not become a list that long.
    constexpr int64_t kMaxDims = 1024;
    if (d > kMaxDims)
      fail(range, fmt::format("torch.tensordot: dims={} contracts more dimensions than torchlet builds lists for "
                              "(at most {})", d, kMaxDims));
    std::vector<IValue> last, first;
    for (int64_t i = 0; i < d; ++i) {
      last.emplace_back(i - d);
      first.emplace_back(i);
    }
    dims_a = constant(IValue::list(std::move(last), Type::int_()));
    dims_b = constant(IValue::list(std::move(first), Type::int_()));
  } else if (type->kind() == TypeKind::Tuple && type->contained().size() == 2) {
    dims_a = tuple_item(dims, 0, range);
    dims_b = tuple_item(dims, 1, range);
  } else if (type->kind() == TypeKind::List && type->contained()[0]->kind() == TypeKind::List) {
    Node* unpack = graph_->insert_node(graph_->create_list_unpack(dims, 2))->set_source_range(range);
    dims_a = unpack->output(0);
    dims_b = unpack->output(1);
  } else if (type->kind() == TypeKind::Tensor) {
    fail(range, "torch.tensordot: torchlet does not take dims as a Tensor yet (pass an int or the two lists of dims)");
  } else {
    fail(range, fmt::format("torch.tensordot: dims must be an int, Tuple[List[int], List[int]] or List[List[int]], "
                            "found {}", type->str()));
  }
  std::vector<CallArg> call = {{given[0], range}, {given[1], range}, {dims_a, range}, {dims_b, range}};
  std::vector<CallKwarg> named;
  if (given[3] && given[3]->type()->kind() != TypeKind::None) named.push_back({"out", given[3], range});
  return emit_builtin(Symbol::from_qual_string("aten::tensordot"), std::move(call), std::move(named), range);
}

}  // namespace torchlet::jit
