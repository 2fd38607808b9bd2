// Tree construction with the depth bound, the kind table and the S-expression
// printer (see ast.h).
#include "jit/frontend/ast.h"

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "jit/frontend/error_report.h"

namespace torchlet::jit {

namespace {

struct TreeKindInfo {
  const char* name;
  const char* printed;
  TreeCategory category;
  const char* description;
};

constexpr TreeKindInfo kTreeKinds[] = {
#define TL_TREE(name, printed, category, description) {#name, printed, TreeCategory::category, description},
#include "jit/frontend/tree_kinds.def"
#undef TL_TREE
};

std::string quote_string(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out + "\"";
}

// %.17g round-trips every double; the ".0" keeps 1.0 distinct from the int 1.
std::string format_float(double v) {
  std::string s = fmt::format("{:.17g}", v);  // printf's, without the C locale's decimal point
  if (s.find_first_of(".eEna") == std::string::npos) s += ".0";
  return s;
}

class Printer {
 public:
  std::string out;

  void print(const Tree* t) {
    if (t == nullptr) {
      out += '_';
      return;
    }
    switch (t->kind()) {
      case TreeKind::Name: out += t->str(); return;
      case TreeKind::IntLiteral: out += std::to_string(t->int_value()); return;
      case TreeKind::FloatLiteral: out += format_float(t->float_value()); return;
      case TreeKind::ImagLiteral: out += format_float(t->float_value()) + "j"; return;
      case TreeKind::StringLiteral: out += quote_string(t->str()); return;
      case TreeKind::TrueLiteral:
      case TreeKind::FalseLiteral:
      case TreeKind::NoneLiteral:
      case TreeKind::EllipsisLiteral:
      case TreeKind::Break:
      case TreeKind::Continue:
      case TreeKind::Pass:
        return head_only(t);
      case TreeKind::Import:  // `(import a.b)`, or a binding: `(import a.b as n)`
        out += "(import " + t->str() + (t->size() ? " as " + t->child(0)->str() : "") + ")";
        return;
      case TreeKind::Operator: out += token_kind_spelling(t->op()); return;
      case TreeKind::UnaryOp:
      case TreeKind::BinOp:
      case TreeKind::BoolOp:
        return node(token_kind_spelling(t->op()), *t);
      case TreeKind::AugAssign: return node(std::string(token_kind_spelling(t->op())) + "=", *t);
      case TreeKind::Call: return call(*t);
      case TreeKind::Subscript: return subscript(*t);
      case TreeKind::DictLiteral: return dict(*t);
      case TreeKind::ListComp: return comprehension(*t, 1);
      case TreeKind::DictComp: return comprehension(*t, 2);
      case TreeKind::Comprehension: return generator(*t);
      case TreeKind::Assign: return assign(*t);
      case TreeKind::Param: return node(t->int_value() ? "param*" : "param", *t);
      case TreeKind::Def: return def(*t);
      case TreeKind::ClassDef: return class_def(*t);
      case TreeKind::List: return sequence(*t);
      case TreeKind::Attribute:
      case TreeKind::Slice:
      case TreeKind::Starred:
      case TreeKind::ListLiteral:
      case TreeKind::TupleLiteral:
      case TreeKind::Compare:
      case TreeKind::IfExp:
      case TreeKind::Keyword:
      case TreeKind::FuncTypeComment:
      case TreeKind::ExprStmt:
      case TreeKind::AnnAssign:
      case TreeKind::If:
      case TreeKind::While:
      case TreeKind::For:
      case TreeKind::With:
      case TreeKind::WithItem:
      case TreeKind::Return:
      case TreeKind::Raise:
      case TreeKind::Assert:
      case TreeKind::Delete:
        return node(tree_kind_printed(t->kind()), *t);
    }
  }

 private:
  void head_only(const Tree* t) {
    if (t->is_stmt()) {
      out += '(';
      out += tree_kind_printed(t->kind());
      out += ')';
      return;
    }
    out += tree_kind_printed(t->kind());
  }
  void node(std::string_view head, const Tree& t) {
    out += '(';
    out += head;
    for (size_t i = 0; i < t.size(); ++i) {
      out += ' ';
      print(t.child(i));
    }
    out += ')';
  }
  void items(const Tree& list) {
    for (const TreeRef& c : list.children()) {
      out += ' ';
      print(c.get());
    }
  }
  void sequence(const Tree& t) {
    out += '(';
    for (size_t i = 0; i < t.size(); ++i) {
      if (i) out += ' ';
      print(t.child(i));
    }
    out += ')';
  }
  void call(const Tree& t) {
    out += "(call ";
    print(t.child(0));
    items(*t.child(1));
    items(*t.child(2));
    out += ')';
  }
  void subscript(const Tree& t) {
    out += "(sub ";
    print(t.child(0));
    items(*t.child(1));
    out += ')';
  }
  void dict(const Tree& t) {
    DictLiteralView d(t);
    out += "(dict";
    for (size_t i = 0; i < d.keys().size(); ++i) {
      out += ' ';
      print(d.keys()[i].get());
      out += ' ';
      print(d.values()[i].get());
    }
    out += ')';
  }
  void comprehension(const Tree& t, size_t parts) {
    out += '(';
    out += tree_kind_printed(t.kind());
    for (size_t i = 0; i < parts; ++i) {
      out += ' ';
      print(t.child(i));
    }
    items(*t.child(parts));
    out += ')';
  }
  void generator(const Tree& t) {
    out += "(gen ";
    print(t.child(0));
    out += ' ';
    print(t.child(1));
    items(*t.child(2));
    out += ')';
  }
  void assign(const Tree& t) {
    out += "(=";
    items(*t.child(0));
    out += ' ';
    print(t.child(1));
    out += ')';
  }
  void decorators(const Tree& list) {
    if (list.size() == 0) return;
    out += " (@";
    items(list);
    out += ')';
  }
  void def(const Tree& t) {
    out += "(def ";
    for (size_t i = 0; i < 4; ++i) {
      if (i) out += ' ';
      print(t.child(i));
    }
    decorators(*t.child(4));
    if (t.child(5) != nullptr) {
      out += ' ';
      print(t.child(5));
    }
    out += ')';
  }
  void class_def(const Tree& t) {
    out += "(class ";
    for (size_t i = 0; i < 3; ++i) {
      if (i) out += ' ';
      print(t.child(i));
    }
    decorators(*t.child(3));
    out += ')';
  }
};

}  // namespace

const char* tree_kind_name(TreeKind kind) { return kTreeKinds[static_cast<size_t>(kind)].name; }
const char* tree_kind_printed(TreeKind kind) { return kTreeKinds[static_cast<size_t>(kind)].printed; }
TreeCategory tree_kind_category(TreeKind kind) { return kTreeKinds[static_cast<size_t>(kind)].category; }
const char* tree_kind_description(TreeKind kind) { return kTreeKinds[static_cast<size_t>(kind)].description; }
size_t tree_kind_count() { return std::size(kTreeKinds); }

TreeRef Tree::make(TreeKind kind, SourceRange range, std::vector<TreeRef> children, TreePayload payload) {
  size_t depth = 1;
  for (const TreeRef& c : children) {
    if (c) depth = std::max(depth, c->depth() + 1);
  }
  if (depth > kMaxTreeDepth) {
    throw_limit_error(range, fmt::format("expression or statement nested too deeply (more than {} tree levels)",
                                         kMaxTreeDepth));
  }
  return std::make_shared<const Tree>(kind, std::move(range), std::move(children), std::move(payload), depth);
}

TreeRef Tree::name(SourceRange range, std::string identifier) {
  TreePayload p;
  p.str = std::move(identifier);
  return make(TreeKind::Name, std::move(range), {}, std::move(p));
}

TreeRef Tree::list(SourceRange range, std::vector<TreeRef> items) {
  return make(TreeKind::List, std::move(range), std::move(items));
}

const Tree* Tree::child(size_t i) const {
  TL_INTERNAL_ASSERT(i < children_.size(), fmt::format("{} has no child {}", tree_kind_name(kind_), i));
  return children_[i].get();
}

#define TL_TREE_VIEW_CHECK(View)                                                                   \
  void View::check(TreeKind k) const {                                                             \
    TL_INTERNAL_ASSERT(tree_.kind() == k, fmt::format("{} built over a {} node", #View,            \
                                                      tree_kind_name(tree_.kind())));              \
  }
TL_TREE_VIEW_CHECK(AttributeView)
TL_TREE_VIEW_CHECK(CallView)
TL_TREE_VIEW_CHECK(KeywordView)
TL_TREE_VIEW_CHECK(SubscriptView)
TL_TREE_VIEW_CHECK(SliceView)
TL_TREE_VIEW_CHECK(DictLiteralView)
TL_TREE_VIEW_CHECK(ComprehensionView)
TL_TREE_VIEW_CHECK(ListCompView)
TL_TREE_VIEW_CHECK(DictCompView)
TL_TREE_VIEW_CHECK(CompareView)
TL_TREE_VIEW_CHECK(IfExpView)
TL_TREE_VIEW_CHECK(AssignView)
TL_TREE_VIEW_CHECK(AnnAssignView)
TL_TREE_VIEW_CHECK(AugAssignView)
TL_TREE_VIEW_CHECK(IfView)
TL_TREE_VIEW_CHECK(WhileView)
TL_TREE_VIEW_CHECK(ForView)
TL_TREE_VIEW_CHECK(WithItemView)
TL_TREE_VIEW_CHECK(WithView)
TL_TREE_VIEW_CHECK(ParamView)
TL_TREE_VIEW_CHECK(FuncTypeCommentView)
TL_TREE_VIEW_CHECK(DefView)
TL_TREE_VIEW_CHECK(ClassDefView)
#undef TL_TREE_VIEW_CHECK

namespace {

// One check per kind (lint_tree); each child is checked by what may stand there.
class Linter {
 public:
  void check(const Tree& t) {
    switch (t.kind()) {
      case TreeKind::Name: return leaf(t, !t.str().empty());
      case TreeKind::IntLiteral:
      case TreeKind::FloatLiteral:
      case TreeKind::ImagLiteral:
        return leaf(t, !t.str().empty());
      case TreeKind::StringLiteral:
      case TreeKind::TrueLiteral:
      case TreeKind::FalseLiteral:
      case TreeKind::NoneLiteral:
      case TreeKind::EllipsisLiteral:
      case TreeKind::Break:
      case TreeKind::Continue:
      case TreeKind::Pass:
        return leaf(t, true);
      case TreeKind::Import:
        require(t, !t.str().empty(), "no payload");
        return t.size() == 0 ? void() : (shape(t, 1), name(t, 0));
      case TreeKind::Operator: return leaf(t, t.op() != TokenKind::Eof);
      case TreeKind::Attribute: return shape(t, 2), expr(t, 0), name(t, 1);
      case TreeKind::Call: return shape(t, 3), expr(t, 0), exprs(t, 1), list(t, 2, TreeKind::Keyword);
      case TreeKind::Subscript: return shape(t, 2), expr(t, 0), exprs(t, 1, true);
      case TreeKind::Slice: return shape(t, 3), opt_expr(t, 0), opt_expr(t, 1), opt_expr(t, 2);
      case TreeKind::Starred: return shape(t, 1), expr(t, 0);
      case TreeKind::ListLiteral:
      case TreeKind::TupleLiteral:
      case TreeKind::Delete:
        return all_exprs(t);
      case TreeKind::DictLiteral: return dict(t);
      case TreeKind::ListComp: return shape(t, 2), expr(t, 0), list(t, 1, TreeKind::Comprehension, true);
      case TreeKind::DictComp: return shape(t, 3), expr(t, 0), expr(t, 1), list(t, 2, TreeKind::Comprehension, true);
      case TreeKind::UnaryOp: return shape(t, 1), expr(t, 0), has_op(t);
      case TreeKind::BinOp:
      case TreeKind::BoolOp:
      case TreeKind::AugAssign:
        return shape(t, 2), expr(t, 0), expr(t, 1), has_op(t);
      case TreeKind::Compare: return compare(t);
      case TreeKind::IfExp: return shape(t, 3), expr(t, 0), expr(t, 1), expr(t, 2);
      case TreeKind::List:
        for (size_t i = 0; i < t.size(); ++i) require(t, t.child(i) != nullptr, "a null item"), check(*t.child(i));
        return;
      case TreeKind::Keyword: return shape(t, 2), name(t, 0), expr(t, 1);
      case TreeKind::Comprehension: return shape(t, 3), expr(t, 0), expr(t, 1), exprs(t, 2);
      case TreeKind::Param: return shape(t, 3), name(t, 0), opt_expr(t, 1), opt_expr(t, 2);
      case TreeKind::FuncTypeComment: return shape(t, 2), exprs(t, 0), expr(t, 1);
      case TreeKind::ExprStmt: return shape(t, 1), expr(t, 0);
      case TreeKind::Assign: return shape(t, 2), exprs(t, 0, true), expr(t, 1);
      case TreeKind::AnnAssign: return shape(t, 3), expr(t, 0), expr(t, 1), opt_expr(t, 2);
      case TreeKind::If: return shape(t, 3), expr(t, 0), stmts(t, 1, true), stmts(t, 2, false);
      case TreeKind::While: return shape(t, 2), expr(t, 0), stmts(t, 1, true);
      case TreeKind::For: return shape(t, 3), expr(t, 0), expr(t, 1), stmts(t, 2, true);
      case TreeKind::With: return shape(t, 2), list(t, 0, TreeKind::WithItem, true), stmts(t, 1, true);
      case TreeKind::WithItem: return shape(t, 2), expr(t, 0), opt_expr(t, 1);
      case TreeKind::Return:
      case TreeKind::Raise:
        return shape(t, 1), opt_expr(t, 0);
      case TreeKind::Assert: return shape(t, 2), expr(t, 0), opt_expr(t, 1);
      case TreeKind::Def: return def(t);
      case TreeKind::ClassDef:
        return shape(t, 4), name(t, 0), exprs(t, 1), stmts(t, 2, true), exprs(t, 3);
    }
  }

 private:
  static void require(const Tree& t, bool ok, std::string_view what) {
    TL_INTERNAL_ASSERT(ok, fmt::format("{} node has {}", tree_kind_name(t.kind()), what));
  }
  void leaf(const Tree& t, bool payload_ok) {
    require(t, t.size() == 0, "children");
    require(t, payload_ok, "no payload");
  }
  void shape(const Tree& t, size_t n) { require(t, t.size() == n, fmt::format("{} children, not {}", t.size(), n)); }
  void has_op(const Tree& t) { require(t, t.op() != TokenKind::Eof, "no operator"); }
  void expr(const Tree& t, size_t i) {
    const Tree* c = t.child(i);
    require(t, c != nullptr && c->is_expr(), fmt::format("child {} that is not an expression", i));
    check(*c);
  }
  void opt_expr(const Tree& t, size_t i) {
    if (t.child(i) != nullptr) expr(t, i);
  }
  void name(const Tree& t, size_t i) {
    const Tree* c = t.child(i);
    require(t, c != nullptr && c->kind() == TreeKind::Name, fmt::format("child {} that is not a Name", i));
  }
  void all_exprs(const Tree& t) {
    for (size_t i = 0; i < t.size(); ++i) expr(t, i);
  }
  // Child i is a List whose items are expressions (and not empty when required).
  void exprs(const Tree& t, size_t i, bool non_empty = false) {
    const Tree* l = t.child(i);
    require(t, l != nullptr && l->kind() == TreeKind::List, fmt::format("child {} that is not a List", i));
    require(t, !non_empty || l->size() > 0, fmt::format("an empty list as child {}", i));
    all_exprs(*l);
  }
  void list(const Tree& t, size_t i, TreeKind item, bool non_empty = false) {
    const Tree* l = t.child(i);
    require(t, l != nullptr && l->kind() == TreeKind::List, fmt::format("child {} that is not a List", i));
    require(t, !non_empty || l->size() > 0, fmt::format("an empty list as child {}", i));
    for (size_t j = 0; j < l->size(); ++j) {
      require(t, l->child(j) != nullptr && l->child(j)->kind() == item,
              fmt::format("an item of child {} that is not a {}", i, tree_kind_name(item)));
      check(*l->child(j));
    }
  }
  void stmts(const Tree& t, size_t i, bool non_empty) {
    const Tree* l = t.child(i);
    require(t, l != nullptr && l->kind() == TreeKind::List, fmt::format("child {} that is not a List", i));
    require(t, !non_empty || l->size() > 0, "an empty block");
    for (size_t j = 0; j < l->size(); ++j) {
      require(t, l->child(j) != nullptr && l->child(j)->is_stmt(), "a block item that is not a statement");
      check(*l->child(j));
    }
  }
  void dict(const Tree& t) {
    shape(t, 2);
    exprs(t, 0);
    exprs(t, 1);
    require(t, t.child(0)->size() == t.child(1)->size(), "different numbers of keys and values");
  }
  void compare(const Tree& t) {
    require(t, t.size() >= 3 && t.size() % 2 == 1, "an operand/operator count that is not 1 + 2n");
    for (size_t i = 0; i < t.size(); ++i) {
      if (i % 2 == 0) {
        expr(t, i);
        continue;
      }
      require(t, t.child(i) != nullptr && t.child(i)->kind() == TreeKind::Operator, "an operator slot without an Operator");
      check(*t.child(i));
    }
  }
  void def(const Tree& t) {
    shape(t, 6);
    name(t, 0);
    list(t, 1, TreeKind::Param);
    opt_expr(t, 2);
    stmts(t, 3, true);
    exprs(t, 4);
    const Tree* tc = t.child(5);
    if (tc == nullptr) return;
    require(t, tc->kind() == TreeKind::FuncTypeComment, "a type comment slot without a FuncTypeComment");
    check(*tc);
  }
};

}  // namespace

void lint_tree(const Tree& tree) { Linter().check(tree); }

std::string to_sexpr(const Tree& tree) {
  Printer p;
  p.print(&tree);
  return std::move(p.out);
}

std::string to_sexpr(const ParsedFile& file) {
  std::string out;
  for (const TreeRef& s : file.statements) {
    out += to_sexpr(*s);
    out += '\n';
  }
  return out;
}

}  // namespace torchlet::jit
