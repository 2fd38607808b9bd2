// The graph printer: PyTorch's text form of a Graph, byte for byte as torch 1.13's
// Graph::print writes it (value lists with types, attributes in torch's literal
// spellings, blocks, optional `# file:line:col` comments). ir_parser.cpp reads it back.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "core/python_format.h"
#include "jit/ir/ir.h"

namespace torchlet::jit {

namespace {

void indent(std::ostream& out, size_t level) {
  for (size_t i = 0; i < level; ++i) out << "  ";
}

void print_value_refs(std::ostream& out, const std::vector<Value*>& vs) {
  for (size_t i = 0; i < vs.size(); ++i) out << (i ? ", " : "") << "%" << vs[i]->debug_name();
}

void print_values_with_types(std::ostream& out, const std::vector<Value*>& vs, const char* delim = ", ") {
  for (size_t i = 0; i < vs.size(); ++i) {
    out << (i ? delim : "") << "%" << vs[i]->debug_name() << " : " << vs[i]->type()->str();
  }
}

}  // namespace

void print_double_literal(std::ostream& out, double d) {
  int c = std::fpclassify(d);
  if ((c == FP_NORMAL || c == FP_ZERO) && std::abs(d) < 1e10) {
    auto i = static_cast<int64_t>(d);
    if (static_cast<double>(i) == d) {
      if (i == 0 && std::signbit(d)) {
        out << "-0.";
        return;
      }
      out << i << ".";
      return;
    }
  }
  ClassicStringStream os;
  os.precision(std::numeric_limits<double>::max_digits10);
  os << d;
  out << os.str();
}

void print_quoted_string(std::ostream& out, std::string_view s) {
  out << '"';
  for (char ch : s) {
    switch (ch) {
      case '\\': out << "\\\\"; break;
      case '\'': out << "\\'"; break;
      case '"': out << "\\\""; break;
      case '\a': out << "\\a"; break;
      case '\b': out << "\\b"; break;
      case '\f': out << "\\f"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      case '\v': out << "\\v"; break;
      default: {
        auto u = static_cast<unsigned char>(ch);
        if (u >= 0x20 && u < 0x7f) {
          out << ch;
        } else {
          out << '\\' << static_cast<char>('0' + (u >> 6)) << static_cast<char>('0' + ((u >> 3) & 7))
              << static_cast<char>('0' + (u & 7));
        }
      }
    }
  }
  out << '"';
}

namespace {

void print_tensor(std::ostream& out, const Tensor& t) {
  // 1-element tensors are usually boxed scalars; torch prints them as {value}.
  if (t.numel() == 1) {
    Scalar s = t.item();
    out << "{";
    if (s.is_floating()) {
      out << s.to_double();  // ostream's default 6 digits, as torch
    } else if (s.is_complex()) {
      auto c = s.to_complex();
      out << "(" << c.real() << "," << c.imag() << ")";
    } else {
      out << s.to_int();
    }
    out << "}";
    return;
  }
  out << "<Tensor>";
}

// IValue::repr as torch prints attribute values (not Python's repr: 1. for floats,
// double-quoted strings).
void print_ivalue(std::ostream& out, const IValue& v) {
  switch (v.tag()) {
    case IValueTag::None: out << "None"; return;
    case IValueTag::Bool: out << (v.toBool() ? "True" : "False"); return;
    case IValueTag::Int: out << v.toInt(); return;
    case IValueTag::Double: print_double_literal(out, v.toDouble()); return;
    case IValueTag::String: print_quoted_string(out, v.toStringRef()); return;
    case IValueTag::Tensor: print_tensor(out, v.toTensor()); return;
    case IValueTag::Device: out << "device(type='" << v.toDevice().str() << "')"; return;
    case IValueTag::List: {
      const auto& l = v.listRef();
      if (l.elem_type && l.elem_type->kind() == TypeKind::Tensor) {
        out << "[<Tensors>]";
        return;
      }
      out << "[";
      for (size_t i = 0; i < l.elements.size(); ++i) {
        if (i) out << ", ";
        print_ivalue(out, l.elements[i]);
      }
      out << "]";
      return;
    }
    case IValueTag::Tuple: {
      const auto& t = v.tupleRef();
      out << "(";
      for (size_t i = 0; i < t.elements.size(); ++i) {
        if (i) out << ", ";
        print_ivalue(out, t.elements[i]);
      }
      out << (t.elements.size() == 1 ? ",)" : ")");
      return;
    }
    case IValueTag::Dict: {
      out << "{";
      bool first = true;
      for (const auto& [k, val] : v.dictRef().items()) {
        if (!first) out << ", ";
        first = false;
        print_ivalue(out, k);
        out << ": ";
        print_ivalue(out, val);
      }
      out << "}";
      return;
    }
    case IValueTag::Object: out << "object(" << static_cast<const void*>(&v.objectRef()) << ")"; return;
    case IValueTag::Enum: {
      auto e = v.toEnum();
      out << (e->type ? e->type->name() : std::string("Enum")) << "." << e->name;
      return;
    }
    case IValueTag::ComplexDouble:
    case IValueTag::Storage:
    case IValueTag::BigInt:
    case IValueTag::Bytes:
    case IValueTag::PyObject:
    case IValueTag::Future:
    case IValueTag::Uninitialized: out << v.repr(); return;
  }
}

template <typename T, typename F>
void print_list(std::ostream& out, const std::vector<T>& xs, F&& each) {
  out << "[";
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) out << ", ";
    each(xs[i]);
  }
  out << "]";
}

void print_attr_value(std::ostream& out, const Node& n, Symbol name) {
  switch (n.attribute_kind(name)) {
    case AttributeKind::f: print_double_literal(out, n.f(name)); return;
    case AttributeKind::fs: print_list(out, n.fs(name), [&](double d) { print_double_literal(out, d); }); return;
    case AttributeKind::c: {
      auto c = n.c(name);
      print_double_literal(out, c.real());
      out << (c.imag() < 0 ? "-" : "+");
      print_double_literal(out, std::abs(c.imag()));
      out << "j";
      return;
    }
    case AttributeKind::i: out << n.i(name); return;
    case AttributeKind::is: print_list(out, n.is(name), [&](int64_t x) { out << x; }); return;
    case AttributeKind::s: print_quoted_string(out, n.s(name)); return;
    case AttributeKind::ss: print_list(out, n.ss(name), [&](const std::string& s) { print_quoted_string(out, s); }); return;
    case AttributeKind::t: print_tensor(out, n.t(name)); return;
    case AttributeKind::ts: out << "[<Tensors>]"; return;
    case AttributeKind::g: out << "<Graph>"; return;
    case AttributeKind::gs: out << "[<Graphs>]"; return;
    case AttributeKind::ty: out << n.ty(name)->str(); return;
    case AttributeKind::tys: print_list(out, n.tys(name), [&](const TypePtr& t) { out << t->str(); }); return;
    case AttributeKind::ival: print_ivalue(out, n.ival(name)); return;
  }
}

}  // namespace

namespace {

const Symbol kSubgraph = sym::attr_Subgraph;

// torch's Node::print. A node holding a subgraph prints as kind_N when `groups`
// collects them; Graph::print then appends `with kind_N = graph(...)` sections.
void print_node(std::ostream& out, const Node& n, size_t level, std::vector<const Node*>* groups, bool locations) {
  indent(out, level);
  print_values_with_types(out, n.outputs());
  out << " = " << n.kind().qual_string();
  std::vector<Symbol> names = n.attribute_names();
  bool grouped = groups && n.has_attribute(kSubgraph);
  if (grouped) {
    out << "_" << groups->size();
    groups->push_back(&n);
    names.erase(std::remove(names.begin(), names.end(), kSubgraph), names.end());
  }
  // A traced node's scope prints after its inputs (`, scope: __module.conv1`).
  const bool scoped = n.has_attribute(sym::attr_scope);
  names.erase(std::remove(names.begin(), names.end(), sym::attr_scope), names.end());
  if (!names.empty()) {
    out << "[";
    for (size_t i = 0; i < names.size(); ++i) {
      out << (i ? ", " : "") << names[i].name() << "=";
      print_attr_value(out, n, names[i]);
    }
    out << "]";
  }
  out << "(";
  print_value_refs(out, n.inputs());
  out << ")";
  if (scoped) out << ", scope: " << n.s(sym::attr_scope);
  if (locations) {
    if (auto flc = n.source_range().file_line_col()) {
      out << " # " << std::get<0>(*flc) << ":" << std::get<1>(*flc) << ":" << std::get<2>(*flc);
    }
  }
  out << "\n";
  for (size_t i = 0; i < n.blocks().size(); ++i) {
    const Block* b = n.blocks()[i];
    indent(out, level + 1);
    out << "block" << i << "(";
    print_values_with_types(out, b->inputs());
    out << "):\n";
    // torch prints nodes inside blocks with their locations whatever the caller asked
    // (its Node::print recurses with the default), so graph.str(False) shows them.
    for (const Node* inner : b->nodes()) print_node(out, *inner, level + 2, groups, true);
    indent(out, level + 2);
    out << "-> (";
    print_value_refs(out, b->outputs());
    out << ")\n";
  }
}

}  // namespace

void Node::print(std::ostream& out, size_t level, bool print_source_locations) const {
  print_node(out, *this, level, nullptr, print_source_locations);
}

void Graph::print(std::ostream& out, bool print_source_locations) const {
  out << "graph(";
  print_values_with_types(out, inputs(), ",\n      ");
  out << "):\n";
  std::vector<const Node*> groups;
  for (const Node* n : nodes()) print_node(out, *n, 1, &groups, print_source_locations);
  out << "  return (";
  print_value_refs(out, outputs());
  out << ")\n";
  // torch prints subgraphs with operator<<, which always shows source locations.
  for (size_t i = 0; i < groups.size(); ++i) {
    out << "with " << groups[i]->kind().qual_string() << "_" << i << " = ";
    groups[i]->g(kSubgraph)->print(out, true);
  }
}

std::string Graph::str(bool print_source_locations) const {
  ClassicStringStream os;
  print(os, print_source_locations);
  return os.str();
}

std::ostream& operator<<(std::ostream& out, const Graph& g) {
  g.print(out, true);
  return out;
}

}  // namespace torchlet::jit
