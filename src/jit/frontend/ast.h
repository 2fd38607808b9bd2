// The TorchScript syntax tree: immutable nodes of a closed set of kinds
// (tree_kinds.def), each with its SourceRange, built by the parser and read by the
// compiler. Type annotations stay expressions (`List[int]` is a Subscript), as in torch,
// so the compiler resolves them in its own scope. This file owns the node, the views
// that name a compound node's children, and the S-expression printer used by tests; it
// knows nothing about types or graphs.
//
// Ranges: an expression's range is its whole text (parentheses included); a compound
// statement's (if, while, for, def, class) is its header up to the colon, so a
// highlight stays short; the statements of its body carry their own ranges.
//
// Ownership: a Tree owns its children through shared_ptr<const Tree> (TreeRef), so
// the compiler can share subtrees when it desugars; trees are never mutated after
// construction. Depth is bounded at construction (kMaxTreeDepth), so every recursive
// walk over a tree (printer, compiler, destructor) has a known stack bound.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jit/frontend/lexer.h"
#include "jit/ir/source_range.h"

namespace torchlet::jit {

enum class TreeKind : uint8_t {
#define TL_TREE(name, printed, category, description) name,
#include "jit/frontend/tree_kinds.def"
#undef TL_TREE
};

enum class TreeCategory : uint8_t { Expr, Stmt, Aux };

const char* tree_kind_name(TreeKind kind);  // the row's name, "IfExp"
const char* tree_kind_printed(TreeKind kind);  // the S-expression head, "ifexp"
TreeCategory tree_kind_category(TreeKind kind);
const char* tree_kind_description(TreeKind kind);  // for messages, "function call"
size_t tree_kind_count();

// Deepest tree the parser builds. Parenthesised and block nesting is limited sooner
// by the parser (kMaxNestingDepth); this bound also covers long left-nested chains
// such as `a + a + ... + a`, which the parser builds without recursing but which every
// later recursive walk would descend.
inline constexpr size_t kMaxTreeDepth = 1000;

class Tree;
using TreeRef = std::shared_ptr<const Tree>;

// The scalar payload of leaves and operator nodes (see tree_kinds.def per kind).
struct TreePayload {
  std::string str;
  int64_t int_value = 0;
  double float_value = 0;
  TokenKind op = TokenKind::Eof;
};

class Tree {
 public:
  // Builds a node; children may be null where the kind allows an absent part.
  // Throws LimitError (with the range highlighted) past kMaxTreeDepth.
  static TreeRef make(TreeKind kind, SourceRange range, std::vector<TreeRef> children = {},
                      TreePayload payload = {});
  // A Name leaf.
  static TreeRef name(SourceRange range, std::string identifier);
  // A List node (the Aux sequence kind).
  static TreeRef list(SourceRange range, std::vector<TreeRef> items);

  TreeKind kind() const { return kind_; }
  const SourceRange& range() const { return range_; }
  const std::vector<TreeRef>& children() const { return children_; }
  size_t size() const { return children_.size(); }
  // Child i, or nullptr when that optional part is absent.
  const Tree* child(size_t i) const;
  const std::string& str() const { return payload_.str; }
  int64_t int_value() const { return payload_.int_value; }
  double float_value() const { return payload_.float_value; }
  TokenKind op() const { return payload_.op; }
  size_t depth() const { return depth_; }
  bool is_expr() const { return tree_kind_category(kind_) == TreeCategory::Expr; }
  bool is_stmt() const { return tree_kind_category(kind_) == TreeCategory::Stmt; }

  Tree(TreeKind kind, SourceRange range, std::vector<TreeRef> children, TreePayload payload, size_t depth)
      : kind_(kind), range_(std::move(range)), children_(std::move(children)), payload_(std::move(payload)),
        depth_(depth) {}

 private:
  TreeKind kind_;
  SourceRange range_;
  std::vector<TreeRef> children_;
  TreePayload payload_;
  size_t depth_;
};

// A parsed file: its top-level statements in order (defs, classes, assignments such
// as `op_version_set = 1`, imports), and the source they point into.
struct ParsedFile {
  std::shared_ptr<const Source> source;
  std::vector<TreeRef> statements;
};

// --- views: named accessors over a node's children (layouts in tree_kinds.def) ----
// A view borrows the tree; construct it only from a node of its kind (checked).

#define TL_TREE_VIEW_BEGIN(View, Kind)                                   \
  class View {                                                           \
   public:                                                               \
    explicit View(const Tree& tree) : tree_(tree) { check(TreeKind::Kind); } \
    const Tree& tree() const { return tree_; }                           \
    const SourceRange& range() const { return tree_.range(); }           \
                                                                         \
   private:                                                              \
    void check(TreeKind k) const;                                        \
    const Tree& tree_;                                                   \
                                                                         \
   public:

TL_TREE_VIEW_BEGIN(AttributeView, Attribute)
  const Tree& value() const { return *tree_.child(0); }
  const std::string& name() const { return tree_.child(1)->str(); }
  const Tree& name_tree() const { return *tree_.child(1); }
};

TL_TREE_VIEW_BEGIN(CallView, Call)
  const Tree& callee() const { return *tree_.child(0); }
  const std::vector<TreeRef>& args() const { return tree_.child(1)->children(); }
  const std::vector<TreeRef>& keywords() const { return tree_.child(2)->children(); }
};

TL_TREE_VIEW_BEGIN(KeywordView, Keyword)
  const std::string& name() const { return tree_.child(0)->str(); }
  const Tree& value() const { return *tree_.child(1); }
};

TL_TREE_VIEW_BEGIN(SubscriptView, Subscript)
  const Tree& value() const { return *tree_.child(0); }
  const std::vector<TreeRef>& items() const { return tree_.child(1)->children(); }
};

TL_TREE_VIEW_BEGIN(SliceView, Slice)
  const Tree* start() const { return tree_.child(0); }
  const Tree* stop() const { return tree_.child(1); }
  const Tree* step() const { return tree_.child(2); }
};

TL_TREE_VIEW_BEGIN(DictLiteralView, DictLiteral)
  const std::vector<TreeRef>& keys() const { return tree_.child(0)->children(); }
  const std::vector<TreeRef>& values() const { return tree_.child(1)->children(); }
};

TL_TREE_VIEW_BEGIN(ComprehensionView, Comprehension)
  const Tree& target() const { return *tree_.child(0); }
  const Tree& iterable() const { return *tree_.child(1); }
  const std::vector<TreeRef>& conditions() const { return tree_.child(2)->children(); }
};

TL_TREE_VIEW_BEGIN(ListCompView, ListComp)
  const Tree& element() const { return *tree_.child(0); }
  const std::vector<TreeRef>& generators() const { return tree_.child(1)->children(); }
};

TL_TREE_VIEW_BEGIN(DictCompView, DictComp)
  const Tree& key() const { return *tree_.child(0); }
  const Tree& value() const { return *tree_.child(1); }
  const std::vector<TreeRef>& generators() const { return tree_.child(2)->children(); }
};

TL_TREE_VIEW_BEGIN(CompareView, Compare)
  size_t num_comparisons() const { return tree_.size() / 2; }
  const Tree& operand(size_t i) const { return *tree_.child(2 * i); }
  TokenKind op(size_t i) const { return tree_.child(2 * i + 1)->op(); }
  const Tree& op_tree(size_t i) const { return *tree_.child(2 * i + 1); }
};

TL_TREE_VIEW_BEGIN(IfExpView, IfExp)
  const Tree& condition() const { return *tree_.child(0); }
  const Tree& true_value() const { return *tree_.child(1); }
  const Tree& false_value() const { return *tree_.child(2); }
};

TL_TREE_VIEW_BEGIN(AssignView, Assign)
  const std::vector<TreeRef>& targets() const { return tree_.child(0)->children(); }
  const Tree& value() const { return *tree_.child(1); }
};

TL_TREE_VIEW_BEGIN(AnnAssignView, AnnAssign)
  const Tree& target() const { return *tree_.child(0); }
  const Tree& annotation() const { return *tree_.child(1); }
  const Tree* value() const { return tree_.child(2); }
};

TL_TREE_VIEW_BEGIN(AugAssignView, AugAssign)
  const Tree& target() const { return *tree_.child(0); }
  const Tree& value() const { return *tree_.child(1); }
  TokenKind op() const { return tree_.op(); }
};

TL_TREE_VIEW_BEGIN(IfView, If)
  const Tree& condition() const { return *tree_.child(0); }
  const std::vector<TreeRef>& then_body() const { return tree_.child(1)->children(); }
  const std::vector<TreeRef>& else_body() const { return tree_.child(2)->children(); }
};

TL_TREE_VIEW_BEGIN(WhileView, While)
  const Tree& condition() const { return *tree_.child(0); }
  const std::vector<TreeRef>& body() const { return tree_.child(1)->children(); }
};

TL_TREE_VIEW_BEGIN(ForView, For)
  const Tree& target() const { return *tree_.child(0); }
  const Tree& iterable() const { return *tree_.child(1); }
  const std::vector<TreeRef>& body() const { return tree_.child(2)->children(); }
};

TL_TREE_VIEW_BEGIN(WithItemView, WithItem)
  const Tree& manager() const { return *tree_.child(0); }
  const Tree* target() const { return tree_.child(1); }
};

TL_TREE_VIEW_BEGIN(WithView, With)
  const std::vector<TreeRef>& items() const { return tree_.child(0)->children(); }
  const std::vector<TreeRef>& body() const { return tree_.child(1)->children(); }
};

TL_TREE_VIEW_BEGIN(ParamView, Param)
  const std::string& name() const { return tree_.child(0)->str(); }
  const Tree* annotation() const { return tree_.child(1); }
  const Tree* default_value() const { return tree_.child(2); }
  bool keyword_only() const { return tree_.int_value() != 0; }
};

TL_TREE_VIEW_BEGIN(FuncTypeCommentView, FuncTypeComment)
  const std::vector<TreeRef>& arg_types() const { return tree_.child(0)->children(); }
  const Tree& return_type() const { return *tree_.child(1); }
};

TL_TREE_VIEW_BEGIN(DefView, Def)
  const std::string& name() const { return tree_.child(0)->str(); }
  const Tree& name_tree() const { return *tree_.child(0); }
  const std::vector<TreeRef>& params() const { return tree_.child(1)->children(); }
  const Tree* return_annotation() const { return tree_.child(2); }
  const std::vector<TreeRef>& body() const { return tree_.child(3)->children(); }
  const std::vector<TreeRef>& decorators() const { return tree_.child(4)->children(); }
  const Tree* type_comment() const { return tree_.child(5); }
};

TL_TREE_VIEW_BEGIN(ClassDefView, ClassDef)
  const std::string& name() const { return tree_.child(0)->str(); }
  const std::vector<TreeRef>& bases() const { return tree_.child(1)->children(); }
  const std::vector<TreeRef>& body() const { return tree_.child(2)->children(); }
  const std::vector<TreeRef>& decorators() const { return tree_.child(3)->children(); }
};

#undef TL_TREE_VIEW_BEGIN

// --- printing ------------------------------------------------------------------------

// The tree as one S-expression, e.g. `a + b * -c` -> `(+ a (* b (- c)))`:
//   names bare; ints in decimal; floats as %.17g (with ".0" if that reads as an int),
//   imaginary ones with a `j`; strings double-quoted with `"`, `\` and bytes outside
//   printable ASCII as \xNN; True/False/None/...; an absent optional child is `_`;
//   (. value attr) (call f args... (kw name value)...) (sub value items...)
//   (slice a b c) (* x) (list ...) (tuple ...) (dict k v k v ...)
//   (listcomp elt (gen target iter conds...)...) (dictcomp k v (gen ...)...)
//   (OP x) for unary -, +, ~, not; (OP a b) for binary and `and`/`or`;
//   (compare a < b not in c) (ifexp test body orelse)
//   statements: (expr x) (= targets... value) (annassign t ann v) (+= t v) (if c (then...) (else...))
//   (while c (body...)) (for t it (body...)) (break) (continue) (pass) (return v) (raise e)
//   (assert t msg) (del t...) (import a.b) (def name (params...) ret (body...) [(@ decorators...)]
//   [(type-comment (args...) ret)]) with (param name ann default) or (param* ...) if
//   keyword-only; (class name (bases...) (body...) [(@ decorators...)]).
std::string to_sexpr(const Tree& tree);
// Every statement of a file on its own line.
std::string to_sexpr(const ParsedFile& file);

// Checks that a tree has the layout tree_kinds.def promises for every node below it
// (child counts, which children may be null, what kind of node each child and list
// item is), so the views above are safe on anything the parser builds. A violation is
// a torchlet bug: InternalError naming the node. The fuzz target runs it on every tree.
void lint_tree(const Tree& tree);

}  // namespace torchlet::jit
