// Expressions (Note [Precedence] in parser_internals.h): precedence climbing over
// binary operators, comparison chains, conditional expressions, prefix and postfix
// operators, atoms, displays, comprehensions, calls, subscripts and assignment targets.
#include "jit/frontend/parser_internals.h"

namespace torchlet::jit {

// expr(p): prefix operand, then every infix operator binding at least as tightly as p.
TreeRef Parser::parse_expr(int min_prec) {
  NestingGuard guard(*this);
  size_t start = cur().range.start();
  TreeRef lhs = parse_prefix(min_prec);
  while (true) {
    TokenKind k = cur().kind;
    if (k == TokenKind::If && min_prec <= kTernary) {
      lhs = parse_ternary(start, lhs);
      continue;
    }
    if ((k == TokenKind::Or && min_prec <= kOr) || (k == TokenKind::And && min_prec <= kAnd)) {
      advance();
      TreeRef rhs = parse_expr((k == TokenKind::Or ? kOr : kAnd) + 1);
      lhs = Tree::make(TreeKind::BoolOp, range_from(start), {lhs, rhs}, op_payload(k));
      continue;
    }
    if (min_prec <= kCompare && comparison_at_cursor()) {
      lhs = parse_comparison_chain(start, lhs);
      continue;
    }
    std::optional<Prec> prec = binary_precedence(k);
    if (prec && *prec >= min_prec) {
      advance();
      // Note [Precedence]: `**` takes a u_expr on its right.
      TreeRef rhs = parse_expr(*prec == kPower ? static_cast<int>(kUnary) : *prec + 1);
      lhs = Tree::make(TreeKind::BinOp, range_from(start), {lhs, rhs}, op_payload(k));
      continue;
    }
    if (k == TokenKind::ColonEqual) fail_here("assignment expressions (:=) are not supported in TorchScript");
    return lhs;
  }
}

bool Parser::comparison_at_cursor() const {
  TokenKind k = cur().kind;
  return is_simple_comparison(k) || (k == TokenKind::Not && peek().kind == TokenKind::In);
}

// a < b <= c: one Compare node with the operators between the operands.
TreeRef Parser::parse_comparison_chain(size_t start, TreeRef first) {
  std::vector<TreeRef> parts{std::move(first)};
  while (comparison_at_cursor()) {
    size_t op_start = cur().range.start();
    TokenKind k = advance().kind;
    if (k == TokenKind::Not) {
      advance();  // `in`
      k = TokenKind::NotIn;
    } else if (k == TokenKind::Is && accept(TokenKind::Not)) {
      k = TokenKind::IsNot;
    }
    parts.push_back(Tree::make(TreeKind::Operator, range_from(op_start), {}, op_payload(k)));
    parts.push_back(parse_expr(kCompare + 1));
  }
  return Tree::make(TreeKind::Compare, range_from(start), std::move(parts));
}

// body if condition else orelse; the condition is an or_test, the else branch may
// itself be a ternary (right-nested).
TreeRef Parser::parse_ternary(size_t start, TreeRef body) {
  expect(TokenKind::If);
  TreeRef cond = parse_expr(kOr);
  if (cur().kind != TokenKind::Else) fail_here(fmt::format("expected 'else' after 'if' expression but found {}", describe_token(cur())));
  advance();
  TreeRef orelse = parse_expr(kTernary);
  return Tree::make(TreeKind::IfExp, range_from(start), {cond, body, orelse});
}

TreeRef Parser::parse_prefix(int min_prec) {
  size_t start = cur().range.start();
  TokenKind k = cur().kind;
  if (k == TokenKind::Not) {
    if (min_prec > kNot) fail_here("invalid syntax: 'not' cannot appear here without parentheses");
    advance();
    TreeRef operand = parse_expr(kNot);
    return Tree::make(TreeKind::UnaryOp, range_from(start), {operand}, op_payload(k));
  }
  if (k == TokenKind::Minus && peek().kind == TokenKind::IntLiteral) {
    if (TreeRef folded = fold_int64_min(start)) return folded;
  }
  if (k == TokenKind::Minus || k == TokenKind::Plus || k == TokenKind::Tilde) {
    if (min_prec > kUnary) fail_here(fmt::format("invalid syntax: unary '{}' cannot appear here without parentheses", token_kind_spelling(k)));
    advance();
    TreeRef operand = parse_expr(kUnary);
    return Tree::make(TreeKind::UnaryOp, range_from(start), {operand}, op_payload(k));
  }
  if (k == TokenKind::Star) fail_here("starred expression is not allowed here");
  return parse_postfix(start, parse_atom());
}

// `-9223372036854775808` (INT64_MIN) as one literal: its magnitude alone is out of
// range, so the negation is folded when nothing binds tighter to the literal.
TreeRef Parser::fold_int64_min(size_t start) {
  const Token& lit = peek();
  TokenKind after = peek(2).kind;
  if (after == TokenKind::DoubleStar || after == TokenKind::Dot || after == TokenKind::LeftParen ||
      after == TokenKind::LeftBracket || parse_int_magnitude(lit) != kInt64MinMagnitude) {
    return nullptr;
  }
  TreePayload p;
  p.int_value = std::numeric_limits<int64_t>::min();
  p.str = "-" + std::string(lit.text());
  advance();
  advance();
  return Tree::make(TreeKind::IntLiteral, range_from(start), {}, std::move(p));
}

// primary: atom followed by calls, subscripts and attribute accesses.
TreeRef Parser::parse_postfix(size_t start, TreeRef value) {
  while (true) {
    TokenKind k = cur().kind;
    if (k == TokenKind::Dot) {
      advance();
      const Token& name = expect_name("an attribute name after '.'");
      TreeRef attr = Tree::name(name.range, std::string(name.text()));
      value = Tree::make(TreeKind::Attribute, range_from(start), {value, attr});
    } else if (k == TokenKind::LeftParen) {
      value = parse_call(start, value);
    } else if (k == TokenKind::LeftBracket) {
      value = parse_subscript(start, value);
    } else {
      return value;
    }
  }
}

const Token& Parser::expect_name(std::string_view what) {
  if (cur().kind != TokenKind::Ident) unexpected(what);
  return advance();
}

// Keywords (and `...`) that are literal values by themselves.
std::optional<TreeKind> Parser::constant_literal(TokenKind k) {
  if (k == TokenKind::True) return TreeKind::TrueLiteral;
  if (k == TokenKind::False) return TreeKind::FalseLiteral;
  if (k == TokenKind::None) return TreeKind::NoneLiteral;
  if (k == TokenKind::Ellipsis) return TreeKind::EllipsisLiteral;
  return std::nullopt;
}

TreeRef Parser::parse_atom() {
  const Token& t = cur();  // tokens_ never reallocates while parsing
  size_t start = t.range.start();
  TreePayload p;
  if (t.kind == TokenKind::Ident) {
    advance();
    return Tree::name(t.range, std::string(t.text()));
  }
  if (t.kind == TokenKind::IntLiteral) {
    uint64_t magnitude = parse_int_magnitude(t);
    if (magnitude == kInt64MinMagnitude) {
      throw_compile_error(t.range, "Integral constant out of range (must fit in a signed 64 bit integer)");
    }
    p.int_value = static_cast<int64_t>(magnitude);
    p.str = std::string(t.text());
    advance();
    return Tree::make(TreeKind::IntLiteral, t.range, {}, std::move(p));
  }
  if (t.kind == TokenKind::FloatLiteral || t.kind == TokenKind::ImagLiteral) {
    p.float_value = parse_float_text(t.text());
    p.str = std::string(t.text());
    advance();
    return Tree::make(t.kind == TokenKind::FloatLiteral ? TreeKind::FloatLiteral : TreeKind::ImagLiteral, t.range, {},
                      std::move(p));
  }
  if (t.kind == TokenKind::StringLiteral) {
    p.str = t.value;
    advance();
    return Tree::make(TreeKind::StringLiteral, t.range, {}, std::move(p));
  }
  if (t.kind == TokenKind::FormatString) {  // Note [f-strings] in lexer.cpp: "a{}".format(fields)
    p.str = t.value;
    advance();
    TreeRef format = Tree::make(TreeKind::StringLiteral, t.range, {}, std::move(p));
    TreeRef callee = Tree::make(TreeKind::Attribute, t.range, {format, Tree::name(t.range, "format")});
    return parse_call(start, callee);
  }
  if (std::optional<TreeKind> literal = constant_literal(t.kind)) {
    advance();
    return Tree::make(*literal, t.range);
  }
  if (t.kind == TokenKind::LeftParen) return parse_paren(start);
  if (t.kind == TokenKind::LeftBracket) return parse_list_display(start);
  if (t.kind == TokenKind::LeftBrace) return parse_dict_display(start);
  unexpected("an expression");
}

// An element of a display or call: `*x` or an expression.
TreeRef Parser::parse_star_or_expr(int prec) {
  if (cur().kind != TokenKind::Star) return parse_expr(prec);
  size_t start = cur().range.start();
  advance();
  TreeRef inner = parse_expr(kBitOr);
  return Tree::make(TreeKind::Starred, range_from(start), {inner});
}

// () | (expr) | (a, b, ...) ; generator expressions are refused.
TreeRef Parser::parse_paren(size_t start) {
  expect(TokenKind::LeftParen);
  if (accept(TokenKind::RightParen)) return Tree::make(TreeKind::TupleLiteral, range_from(start));
  TreeRef first = parse_star_or_expr(kLowest);
  if (cur().kind == TokenKind::For) fail_here("generator expressions are not supported in TorchScript; use a list comprehension");
  if (cur().kind == TokenKind::RightParen) {
    // `(*x)` is not a tuple; only `(*x,)` is.
    if (first->kind() == TreeKind::Starred) throw_compile_error(first->range(), "cannot use starred expression here");
    advance();
    return first;
  }
  std::vector<TreeRef> elems{first};
  while (accept(TokenKind::Comma)) {
    if (cur().kind == TokenKind::RightParen) break;
    elems.push_back(parse_star_or_expr(kLowest));
  }
  expect(TokenKind::RightParen);
  return Tree::make(TreeKind::TupleLiteral, range_from(start), std::move(elems));
}

// [] | [a, b, ...] | [elt for target in iter if cond ...]
TreeRef Parser::parse_list_display(size_t start) {
  expect(TokenKind::LeftBracket);
  if (accept(TokenKind::RightBracket)) return Tree::make(TreeKind::ListLiteral, range_from(start));
  TreeRef first = parse_star_or_expr(kLowest);
  if (cur().kind == TokenKind::For) {
    if (first->kind() == TreeKind::Starred) throw_compile_error(first->range(), "iterable unpacking cannot be used in comprehension");
    TreeRef gens = parse_comprehension_clauses();
    expect(TokenKind::RightBracket);
    return Tree::make(TreeKind::ListComp, range_from(start), {first, gens});
  }
  std::vector<TreeRef> elems{first};
  while (accept(TokenKind::Comma)) {
    if (cur().kind == TokenKind::RightBracket) break;
    elems.push_back(parse_star_or_expr(kLowest));
  }
  expect(TokenKind::RightBracket);
  return Tree::make(TreeKind::ListLiteral, range_from(start), std::move(elems));
}

// {} | {k: v, ...} | {k: v for ...}; sets are refused.
TreeRef Parser::parse_dict_display(size_t start) {
  expect(TokenKind::LeftBrace);
  if (accept(TokenKind::RightBrace)) {
    return Tree::make(TreeKind::DictLiteral, range_from(start),
                      {Tree::list(range_from(start), {}), Tree::list(range_from(start), {})});
  }
  if (cur().kind == TokenKind::DoubleStar) fail_here("dict unpacking (**) is not supported in TorchScript");
  size_t keys_start = cur().range.start();
  TreeRef key = parse_star_or_expr(kLowest);
  if (cur().kind != TokenKind::Colon) {
    throw_compile_error(SourceRange(source_, start, cur().range.end()), "set literals are not supported in TorchScript");
  }
  advance();
  TreeRef value = parse_expr(kLowest);
  if (cur().kind == TokenKind::For) {
    TreeRef gens = parse_comprehension_clauses();
    expect(TokenKind::RightBrace);
    return Tree::make(TreeKind::DictComp, range_from(start), {key, value, gens});
  }
  std::vector<TreeRef> keys{key}, values{value};
  while (accept(TokenKind::Comma)) {
    if (cur().kind == TokenKind::RightBrace) break;
    if (cur().kind == TokenKind::DoubleStar) fail_here("dict unpacking (**) is not supported in TorchScript");
    keys.push_back(parse_expr(kLowest));
    expect(TokenKind::Colon);
    values.push_back(parse_expr(kLowest));
  }
  expect(TokenKind::RightBrace);
  TreeRef key_list = Tree::list(range_from(keys_start), std::move(keys));
  TreeRef value_list = Tree::list(range_from(keys_start), std::move(values));
  return Tree::make(TreeKind::DictLiteral, range_from(start), {key_list, value_list});
}

// (for target in iterable (if cond)*)+
TreeRef Parser::parse_comprehension_clauses() {
  size_t start = cur().range.start();
  std::vector<TreeRef> gens;
  while (cur().kind == TokenKind::For) {
    size_t gen_start = cur().range.start();
    advance();
    TreeRef target = parse_target_list(TokenKind::In);
    expect(TokenKind::In);
    TreeRef iter = parse_expr(kOr);
    size_t conds_start = cur().range.start();
    std::vector<TreeRef> conds;
    while (accept(TokenKind::If)) conds.push_back(parse_expr(kOr));
    TreeRef cond_list = Tree::list(range_from(conds_start), std::move(conds));
    gens.push_back(Tree::make(TreeKind::Comprehension, range_from(gen_start), {target, iter, cond_list}));
  }
  if (cur().kind == TokenKind::Async) fail_here("async comprehensions are not supported in TorchScript");
  return Tree::list(range_from(start), std::move(gens));
}

// f(a, *b, k=v)
TreeRef Parser::parse_call(size_t start, TreeRef callee) {
  size_t args_start = cur().range.start();
  expect(TokenKind::LeftParen);
  std::vector<TreeRef> args, keywords;
  std::unordered_set<std::string> seen;
  while (cur().kind != TokenKind::RightParen) {
    if (cur().kind == TokenKind::DoubleStar) fail_here("keyword argument unpacking (**) is not supported in TorchScript");
    if (cur().kind == TokenKind::Ident && peek().kind == TokenKind::Equal) {
      size_t kw_start = cur().range.start();
      const Token& name = advance();
      std::string name_text(name.text());
      if (!seen.insert(name_text).second) {
        throw_compile_error(name.range, fmt::format("keyword argument repeated: {}", name_text));
      }
      TreeRef name_tree = Tree::name(name.range, name_text);
      advance();
      TreeRef value = parse_expr(kLowest);
      keywords.push_back(Tree::make(TreeKind::Keyword, range_from(kw_start), {name_tree, value}));
    } else {
      TreeRef arg = parse_star_or_expr(kLowest);
      if (cur().kind == TokenKind::For) fail_here("generator expressions are not supported in TorchScript; use a list comprehension");
      if (!keywords.empty() && arg->kind() != TreeKind::Starred) {
        throw_compile_error(arg->range(), "positional argument follows keyword argument");
      }
      args.push_back(arg);
    }
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RightParen);
  TreeRef arg_list = Tree::list(range_from(args_start), std::move(args));
  TreeRef kw_list = Tree::list(range_from(args_start), std::move(keywords));
  return Tree::make(TreeKind::Call, range_from(start), {callee, arg_list, kw_list});
}

// x[i], x[a:b:c], x[i, j:k, ...]
TreeRef Parser::parse_subscript(size_t start, TreeRef value) {
  size_t items_start = cur().range.start();
  expect(TokenKind::LeftBracket);
  std::vector<TreeRef> items;
  do {
    if (cur().kind == TokenKind::RightBracket && !items.empty()) break;
    items.push_back(parse_slice_item());
  } while (accept(TokenKind::Comma));
  expect(TokenKind::RightBracket);
  TreeRef item_list = Tree::list(range_from(items_start), std::move(items));
  return Tree::make(TreeKind::Subscript, range_from(start), {value, item_list});
}

TreeRef Parser::parse_slice_item() {
  size_t start = cur().range.start();
  TreeRef lower;
  if (cur().kind != TokenKind::Colon) {
    lower = parse_expr(kLowest);
    if (cur().kind != TokenKind::Colon) return lower;
  }
  expect(TokenKind::Colon);
  auto ends_part = [this](bool allow_colon) {
    TokenKind k = cur().kind;
    return k == TokenKind::Comma || k == TokenKind::RightBracket || (allow_colon && k == TokenKind::Colon);
  };
  TreeRef upper = ends_part(true) ? nullptr : parse_expr(kLowest);
  TreeRef step;
  if (accept(TokenKind::Colon) && !ends_part(false)) step = parse_expr(kLowest);
  return Tree::make(TreeKind::Slice, range_from(start), {lower, upper, step});
}

// testlist_star_expr: `a`, or a bare tuple `a, *b, c,`.
TreeRef Parser::parse_testlist_star() {
  size_t start = cur().range.start();
  TreeRef first = parse_star_or_expr(kLowest);
  if (cur().kind != TokenKind::Comma) {
    if (first->kind() == TreeKind::Starred) throw_compile_error(first->range(), "cannot use starred expression here");
    return first;
  }
  std::vector<TreeRef> elems{first};
  while (accept(TokenKind::Comma)) {
    if (!starts_expression(cur().kind)) break;
    elems.push_back(parse_star_or_expr(kLowest));
  }
  return Tree::make(TreeKind::TupleLiteral, range_from(start), std::move(elems));
}

// Targets of `for` and comprehensions, stopping before `in` (parsed above the
// comparison level so `in` is not taken as an operator).
TreeRef Parser::parse_target_list(TokenKind terminator) {
  size_t start = cur().range.start();
  TreeRef first = parse_star_or_expr(kBitOr);
  TreeRef target = first;
  if (cur().kind == TokenKind::Comma) {
    std::vector<TreeRef> elems{first};
    while (accept(TokenKind::Comma)) {
      if (cur().kind == terminator) break;
      elems.push_back(parse_star_or_expr(kBitOr));
    }
    target = Tree::make(TreeKind::TupleLiteral, range_from(start), std::move(elems));
  }
  check_target(*target, "assign to", true);
  return target;
}

// Assignment, for and del targets: names, attributes, subscripts, and (except for
// augmented and annotated assignment) tuples/lists of targets with one starred.
void Parser::check_target(const Tree& t, std::string_view verb, bool allow_unpacking) {
  TreeKind k = t.kind();
  if (k == TreeKind::Name || k == TreeKind::Attribute || k == TreeKind::Subscript) return;
  if (k != TreeKind::TupleLiteral && k != TreeKind::ListLiteral) {
    throw_compile_error(t.range(), fmt::format("cannot {} {}", verb, tree_kind_description(k)));
  }
  if (!allow_unpacking) {
    throw_compile_error(t.range(), fmt::format("cannot {} a {} here", verb, tree_kind_description(k)));
  }
  size_t starred = 0;
  for (const TreeRef& e : t.children()) {
    if (e->kind() == TreeKind::Starred) {
      if (++starred > 1) throw_compile_error(e->range(), "multiple starred expressions in assignment");
      check_target(*e->child(0), verb, true);
      continue;
    }
    check_target(*e, verb, true);
  }
}

}  // namespace torchlet::jit
