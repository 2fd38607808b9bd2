// The emitter: lowers a Graph to Code (code.h). One register per value; constants go
// to the constant table; prim::If becomes JF/JMP, prim::Loop a LOOP head with its
// counter, trip count and condition in three registers. A value's last use MOVEs it
// out of its register so a tensor is freed as soon as nothing needs it (Note [Last
// uses]); the structural prim:: nodes become dedicated instructions, every other node
// an OP on the operator it resolves to.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "jit/runtime/code.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/runtime/function.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

const char* opcode_name(OpCode op) {
  switch (op) {
#define TL_INSTRUCTION(name, what) \
  case OpCode::name:               \
    return #name;
#include "jit/runtime/instructions.def"
#undef TL_INSTRUCTION
  }
  return "?";
}

std::string Code::dump() const {
  std::string out;
  for (size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& ins = instructions[i];
    out += fmt::format("{:4} {} {} {}", i, opcode_name(ins.op), ins.x, ins.n);
    if (ins.y != 0) out += fmt::format(" {}", ins.y);
    if (ins.op == OpCode::OP || ins.op == OpCode::OPN)
      out += "  # " + operators[ins.x]->qualified_overload();
    else if (ins.op == OpCode::LOADC)
      out += "  # " + constants[ins.x].repr();
    else if (ins.op == OpCode::CALL || ins.op == OpCode::FORK)
      out += "  # " + functions[ins.x]->qualname();
    out += "\n";
  }
  return out;
}

namespace {

// Note [Last uses]
// A use of v by node u may move v out of its register when nothing can read v after u:
//  - no other use of v executes after u (uses in the other branch of an enclosing
//    prim::If never execute after u: Node::is_before says so), and
//  - no prim::Loop lies between u and v's definition (the next iteration would read
//    v again).
// Values that die inside one branch of an If are dropped at the start of the other
// branch; values a loop reads but nobody needs after it are dropped after the loop.
class Emitter {
 public:
  Emitter(const GraphPtr& graph, const std::string& name, CompilationUnit* owner)
      : graph_(graph), owner_(owner) {
    code_.function_name = name;
    code_.graph = graph;
  }

  Code emit() {
    const Block* top = graph_->block();
    assign_registers(top);
    code_.num_inputs = top->inputs().size();
    if (!top->inputs().empty()) add(OpCode::STOREN, reg(top->inputs()[0]), static_cast<int32_t>(top->inputs().size()));
    for (const Value* v : top->inputs())
      if (!v->has_uses()) add(OpCode::DROPR, reg(v), 0);
    emit_block_nodes(top);
    push_values(top->outputs(), top->return_node());
    add(OpCode::RET, 0, static_cast<int32_t>(top->outputs().size()), top->return_node());
    code_.num_registers = next_register_;
    return std::move(code_);
  }

 private:
  // --- registers --------------------------------------------------------------------
  // Each node's outputs and each block's inputs take consecutive registers (so STOREN
  // can fill them); a Loop's outputs share the body's carried-input registers.
  void assign_registers(const Block* b) {
    for (const Value* v : b->inputs())
      if (!registers_.count(v)) registers_[v] = next_register_++;
    for (const Node* n : b->nodes()) {
      if (n->kind() == sym::prim_Constant) continue;
      if (n->kind() == sym::prim_Loop) {
        loop_counter_[n] = next_register_;
        next_register_ += 3;  // counter, max trip count, condition
        const Block* body = n->blocks()[0];
        for (const Value* v : body->inputs()) registers_[v] = next_register_++;
        for (size_t i = 0; i < n->outputs().size(); ++i) registers_[n->output(i)] = registers_[body->inputs()[i + 1]];
        assign_registers(body);
        continue;
      }
      for (const Value* v : n->outputs()) registers_[v] = next_register_++;
      for (const Block* sub : n->blocks()) assign_registers(sub);
    }
  }
  int32_t reg(const Value* v) const {
    auto it = registers_.find(v);
    TL_INTERNAL_ASSERT(it != registers_.end(), "value without a register");
    return static_cast<int32_t>(it->second);
  }

  // --- instructions -----------------------------------------------------------------
  size_t add(OpCode op, int32_t x, int32_t n, const Node* node = nullptr) {
    code_.instructions.push_back({op, x, n});
    code_.instruction_nodes.push_back(node ? node : current_node_);
    return code_.instructions.size() - 1;
  }
  void patch_jump(size_t at) {  // jump from `at` to the next instruction
    code_.instructions[at].x = static_cast<int32_t>(code_.instructions.size() - at);
  }
  int32_t constant_index(const IValue& v) {
    code_.constants.push_back(v);
    return static_cast<int32_t>(code_.constants.size() - 1);
  }
  int32_t type_index(TypePtr t) {
    code_.types.push_back(std::move(t));
    return static_cast<int32_t>(code_.types.size() - 1);
  }
  // A call must pass exactly the callee's arguments: the interpreter trusts it.
  void check_arity(const Node* n, const Function* fn, size_t given) {
    const size_t want = fn->schema().arguments.size();
    if (given != want)
      fail(n, fmt::format("{} calls {} with {} argument(s) but it takes {}", n->kind().qual_string(), fn->qualname(), given, want));
  }
  int32_t function_index(const Function* f) {
    auto it = std::find(code_.functions.begin(), code_.functions.end(), f);
    if (it != code_.functions.end()) return static_cast<int32_t>(it - code_.functions.begin());
    code_.functions.push_back(f);
    return static_cast<int32_t>(code_.functions.size() - 1);
  }

  // --- liveness (Note [Last uses]) ------------------------------------------------------
  // A block input's producer is the block's param node, so this covers inputs too.
  static const Block* defining_block(const Value* v) { return v->node()->owning_block(); }
  static bool loop_between(const Node* user, const Block* def_block) {
    for (const Block* b = user->owning_block(); b && b != def_block; b = b->owning_node()->owning_block()) {
      if (!b->owning_node()) return true;  // def_block is not an ancestor: be safe
      if (b->owning_node()->kind() == sym::prim_Loop) return true;
    }
    return false;
  }
  bool is_last_use(const Value* v, const Node* user) const {
    if (loop_between(user, defining_block(v))) return false;
    for (const Use& u : v->uses())
      if (u.user != user && user->is_before(u.user)) return false;
    return true;
  }

  // Pushes values for `user`, moving each on its last use (only its last occurrence
  // within this push moves, so a value used twice by one node is loaded then moved).
  void push_values(const std::vector<Value*>& values, const Node* user) {
    for (size_t i = 0; i < values.size(); ++i) {
      const Value* v = values[i];
      if (v->node()->kind() == sym::prim_Constant) {
        add(OpCode::LOADC, constant_of(v), 0);
        continue;
      }
      const bool later_in_push = std::find(values.begin() + static_cast<std::ptrdiff_t>(i) + 1, values.end(), v) != values.end();
      add(!later_in_push && is_last_use(v, user) ? OpCode::MOVE : OpCode::LOAD, reg(v), 0);
    }
  }
  // reg dst = v, for `user`: a constant load, a move on v's last use, else a copy.
  // `read_again`: `user` reads v once more after this (a loop whose condition is also
  // one of its carried values), so v must not be moved out yet.
  void assign(int32_t dst, const Value* v, const Node* user, bool read_again = false) {
    if (v->node()->kind() == sym::prim_Constant) add(OpCode::LOADCR, dst, constant_of(v));
    else if (!read_again && is_last_use(v, user)) add(OpCode::MOVER, dst, reg(v));
    else add(OpCode::COPYR, dst, reg(v));
  }

  int32_t constant_of(const Value* v) {
    auto it = constant_slots_.find(v);
    if (it != constant_slots_.end()) return it->second;
    std::optional<IValue> c = to_ivalue(v);
    TL_CHECK(c.has_value(), CompileError, "prim::Constant %{} has no value this runtime can hold ({})",
             v->debug_name(), v->type()->str());
    int32_t idx = constant_index(*c);
    constant_slots_[v] = idx;
    return idx;
  }
  void store_outputs(const Node* n) {
    const auto& outs = n->outputs();
    if (outs.empty()) return;
    bool any_used = std::any_of(outs.begin(), outs.end(), [](const Value* v) { return v->has_uses(); });
    if (!any_used) {
      for (size_t i = 0; i < outs.size(); ++i) add(OpCode::DROP, 0, 0);
      return;
    }
    if (outs.size() == 1) add(OpCode::STORE, reg(outs[0]), 0);
    else add(OpCode::STOREN, reg(outs[0]), static_cast<int32_t>(outs.size()));
    for (const Value* v : outs)
      if (!v->has_uses()) add(OpCode::DROPR, reg(v), 0);
  }

  // Values defined outside `n`, used inside it, and never read after it.
  std::vector<const Value*> dying_inside(const Node* n) const {
    std::vector<const Value*> out;
    std::unordered_set<const Value*> seen;
    collect_outer_uses(n, n, out, seen);
    std::vector<const Value*> dying;
    for (const Value* v : out) {
      bool used_after = false;
      for (const Use& u : v->uses())
        if (!is_inside(u.user, n) && n->is_before(u.user)) used_after = true;
      if (!used_after && !loop_between(n, defining_block(v)) && v->node()->kind() != sym::prim_Constant)
        dying.push_back(v);
    }
    return dying;
  }
  static bool is_inside(const Node* user, const Node* n) {
    for (const Block* b = user->owning_block(); b && b->owning_node(); b = b->owning_node()->owning_block())
      if (b->owning_node() == n) return true;
    return false;
  }
  static bool block_uses(const Block* b, const Value* v) {
    for (const Use& u : v->uses())
      for (const Block* ub = u.user->owning_block(); ub; ub = ub->owning_node() ? ub->owning_node()->owning_block() : nullptr)
        if (ub == b) return true;
    return false;
  }
  void collect_outer_uses(const Node* root, const Node* n, std::vector<const Value*>& out,
                          std::unordered_set<const Value*>& seen) const {
    for (const Block* b : n->blocks()) {
      auto visit = [&](const Node* user) {
        for (const Value* v : user->inputs())
          if (!is_inside(v->node(), root) && v->node() != root && seen.insert(v).second) out.push_back(v);
      };
      for (const Node* inner : b->nodes()) {
        visit(inner);
        collect_outer_uses(root, inner, out, seen);
      }
      visit(b->return_node());
    }
  }

  // --- nodes ----------------------------------------------------------------------------
  void emit_block_nodes(const Block* b) {
    for (const Node* n : b->nodes()) emit_node(n);
  }

  // IR text can give a node any number of inputs, outputs and blocks; the cases of
  // emit_node read fixed ones, so a node without them is refused here by name
  // (outputs < 0: any number).
  void check_node_shape(const Node* n, size_t min_inputs, int outputs, size_t blocks) const {
    if (n->inputs().size() < min_inputs || (outputs >= 0 && n->outputs().size() != static_cast<size_t>(outputs)) ||
        n->blocks().size() != blocks)
      fail(n, fmt::format("{} needs {}{} input(s), {} output(s) and {} block(s); this one has {}, {} and {}",
                          n->kind().qual_string(), min_inputs > 0 ? "at least " : "", min_inputs,
                          outputs >= 0 ? std::to_string(outputs) : "any number of", blocks, n->inputs().size(),
                          n->outputs().size(), n->blocks().size()));
  }
  void check_node_shape(const Node* n) const {
    switch (n->kind().id()) {
      case sym::k_prim_If: return check_node_shape(n, 1, -1, 2);
      case sym::k_prim_Loop: return check_node_shape(n, 2, -1, 1);
      case sym::k_prim_GetAttr: return check_node_shape(n, 1, 1, 0);
      case sym::k_prim_SetAttr: return check_node_shape(n, 2, -1, 0);
      case sym::k_prim_CallFunction:
      case sym::k_prim_CallMethod: return check_node_shape(n, 1, -1, 0);
      case sym::k_prim_isinstance: return check_node_shape(n, 1, 1, 0);
      case sym::k_prim_TupleConstruct:
      case sym::k_prim_ListConstruct:
      case sym::k_prim_DictConstruct:
      case sym::k_prim_CreateObject: return check_node_shape(n, 0, 1, 0);
      default: return;
    }
  }

  void emit_node(const Node* n) {
    current_node_ = n;
    check_node_shape(n);
    const uint32_t kind = n->kind().id();
    switch (kind) {
      case sym::k_prim_Constant:
        return;  // read through LOADC at each use
      case sym::k_prim_If:
        return emit_if(n);
      case sym::k_prim_Loop:
        return emit_loop(n);
      case sym::k_prim_TupleConstruct: {
        push_values(n->inputs(), n);
        const TypePtr& t = n->output()->type();
        add(OpCode::TUPLE, t->is_named_tuple() ? type_index(t) : -1, static_cast<int32_t>(n->inputs().size()));
        return store_outputs(n);
      }
      case sym::k_prim_TupleUnpack:
        push_values(n->inputs(), n);
        add(OpCode::UNPACK_TUPLE, 0, static_cast<int32_t>(n->outputs().size()));
        return store_outputs(n);
      case sym::k_prim_TupleSlice:
        push_values(n->inputs(), n);
        add(OpCode::SLICE_TUPLE, static_cast<int32_t>(n->i(Symbol::from_qual_string("attr::beg"))),
            static_cast<int32_t>(n->i(Symbol::from_qual_string("attr::end"))));
        return store_outputs(n);
      case sym::k_prim_ListConstruct: {
        push_values(n->inputs(), n);
        const TypePtr& t = n->output()->type();
        TypePtr elem = t->kind() == TypeKind::List ? t->contained()[0] : Type::any();
        add(OpCode::LIST, type_index(elem), static_cast<int32_t>(n->inputs().size()));
        return store_outputs(n);
      }
      case sym::k_prim_ListUnpack:
        push_values(n->inputs(), n);
        add(OpCode::UNPACK_LIST, 0, static_cast<int32_t>(n->outputs().size()));
        return store_outputs(n);
      case sym::k_prim_DictConstruct:
        TL_CHECK(n->inputs().size() % 2 == 0, CompileError, "prim::DictConstruct needs key/value pairs, got {} inputs",
                 n->inputs().size());
        push_values(n->inputs(), n);
        add(OpCode::DICT, type_index(n->output()->type()), static_cast<int32_t>(n->inputs().size() / 2));
        return store_outputs(n);
      case sym::k_prim_GetAttr: {
        push_values(n->inputs(), n);
        const std::string& field = n->s(sym::attr_name);
        const ClassType* cls = n->input(0)->type()->as_class();
        if (auto slot = cls ? cls->find_attribute(field) : std::nullopt)
          add(OpCode::GET_ATTR, static_cast<int32_t>(*slot), 0);
        else
          add(OpCode::GET_ATTR_NAMED, constant_index(IValue(field)), 0);
        return store_outputs(n);
      }
      case sym::k_prim_SetAttr: {
        push_values(n->inputs(), n);
        const std::string& field = n->s(sym::attr_name);
        const ClassType* cls = n->input(0)->type()->as_class();
        if (auto slot = cls ? cls->find_attribute(field) : std::nullopt)
          add(OpCode::SET_ATTR, static_cast<int32_t>(*slot), 0);
        else
          add(OpCode::SET_ATTR_NAMED, constant_index(IValue(field)), 0);
        return store_outputs(n);
      }
      case sym::k_prim_CallFunction: {
        const Function* fn = callee_of(n->input(0), n);
        std::vector<Value*> args(n->inputs().begin() + 1, n->inputs().end());
        check_arity(n, fn, args.size());
        push_values(args, n);
        add(OpCode::CALL, function_index(fn), static_cast<int32_t>(args.size()));
        return store_outputs(n);
      }
      case sym::k_prim_CallMethod: {
        const std::string& name = n->s(sym::attr_name);
        push_values(n->inputs(), n);
        const ClassType* cls = n->input(0)->type()->as_class();
        Function* fn = cls ? cls->find_method(name) : nullptr;
        if (fn) check_arity(n, fn, n->inputs().size());
        if (fn)
          add(OpCode::CALL, function_index(fn), static_cast<int32_t>(n->inputs().size()));
        else
          add(OpCode::CALLM, constant_index(IValue(name)), static_cast<int32_t>(n->inputs().size()));
        return store_outputs(n);
      }
      case sym::k_prim_CreateObject:
        add(OpCode::CREATE_OBJECT, type_index(n->output()->type()), 0);
        return store_outputs(n);
      case sym::k_prim_isinstance: {
        push_values(n->inputs(), n);
        const auto& types = n->tys(sym::attr_types);
        int32_t first = static_cast<int32_t>(code_.types.size());
        for (const auto& t : types) type_index(t);
        add(OpCode::ISINSTANCE, first, static_cast<int32_t>(types.size()));
        return store_outputs(n);
      }
      case sym::k_prim_unchecked_cast:
        push_values(n->inputs(), n);
        return store_outputs(n);
      case sym::k_prim_Uninitialized:
        add(OpCode::LOADC, constant_index(IValue::uninitialized()), 0);
        return store_outputs(n);
      case sym::k_prim_RaiseException:
        push_values(n->inputs(), n);
        if (n->inputs().size() < 2) add(OpCode::LOADC, constant_index(IValue()), 0);
        add(OpCode::RAISE, 0, 0);
        return;
      case sym::k_prim_fork:
        return emit_fork(n);
      case sym::k_prim_Enter:
      case sym::k_prim_Exit:
        return emit_with_boundary(n);
      default:
        break;
    }
    // Note [Warn once]
    // torch's interpreter warns once per warnings.warn site in one run (its aten::warn
    // nodes carry a warn_id for that): a warning in a loop is printed the first time
    // only, and again in the next call. Each aten::warn node here is a site of its own,
    // whatever its warn_id; run_code keeps the sites that warned.
    if (n->kind() == Symbol::from_qual_string("aten::warn") && n->inputs().size() == 2 && n->outputs().empty()) {
      if (const Operator* op = resolve_node_operator(*n)) {
        code_.operators.push_back(op);
        push_values(n->inputs(), n);
        add(OpCode::WARN, static_cast<int32_t>(code_.operators.size() - 1), static_cast<int32_t>(code_.num_warn_sites++));
        return;
      }
    }
    if (n->kind() == Symbol::from_qual_string("aten::wait")) {
      push_values(n->inputs(), n);
      add(OpCode::WAIT, 0, 0);
      return store_outputs(n);
    }
    const Operator* op = resolve_node_operator(*n);
    if (!op) fail(n, describe_no_match(*n));
    if (emit_fast_op(n, *op)) return;
    code_.operators.push_back(op);
    const auto op_index = static_cast<int32_t>(code_.operators.size() - 1);
    push_values(n->inputs(), n);
    if (op->schema().is_vararg)
      add(OpCode::OPN, op_index, static_cast<int32_t>(n->inputs().size()));
    else
      add(OpCode::OP, op_index, 0);
    store_outputs(n);
  }

  // Note [With statements] (jit/frontend/function_compiler.h): prim::Enter(m) calls m.__enter__() and then
  // records m, so an error that unwinds the run calls m.__exit__; prim::Exit(m) forgets
  // m, then calls m.__exit__(None, None, None).
  void emit_with_boundary(const Node* n) {
    const bool is_enter = n->kind() == sym::prim_Enter;
    if (n->inputs().size() != 1 || n->outputs().size() > 1 || (is_enter && n->outputs().size() != 1) || !n->blocks().empty())
      fail(n, fmt::format("{} needs one input, {} output and no blocks", n->kind().qual_string(), is_enter ? "one" : "at most one"));
    Value* m = n->inputs()[0];
    const ClassType* cls = m->type()->as_class();
    const Function* enter = cls ? cls->find_method("__enter__") : nullptr;
    const Function* exit = cls ? cls->find_method("__exit__") : nullptr;
    if (!enter || !exit)
      fail(n, fmt::format("{} needs an object whose class defines __enter__ and __exit__, not a {}", n->kind().qual_string(),
                          m->type()->str()));
    if (is_enter) {
      check_arity(n, enter, 1);
      push_values({m, m}, n);
      add(OpCode::CALL, function_index(enter), 1);
      store_outputs(n);
      add(OpCode::ENTER, 0, 0);
      return;
    }
    check_arity(n, exit, 4);
    push_values({m}, n);
    const int32_t none = constant_index(IValue());
    for (int i = 0; i < 3; ++i) add(OpCode::LOADC, none, 0);
    add(OpCode::EXIT, 0, 0);
    add(OpCode::CALL, function_index(exit), 4);
    if (n->outputs().empty()) add(OpCode::DROP, 0, 0);
    else store_outputs(n);
  }

  // Scalar operators in fast_ops.def run register to register, skipping the stack.
  bool emit_fast_op(const Node* n, const Operator& op) {
    static const std::unordered_map<std::string, OpCode> kFast = {
#define TL_FAST_OP(opcode, overload, type, expr) {overload, OpCode::opcode},
#include "jit/runtime/fast_ops.def"
#undef TL_FAST_OP
    };
    auto it = kFast.find(op.qualified_overload());
    if (it == kFast.end() || n->inputs().size() != 2 || n->outputs().size() != 1) return false;
    auto operand = [&](const Value* v) {
      return v->node()->kind() == sym::prim_Constant ? -1 - constant_of(v) : reg(v);
    };
    code_.instructions.push_back({it->second, reg(n->output()), operand(n->input(0)), operand(n->input(1))});
    code_.instruction_nodes.push_back(n);
    return true;
  }

  [[noreturn]] void fail(const Node* n, const std::string& message) const {
    std::string where = n->source_range().empty() ? "" : "\n" + n->source_range().str();
    TL_FAIL(CompileError, "{}{}", message, where);
  }

  const Function* callee_of(const Value* fn_value, const Node* n) {
    if (const FunctionType* ft = fn_value->type()->as_function(); ft && ft->function()) return ft->function();
    const Node* def = fn_value->node();
    std::string name;
    // The type's qualified name first: the constant's name attribute is the bare
    // function name, as torch prints it (name="relu" for torch.nn.functional.relu).
    if (!fn_value->type()->name().empty()) name = fn_value->type()->name();
    else if (def->kind() == sym::prim_Constant && def->has_attribute(sym::attr_name)) name = def->s(sym::attr_name);
    if (name.empty()) fail(n, fmt::format("{}: the callee %{} is not a known function", n->kind().qual_string(),
                                          fn_value->debug_name()));
    const Function* fn = owner_ ? owner_->find_function(name) : nullptr;
    if (!fn) fail(n, fmt::format("{}: unknown function '{}'", n->kind().qual_string(), name));
    return fn;
  }

  void emit_if(const Node* n) {
    size_t jf;
    if (n->input(0)->node()->kind() == sym::prim_Constant) {
      push_values({n->input(0)}, n);
      jf = add(OpCode::JF, 0, 0);
    } else {
      jf = add(OpCode::JFR, 0, reg(n->input(0)));
    }
    const auto dying = dying_inside(n);
    auto branch = [&](const Block* b) {
      for (const Value* v : dying)
        if (!block_uses(b, v)) add(OpCode::DROPR, reg(v), 0, n);
      emit_block_nodes(b);
      current_node_ = n;
      // The If's outputs are fresh registers no branch value shares, so the branch
      // results can be assigned one by one; a value output twice (`a, b = x, x`) is
      // copied until its last occurrence, which may move it.
      const auto& outs = b->outputs();
      for (size_t i = 0; i < outs.size(); ++i) {
        const bool again = std::find(outs.begin() + static_cast<std::ptrdiff_t>(i) + 1, outs.end(), outs[i]) != outs.end();
        assign(reg(n->output(i)), outs[i], b->return_node(), again);
      }
    };
    branch(n->blocks()[0]);
    const size_t jmp = add(OpCode::JMP, 0, 0, n);
    patch_jump(jf);
    branch(n->blocks()[1]);
    patch_jump(jmp);
    for (const Value* v : n->outputs())
      if (!v->has_uses()) add(OpCode::DROPR, reg(v), 0, n);
  }

  void emit_loop(const Node* n) {
    const Block* body = n->blocks()[0];
    const auto counter = static_cast<int32_t>(loop_counter_.at(n));
    const size_t carried = n->inputs().size() - 2;
    std::vector<Value*> init(n->inputs().begin() + 2, n->inputs().end());
    auto among = [](const std::vector<Value*>& vs, const Value* v) { return std::find(vs.begin(), vs.end(), v) != vs.end(); };
    // `c = ...; while c: ...` passes c both as the condition and as a carried value
    // (and `for i in range(n): n = ...` passes n as trip count and carried value).
    assign(counter + 1, n->input(0), n, among(init, n->input(0)));
    assign(counter + 2, n->input(1), n, among(init, n->input(1)));
    add(OpCode::LOADCR, counter, constant_index(IValue(int64_t{0})));
    if (carried > 0) {
      push_values(init, n);
      add(OpCode::STOREN, reg(body->inputs()[1]), static_cast<int32_t>(carried));
    }
    const size_t head = add(OpCode::LOOP, counter, 0);
    if (body->inputs()[0]->has_uses()) add(OpCode::COPYR, reg(body->inputs()[0]), counter);
    emit_block_nodes(body);
    current_node_ = n;
    const auto& outs = body->outputs();  // condition, then carried values
    // The condition is read before the carried values are stored: it may be one of
    // them (copied, not moved, then) or a body input the stores below overwrite.
    std::vector<Value*> next(outs.begin() + 1, outs.end());
    assign(counter + 2, outs[0], body->return_node(), among(next, outs[0]));
    if (carried == 1) {
      // One carried value: no parallel assignment to get wrong, so no stack traffic.
      assign(reg(body->inputs()[1]), outs[1], body->return_node());
    } else if (carried > 1) {
      // c_1..r = c'_1..r at once (a swap `a, b = b, a` must read both first).
      push_values(next, body->return_node());
      add(OpCode::STOREN, reg(body->inputs()[1]), static_cast<int32_t>(carried));
    }
    add(OpCode::INC, counter, 0);
    const size_t back = add(OpCode::JMP, 0, 0);
    code_.instructions[back].x = static_cast<int32_t>(head) - static_cast<int32_t>(back);
    code_.instructions[head].n = static_cast<int32_t>(code_.instructions.size() - head);
    // Values the loop read that nobody needs afterwards.
    for (const Value* v : dying_inside(n)) add(OpCode::DROPR, reg(v), 0);
    for (size_t i = 0; i < n->outputs().size(); ++i)
      if (!n->output(i)->has_uses()) add(OpCode::DROPR, reg(n->output(i)), 0);
  }

  void emit_fork(const Node* n) {
    const Function* fn = nullptr;
    std::vector<Value*> args(n->inputs().begin(), n->inputs().end());
    if (n->has_attribute(sym::attr_Subgraph)) {
      auto sub = std::make_shared<GraphFunction>(code_.function_name + ".fork", n->g(sym::attr_Subgraph)->copy(), owner_);
      fn = sub.get();
      code_.owned_functions.push_back(std::move(sub));
    } else {
      TL_CHECK(!args.empty(), CompileError, "prim::fork needs a subgraph or a function input");
      fn = callee_of(args[0], n);
      args.erase(args.begin());
    }
    check_arity(n, fn, args.size());
    push_values(args, n);
    add(OpCode::FORK, function_index(fn), static_cast<int32_t>(args.size()));
    store_outputs(n);
  }

 private:
  GraphPtr graph_;
  CompilationUnit* owner_;
  Code code_;
  const Node* current_node_ = nullptr;
  std::unordered_map<const Value*, size_t> registers_;
  std::unordered_map<const Node*, size_t> loop_counter_;
  std::unordered_map<const Value*, int32_t> constant_slots_;
  size_t next_register_ = 0;
};

}  // namespace

Code emit_code(const GraphPtr& graph, const std::string& function_name, CompilationUnit* owner) {
  return Emitter(graph, function_name, owner).emit();
}

}  // namespace torchlet::jit
