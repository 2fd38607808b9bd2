// The python printer (see python_print.h). FunctionPrinter turns one graph into the
// body of a `def`; PythonPrinter owns the files, the classes' declarations and the
// constants table.
#include "jit/serialization/python_print.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/ascii.h"
#include "core/python_format.h"
#include "values/function_schema.h"
#include "jit/ir/ir.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::jit {

namespace {

// Names a printed variable may not take: what the importer's environment defines, the
// spellings the printer itself emits, and Python's keywords (torch's list, plus the
// builtins this printer writes as calls).
bool is_reserved_name(const std::string& name) {
  static const std::unordered_set<std::string> reserved = {
      "_", "aten", "attribute", "CONSTANTS", "fork", "getattr", "inf", "nan", "infj", "nanj", "ops", "__torch__",
      "torch", "annotate", "uninitialized", "unchecked_cast", "isinstance", "print", "range", "len", "str", "int",
      "float", "bool", "complex", "Tensor", "List", "Dict", "Optional", "Tuple", "Union", "Final", "NoneType",
      "Module", "Enum", "NamedTuple", "Interface", "ModuleInterface", "Future", "Any", "number", "Device",
      "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
      "except", "False", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "None",
      "nonlocal", "not", "or", "pass", "raise", "return", "True", "try", "while", "with", "yield"};
  return reserved.count(name) != 0;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || ascii_digit(s[0])) return false;
  return std::all_of(s.begin(), s.end(), ascii_word);
}

// A value's name as a Python identifier: other characters become '_', a leading digit
// gets one in front.
std::string valid_identifier(const std::string& candidate) {
  std::string out;
  for (char c : candidate) out += ascii_word(c) ? c : '_';
  if (out.empty() || ascii_digit(out[0])) out = "_" + out;
  return out;
}

std::pair<std::string, std::string> split_qualname(const std::string& q) {
  const size_t dot = q.rfind('.');
  TL_INTERNAL_ASSERT(dot != std::string::npos, "an archive name without a module");
  return {q.substr(0, dot), q.substr(dot + 1)};
}

std::string join_strings(const std::vector<std::string>& parts, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

// Can a list or dict literal's element type be inferred back from its members? Not for
// unions, optionals, numbers, interfaces or Any (torch's rule), nor when a member's
// type is not exactly the element type.
bool members_give_type(const TypePtr& elem, const std::vector<Value*>& members) {
  switch (elem->kind()) {
    case TypeKind::Union:
    case TypeKind::Optional:
    case TypeKind::Number:
    case TypeKind::Interface:
    case TypeKind::Any: return false;
    default: break;
  }
  return std::all_of(members.begin(), members.end(), [&](const Value* v) { return v->type()->equals(*elem); });
}

// Is the constant `v` the same value as an argument's default (so the argument can be
// left out)? Scalars, strings, None and lists of them.
bool same_constant(const IValue& a, const IValue& b) {
  if (a.tag() != b.tag()) return false;
  switch (a.tag()) {
    case IValueTag::None: return true;
    case IValueTag::Bool: return a.toBool() == b.toBool();
    case IValueTag::Int: return a.toInt() == b.toInt();
    case IValueTag::Double: {
      const double x = a.toDouble(), y = b.toDouble();
      return x == y ? std::signbit(x) == std::signbit(y) : (std::isnan(x) && std::isnan(y));
    }
    case IValueTag::String: return a.toStringRef() == b.toStringRef();
    case IValueTag::Device: return a.toDevice() == b.toDevice();
    case IValueTag::List: {
      const auto& x = a.listRef().elements;
      const auto& y = b.listRef().elements;
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!same_constant(x[i], y[i])) return false;
      return true;
    }
    default: return false;
  }
}

}  // namespace

// --- types and literals -------------------------------------------------------------------------

std::string python_type_str(const TypePtr& t) {
  auto each = [](const std::vector<TypePtr>& ts) {
    std::vector<std::string> parts;
    for (const auto& c : ts) parts.push_back(python_type_str(c));
    return join_strings(parts);
  };
  switch (t->kind()) {
    case TypeKind::Tensor: return "Tensor";
    case TypeKind::List: return "List[" + python_type_str(t->contained()[0]) + "]";
    case TypeKind::Optional: return "Optional[" + python_type_str(t->contained()[0]) + "]";
    case TypeKind::Dict: return "Dict[" + each(t->contained()) + "]";
    case TypeKind::Tuple:
      if (t->is_named_tuple() && !t->name().empty()) return archive_qualified_name(t->name());
      return t->contained().empty() ? "Tuple[()]" : "Tuple[" + each(t->contained()) + "]";
    case TypeKind::Union: return "Union[" + each(t->contained()) + "]";
    case TypeKind::Future: return "Future[" + python_type_str(t->contained()[0]) + "]";
    case TypeKind::RRef: return "RRef[" + python_type_str(t->contained()[0]) + "]";
    case TypeKind::Class:
    case TypeKind::Enum:
    case TypeKind::Interface:
    case TypeKind::Function: return archive_qualified_name(t->name());
    default: return t->annotation_str();
  }
}

std::string python_literal(const IValue& v) {
  ClassicStringStream out;
  switch (v.tag()) {
    case IValueTag::None: return "None";
    case IValueTag::Bool: return v.toBool() ? "True" : "False";
    case IValueTag::Int: return std::to_string(v.toInt());
    case IValueTag::Double: {
      const double d = v.toDouble();
      if (std::isnan(d)) return "nan";
      if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
      print_double_literal(out, d);
      return out.str();
    }
    case IValueTag::String: print_quoted_string(out, v.toStringRef()); return out.str();
    case IValueTag::Device: {
      ClassicStringStream s;
      print_quoted_string(s, v.toDevice().str());
      return "torch.device(" + s.str() + ")";
    }
    case IValueTag::Enum: {
      const EnumImpl& e = *v.toEnum();
      return archive_qualified_name(e.type->name()) + "." + e.name;
    }
    case IValueTag::List: {
      const ListImpl& l = v.listRef();
      std::vector<std::string> parts;
      for (const auto& e : l.elements) parts.push_back(python_literal(e));
      const std::string body = "[" + join_strings(parts) + "]";
      const TypePtr elem = l.elem_type;
      bool inferable = elem && !l.elements.empty();
      if (inferable) {
        for (const auto& e : l.elements) inferable = inferable && type_of(e)->equals(*elem);
        inferable = inferable && members_give_type(elem, {});
      }
      if (inferable || !elem) return body;
      return "annotate(List[" + python_type_str(elem) + "], " + body + ")";
    }
    case IValueTag::Tuple: {
      const TupleImpl& t = v.tupleRef();
      std::vector<std::string> parts;
      for (const auto& e : t.elements) parts.push_back(python_literal(e));
      if (t.type && t.type->is_named_tuple() && !t.type->name().empty())
        return archive_qualified_name(t.type->name()) + "(" + join_strings(parts) + ")";
      if (parts.size() == 1) return "(" + parts[0] + ",)";
      return "(" + join_strings(parts) + ")";
    }
    case IValueTag::Dict: {
      const DictImpl& d = v.dictRef();
      std::vector<std::string> parts;
      for (const auto& [k, e] : d.items()) parts.push_back(python_literal(k) + ": " + python_literal(e));
      const std::string body = "{" + join_strings(parts) + "}";
      if (!parts.empty() || !d.key_type || !d.value_type) return body;
      return "annotate(Dict[" + python_type_str(d.key_type) + ", " + python_type_str(d.value_type) + "], {})";
    }
    default: TL_FAIL(UnsupportedError, "a {} has no Python literal for an archive's code", v.tag_name());
  }
}

// --- one function ------------------------------------------------------------------------------

class FunctionPrinter {
 public:
  FunctionPrinter(PythonPrinter& owner, PythonPrinter::File& file, size_t level)
      : owner_(owner), file_(file), level_(level) {}

  // `def name(params) -> ret:` and the body, at the printer's level.
  std::string print(const Function& fn) {
    const auto* gf = dynamic_cast<const GraphFunction*>(&fn);
    TL_CHECK(gf, UnsupportedError, "cannot print {}: it is not a compiled graph", fn.qualname());
    const Graph& graph = *gf->graph();
    const auto& defaults = fn.defaults();
    std::vector<std::string> params;
    for (size_t i = 0; i < graph.inputs().size(); ++i) {
      const Value* in = graph.inputs()[i];
      const std::string name = assign_name(in);
      std::string p = name + ": " + type_str(in->type());
      if (i < defaults.size() && defaults[i]) p += "=" + literal(*defaults[i]);
      params.push_back(p);
    }
    indent();
    out_ << "def " << fn.name() << "(" << join_strings(params, ",\n    ") << ") -> "
         << type_str(fn.return_type()) << ":\n";
    ++level_;
    scan_block(graph.block());
    print_long_constants(graph.block());
    print_block(graph.block(), !graph.outputs().empty());
    print_node(graph.return_node());
    --level_;
    return out_.str();
  }

 private:
  // --- names ---------------------------------------------------------------------------------
  std::string gen_name(const std::string& candidate) {
    std::string name = candidate;
    while (used_.count(name) || is_reserved_name(name)) name = candidate + std::to_string(file_.next_id[candidate]++);
    used_.insert(name);
    return name;
  }
  std::string assign_name(const Value* v) {
    auto it = expr_.find(v);
    if (it != expr_.end()) return it->second;
    const std::string name = gen_name(v->has_debug_name() ? valid_identifier(v->debug_name_base()) : "_");
    expr_[v] = name;
    return name;
  }
  const std::string& use(const Value* v) {
    auto it = expr_.find(v);
    if (it == expr_.end()) {
      // Constants are inlined where used (scan_value marks them); anything else must
      // have been printed first.
      TL_INTERNAL_ASSERT(v->node()->kind() == sym::prim_Constant, "python printer: a value used before it is defined");
      it = expr_.emplace(v, constant_expr(v)).first;
    }
    return it->second;
  }
  std::vector<std::string> uses(const std::vector<Value*>& vs) {
    std::vector<std::string> out;
    for (const Value* v : vs) out.push_back(use(v));
    return out;
  }
  std::string type_str(const TypePtr& t) {
    owner_.note_types(t);
    return python_type_str(t);
  }
  std::string literal(const IValue& v) {
    if (v.isTensor()) return owner_.tensor_constant(v.toTensor());
    if (v.isEnum()) owner_.note_types(v.toEnum()->type);
    if (v.isTuple() && v.tupleRef().type) owner_.note_types(v.tupleRef().type);
    if (v.isList()) {
      if (v.listRef().elem_type) owner_.note_types(v.listRef().elem_type);
      for (const auto& e : v.listRef().elements) literal(e);  // registers tensors, enums
    }
    if (v.isTuple()) {
      std::vector<std::string> parts;
      for (const auto& e : v.tupleRef().elements) parts.push_back(literal(e));
      const auto& t = v.tupleRef().type;
      if (t && t->is_named_tuple() && !t->name().empty())
        return archive_qualified_name(t->name()) + "(" + join_strings(parts) + ")";
      return parts.size() == 1 ? "(" + parts[0] + ",)" : "(" + join_strings(parts) + ")";
    }
    return python_literal(v);
  }
  std::string constant_expr(const Value* v) {
    if (const FunctionType* f = v->type()->as_function()) {
      TL_CHECK(f->function(), UnsupportedError, "cannot print a reference to the unknown function {}", f->name());
      owner_.note_function(*f->function());
      return archive_qualified_name(f->function()->qualname());
    }
    auto c = to_ivalue(v);
    TL_INTERNAL_ASSERT(c.has_value(), "python printer: a constant without a value");
    return literal(*c);
  }

  // --- inlining (torch's scan: a single-use result is written into its user when its
  // node is the one printed just before the user, so evaluation order is unchanged) ---
  bool can_inline(const Value* v) const {
    const Node* n = v->node();
    if (n->outputs().size() != 1 || v->uses().size() != 1 || !n->blocks().empty()) return false;
    const Use& u = v->uses()[0];
    // A name the user wrote stays, unless the value is just returned.
    if (v->has_debug_name() && u.user->kind() != sym::prim_Return) return false;
    if (u.user->kind() == sym::prim_Loop && u.offset >= 2) return false;  // carried: assigned before the loop
    if (u.user->kind() == sym::prim_Loop && u.offset == 0 && loop_needs_counter(u.user)) return false;  // read twice
    if (n->kind() == sym::prim_isinstance) return false;  // torch keeps refinements out of conditions
    if (n->kind() == sym::prim_Enter) return false;        // a with statement's header
    if (u.user->kind() == sym::prim_fork) return false;
    return true;
  }
  const Node* previous_non_constant(const Node* n) const {
    do {
      n = n->prev();
    } while (n->kind() == sym::prim_Constant);
    return n;
  }
  const Node* scan_value(const Node* block_point, const Value* v) {
    const Node* n = v->node();
    if (n == block_point && can_inline(v)) {
      block_point = scan_node(block_point);
      // torch lets the scan go on past an unpack but always prints it as `a, = t`.
      if (n->kind() != sym::prim_TupleUnpack && n->kind() != sym::prim_ListUnpack) inline_.insert(n);
    } else if (n->kind() == sym::prim_Constant) {
      inline_.insert(n);
    }
    return block_point;
  }
  const Node* scan_node(const Node* n) {
    if (inline_.count(n)) return n;
    for (const Block* b : n->blocks()) scan_block(b);
    const Node* block_point = previous_non_constant(n);
    for (auto it = n->inputs().rbegin(); it != n->inputs().rend(); ++it) block_point = scan_value(block_point, *it);
    return block_point;
  }
  void scan_block(const Block* b) {
    scan_node(b->return_node());
    for (const Node* n : b->nodes().reverse()) scan_node(n);
  }

  // --- source ranges (for .debug_pkl): the text printed from a node, inlined or not,
  // is bracketed by marks naming the node's range ----------------------------------------
  std::string begin_range(const Node* n) { return owner_.range_begin(n->source_range()); }
  std::string wrap_range(const Node* n, std::string text) {
    std::string begin = begin_range(n);
    if (begin.empty()) return text;
    return begin + text + PythonPrinter::kRangeEnd;
  }
  // For statements that print blocks: marks the node's range until the guard ends.
  struct RangeGuard {
    FunctionPrinter& p;
    bool open;
    RangeGuard(FunctionPrinter& printer, const Node* n) : p(printer) {
      const std::string begin = p.begin_range(n);
      open = !begin.empty();
      p.out_ << begin;
    }
    ~RangeGuard() {
      if (open) p.out_ << PythonPrinter::kRangeEnd;
    }
  };

  // --- long lines (torch's rule): an expression that, indented, would take 40 columns or
  // more is not written into its user. A long constant gets a statement of its own at
  // the top of the function; a long inlined result gets one where it is computed, and
  // so does every inlined result evaluated before it in the same statement, so the
  // order of evaluation stays as it was ------------------------------------------------
  bool is_long_line(const std::string& expr) const {
    size_t visible = 0;  // the range marks take no columns
    for (size_t i = 0; i < expr.size(); ++i) {
      if (expr[i] == PythonPrinter::kRangeBegin) i = expr.find(PythonPrinter::kRangeBeginClose, i);
      else if (expr[i] != PythonPrinter::kRangeEnd) ++visible;
    }
    return visible + 2 * level_ >= 40;
  }
  // Constants in order of first use, nested blocks included, each printed at the top
  // when long (in the body's first level, whatever block uses it).
  void collect_constants(const Node* n, std::vector<const Value*>& out, std::unordered_set<const Value*>& seen) {
    for (const Value* in : n->inputs())
      if (in->node()->kind() == sym::prim_Constant && seen.insert(in).second) out.push_back(in);
    for (const Block* b : n->blocks()) collect_constants(b, out, seen);
  }
  void collect_constants(const Block* b, std::vector<const Value*>& out, std::unordered_set<const Value*>& seen) {
    for (const Node* n : b->nodes()) collect_constants(n, out, seen);
    collect_constants(b->return_node(), out, seen);
  }
  void print_long_constants(const Block* body) {
    std::vector<const Value*> constants;
    std::unordered_set<const Value*> seen;
    collect_constants(body, constants, seen);
    for (const Value* c : constants) {
      std::string expr = wrap_range(c->node(), constant_expr(c));
      if (is_long_line(expr)) print_output_definition(c, expr);
    }
  }
  void print_output_definition(const Value* v, const std::string& expr) {
    expr_.erase(v);
    const std::string name = assign_name(v);
    indent();
    out_ << name << " = " << expr << "\n";
  }
  void split_long_inlines(const Value* v) {
    std::vector<const Value*> to_split_reversed;
    const Use& u = v->uses().at(0);
    scan_long_inlines(u.user, static_cast<int64_t>(u.offset), to_split_reversed);
    for (auto it = to_split_reversed.rbegin(); it != to_split_reversed.rend(); ++it) {
      const std::string expr = expr_.at(*it);
      print_output_definition(*it, expr);
    }
  }
  // The inlined non-constant inputs of `user` up to `offset` not split yet, then those
  // before `user` in its own user, recursively while the users are inlined.
  void scan_long_inlines(const Node* user, int64_t offset, std::vector<const Value*>& to_split_reversed) {
    auto it = split_upto_.find(user);
    const bool present = it != split_upto_.end();
    const int64_t stop = present ? it->second + 1 : 0;
    for (int64_t i = offset; i >= stop; --i) {
      const Value* prev = user->input(static_cast<size_t>(i));
      if (prev->node()->kind() != sym::prim_Constant && inline_.count(prev->node())) to_split_reversed.push_back(prev);
    }
    split_upto_[user] = offset;
    if (!present && inline_.count(user)) {
      const Use& u = user->output()->uses().at(0);
      scan_long_inlines(u.user, static_cast<int64_t>(u.offset) - 1, to_split_reversed);  // that use is being printed
    }
  }

  // --- statements --------------------------------------------------------------------------
  void indent() {
    for (size_t i = 0; i < level_; ++i) out_ << "  ";
  }
  void print_block(const Block* b, bool has_other_statements) {
    if (!has_other_statements && b->nodes().empty()) {
      indent();
      out_ << "pass\n";
    }
    const size_t open = open_withs_.size();
    for (const Node* n : b->nodes()) print_node(n);
    TL_CHECK(open_withs_.size() == open, UnsupportedError, "cannot print a prim::Enter without a prim::Exit in its block");
  }
  void print_assignment(const std::vector<Value*>& lhs, const std::vector<std::string>& rhs) {
    if (lhs.empty()) return;
    indent();
    std::vector<std::string> names;
    for (const Value* v : lhs) names.push_back(assign_name(v));
    out_ << join_strings(names);
    // Optional/Union variables are declared once, so the importer does not narrow them
    // to the first value's type.
    if (lhs.size() == 1) {
      const Value* v = lhs[0];
      const TypeKind k = v->type()->kind();
      if ((k == TypeKind::Optional || k == TypeKind::Union) && annotated_.insert(names[0]).second)
        out_ << ": " << type_str(v->type());
    }
    out_ << " = " << join_strings(rhs) << "\n";
  }
  void print_node(const Node* n) {
    if (n->kind() == sym::prim_Constant) return;  // inlined where used
    if (n->kind() != sym::prim_Return && inline_.count(n)) {
      std::string expr = rhs(n);
      const bool long_line = is_long_line(expr);
      expr_[n->output()] = wrap_range(n, std::move(expr));
      if (long_line) split_long_inlines(n->output());
      return;
    }
    RangeGuard range(*this, n);
    print_statement(n);
  }
  void print_statement(const Node* n) {
    switch (n->kind().id()) {
      case sym::k_prim_Constant: return;
      case sym::k_prim_Return:
        if (!n->inputs().empty()) {
          indent();
          out_ << "return " << join_strings(uses(n->inputs())) << "\n";
        }
        return;
      case sym::k_prim_If: return print_if(n);
      case sym::k_prim_Loop: return print_loop(n);
      case sym::k_prim_Enter: return print_with(n);
      case sym::k_prim_Exit:
        TL_CHECK(!open_withs_.empty() && open_withs_.back()->owning_block() == n->owning_block() &&
                     open_withs_.back()->input(0) == n->input(0),
                 UnsupportedError, "cannot print a prim::Exit that does not close the innermost prim::Enter of its block");
        open_withs_.pop_back();
        --level_;
        return;
      case sym::k_prim_TupleUnpack:
      case sym::k_prim_ListUnpack: {
        // An empty tuple's unpack does nothing (`= t` would not parse); a list's checks
        // the length, so only the tuple's is dropped.
        if (n->outputs().empty() && n->kind() == sym::prim_TupleUnpack) return;
        const std::string src = use(n->input());
        indent();
        for (const Value* o : n->outputs()) out_ << assign_name(o) << ", ";
        out_ << "= " << src << "\n";  // `a, b, = t`: the trailing comma unpacks even one
        return;
      }
      case sym::k_prim_SetAttr: {
        const std::string obj = use(n->input(0)), value = use(n->input(1));
        const std::string& field = n->s(sym::attr_name);
        TL_CHECK(is_identifier(field), UnsupportedError, "cannot print an assignment to attribute '{}'", field);
        indent();
        out_ << obj << "." << field << " = " << value << "\n";
        return;
      }
      default: break;
    }
    TL_CHECK(n->blocks().empty(), UnsupportedError, "the python printer cannot print {} nodes",
             n->kind().qual_string());
    const std::string expr = rhs(n);
    indent();
    if (!n->outputs().empty()) {
      std::vector<std::string> names;
      for (const Value* o : n->outputs()) names.push_back(assign_name(o));
      out_ << join_strings(names) << " = ";
    }
    out_ << expr << "\n";
  }
  // Note [With statements] (jit/frontend/function_compiler.h): the nodes between prim::Enter(m) and its
  // prim::Exit(m) in the same block are the body of `with m:`.
  void print_with(const Node* n) {
    const std::string manager = use(n->input(0));
    indent();
    out_ << "with " << manager;
    if (n->output()->has_uses()) out_ << " as " << assign_name(n->output());
    out_ << ":\n";
    ++level_;
    open_withs_.push_back(n);
    const Node* next = n->next();
    while (next->kind() == sym::prim_Constant || (next->kind() != sym::prim_Return && inline_.count(next))) next = next->next();
    if (next->kind() == sym::prim_Exit || next->kind() == sym::prim_Return) {
      indent();
      out_ << "pass\n";
    }
  }
  void print_if(const Node* n) {
    for (const Value* o : n->outputs()) assign_name(o);
    const std::string cond = use(n->input(0));
    indent();
    out_ << "if " << cond << ":\n";
    const bool has_outputs = !n->outputs().empty();
    for (size_t b = 0; b < 2; ++b) {
      if (b == 1) {
        indent();
        out_ << "else:\n";
      }
      ++level_;
      print_block(n->blocks()[b], has_outputs);
      print_assignment(n->outputs(), uses(n->blocks()[b]->outputs()));
      --level_;
    }
  }
  // A Loop is `for i in range(n)` when its condition is always true, `while c` when it
  // has no trip count; torch's frontend makes no other kind, but a loop with both (a
  // for loop that breaks) prints as a while over a counter it keeps itself.
  static bool is_true_constant(const Value* v) {
    auto c = to_ivalue(v);
    return c && c->isBool() && c->toBool();
  }
  static bool loop_has_trip_count(const Node* loop) {
    auto trip = to_ivalue(loop->input(0));
    return !trip || !trip->isInt() || trip->toInt() != std::numeric_limits<int64_t>::max() ||
           loop->blocks()[0]->inputs()[0]->has_uses();
  }
  static bool loop_needs_counter(const Node* loop) {
    const bool always_true =
        is_true_constant(loop->input(1)) && is_true_constant(loop->blocks()[0]->outputs()[0]);
    return !always_true && loop_has_trip_count(loop);
  }
  void print_loop(const Node* n) {
    const Block* body = n->blocks()[0];
    const size_t carried = n->outputs().size();
    const bool always_true = is_true_constant(n->input(1)) && is_true_constant(body->outputs()[0]);
    const bool counted = loop_has_trip_count(n);
    // Carried values: one variable per output, which the body's inputs alias.
    for (size_t i = 0; i < carried; ++i) {
      print_assignment({n->outputs()[i]}, {use(n->input(2 + i))});
      expr_[body->inputs()[1 + i]] = expr_.at(n->outputs()[i]);
    }
    std::vector<Value*> lhs(body->inputs().begin() + 1, body->inputs().end());
    std::vector<Value*> rhs_values(body->outputs().begin() + 1, body->outputs().end());
    if (always_true) {
      indent();
      if (counted) {
        const std::string trip = use(n->input(0));
        out_ << "for " << assign_name(body->inputs()[0]) << " in range(" << trip << "):\n";
      } else {
        out_ << "while True:\n";
      }
      ++level_;
      print_block(body, carried > 0);
      print_assignment(lhs, uses(rhs_values));
      --level_;
      return;
    }
    // while form: the condition lives in a variable of its own.
    std::string counter, trip;
    if (counted) {
      trip = use(n->input(0));
      counter = gen_name("_i");
      expr_[body->inputs()[0]] = counter;
      indent();
      out_ << counter << " = 0\n";
    }
    const std::string cond = gen_name("_c");
    indent();
    out_ << cond << " = " << use(n->input(1)) << "\n";
    indent();
    if (counted)
      out_ << "while torch.__and__(" << cond << ", torch.lt(" << counter << ", " << trip << ")):\n";
    else
      out_ << "while " << cond << ":\n";
    ++level_;
    print_block(body, true);
    std::vector<std::string> names{cond};
    for (const Value* v : lhs) names.push_back(assign_name(v));
    std::vector<std::string> values{use(body->outputs()[0])};
    for (const auto& s : uses(rhs_values)) values.push_back(s);
    indent();
    out_ << join_strings(names) << " = " << join_strings(values) << "\n";
    if (counted) {
      indent();
      out_ << counter << " = torch.add(" << counter << ", 1)\n";
    }
    --level_;
  }

  // --- expressions --------------------------------------------------------------------------
  std::string rhs(const Node* n) {
    const auto& ins = n->inputs();
    auto args = [&](size_t from) {
      std::vector<std::string> a;
      for (size_t i = from; i < ins.size(); ++i) a.push_back(use(ins[i]));
      return a;
    };
    // x.tolist() takes its type from an annotation, so torch prints the annotation with
    // it (ops.prim.tolist(x, 1, 1) would not say what it returns).
    static const Symbol kTolist = Symbol::from_qual_string("prim::tolist");
    if (n->kind() == kTolist) return "annotate(" + type_str(n->output()->type()) + ", " + use(ins[0]) + ".tolist())";
    switch (n->kind().id()) {
      case sym::k_prim_TupleConstruct: {
        const TypePtr& t = n->output()->type();
        if (t->is_named_tuple() && !t->name().empty()) return type_str(t) + "(" + join_strings(args(0)) + ")";
        const auto a = args(0);
        return a.size() == 1 ? "(" + a[0] + ",)" : "(" + join_strings(a) + ")";
      }
      case sym::k_prim_TupleIndex: return use(ins[0]) + "[" + use(ins[1]) + "]";
      case sym::k_prim_TupleSlice:
        return fmt::format("{}[{}:{}]", use(ins[0]), n->i(Symbol::from_qual_string("attr::beg")),
                           n->i(Symbol::from_qual_string("attr::end")));
      case sym::k_prim_ListConstruct: {
        const TypePtr& t = n->output()->type();
        const std::string body = "[" + join_strings(args(0)) + "]";
        if (!ins.empty() && members_give_type(t->contained()[0], ins)) return body;
        return "annotate(" + type_str(t) + ", " + body + ")";
      }
      case sym::k_prim_DictConstruct: {
        const TypePtr& t = n->output()->type();
        std::vector<std::string> items;
        std::vector<Value*> keys, values;
        for (size_t i = 0; i + 1 < ins.size(); i += 2) {
          items.push_back(use(ins[i]) + ": " + use(ins[i + 1]));
          keys.push_back(ins[i]);
          values.push_back(ins[i + 1]);
        }
        const std::string body = "{" + join_strings(items) + "}";
        if (!ins.empty() && members_give_type(t->contained()[0], keys) && members_give_type(t->contained()[1], values))
          return body;
        return "annotate(" + type_str(t) + ", " + body + ")";
      }
      case sym::k_prim_CreateObject: {
        const std::string cls = type_str(n->output()->type());
        return cls + ".__new__(" + cls + ")";
      }
      case sym::k_prim_GetAttr: {
        const std::string& field = n->s(sym::attr_name);
        if (is_identifier(field) && !is_reserved_name(field)) return use(ins[0]) + "." + field;
        ClassicStringStream q;
        print_quoted_string(q, field);
        return "getattr(" + use(ins[0]) + ", " + q.str() + ")";
      }
      case sym::k_prim_CallMethod: {
        std::string s = "(" + use(ins[0]) + ")." + n->s(sym::attr_name) + "(";
        for (const auto& a : args(1)) s += a + ", ";
        return s + ")";
      }
      case sym::k_prim_CallFunction: {
        std::string s = use(ins[0]) + "(";
        for (const auto& a : args(1)) s += a + ", ";
        return s + ")";
      }
      case sym::k_prim_fork: return "fork(" + join_strings(args(0)) + ")";
      case sym::k_prim_unchecked_cast: return "unchecked_cast(" + type_str(n->output()->type()) + ", " + use(ins[0]) + ")";
      case sym::k_prim_Uninitialized: return "uninitialized(" + type_str(n->output()->type()) + ")";
      case sym::k_prim_isinstance: {
        const auto& types = n->tys(sym::attr_types);
        std::vector<std::string> names;
        // The Python classes isinstance_types reads `list`, `dict`, `tuple` as, by name.
        for (const auto& t : types) {
          const bool any_list = t->kind() == TypeKind::List && t->contained()[0]->kind() == TypeKind::Any;
          const bool any_dict = t->kind() == TypeKind::Dict && t->contained()[0]->kind() == TypeKind::Any &&
                                t->contained()[1]->kind() == TypeKind::Any;
          const bool any_tuple = t->kind() == TypeKind::Tuple && t->contained().empty() && !t->is_named_tuple();
          names.push_back(any_list ? "list" : any_dict ? "dict" : any_tuple ? "tuple" : type_str(t));
        }
        const std::string what = names.size() == 1 ? names[0] : "(" + join_strings(names) + ")";
        return "isinstance(" + use(ins[0]) + ", " + what + ")";
      }
      case sym::k_prim_Print: return "print(" + join_strings(args(0)) + ")";
      case sym::k_aten___getitem__: return use(ins[0]) + "[" + use(ins[1]) + "]";
      case sym::k_aten_Int: return "int(" + join_strings(args(0)) + ")";
      case sym::k_aten_Float: return "float(" + join_strings(args(0)) + ")";
      case sym::k_aten_Bool: return "bool(" + join_strings(args(0)) + ")";
      case sym::k_aten_str: return "str(" + join_strings(args(0)) + ")";
      default: return operator_call(n);
    }
  }
  // torch.name(...) / ops.ns.name(...): positional arguments up to the first keyword-only
  // one, keyword-only ones by name, trailing arguments equal to their defaults left out.
  std::string operator_call(const Node* n) {
    const Symbol kind = n->kind();
    owner_.note_operator(kind);
    const std::string callee = kind.ns() == "aten" ? fmt::format("torch.{}", kind.name())
                                                   : fmt::format("ops.{}.{}", kind.ns(), kind.name());
    const Operator* op = n->op() ? n->op() : resolve_node_operator(*n);
    const auto& ins = n->inputs();
    if (!op || op->schema().is_vararg) return callee + "(" + join_strings(uses(ins)) + ")";
    const FunctionSchema& schema = op->schema();
    const auto& defaults = op->defaults();
    size_t needed = std::min(ins.size(), schema.arguments.size());
    while (needed > 0 && needed - 1 < defaults.size() && defaults[needed - 1]) {
      auto c = to_ivalue(ins[needed - 1]);
      if (!c || !same_constant(*c, *defaults[needed - 1])) break;
      --needed;
    }
    std::vector<std::string> parts;
    for (size_t i = 0; i < needed; ++i) {
      const auto& formal = schema.arguments[i];
      parts.push_back(formal.kwarg_only ? formal.name + "=" + use(ins[i]) : use(ins[i]));
    }
    return callee + "(" + join_strings(parts) + ")";
  }

  PythonPrinter& owner_;
  PythonPrinter::File& file_;
  size_t level_;
  std::vector<const Node*> open_withs_;  // prim::Enter nodes whose prim::Exit is still to come
  ClassicStringStream out_;
  std::unordered_map<const Value*, std::string> expr_;
  std::unordered_set<const Node*> inline_;
  std::unordered_set<std::string> used_;
  std::unordered_set<std::string> annotated_;
  std::unordered_map<const Node*, int64_t> split_upto_;  // a user's inputs already split, up to this offset
};

// --- files and classes -------------------------------------------------------------------------

PythonPrinter::PythonPrinter() = default;
PythonPrinter::~PythonPrinter() = default;

PythonPrinter::File& PythonPrinter::file_for(const std::string& archive_qualname) {
  const std::string module = split_qualname(archive_qualname).first;
  auto [it, fresh] = files_.try_emplace(module);
  if (fresh) file_order_.push_back(module);
  return it->second;
}

void PythonPrinter::add_type(const TypePtr& type) {
  note_types(type);
  drain();
}

void PythonPrinter::add_function(const Function& fn) {
  note_function(fn);
  drain();
}

void PythonPrinter::note_types(const TypePtr& t) {
  if (!t) return;
  for (const auto& c : t->contained()) note_types(c);
  const bool nominal = t->kind() == TypeKind::Class || t->kind() == TypeKind::Enum ||
                       t->kind() == TypeKind::Interface || (t->is_named_tuple() && !t->name().empty());
  if (!nominal) return;
  if (printed_.insert(archive_qualified_name(t->name())).second) pending_.push_back({t, nullptr});
}

void PythonPrinter::note_function(const Function& fn) {
  if (printed_.insert(archive_qualified_name(fn.qualname())).second) pending_.push_back({nullptr, &fn});
}

int64_t PythonPrinter::operator_version(Symbol kind) {
  // The format version that gives an operator its current meaning (torch's upgraders).
  const std::string& q = kind.qual_string();
  if (q == "aten::div" || q == "aten::div_") return 4;
  if (q == "aten::full") return 5;
  if (q == "aten::linspace") return 8;
  if (q == "aten::logspace") return 9;
  if (q == "aten::gelu" || q == "aten::gelu_backward") return 10;
  return 3;
}

void PythonPrinter::note_operator(Symbol kind) { need_version(operator_version(kind)); }

void PythonPrinter::drain() {
  if (draining_) return;
  draining_ = true;
  while (!pending_.empty()) {
    auto [type, fn] = pending_.front();
    pending_.erase(pending_.begin());
    if (fn) {
      const std::string q = archive_qualified_name(fn->qualname());
      print_function(*fn, file_for(q), 0);
    } else {
      print_type(type);
    }
  }
  draining_ = false;
}

void PythonPrinter::add_methods(const ClassType& cls, const std::vector<const Function*>& methods) {
  File& file = file_for(archive_qualified_name(cls.name()));
  for (const Function* fn : methods) print_function(*fn, file, 1);
  drain();
}

void PythonPrinter::print_function(const Function& fn, File& file, size_t level) {
  FunctionPrinter printer(*this, file, level);
  file.text += printer.print(fn);
}

void PythonPrinter::print_type(const TypePtr& type) {
  const std::string q = archive_qualified_name(type->name());
  File& file = file_for(q);
  const std::string name = split_qualname(q).second;
  std::string& out = file.text;
  if (type->kind() == TypeKind::Tuple) {
    out += "class " + name + "(NamedTuple):\n";
    for (size_t i = 0; i < type->field_names().size(); ++i) {
      note_types(type->contained()[i]);
      out += "  " + type->field_names()[i] + " : " + python_type_str(type->contained()[i]) + "\n";
    }
    return;
  }
  if (const EnumType* e = type->as_enum()) {
    out += "class " + name + "(Enum):\n";
    for (const auto& [member, value] : e->members()) out += "  " + member + " = " + python_literal(value) + "\n";
    return;
  }
  if (const InterfaceType* i = type->as_interface()) {
    out += "class " + name + (i->is_module() ? "(ModuleInterface):\n" : "(Interface):\n");
    for (const auto& m : i->methods()) {
      std::string line = "  def " + m->name.substr(m->name.rfind(':') == std::string::npos ? 0 : m->name.rfind(':') + 1) + "(self";
      for (size_t a = 0; a < m->arguments.size(); ++a) {  // the schema leaves out self
        const TypePtr t = type_from_schema(*m->arguments[a].type);
        note_types(t);
        line += ", " + m->arguments[a].name + ": " + python_type_str(t);
      }
      const TypePtr ret = m->returns.empty() ? Type::none() : type_from_schema(*m->returns[0].type);
      note_types(ret);
      out += line + ") -> " + python_type_str(ret) + ":\n    pass\n";
    }
    return;
  }
  const ClassType* cls = type->as_class();
  TL_INTERNAL_ASSERT(cls, "print_type on a type that is not a class");
  out += "class " + name + (cls->is_module() ? "(Module):\n" : ":\n");
  if (cls->is_module()) {
    std::string params, buffers;
    for (const auto& a : cls->attributes()) {
      if (a.kind == ClassAttribute::Kind::Parameter) params += "\"" + a.name + "\", ";
      if (a.kind == ClassAttribute::Kind::Buffer) buffers += "\"" + a.name + "\", ";
    }
    out += "  __parameters__ = [" + params + "]\n";
    out += "  __buffers__ = [" + buffers + "]\n";
  }
  for (const auto& a : cls->attributes()) {
    note_types(a.type);
    if (is_identifier(a.name) && !is_reserved_name(a.name)) {
      out += "  " + a.name + " : " + python_type_str(a.type) + "\n";
    } else {
      ClassicStringStream quoted;
      print_quoted_string(quoted, a.name);
      out += "  __annotations__[" + quoted.str() + "] = " + python_type_str(a.type) + "\n";
    }
  }
  for (const auto& [cname, value] : cls->constants()) {
    const TypePtr t = type_of(value);
    note_types(t);
    out += "  " + cname + " : Final[" + python_type_str(t) + "] = " + python_literal(value) + "\n";
  }
  // Types the methods use are queued (drain prints them after this class), so classes
  // of one file never interleave.
  for (const auto& [mname, fn] : cls->methods()) {
    TL_CHECK(fn, UnsupportedError, "cannot print method {} of {}: it has no code", mname, cls->name());
    print_function(*fn, file, 1);
  }
}

std::string PythonPrinter::tensor_constant(const Tensor& t) {
  for (size_t i = 0; i < constants_.size(); ++i)
    if (constants_[i].is_same(t)) return fmt::format("CONSTANTS.c{}", first_constant_ + i);
  constants_.push_back(t);
  return fmt::format("CONSTANTS.c{}", first_constant_ + constants_.size() - 1);
}

std::string PythonPrinter::range_begin(const SourceRange& range) {
  if (range.empty()) return {};
  SourceRange original = range;
  // Code compiled from an archive's code/ file: the user's range .debug_pkl gave for it.
  if (const Source::OriginalSpan* o = range.source()->original_span(range.start()); o && o->end <= o->source->text().size())
    original = SourceRange(o->source, o->start, o->end);
  marked_ranges_.push_back(std::move(original));
  return fmt::format("{}{}{}", kRangeBegin, marked_ranges_.size() - 1, kRangeBeginClose);
}

namespace {

bool same_range(const SourceRange& a, const SourceRange& b) {
  return a.source() == b.source() && a.start() == b.start() && a.end() == b.end();
}

}  // namespace

std::vector<PrintedFile> PythonPrinter::printed_files() const {
  std::vector<PrintedFile> out;
  for (const auto& m : file_order_) {
    const std::string& marked = files_.at(m).text;
    PrintedFile f{m, {}, {}};
    f.text.reserve(marked.size());
    std::vector<size_t> open;  // indices into marked_ranges_
    auto current = [&]() { return open.empty() ? SourceRange() : marked_ranges_[open.back()]; };
    auto record = [&]() {
      SourceRange r = current();
      if (!f.ranges.empty() && f.ranges.back().offset == f.text.size()) f.ranges.pop_back();  // nothing printed under it
      if (!f.ranges.empty() && same_range(f.ranges.back().range, r)) return;
      f.ranges.push_back({f.text.size(), std::move(r)});
    };
    record();
    for (size_t i = 0; i < marked.size(); ++i) {
      if (marked[i] == kRangeBegin) {
        const size_t close = marked.find(kRangeBeginClose, i);
        TL_INTERNAL_ASSERT(close != std::string::npos, "python printer: an unterminated range mark");
        open.push_back(std::stoul(marked.substr(i + 1, close - i - 1)));
        i = close;
        record();
      } else if (marked[i] == kRangeEnd) {
        TL_INTERNAL_ASSERT(!open.empty(), "python printer: a range end without a beginning");
        open.pop_back();
        record();
      } else {
        f.text += marked[i];
      }
    }
    TL_INTERNAL_ASSERT(open.empty(), "python printer: a range mark left open");
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> PythonPrinter::files() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& f : printed_files()) out.emplace_back(std::move(f.module), std::move(f.text));
  return out;
}

IValue PythonPrinter::constants() const {
  std::vector<IValue> ts;
  for (const auto& t : constants_) ts.emplace_back(t);
  return IValue::tuple(std::move(ts));
}

}  // namespace torchlet::jit
