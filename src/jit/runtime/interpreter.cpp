// The interpreter's run loop (see interpreter.h): one switch over instructions.def,
// frames for calls, and the traceback built only when something throws (STYLE #15).
#include "jit/runtime/interpreter.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "core/allocation_limit.h"
#include "jit/runtime/function.h"
#include "jit/runtime/future.h"
#include "jit/runtime/grad_mode.h"
#include "jit/runtime/scalar_math.h"

namespace torchlet::jit {

namespace {

// Note [Step budget] (interpreter.h): steps left on this thread.
thread_local int64_t t_steps_left = std::numeric_limits<int64_t>::max();

[[noreturn]] __attribute__((noinline, cold)) void steps_exhausted() {
  TL_FAIL(LimitError, "the TorchScript step budget ran out (a loop or call chain ran longer than the caller allows)");
}

inline void spend_step() {
  if (--t_steps_left < 0) steps_exhausted();
}

struct Frame {
  const Code* code;
  size_t pc;    // for callers: the CALL instruction being executed
  size_t base;  // first register in the shared register file
};

// What a TorchScript `raise` throws until the loop turns it into a ScriptException.
struct Raised {
  std::string exception_class;
  std::string message;
};

// torch names the function on its File line by its own name ("forward").
std::string short_name(const std::string& qual) {
  const size_t dot = qual.rfind('.');
  return qual.substr(dot == std::string::npos ? 0 : dot + 1);
}

// One frame's lines: the range in function `fn`, as torch prints it.
std::string range_text(const std::string& fn, SourceRange range) {
  // Code an archive generated reports the user's original line when .debug_pkl said it.
  if (const Source::OriginalSpan* o = range.source()->original_span(range.start()); o && o->end <= o->source->text().size())
    range = SourceRange(o->source, o->start, o->end);
  std::string text = range.str();
  // Torch names the function on the File line: `  File "x.py", line 3, in f`.
  const size_t eol = text.find('\n');
  if (text.rfind("  File \"", 0) == 0 && eol != std::string::npos) return text.insert(eol, ", in " + fn) + "\n";
  return fmt::format("  in {}\n{}\n", fn, text);
}

std::string frame_text(const Frame& f) {
  const Node* n = f.pc < f.code->instruction_nodes.size() ? f.code->instruction_nodes[f.pc] : nullptr;
  std::string fn = short_name(f.code->function_name);
  std::string out;
  // A node inlined from calls (the graph executor's plans, frozen modules) shows the
  // frames of those calls first, as the calls themselves would have.
  if (n && n->callstack()) {
    for (const InlinedCall& call : *n->callstack()) {
      if (!call.call_site.empty()) out += range_text(fn, call.call_site);
      fn = short_name(call.function);
    }
  }
  if (!n || n->source_range().empty())
    return out + fmt::format("  in {}{}\n", fn, n ? fmt::format(", at {}", n->kind().qual_string()) : "");
  return out + range_text(fn, n->source_range());
}

[[noreturn]] void throw_with_traceback(const std::vector<Frame>& frames, const std::string& cls,
                                       const std::string& message) {
  std::string report =
      "The following operation failed in the TorchScript interpreter.\n"
      "Traceback of TorchScript (most recent call last):\n";
  for (const Frame& f : frames) report += frame_text(f);
  report += fmt::format("{}: {}", cls, message);
  throw ScriptException(report, cls, message);
}

}  // namespace

StepBudget::StepBudget(int64_t steps)
    : outer_left_(t_steps_left), granted_(std::clamp<int64_t>(steps, 0, std::max<int64_t>(t_steps_left, 0))) {
  t_steps_left = granted_;
}

StepBudget::~StepBudget() {
  const int64_t spent = granted_ - std::max<int64_t>(t_steps_left, 0);
  t_steps_left = outer_left_ == std::numeric_limits<int64_t>::max() ? outer_left_ : outer_left_ - spent;
}

int64_t StepBudget::left() { return t_steps_left; }

thread_local size_t t_active_runs = 0;

void run_code(const Code& entry, Stack& stack) {
  struct ActiveRun {
    ActiveRun() {
      TL_CHECK(t_active_runs <= kMaxNestedRuns, LimitError,
               "TorchScript run from inside an operator (such as a class's __lt__ called by list.sort) nested "
               "more than {} deep",
               kMaxNestedRuns);
      ++t_active_runs;
    }
    ~ActiveRun() { --t_active_runs; }
  } active;
  std::vector<Frame> frames;
  std::vector<IValue> registers(entry.num_registers);
  frames.push_back({&entry, 0, 0});
  const Code* code = &entry;
  const Instruction* instructions = code->instructions.data();
  IValue* regs = registers.data();
  size_t pc = 0;
  // Objects whose with statements the frames are inside (ENTER), innermost last, with
  // the depth of the frame that entered each.
  std::vector<std::pair<size_t, IValue>> entered;
  // The warning sites (function, site) this run has warned at.
  std::vector<std::pair<const Code*, int32_t>> warned;
  // Note [With statements] (jit/frontend/function_compiler.h): an error leaving this run first exits what
  // its frames entered, innermost first, as Python's with does; an error an __exit__
  // raises replaces the one unwinding (Python's rule too), once every __exit__ has run.
  auto exit_entered = [&] {
    std::exception_ptr replaced;
    while (!entered.empty()) {
      IValue object = std::move(entered.back().second);
      entered.pop_back();
      const Function* exit = object.objectRef().type->find_method("__exit__");
      if (!exit) continue;
      Stack args{std::move(object), IValue(), IValue(), IValue()};
      try {
        exit->run(args);
      } catch (...) {
        replaced = std::current_exception();
      }
    }
    if (replaced) std::rethrow_exception(replaced);
  };

  auto enter = [&](const Function* fn) {
    const auto* gf = dynamic_cast<const GraphFunction*>(fn);
    if (!gf) {  // a native function: runs on the stack directly
      fn->run(stack);
      ++pc;
      return;
    }
    const Code& callee = gf->code();
    TL_CHECK(frames.size() < kMaxCallDepth, LimitError, "TorchScript calls nested deeper than {} frames calling {}",
             kMaxCallDepth, fn->qualname());
    frames.back().pc = pc;
    const size_t base = registers.size();
    registers.resize(base + callee.num_registers);
    frames.push_back({&callee, 0, base});
    code = &callee;
    instructions = callee.instructions.data();
    regs = registers.data() + base;
    pc = 0;
  };

  try {
    for (;;) {
      const Instruction ins = instructions[pc];
      switch (ins.op) {
        case OpCode::LOAD:
          stack.push_back(regs[ins.x]);
          ++pc;
          break;
        case OpCode::MOVE:
          stack.push_back(std::move(regs[ins.x]));
          ++pc;
          break;
        case OpCode::STORE:
          regs[ins.x] = std::move(stack.back());
          stack.pop_back();
          ++pc;
          break;
        case OpCode::STOREN:
          for (int32_t i = ins.n - 1; i >= 0; --i) {
            regs[ins.x + i] = std::move(stack.back());
            stack.pop_back();
          }
          ++pc;
          break;
        case OpCode::DROP:
          stack.pop_back();
          ++pc;
          break;
        case OpCode::DROPR:
          regs[ins.x] = IValue();
          ++pc;
          break;
        case OpCode::LOADC:
          stack.push_back(code->constants[ins.x]);
          ++pc;
          break;
        case OpCode::COPYR:
          regs[ins.x] = regs[ins.n];
          ++pc;
          break;
        case OpCode::MOVER:
          regs[ins.x] = std::move(regs[ins.n]);
          ++pc;
          break;
        case OpCode::LOADCR:
          regs[ins.x] = code->constants[ins.n];
          ++pc;
          break;
        case OpCode::JFR:
          pc += regs[ins.n].toBool() ? 1 : ins.x;
          break;
        case OpCode::OP:
          code->operators[ins.x]->operation()(stack);
          ++pc;
          break;
        case OpCode::OPN:
          stack.emplace_back(static_cast<int64_t>(ins.n));
          code->operators[ins.x]->operation()(stack);
          ++pc;
          break;
        case OpCode::JF: {
          const bool c = stack.back().toBool();
          stack.pop_back();
          pc += c ? 1 : ins.x;
          break;
        }
        case OpCode::JMP:
          pc += ins.x;
          break;
        case OpCode::LOOP: {
          spend_step();
          const int64_t i = regs[ins.x].toInt();
          if (i < regs[ins.x + 1].toInt() && regs[ins.x + 2].toBool()) ++pc;
          else pc += ins.n;
          break;
        }
        case OpCode::INC:
          regs[ins.x] = IValue(regs[ins.x].toInt() + 1);
          ++pc;
          break;
        case OpCode::CALL:
          spend_step();
          enter(code->functions[ins.x]);
          break;
        case OpCode::CALLM: {
          spend_step();
          const IValue& self = peek(stack, 0, static_cast<size_t>(ins.n));
          const std::string& name = code->constants[ins.x].toStringRef();
          TL_CHECK(self.isObject(), TypeError, "cannot call method '{}' on a value of type {}", name,
                   type_of(self)->str());
          const Function* fn = self.objectRef().type->find_method(name);
          TL_CHECK(fn, ValueError, "object of type {} has no method '{}'", self.objectRef().type->name(), name);
          TL_CHECK(fn->schema().arguments.size() == static_cast<size_t>(ins.n), TypeError,
                   "{}() takes {} argument(s) but {} were given", fn->qualname(), fn->schema().arguments.size(), ins.n);
          enter(fn);
          break;
        }
        case OpCode::RET: {
          // (Compiled code exits every with before returning; IR text might not.)
          while (!entered.empty() && entered.back().first == frames.size()) entered.pop_back();
          if (frames.size() == 1) return;
          const size_t base = frames.back().base;
          frames.pop_back();
          registers.resize(base);
          const Frame& caller = frames.back();
          code = caller.code;
          instructions = code->instructions.data();
          regs = registers.data() + caller.base;
          pc = caller.pc + 1;
          break;
        }
        case OpCode::TUPLE: {
          std::vector<IValue> elems(std::make_move_iterator(stack.end() - ins.n), std::make_move_iterator(stack.end()));
          drop(stack, static_cast<size_t>(ins.n));
          auto t = make_intrusive<TupleImpl>(std::move(elems), ins.x >= 0 ? code->types[ins.x] : nullptr);
          stack.emplace_back(std::move(t));
          ++pc;
          break;
        }
        case OpCode::UNPACK_TUPLE: {
          IValue t = pop(stack);
          const auto& elems = t.tupleRef().elements;
          TL_CHECK(elems.size() == static_cast<size_t>(ins.n), ValueError,
                   "expected a tuple of {} elements, but got {}", ins.n, elems.size());
          for (const IValue& e : elems) stack.push_back(e);
          ++pc;
          break;
        }
        case OpCode::SLICE_TUPLE: {
          IValue t = pop(stack);
          const auto& elems = t.tupleRef().elements;
          TL_CHECK(ins.x >= 0 && ins.x <= ins.n && static_cast<size_t>(ins.n) <= elems.size(), IndexError,
                   "tuple slice [{}:{}] out of range for a tuple of {} elements", ins.x, ins.n, elems.size());
          stack.emplace_back(IValue::tuple(std::vector<IValue>(elems.begin() + ins.x, elems.begin() + ins.n)));
          ++pc;
          break;
        }
        case OpCode::LIST: {
          std::vector<IValue> elems(std::make_move_iterator(stack.end() - ins.n), std::make_move_iterator(stack.end()));
          drop(stack, static_cast<size_t>(ins.n));
          stack.emplace_back(IValue::list(std::move(elems), code->types[ins.x]));
          ++pc;
          break;
        }
        case OpCode::UNPACK_LIST: {
          IValue l = pop(stack);
          const auto& elems = l.listRef().elements;
          TL_CHECK(elems.size() == static_cast<size_t>(ins.n), ValueError,
                   "Expected {} elements in a list but found {}", ins.n, elems.size());
          for (const IValue& e : elems) stack.push_back(e);
          ++pc;
          break;
        }
        case OpCode::DICT: {
          const TypePtr& t = code->types[ins.x];
          auto d = t->kind() == TypeKind::Dict ? make_intrusive<DictImpl>(t->contained()[0], t->contained()[1])
                                               : make_intrusive<DictImpl>();
          const size_t first = stack.size() - 2 * static_cast<size_t>(ins.n);
          for (size_t i = first; i < stack.size(); i += 2) d->insert_or_assign(std::move(stack[i]), std::move(stack[i + 1]));
          stack.resize(first);
          stack.emplace_back(std::move(d));
          ++pc;
          break;
        }
        case OpCode::GET_ATTR: {
          IValue& top = stack.back();
          IValue v = top.objectRef().slots[ins.x];
          top = std::move(v);
          ++pc;
          break;
        }
        case OpCode::GET_ATTR_NAMED: {
          IValue& top = stack.back();
          const std::string& name = code->constants[ins.x].toStringRef();
          TL_CHECK(top.isObject(), TypeError, "cannot read attribute '{}' of a value of type {}", name,
                   type_of(top)->str());
          auto slot = top.objectRef().type->find_attribute(name);
          TL_CHECK(slot, ValueError, "object of type {} has no attribute '{}'", top.objectRef().type->name(), name);
          IValue v = top.objectRef().slots[*slot];
          top = std::move(v);
          ++pc;
          break;
        }
        case OpCode::SET_ATTR: {
          IValue v = pop(stack);
          IValue obj = pop(stack);
          obj.objectRef().slots[ins.x] = std::move(v);
          ++pc;
          break;
        }
        case OpCode::SET_ATTR_NAMED: {
          IValue v = pop(stack);
          IValue obj = pop(stack);
          const std::string& name = code->constants[ins.x].toStringRef();
          TL_CHECK(obj.isObject(), TypeError, "cannot set attribute '{}' of a value of type {}", name,
                   type_of(obj)->str());
          auto slot = obj.objectRef().type->find_attribute(name);
          TL_CHECK(slot, ValueError, "object of type {} has no attribute '{}'", obj.objectRef().type->name(), name);
          obj.objectRef().slots[*slot] = std::move(v);
          ++pc;
          break;
        }
        case OpCode::CREATE_OBJECT: {
          auto cls = std::const_pointer_cast<ClassType>(std::static_pointer_cast<const ClassType>(code->types[ins.x]));
          const size_t slots = cls->attributes().size();
          stack.emplace_back(make_intrusive<ObjectImpl>(std::move(cls), slots));
          ++pc;
          break;
        }
        case OpCode::ISINSTANCE: {
          IValue v = pop(stack);
          const TypePtr t = type_of(v);
          bool yes = false;
          for (int32_t i = 0; i < ins.n && !yes; ++i) yes = t->passes_isinstance(*code->types[ins.x + i]);
          stack.emplace_back(yes);
          ++pc;
          break;
        }
        case OpCode::RAISE: {
          IValue cls = pop(stack);
          IValue msg = pop(stack);
          throw Raised{cls.isNone() ? "RuntimeError" : cls.toStringRef(), msg.isString() ? msg.toStringRef() : msg.repr()};
        }
        case OpCode::WARN:
          // Note [Warn once] (emitter.cpp)
          if (std::find(warned.begin(), warned.end(), std::make_pair(code, ins.n)) == warned.end()) {
            warned.emplace_back(code, ins.n);
            code->operators[ins.x]->operation()(stack);
          } else {
            drop(stack, 2);
          }
          ++pc;
          break;
        case OpCode::ENTER:
          entered.emplace_back(frames.size(), pop(stack));
          ++pc;
          break;
        case OpCode::EXIT:
          TL_CHECK(!entered.empty() && entered.back().first == frames.size(), ValueError,
                   "prim::Exit of an object this function did not enter (no matching prim::Enter)");
          entered.pop_back();
          ++pc;
          break;
        case OpCode::FORK: {
          spend_step();
          const Function* fn = code->functions[ins.x];
          std::vector<IValue> args(std::make_move_iterator(stack.end() - ins.n), std::make_move_iterator(stack.end()));
          drop(stack, static_cast<size_t>(ins.n));
          // The task runs under what is left of this thread's budget (Note [Step budget]),
          // its limit on one allocation (Note [Allocation limit]) and its grad mode.
          auto future = make_intrusive<Future>([fn, args = std::move(args), steps = t_steps_left,
                                                bytes = AllocationLimit::current(), grad = grad_enabled()]() mutable {
            StepBudget budget(steps);
            AllocationLimit limit(bytes);
            GradModeGuard grad_mode(grad);
            Stack s = std::move(args);
            fn->run(s);
            return s.empty() ? IValue() : std::move(s.back());
          });
          launch(future);
          stack.emplace_back(intrusive_ptr<FutureImpl>(future));
          ++pc;
          break;
        }
#define TL_FAST_OP(opcode, overload, type, expr)                                   \
  case OpCode::opcode: {                                                           \
    const auto a = (ins.n >= 0 ? regs[ins.n] : code->constants[-1 - ins.n]).to##type(); \
    const auto b = (ins.y >= 0 ? regs[ins.y] : code->constants[-1 - ins.y]).to##type(); \
    regs[ins.x] = IValue(expr);                                                    \
    ++pc;                                                                          \
    break;                                                                         \
  }
#include "jit/runtime/fast_ops.def"
#undef TL_FAST_OP
        case OpCode::WAIT: {
          IValue f = pop(stack);
          stack.push_back(static_cast<Future*>(f.toFuture().get())->wait());
          ++pc;
          break;
        }
      }
    }
  } catch (const ScriptException&) {
    exit_entered();
    throw;  // already carries the traceback of the code that raised it
  } catch (const Raised& r) {
    frames.back().pc = pc;
    exit_entered();
    throw_with_traceback(frames, r.exception_class, r.message);
  } catch (const Error& e) {
    frames.back().pc = pc;
    exit_entered();
    throw_with_traceback(frames, error_kind_name(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    // A container or string the program grew past what the system gives (tensor
    // storage says its byte count itself): still a TorchScript error, with its traceback.
    frames.back().pc = pc;
    exit_entered();
    throw_with_traceback(frames, error_kind_name(ErrorKind::OutOfMemoryError), "an allocation failed (std::bad_alloc)");
  } catch (const std::length_error& e) {
    // A string or vector asked for more than it can ever hold ("a".ljust(1 << 62)).
    frames.back().pc = pc;
    exit_entered();
    throw_with_traceback(frames, error_kind_name(ErrorKind::OutOfMemoryError),
                         fmt::format("a size past what one allocation can hold ({})", e.what()));
  }
}

}  // namespace torchlet::jit
