// Lowering an ExportedProgram's nodes onto registered operators (lowering.h).
//
// Note [Export operator rewrites]
// torch.export writes the operators of the torch that exported: exact overloads
// (torch.ops.aten.add.Tensor), 2.x-only operators, SymInt queries, and Python's
// _operator functions on SymInts. Each target resolves, in order, to
//   1. a rewrite row below: the operator torchlet has that computes the same, with
//      arguments it needs beyond the archive's given as constants
//      (_native_batch_norm_legit_no_training is native_batch_norm with training=False;
//      sym_size.int is size.int, as a SymInt is an int when the program runs);
//   2. the registered "ns::name.overload" (".default" is the empty overload), or one of
//      the export-only operators torch 1.13 has no schema for (export_operators.h);
// and then, when the archive's arguments do not fit that overload's schema (a Python
// number where add.Tensor says Tensor other, which torch wraps into a tensor), to
// another overload of the same name whose schema they fit (add.Scalar).
#include "export/lowering.h"

#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/python_format.h"
#include "export/export_operators.h"
#include "jit/runtime/operator.h"
#include "jit/runtime/schema_matching.h"

namespace torchlet::exported {
namespace {

using jit::Graph;
using jit::Node;
using jit::Operator;
using jit::OperatorRegistry;
using jit::Symbol;
using jit::Type;
using jit::TypePtr;
using jit::Value;

struct Rewrite {
  std::string_view from;  // the archive's operator, as "ns::name.overload"
  std::string_view to;    // the registered operator that computes it
  std::vector<std::pair<std::string_view, IValue>> extra;  // arguments the archive lacks
};

const std::vector<Rewrite>& rewrites() {
  static const std::vector<Rewrite> table = {
      {"aten::_native_batch_norm_legit_no_training", "aten::native_batch_norm", {{"training", false}}},
      // torch's functionalized view and copy forms, onto the ops whose argument names match.
      {"aten::_to_copy", "aten::to.dtype_layout", {{"copy", true}}},
      {"aten::lift_fresh_copy", "aten::clone", {}},
      {"aten::_reshape_alias", "aten::as_strided", {}},  // a view with the given strides
      {"aten::_unsafe_view", "aten::view", {}},
      {"aten::sym_size.int", "aten::size.int", {}},
      {"aten::sym_stride.int", "aten::stride.int", {}},
      {"aten::sym_numel", "aten::numel", {}},
      {"aten::sym_storage_offset", "aten::storage_offset", {}},
      // Python's operators on SymInts (serialize.py writes them as "_operator.add").
      {"_operator.add", "aten::add.int", {}},
      {"_operator.sub", "aten::sub.int", {}},
      {"_operator.mul", "aten::mul.int", {}},
      {"_operator.floordiv", "aten::floordiv.int", {}},
      {"_operator.mod", "aten::remainder.int", {}},
      {"_operator.truediv", "aten::div.int", {}},
      {"_operator.pow", "aten::pow.int", {}},
      {"_operator.neg", "aten::neg.int", {}},
      {"_operator.eq", "aten::eq.int", {}},
      {"_operator.ne", "aten::ne.int", {}},
      {"_operator.lt", "aten::lt.int", {}},
      {"_operator.le", "aten::le.int", {}},
      {"_operator.gt", "aten::gt.int", {}},
      {"_operator.ge", "aten::ge.int", {}},
  };
  return table;
}

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor"; other targets unchanged.
std::string registry_key(const std::string& target) {
  constexpr std::string_view kOps = "torch.ops.";
  if (!target.starts_with(kOps)) return target;
  std::string_view rest = std::string_view(target).substr(kOps.size());
  const size_t a = rest.find('.');
  const size_t b = a == std::string_view::npos ? a : rest.find('.', a + 1);
  if (b == std::string_view::npos || rest.find('.', b + 1) != std::string_view::npos) return target;
  const std::string_view ns = rest.substr(0, a), name = rest.substr(a + 1, b - a - 1), overload = rest.substr(b + 1);
  return overload == "default" ? fmt::format("{}::{}", ns, name) : fmt::format("{}::{}.{}", ns, name, overload);
}

// --- argument kinds against schema types ---------------------------------------------

// The schema type's base name with Optional peeled (and whether it was optional).
const jit::SchemaType& peel_optional(const jit::SchemaType& t, bool& optional) {
  optional = t.kind == jit::SchemaType::Kind::Optional;
  return optional ? *t.contained.at(0) : t;
}

bool scalar_kind_fits(const std::string& type, std::string_view kind) {
  if (type == "Tensor") return kind == "as_tensor";
  if (type == "int" || type == "SymInt") return kind == "as_int" || kind == "as_sym_int";
  if (type == "float") return kind == "as_float" || kind == "as_int" || kind == "as_sym_float" || kind == "as_sym_int";
  if (type == "bool") return kind == "as_bool" || kind == "as_sym_bool";
  if (type == "Scalar" || type == "number")
    return kind == "as_int" || kind == "as_float" || kind == "as_bool" || kind == "as_sym_int" || kind == "as_sym_float" ||
           kind == "as_sym_bool";
  if (type == "str") return kind == "as_string";
  if (type == "ScalarType") return kind == "as_scalar_type";
  if (type == "MemoryFormat") return kind == "as_memory_format";
  if (type == "Layout") return kind == "as_layout";
  if (type == "Device") return kind == "as_device";
  return false;
}

bool kind_fits(const jit::SchemaType& schema_type, std::string_view kind) {
  bool optional = false;
  const jit::SchemaType& t = peel_optional(schema_type, optional);
  if (kind == "as_none") return optional;
  if (t.kind == jit::SchemaType::Kind::List) {
    bool elem_optional = false;
    const jit::SchemaType& e = peel_optional(*t.contained.at(0), elem_optional);
    if (e.name == "Tensor") return kind == "as_tensors" || (elem_optional && kind == "as_optional_tensors");
    if (e.name == "int" || e.name == "SymInt")
      return kind == "as_ints" || kind == "as_sym_ints" || (t.fixed_size && (kind == "as_int" || kind == "as_sym_int"));
    if (e.name == "float") return kind == "as_floats" || kind == "as_ints" || kind == "as_sym_floats";
    if (e.name == "bool") return kind == "as_bools" || kind == "as_sym_bools";
    if (e.name == "str") return kind == "as_strings";
    return false;
  }
  if (t.kind != jit::SchemaType::Kind::Name) return false;
  return scalar_kind_fits(t.name, kind);
}

// Do the archive's arguments name and fit this operator's schema (extra ones aside)?
bool arguments_fit(const Operator& op, const GraphNode& node, const Rewrite* rewrite) {
  const auto& args = op.schema().arguments;
  for (const NamedArgument& a : node.inputs) {
    auto it = std::find_if(args.begin(), args.end(), [&](const jit::SchemaArgument& s) { return s.name == a.name; });
    if (it == args.end()) return false;
    auto [kind, _] = a.arg.union_member();
    if (!kind_fits(*it->type, kind)) return false;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const bool given = std::any_of(node.inputs.begin(), node.inputs.end(), [&](const NamedArgument& a) { return a.name == args[i].name; });
    const bool extra = rewrite && std::any_of(rewrite->extra.begin(), rewrite->extra.end(),
                                              [&](const auto& e) { return e.first == args[i].name; });
    if (!given && !extra && !op.defaults()[i]) return false;
  }
  return true;
}

// The memory_format / layout codes of schema.yaml mapped to the ints TorchScript uses.
int64_t torchscript_memory_format(const JsonField& f) {
  switch (f.integer()) {
    case 1: return 0;  // contiguous_format
    case 4: return 1;  // preserve_format
    case 2: return 2;  // channels_last
    case 3: return 3;  // channels_last_3d
    default: f.fail(fmt::format("memory format {} is not one torchlet knows", f.integer()));
  }
}

class Lowering {
 public:
  explicit Lowering(const ProgramDocument& doc) : doc_(doc), graph_(std::make_shared<Graph>()) {}

  LoweredProgram run() {
    for (const std::string& name : doc_.graph.placeholders) {
      Value* v = graph_->add_input();
      const bool is_sym = doc_.graph.sym_int_values.count(name) && !doc_.graph.tensor_values.count(name);
      v->set_type(is_sym ? Type::int_() : Type::tensor());
      define(name, v, "the graph inputs");
    }
    for (const GraphNode& n : doc_.graph.nodes) lower_node(n);
    std::vector<Value*> outs;
    for (const JsonField& o : doc_.graph.outputs) outs.push_back(output_value(o));
    Value* tuple = graph_->insert_node(graph_->create_tuple(outs))->output();
    graph_->register_output(tuple);
    LoweredProgram out;
    out.graph = graph_;
    out.function = std::make_unique<jit::GraphFunction>("exported_program.forward", graph_);
    (void)out.function->code();
    out.operator_counts = std::move(counts_);
    return out;
  }

 private:
  void define(const std::string& name, Value* v, const std::string& where) {
    if (!env_.emplace(name, v).second)
      TL_FAIL(FormatError, "{}: {} defines '{}', which is already defined", doc_.label, where, printable_text(name));
    // Debug names are cosmetic; names torch's printer could not show stay numbered.
    bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (plain) v->set_debug_name(name);
  }

  Value* lookup(const std::string& name, const JsonField& where) {
    auto it = env_.find(name);
    if (it == env_.end()) where.fail(fmt::format("reads '{}', which nothing defines", printable_text(name)));
    return it->second;
  }

  Value* constant(const IValue& v) { return graph_->insert_constant(v); }

  Value* sym_value(const JsonField& f, const char* name_key, const TypePtr& type) {
    auto [kind, v] = f.union_member();
    if (kind == name_key) return lookup(v.str(), v);
    if (kind == "as_int") return constant(v.integer());
    if (kind == "as_bool") return constant(v.boolean());
    if (kind == "as_float") return constant(v.number());
    f.fail(fmt::format("a symbolic {} is {}, not '{}'", type->str(), name_key, printable_text(kind)));
  }

  Value* list_of(const TypePtr& elem, std::vector<Value*> values) {
    return graph_->insert_node(graph_->create_list(elem, values))->output();
  }

  // One argument as the value of the schema type it is passed for.
  Value* argument_value(const JsonField& arg, const jit::SchemaType& type) {
    auto [kind, v] = arg.union_member();
    bool optional = false;
    const jit::SchemaType& base = peel_optional(type, optional);
    if (kind == "as_none") return constant(IValue());
    if (kind == "as_tensor") return lookup(v["name"].str(), v);
    if (kind == "as_tensors") {
      std::vector<Value*> items;
      for (const JsonField& t : v.elements()) items.push_back(lookup(t["name"].str(), t));
      bool elem_optional = false;
      peel_optional(*base.contained.at(0), elem_optional);
      return list_of(elem_optional ? Type::optional(Type::tensor()) : Type::tensor(), items);
    }
    if (kind == "as_optional_tensors") {
      std::vector<Value*> items;
      for (const JsonField& t : v.elements()) {
        auto [k, tv] = t.union_member();
        items.push_back(k == "as_tensor" ? lookup(tv["name"].str(), tv) : constant(IValue()));
      }
      return list_of(Type::optional(Type::tensor()), items);
    }
    if (kind == "as_int") {
      if (base.kind == jit::SchemaType::Kind::Name && base.name == "float") return constant(static_cast<double>(v.integer()));
      return constant(v.integer());
    }
    if (kind == "as_float") return constant(v.number());
    if (kind == "as_bool") return constant(v.boolean());
    if (kind == "as_string") return constant(v.str());
    if (kind == "as_ints" || kind == "as_floats" || kind == "as_bools" || kind == "as_strings") {
      const bool to_float = kind == "as_ints" && base.kind == jit::SchemaType::Kind::List && base.contained.at(0)->name == "float";
      std::vector<IValue> items;
      for (const JsonField& e : v.elements()) {
        if (kind == "as_ints") items.push_back(to_float ? IValue(static_cast<double>(e.integer())) : IValue(e.integer()));
        else if (kind == "as_floats") items.push_back(e.number());
        else if (kind == "as_bools") items.push_back(e.boolean());
        else items.push_back(e.str());
      }
      TypePtr elem = kind == "as_bools" ? Type::bool_() : kind == "as_strings" ? Type::str_()
                     : (kind == "as_floats" || to_float) ? Type::float_() : Type::int_();
      return constant(IValue::list(std::move(items), elem));
    }
    if (kind == "as_sym_int") return sym_value(v, "as_name", Type::int_());
    if (kind == "as_sym_bool") return sym_value(v, "as_name", Type::bool_());
    if (kind == "as_sym_float") return sym_value(v, "as_name", Type::float_());
    if (kind == "as_sym_ints" || kind == "as_sym_bools" || kind == "as_sym_floats") {
      const TypePtr elem = kind == "as_sym_ints" ? Type::int_() : kind == "as_sym_bools" ? Type::bool_() : Type::float_();
      std::vector<Value*> items;
      for (const JsonField& e : v.elements()) items.push_back(sym_value(e, "as_name", elem));
      return list_of(elem, items);
    }
    if (kind == "as_scalar_type") {
      auto dtype = dtype_from_export_code(v.integer());
      if (!dtype) v.fail(fmt::format("ScalarType {} is not a dtype torchlet holds", v.integer()));
      return constant(static_cast<int64_t>(dtype_info(*dtype).scalar_type_index));
    }
    if (kind == "as_memory_format") return constant(torchscript_memory_format(v));
    if (kind == "as_layout") {
      if (v.integer() != 7) v.fail(fmt::format("layout {} is not torch.strided (7), the only layout torchlet runs", v.integer()));
      return constant(int64_t{0});
    }
    if (kind == "as_device") {
      std::string text = v["type"].str();
      if (auto index = v.find("index")) text += fmt::format(":{}", index->integer());
      return constant(Device::parse(text));
    }
    TL_FAIL(UnsupportedError, "{}: arguments of kind '{}' (graphs, custom objects, operators) are not supported",
            arg.where(), printable_text(kind));
  }

  // The operator a node calls and the rewrite that led there (if any).
  std::pair<const Operator*, const Rewrite*> resolve(const GraphNode& node) {
    if (node.target.starts_with("torch.ops.higher_order."))
      TL_FAIL(UnsupportedError, "{}: higher-order operator {} is not supported (torchlet runs cond only)",
              node.where.where(), printable_text(node.target));
    const std::string key = registry_key(node.target);
    const Rewrite* rewrite = nullptr;
    for (const Rewrite& r : rewrites())
      if (r.from == key) rewrite = &r;
    const std::string target_key = rewrite ? std::string(rewrite->to) : key;
    auto& registry = OperatorRegistry::global();
    const Operator* op = registry.find(target_key);
    if (!op) op = find_export_operator(target_key);
    if (op && arguments_fit(*op, node, rewrite)) return {op, rewrite};
    const size_t dot = target_key.find('.');
    const std::string name = target_key.substr(0, dot);
    if (name.find("::") != std::string::npos)
      for (const Operator* other : registry.overloads(Symbol::from_qual_string(name)))
        if (arguments_fit(*other, node, rewrite)) return {other, rewrite};
    if (op) return {op, rewrite};  // binding names what does not fit
    const auto known = name.find("::") != std::string::npos ? registry.overloads(Symbol::from_qual_string(name))
                                                            : std::vector<const Operator*>{};
    if (known.empty())
      TL_FAIL(UnsupportedError, "{}: unknown operator {} ({} is not an operator torchlet has)", node.where.where(),
              printable_text(node.target), printable_text(name));
    std::string overloads;
    for (const Operator* o : known) overloads += "\n  " + o->schema().str();
    TL_FAIL(UnsupportedError, "{}: torchlet has no overload {} of {}; it has:{}", node.where.where(),
            printable_text(node.target), name, overloads);
  }

  void lower_node(const GraphNode& node) {
    if (node.target == "torch.ops.higher_order.cond") return lower_cond(node);
    auto [op, rewrite] = resolve(node);
    ++counts_[operator_display_name(node.target)];
    const auto& args = op->schema().arguments;
    std::vector<Value*> inputs(args.size(), nullptr);
    for (const NamedArgument& a : node.inputs) {
      auto it = std::find_if(args.begin(), args.end(), [&](const jit::SchemaArgument& s) { return s.name == a.name; });
      if (it == args.end())
        a.arg.fail(fmt::format("{} has no argument '{}' (its schema: {})", op->qualified_overload(), printable_text(a.name),
                               op->schema().str()));
      const size_t i = static_cast<size_t>(it - args.begin());
      if (inputs[i]) a.arg.fail(fmt::format("argument '{}' is given twice", printable_text(a.name)));
      auto [kind, _] = a.arg.union_member();
      if (!kind_fits(*it->type, kind))
        a.arg.fail(fmt::format("{} is not a {} (argument '{}' of {})", kind, it->type->str(), a.name, op->schema().str()));
      inputs[i] = argument_value(a.arg, *it->type);
    }
    for (size_t i = 0; i < args.size(); ++i) {
      if (inputs[i]) continue;
      if (rewrite)
        for (const auto& [name, value] : rewrite->extra)
          if (name == args[i].name) inputs[i] = constant(value);
      if (!inputs[i] && op->defaults()[i]) inputs[i] = constant(*op->defaults()[i]);
      if (!inputs[i])
        node.where.fail(fmt::format("{} needs argument '{}', which the node does not give", op->schema().str(), args[i].name));
    }
    Node* n = graph_->create(op->name(), inputs, op->schema().returns.size());
    n->set_op(op);
    n->set_schema(&op->schema());
    graph_->insert_node(n);
    for (size_t i = 0; i < n->outputs().size(); ++i)
      if (!jit::has_type_variables(op->return_types()[i])) n->outputs()[i]->set_type(op->return_types()[i]);
    bind_outputs(node, *op, n);
  }

  // Names the node's results as the archive lists them: one entry per return, except
  // that a Tensor[] return lists its tensors in one as_tensors entry.
  void bind_outputs(const GraphNode& node, const Operator& op, Node* n) {
    const std::string where = fmt::format("node {}", printable_text(node.target));
    const size_t returns = n->outputs().size();
    if (returns == 0) {
      for (const JsonField& o : node.outputs)
        if (o.union_member().first != "as_none") o.fail(fmt::format("{} returns nothing", op.schema().str()));
      return;
    }
    if (node.outputs.size() != returns)
      node.where["outputs"].fail(fmt::format("{} outputs listed for {}, which returns {}", node.outputs.size(),
                                             op.schema().str(), returns));
    for (size_t i = 0; i < returns; ++i) {
      auto [kind, v] = node.outputs[i].union_member();
      Value* out = n->outputs()[i];
      if (kind == "as_tensors") {
        const std::vector<JsonField> items = v.elements();
        Node* unpack = graph_->insert_node(graph_->create_list_unpack(out, items.size()));
        for (size_t j = 0; j < items.size(); ++j) define(items[j]["name"].str(), unpack->outputs()[j], where);
      } else if (!define_result(kind, v, out, where)) {
        node.outputs[i].fail(fmt::format("an output of kind '{}' is not supported", printable_text(kind)));
      }
    }
  }

  // Names one result as its output entry says: as_tensor and as_sym_* name it, as_none
  // leaves it unnamed (nothing uses it). False for any other kind.
  bool define_result(std::string_view kind, const JsonField& v, Value* out, const std::string& where) {
    if (kind == "as_tensor")
      define(v["name"].str(), out, where);
    else if (kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float")
      define(v["as_name"].str(), out, where);
    else
      return kind == "as_none";
    return true;
  }

  // Note [Export cond]
  // torch.cond(pred, true_fn, false_fn, operands) is serialized as a higher-order node
  // with unnamed positional inputs: pred (a bool tensor or SymBool), each branch as
  // as_graph {name, graph} (a Graph of its own namespace whose placeholders are the
  // operands), and the operands as as_tensors; its outputs are one as_tensor per result
  // (named after their getitem users), or one as_tensors. It lowers to prim::If, each
  // branch lowered into its block with its placeholders bound to the operands.
  void lower_cond(const GraphNode& node) {
    ++counts_[operator_display_name(node.target)];
    if (node.inputs.size() != 4)
      node.where["inputs"].fail(fmt::format("cond takes (pred, true_fn, false_fn, operands), not {} inputs", node.inputs.size()));
    Value* pred = nullptr;
    auto [pred_kind, pred_arg] = node.inputs[0].arg.union_member();
    if (pred_kind == "as_tensor") {
      const Operator* to_bool = OperatorRegistry::global().find("aten::Bool.Tensor");
      TL_INTERNAL_ASSERT(to_bool, "aten::Bool.Tensor is not registered");
      Node* n = graph_->create(to_bool->name(), {lookup(pred_arg["name"].str(), pred_arg)}, 1);
      n->set_op(to_bool);
      n->set_schema(&to_bool->schema());
      pred = graph_->insert_node(n)->output()->set_type(Type::bool_());
    } else if (pred_kind == "as_sym_bool" || pred_kind == "as_bool") {
      pred = pred_kind == "as_bool" ? constant(pred_arg.boolean()) : sym_value(pred_arg, "as_name", Type::bool_());
    } else {
      node.inputs[0].arg.fail(fmt::format("cond's predicate is {}, expected a tensor or a SymBool", printable_text(pred_kind)));
    }
    std::vector<Value*> operands;
    auto [ops_kind, ops_arg] = node.inputs[3].arg.union_member();
    if (ops_kind != "as_tensors") node.inputs[3].arg.fail("cond's operands must be as_tensors");
    for (const JsonField& t : ops_arg.elements()) operands.push_back(lookup(t["name"].str(), t));
    GraphBody branches[2];
    for (int b = 0; b < 2; ++b) {
      auto [kind, g] = node.inputs[1 + b].arg.union_member();
      if (kind != "as_graph") node.inputs[1 + b].arg.fail(fmt::format("cond's branch is {}, expected as_graph", printable_text(kind)));
      branches[b] = read_graph_body(g["graph"], doc_.ranges);
      if (branches[b].placeholders.size() != operands.size())
        g["graph"].fail(fmt::format("the branch takes {} inputs, but cond passes {} operands", branches[b].placeholders.size(),
                                    operands.size()));
    }
    const size_t results = branches[0].outputs.size();
    if (branches[1].outputs.size() != results)
      node.where.fail(fmt::format("cond's branches return {} and {} values", results, branches[1].outputs.size()));
    Node* if_node = graph_->insert_node(graph_->create(jit::sym::prim_If, {pred}, results));
    jit::Block* outer = graph_->insert_block();
    for (int b = 0; b < 2; ++b) {
      jit::Block* block = if_node->add_block();
      graph_->set_insert_point(block);
      auto saved = std::move(env_);
      env_.clear();
      for (size_t i = 0; i < operands.size(); ++i) env_.emplace(branches[b].placeholders[i], operands[i]);
      for (const GraphNode& n : branches[b].nodes) lower_node(n);
      for (const JsonField& o : branches[b].outputs) block->register_output(output_value(o));
      env_ = std::move(saved);
    }
    graph_->set_insert_point(outer);
    for (size_t i = 0; i < results; ++i) if_node->outputs()[i]->set_type(if_node->blocks()[0]->outputs()[i]->type());
    const std::string where = "node torch.ops.higher_order.cond";
    if (node.outputs.size() == 1 && node.outputs[0].union_member().first == "as_tensors") {
      const std::vector<JsonField> items = node.outputs[0].union_member().second.elements();
      if (items.size() != results) node.outputs[0].fail(fmt::format("{} names for {} results", items.size(), results));
      for (size_t i = 0; i < results; ++i) define(items[i]["name"].str(), if_node->outputs()[i], where);
      return;
    }
    if (node.outputs.size() != results)
      node.where["outputs"].fail(fmt::format("{} outputs listed for a cond returning {}", node.outputs.size(), results));
    for (size_t i = 0; i < results; ++i) {
      auto [kind, v] = node.outputs[i].union_member();
      if (!define_result(kind, v, if_node->outputs()[i], where))
        node.outputs[i].fail(fmt::format("a cond output of kind '{}' is not supported", printable_text(kind)));
    }
  }

  Value* output_value(const JsonField& o) {
    auto [kind, v] = o.union_member();
    if (kind == "as_tensor") return lookup(v["name"].str(), v);
    if (kind == "as_sym_int" || kind == "as_sym_bool" || kind == "as_sym_float") return sym_value(v, "as_name", Type::int_());
    if (kind == "as_none") return constant(IValue());
    if (kind == "as_int") return constant(v.integer());
    if (kind == "as_float") return constant(v.number());
    if (kind == "as_bool") return constant(v.boolean());
    if (kind == "as_tensors") {
      std::vector<Value*> items;
      for (const JsonField& t : v.elements()) items.push_back(lookup(t["name"].str(), t));
      return list_of(Type::tensor(), items);
    }
    o.fail(fmt::format("a graph output of kind '{}' is not supported", printable_text(kind)));
  }

  const ProgramDocument& doc_;
  std::shared_ptr<Graph> graph_;
  std::unordered_map<std::string, Value*> env_;
  std::map<std::string, int64_t> counts_;
};

}  // namespace

std::string operator_display_name(const std::string& target) {
  // Higher-order operators have no overload: torch.ops.higher_order.cond -> higher_order::cond.
  constexpr std::string_view kHigherOrder = "torch.ops.higher_order.";
  if (target.starts_with(kHigherOrder)) return "higher_order::" + target.substr(kHigherOrder.size());
  return registry_key(target);
}

LoweredProgram lower_program(const ProgramDocument& doc) { return Lowering(doc).run(); }

}  // namespace torchlet::exported
