// Import aliases spelled out before compilation (see module_aliases.h).
#include "jit/frontend/module_aliases.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/ascii.h"

namespace torchlet::jit {

namespace {

// The modules torchlet's compiler knows by name: an alias of one stands for it.
constexpr std::array<std::string_view, 8> kModules = {
    "torch", "math", "torch.nn", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special", "torch.jit"};
// Modules whose members import as functions (`from torch.nn.functional import relu`).
constexpr std::array<std::string_view, 6> kFunctionModules = {
    "torch", "math", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special"};
// Members left alone: math's constants are Python floats, which torch refuses to close
// over ("python value of type 'float' cannot be used as a value"); the types the
// compiler already knows by their bare names (`from torch import Tensor`) resolve there.
constexpr std::array<std::string_view, 9> kNotResolved = {
    "math.pi", "math.e", "math.inf", "math.nan", "math.tau", "torch.Tensor", "torch.device", "torch.dtype",
    "torch.Generator"};

template <size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

bool resolvable(const std::string& target) {
  if (contains(kModules, target)) return true;
  const size_t dot = target.rfind('.');
  return dot != std::string::npos && contains(kFunctionModules, std::string_view(target).substr(0, dot)) &&
         !contains(kNotResolved, target);
}

using Aliases = std::unordered_map<std::string, std::string>;
// How many times each name is bound.
using Bindings = std::unordered_map<std::string, size_t>;

// The names a target expression binds: `a`, `a, (b, *c)`; not `a.b` or `a[0]`.
void add_target_names(const Tree* t, Bindings& out) {
  if (t == nullptr) return;
  switch (t->kind()) {
    case TreeKind::Name: ++out[t->str()]; return;
    case TreeKind::TupleLiteral:
    case TreeKind::ListLiteral:
    case TreeKind::Starred:
      for (const auto& c : t->children()) add_target_names(c.get(), out);
      return;
    default: return;
  }
}

// Every name bound anywhere in a definition (nested ones included, which only makes the
// rewrite more cautious): Python makes such a name local to the whole function.
void add_bound_names(const Tree* t, Bindings& out) {
  if (t == nullptr) return;
  switch (t->kind()) {
    case TreeKind::Param:
    case TreeKind::Def:
    case TreeKind::ClassDef: ++out[t->child(0)->str()]; break;
    case TreeKind::Assign:
      for (const auto& target : t->child(0)->children()) add_target_names(target.get(), out);
      break;
    case TreeKind::AnnAssign:
    case TreeKind::AugAssign:
    case TreeKind::For:
    case TreeKind::Comprehension: add_target_names(t->child(0), out); break;
    case TreeKind::WithItem: add_target_names(t->child(1), out); break;
    case TreeKind::Delete:
      for (const auto& c : t->children()) add_target_names(c.get(), out);
      break;
    case TreeKind::Import:
      if (t->size()) ++out[t->child(0)->str()];
      break;
    default: break;
  }
  for (const auto& c : t->children()) add_bound_names(c.get(), out);
}

bool identifier_text(std::string_view s) {
  return !s.empty() && !ascii_digit(s[0]) && std::all_of(s.begin(), s.end(), ascii_word);
}

// "a.b.c" for a Name/Attribute chain, else "".
std::string dotted(const Tree& t) {
  if (t.kind() == TreeKind::Name) return t.str();
  if (t.kind() != TreeKind::Attribute) return "";
  const std::string base = dotted(*t.child(0));
  return base.empty() ? "" : base + "." + t.child(1)->str();
}

class Rewriter {
 public:
  explicit Rewriter(const Aliases& aliases) : aliases_(aliases) {}

  TreeRef rewrite(const TreeRef& t) {
    if (!t) return t;
    if (t->kind() == TreeKind::Name) {
      if (auto l = local_aliases_.find(t->str()); l != local_aliases_.end())
        return t->range().start() >= l->second.from ? spelled(l->second.target, t->range()) : t;
      auto it = aliases_.find(t->str());
      return it == aliases_.end() || locals_.count(t->str()) ? t : spelled(it->second, t->range());
    }
    if (dropped_.count(t.get())) return Tree::make(TreeKind::Pass, t->range());
    if (t->kind() == TreeKind::Def && !in_def_) {
      in_def_ = true;
      add_bound_names(t.get(), locals_);
      find_module_bindings(*t);
      TreeRef out = rebuild(t);
      locals_.clear();
      local_aliases_.clear();
      dropped_.clear();
      in_def_ = false;
      return out;
    }
    return rebuild(t);
  }

 private:
  // Children that name rather than use a name: a def's or class's own name, a
  // parameter's, an attribute's, a keyword argument's, an import's binding.
  static bool naming_child(const Tree& t, size_t i) {
    switch (t.kind()) {
      case TreeKind::Def:
      case TreeKind::ClassDef:
      case TreeKind::Param:
      case TreeKind::Keyword:
      case TreeKind::Import: return i == 0;
      case TreeKind::Attribute: return i == 1;
      default: return false;
    }
  }

  TreeRef rebuild(const TreeRef& t) {
    std::vector<TreeRef> children;
    bool changed = false;
    for (size_t i = 0; i < t->size(); ++i) {
      const TreeRef& c = t->children()[i];
      children.push_back(naming_child(*t, i) ? c : rewrite(c));
      changed |= children.back() != c;
    }
    if (!changed) return t;
    TreePayload payload{t->str(), t->int_value(), t->float_value(), t->op()};
    return Tree::make(t->kind(), t->range(), std::move(children), std::move(payload));
  }

  // `torch.nn.functional` as Name and Attribute nodes, all at the alias's range.
  static TreeRef spelled(const std::string& dotted, const SourceRange& range) {
    size_t dot = dotted.find('.');
    TreeRef t = Tree::name(range, dotted.substr(0, dot));
    while (dot != std::string::npos) {
      const size_t next = dotted.find('.', dot + 1);
      t = Tree::make(TreeKind::Attribute, range, {t, Tree::name(range, dotted.substr(dot + 1, next - dot - 1))});
      dot = next;
    }
    return t;
  }

  // `F = torch.nn.functional` as a statement of the definition's body, F bound nowhere
  // else in it: F names the module from there on (torch keeps a module as a sugared
  // value, never a graph value), so the statement goes and later uses are spelled out.
  // Uses before it stay as written: in Python they are unbound.
  void find_module_bindings(const Tree& def) {
    for (const auto& st : def.child(3)->children()) {
      if (st->kind() != TreeKind::Assign || st->child(0)->size() != 1) continue;
      const Tree& target = *st->child(0)->children()[0];
      if (target.kind() != TreeKind::Name || locals_[target.str()] != 1) continue;
      std::string module = dotted(*st->child(1));
      const std::string root = module.substr(0, module.find('.'));
      if (auto a = aliases_.find(root); a != aliases_.end() && !locals_.count(root))
        module = a->second + module.substr(root.size());
      if (!contains(kModules, module)) continue;
      local_aliases_[target.str()] = {module, st->range().end()};
      dropped_.insert(st.get());
    }
  }

  struct LocalAlias {
    std::string target;
    size_t from;  // the source offset uses start to mean the module
  };
  const Aliases& aliases_;
  Bindings locals_;
  std::unordered_map<std::string, LocalAlias> local_aliases_;
  std::unordered_set<const Tree*> dropped_;
  bool in_def_ = false;
};

// A spelled-out alias is the one Name/Attribute chain whose range is a single
// identifier that is not its own spelling (`torch.nn` over the text `nn`).
void collect_spelled(const Tree& t, std::vector<std::pair<const Tree*, std::string>>& out) {
  if (t.kind() == TreeKind::Name || t.kind() == TreeKind::Attribute) {
    const std::string_view text = t.range().text();
    if (std::string full = dotted(t); !full.empty() && identifier_text(text) && full != text) {
      out.emplace_back(&t, std::move(full));
      return;
    }
  }
  for (const auto& c : t.children())
    if (c) collect_spelled(*c, out);
}

}  // namespace

std::string annotation_source(const Tree& annotation) {
  std::vector<std::pair<const Tree*, std::string>> spelled;
  collect_spelled(annotation, spelled);
  const SourceRange& whole = annotation.range();
  const std::string_view text = whole.text();
  // Each spelled name lies inside the annotation's text, left to right (the walk's
  // order); a tree the compiler built with ranges elsewhere keeps its own text.
  size_t at = whole.start();
  for (const auto& [t, full] : spelled) {
    const SourceRange& r = t->range();
    if (r.source() != whole.source() || r.start() < at || r.end() > whole.end()) return std::string(text);
    at = r.end();
  }
  std::string out;
  at = whole.start();
  for (const auto& [t, full] : spelled) {
    out += text.substr(at - whole.start(), t->range().start() - at);
    out += full;
    at = t->range().end();
  }
  out += text.substr(at - whole.start());
  return out;
}

ParsedFile resolve_module_aliases(const ParsedFile& file) {
  Aliases aliases;
  std::unordered_set<std::string> defined;
  for (const auto& st : file.statements) {
    if (st->kind() == TreeKind::Def || st->kind() == TreeKind::ClassDef) defined.insert(st->child(0)->str());
    if (st->kind() != TreeKind::Import || st->size() == 0) continue;
    const std::string& bound = st->child(0)->str();
    // A later import of the same name rebinds it, to something resolvable or not.
    if (resolvable(st->str()) && st->str() != bound) aliases[bound] = st->str();
    else aliases.erase(bound);
  }
  for (const auto& name : defined) aliases.erase(name);
  Rewriter rewriter(aliases);
  ParsedFile out{file.source, {}};
  out.statements.reserve(file.statements.size());
  for (const auto& st : file.statements) out.statements.push_back(rewriter.rewrite(st));
  return out;
}

}  // namespace torchlet::jit
