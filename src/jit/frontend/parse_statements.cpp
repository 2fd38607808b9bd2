// Statements: simple statements, imports, blocks, if/while/for/with, decorated defs
// and their parameters, and classes.
#include "jit/frontend/parser_internals.h"

namespace torchlet::jit {

void Parser::parse_statement(std::vector<TreeRef>& out) {
  NestingGuard guard(*this);
  TokenKind k = cur().kind;
  if (k == TokenKind::If) return out.push_back(parse_if());
  if (k == TokenKind::While) return out.push_back(parse_while());
  if (k == TokenKind::For) return out.push_back(parse_for());
  if (k == TokenKind::With) return out.push_back(parse_with());
  if (k == TokenKind::Def || k == TokenKind::Class || k == TokenKind::At) return out.push_back(parse_decorated());
  if (k == TokenKind::Indent) fail_here("unexpected indent");
  if (k == TokenKind::Dedent) fail_here("unexpected unindent");
  if (k == TokenKind::Else || k == TokenKind::Elif) fail_here(fmt::format("'{}' without a matching 'if'", cur().text()));
  parse_simple_line(out);
}

// simple_stmt (';' simple_stmt)* [';'] NEWLINE
void Parser::parse_simple_line(std::vector<TreeRef>& out) {
  auto statement = [&] {
    if (cur().kind == TokenKind::Import || cur().kind == TokenKind::From) return parse_imports(out);
    out.push_back(parse_simple_statement());
  };
  statement();
  while (accept(TokenKind::Semicolon)) {
    if (cur().kind == TokenKind::Newline) break;
    statement();
  }
  if (cur().kind != TokenKind::Newline) {
    if (refused_construct(cur().kind)) unexpected("");
    fail_here(fmt::format("expected the end of the statement but found {}", describe_token(cur())));
  }
  advance();
}

TreeRef Parser::parse_simple_statement() {
  const Token& t = cur();
  size_t start = t.range.start();
  if (t.kind == TokenKind::Pass || t.kind == TokenKind::Break || t.kind == TokenKind::Continue) {
    advance();
    TreeKind kind = t.kind == TokenKind::Pass ? TreeKind::Pass : t.kind == TokenKind::Break ? TreeKind::Break : TreeKind::Continue;
    return Tree::make(kind, t.range);
  }
  if (t.kind == TokenKind::Return) {
    advance();
    TreeRef value = starts_expression(cur().kind) ? parse_testlist_star() : nullptr;
    return Tree::make(TreeKind::Return, range_from(start), {value});
  }
  if (t.kind == TokenKind::Raise) {
    advance();
    TreeRef exc = starts_expression(cur().kind) ? parse_expr(kLowest) : nullptr;
    if (cur().kind == TokenKind::From) fail_here("'raise ... from ...' is not supported in TorchScript");
    return Tree::make(TreeKind::Raise, range_from(start), {exc});
  }
  if (t.kind == TokenKind::Assert) {
    advance();
    TreeRef test = parse_expr(kLowest);
    TreeRef msg = accept(TokenKind::Comma) ? parse_expr(kLowest) : nullptr;
    return Tree::make(TreeKind::Assert, range_from(start), {test, msg});
  }
  if (t.kind == TokenKind::Del) return parse_del(start);
  return parse_expression_statement(start);
}

TreeRef Parser::parse_del(size_t start) {
  advance();
  std::vector<TreeRef> targets;
  do {
    if (!targets.empty() && cur().kind == TokenKind::Newline) break;
    TreeRef target = parse_expr(kBitOr);
    check_target(*target, "delete", true);
    targets.push_back(target);
  } while (accept(TokenKind::Comma));
  return Tree::make(TreeKind::Delete, range_from(start), std::move(targets));
}

// Imports. `import a.b.c` binds nothing torchlet needs (torch's importer skips these
// lines of archived code): a leaf whose str is the module. A binding of another name,
// `import a.b as n` or `from a.b import c [as n]`, is an Import whose Name child is
// the bound name and whose str is what it names ("a.b", "a.b.c"), one tree per
// binding; the compiler resolves them (module_aliases.h). Relative and star imports
// bind nothing a TorchScript function could use: nothing is kept of them.
void Parser::parse_imports(std::vector<TreeRef>& out) {
  const size_t start = cur().range.start();
  auto dotted = [&](std::string_view what) {
    std::string name(expect_name(what).text());
    while (accept(TokenKind::Dot)) name += "." + std::string(expect_name("a name after '.'").text());
    return name;
  };
  auto binding = [&](size_t from, const std::string& target, const Token& bound) {
    TreePayload p;
    p.str = target;
    out.push_back(Tree::make(TreeKind::Import, range_from(from), {Tree::name(bound.range, std::string(bound.text()))},
                             std::move(p)));
  };
  if (accept(TokenKind::Import)) {
    do {
      const size_t item = cur().range.start();
      std::string module = dotted("a module name after 'import'");
      if (accept(TokenKind::As)) {
        binding(item, module, expect_name("a name after 'as'"));
      } else {
        TreePayload p;
        p.str = std::move(module);
        out.push_back(Tree::make(TreeKind::Import, range_from(item), {}, std::move(p)));
      }
    } while (accept(TokenKind::Comma));
    return;
  }
  expect(TokenKind::From);
  bool relative = false;
  while (cur().kind == TokenKind::Dot || cur().kind == TokenKind::Ellipsis) {
    advance();
    relative = true;
  }
  std::string module;
  if (!relative || cur().kind != TokenKind::Import) module = dotted("a module name after 'from'");
  expect(TokenKind::Import);
  if (accept(TokenKind::Star)) return;
  const bool parenthesized = accept(TokenKind::LeftParen);
  do {
    if (parenthesized && cur().kind == TokenKind::RightParen) break;  // a trailing comma
    const Token& member = expect_name("a name to import");
    const Token& bound = accept(TokenKind::As) ? expect_name("a name after 'as'") : member;
    if (!relative) binding(start, module + "." + std::string(member.text()), bound);
  } while (accept(TokenKind::Comma));
  if (parenthesized) expect(TokenKind::RightParen);
}

// Expression statements and every form of assignment.
TreeRef Parser::parse_expression_statement(size_t start) {
  TreeRef first = parse_testlist_star();
  if (cur().kind == TokenKind::Colon) {
    if (first->kind() == TreeKind::TupleLiteral) throw_compile_error(first->range(), "only single target (not tuple) can be annotated");
    check_target(*first, "annotate", false);
    advance();
    TreeRef annotation = parse_expr(kLowest);
    TreeRef value = accept(TokenKind::Equal) ? parse_testlist_star() : nullptr;
    return Tree::make(TreeKind::AnnAssign, range_from(start), {first, annotation, value});
  }
  if (std::optional<TokenKind> op = augmented_operator(cur().kind)) {
    check_target(*first, "use augmented assignment on", false);
    advance();
    TreeRef value = parse_testlist_star();
    return Tree::make(TreeKind::AugAssign, range_from(start), {first, value}, op_payload(*op));
  }
  if (cur().kind != TokenKind::Equal) return Tree::make(TreeKind::ExprStmt, range_from(start), {first});
  std::vector<TreeRef> targets{first};
  TreeRef value;
  while (accept(TokenKind::Equal)) {
    TreeRef next = parse_testlist_star();
    if (cur().kind == TokenKind::Equal) {
      targets.push_back(next);
    } else {
      value = next;
    }
  }
  for (const TreeRef& target : targets) check_target(*target, "assign to", true);
  TreeRef target_list = Tree::list(range_from(start), std::move(targets));
  return Tree::make(TreeKind::Assign, range_from(start), {target_list, value});
}

// ':' then an indented block, or simple statements on the same line.
TreeRef Parser::parse_block(std::string_view owner) {
  size_t start = cur().range.start();
  std::vector<TreeRef> body;
  if (!accept(TokenKind::Newline)) {
    if (cur().kind == TokenKind::Eof) fail_here(fmt::format("expected an indented block after {}", owner));
    parse_simple_line(body);
    return Tree::list(range_from(start), std::move(body));
  }
  if (cur().kind != TokenKind::Indent) {
    fail_here(fmt::format("expected an indented block after {}", owner));
  }
  advance();
  while (!accept(TokenKind::Dedent)) {
    if (cur().kind == TokenKind::Eof) fail_here("expected the block to end");
    parse_statement(body);
  }
  return Tree::list(range_from(start), std::move(body));
}

// if c: ... (elif c: ...)* [else: ...]; an elif is an If alone in the else body.
// The clauses are read in a loop and nested from the last one up, so a long elif
// chain costs no parser recursion (only tree depth, two levels per elif).
TreeRef Parser::parse_if() {
  struct Clause {
    SourceRange header;
    TreeRef cond, body;
    size_t start;
  };
  std::vector<Clause> clauses;
  do {
    size_t start = cur().range.start();
    advance();  // `if` or `elif`
    TreeRef cond = parse_expr(kLowest);
    expect(TokenKind::Colon);
    SourceRange header = range_from(start);
    clauses.push_back({header, cond, parse_block("'if' statement"), start});
  } while (cur().kind == TokenKind::Elif);
  TreeRef else_body;
  if (accept(TokenKind::Else)) {
    expect(TokenKind::Colon);
    else_body = parse_block("'else'");
  } else {
    else_body = Tree::list(SourceRange(source_, prev_end_, prev_end_), {});
  }
  for (size_t i = clauses.size(); i-- > 0;) {
    TreeRef node = Tree::make(TreeKind::If, clauses[i].header, {clauses[i].cond, clauses[i].body, else_body});
    if (i == 0) return node;
    else_body = Tree::list(range_from(clauses[i].start), {node});
  }
  TL_INTERNAL_ASSERT(false, "an if statement has at least one clause");
}

TreeRef Parser::parse_while() {
  size_t start = cur().range.start();
  advance();
  TreeRef cond = parse_expr(kLowest);
  expect(TokenKind::Colon);
  SourceRange header = range_from(start);
  TreeRef body = parse_block("'while' statement");
  if (cur().kind == TokenKind::Else) fail_here("'else' after a while loop is not supported in TorchScript");
  return Tree::make(TreeKind::While, header, {cond, body});
}

TreeRef Parser::parse_for() {
  size_t start = cur().range.start();
  advance();
  TreeRef target = parse_target_list(TokenKind::In);
  expect(TokenKind::In);
  TreeRef iter = parse_testlist_star();
  expect(TokenKind::Colon);
  SourceRange header = range_from(start);
  TreeRef body = parse_block("'for' statement");
  if (cur().kind == TokenKind::Else) fail_here("'else' after a for loop is not supported in TorchScript");
  return Tree::make(TreeKind::For, header, {target, iter, body});
}

// 'with' item (',' item)* ':' block, item: expr ['as' NAME]. Torch binds a with
// target as a plain variable only, so other targets are refused here.
TreeRef Parser::parse_with() {
  size_t start = cur().range.start();
  advance();
  std::vector<TreeRef> items;
  do {
    const size_t item_start = cur().range.start();
    TreeRef manager = parse_expr(kLowest);
    TreeRef target;
    if (accept(TokenKind::As)) {
      const Token& name = expect_name("a variable name after 'as' (TorchScript binds a with target to a name)");
      target = Tree::name(name.range, std::string(name.text()));
    }
    items.push_back(Tree::make(TreeKind::WithItem, range_from(item_start), {manager, target}));
  } while (accept(TokenKind::Comma));
  expect(TokenKind::Colon);
  SourceRange header = range_from(start);
  TreeRef item_list = Tree::list(header, std::move(items));
  TreeRef body = parse_block("'with' statement");
  return Tree::make(TreeKind::With, header, {item_list, body});
}

// ('@' expr NEWLINE)* (def | class)
TreeRef Parser::parse_decorated() {
  size_t start = cur().range.start();
  std::vector<TreeRef> decorators;
  while (accept(TokenKind::At)) {
    decorators.push_back(parse_expr(kLowest));
    expect(TokenKind::Newline);
  }
  TreeRef decorator_list = Tree::list(range_from(start), std::move(decorators));
  if (cur().kind == TokenKind::Def) return parse_def(decorator_list);
  if (cur().kind == TokenKind::Class) return parse_class(decorator_list);
  unexpected("'def' or 'class' after a decorator");
}

TreeRef Parser::parse_def(TreeRef decorators) {
  size_t start = cur().range.start();
  expect(TokenKind::Def);
  const Token& name = expect_name("a function name after 'def'");
  TreeRef name_tree = Tree::name(name.range, std::string(name.text()));
  TreeRef params = parse_params();
  TreeRef ret = accept(TokenKind::Arrow) ? parse_expr(kLowest) : nullptr;
  size_t colon = pos_;
  expect(TokenKind::Colon);
  SourceRange header = range_from(start);
  TreeRef type_comment;
  if (auto it = type_comments_.find(colon); it != type_comments_.end()) {
    const Token& tc = it->second;
    std::vector<Token> tokens = tokenize_fragment(source_, tc.range.start(), tc.range.end());
    type_comment = Parser(source_, std::move(tokens)).parse_func_type_comment();
  }
  TreeRef body = parse_block("function definition");
  return Tree::make(TreeKind::Def, header, {name_tree, params, ret, body, decorators, type_comment});
}

// (name [: annotation] [= default], ... [*, kwonly...])
TreeRef Parser::parse_params() {
  size_t start = cur().range.start();
  expect(TokenKind::LeftParen);
  std::vector<TreeRef> params;
  std::unordered_set<std::string> seen;
  bool keyword_only = false, saw_default = false;
  while (cur().kind != TokenKind::RightParen) {
    if (cur().kind == TokenKind::Star) {
      if (peek().kind == TokenKind::Ident) fail_here("variable positional arguments (*args) are not supported in TorchScript");
      if (keyword_only) fail_here("'*' may appear only once in a parameter list");
      advance();
      keyword_only = true;
      if (cur().kind != TokenKind::Comma) fail_here("named arguments must follow bare '*'");
      advance();
      continue;
    }
    if (cur().kind == TokenKind::DoubleStar) fail_here("variable keyword arguments (**kwargs) are not supported in TorchScript");
    if (cur().kind == TokenKind::Slash) fail_here("positional-only parameters ('/') are not supported in TorchScript");
    size_t param_start = cur().range.start();
    const Token& name = expect_name("a parameter name");
    std::string name_text(name.text());
    if (!seen.insert(name_text).second) {
      throw_compile_error(name.range, fmt::format("duplicate argument '{}' in function definition", name_text));
    }
    TreeRef name_tree = Tree::name(name.range, name_text);
    TreeRef annotation = accept(TokenKind::Colon) ? parse_expr(kLowest) : nullptr;
    TreeRef default_value = accept(TokenKind::Equal) ? parse_expr(kLowest) : nullptr;
    if (default_value) {
      saw_default = true;
    } else if (saw_default && !keyword_only) {
      throw_compile_error(name.range, "non-default argument follows default argument");
    }
    TreePayload p;
    p.int_value = keyword_only ? 1 : 0;
    params.push_back(Tree::make(TreeKind::Param, range_from(param_start), {name_tree, annotation, default_value}, std::move(p)));
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RightParen);
  return Tree::list(range_from(start), std::move(params));
}

TreeRef Parser::parse_class(TreeRef decorators) {
  size_t start = cur().range.start();
  expect(TokenKind::Class);
  const Token& name = expect_name("a class name after 'class'");
  TreeRef name_tree = Tree::name(name.range, std::string(name.text()));
  size_t bases_start = cur().range.start();
  std::vector<TreeRef> bases;
  if (accept(TokenKind::LeftParen)) {
    while (cur().kind != TokenKind::RightParen) {
      if (cur().kind == TokenKind::Ident && peek().kind == TokenKind::Equal) {
        fail_here("class keyword arguments (such as metaclass=) are not supported in TorchScript");
      }
      bases.push_back(parse_expr(kLowest));
      if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RightParen);
  }
  TreeRef base_list = Tree::list(range_from(bases_start), std::move(bases));
  expect(TokenKind::Colon);
  SourceRange header = range_from(start);
  TreeRef body = parse_block("class definition");
  return Tree::make(TreeKind::ClassDef, header, {name_tree, base_list, body, decorators});
}

}  // namespace torchlet::jit
