// torch.einsum: parses the equation (letters, "...", implicit or explicit output),
// takes diagonals for labels repeated within an operand, then contracts operands left
// to right, each step one permute + bmm, summing out a label as soon as no later
// operand or the output needs it. Like torch, labels broadcast when one side is 1.
#include <algorithm>
#include <array>
#include <numeric>
#include <string>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

// Label ids: 0-25 'A'-'Z', 26-51 'a'-'z' (torch's order for implicit output), then
// one id per broadcast ellipsis dim.
constexpr int kLetters = 52;

int label_id(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  return -1;
}

char label_char(int id) { return id < 26 ? static_cast<char>('A' + id) : static_cast<char>('a' + id - 26); }

// One term of the equation: its labels with the ellipsis position (-1 when absent).
struct Term {
  std::vector<int> labels;
  int ellipsis_at = -1;
};

Term parse_term(std::string_view s, bool output) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ') continue;
    if (c == '.') {
      TL_CHECK(s.substr(i, 3) == "..." && t.ellipsis_at < 0, ValueError,
               "einsum(): found '.' for {} that is not part of any ellipsis", output ? "output" : "operand");
      t.ellipsis_at = static_cast<int>(t.labels.size());
      i += 2;
      continue;
    }
    int id = label_id(c);
    TL_CHECK(id >= 0, ValueError, "einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
             i);
    t.labels.push_back(id);
  }
  return t;
}

// An operand as a view whose dims carry distinct labels.
struct Labeled {
  Tensor t;
  std::vector<int> labels;
};

Labeled take_diagonals(const Tensor& x, const std::vector<int>& labels, size_t op_index) {
  Labeled r;
  Shape sizes, strides;
  for (size_t d = 0; d < labels.size(); ++d) {
    auto it = std::find(r.labels.begin(), r.labels.end(), labels[d]);
    if (it == r.labels.end()) {
      r.labels.push_back(labels[d]);
      sizes.push_back(x.size(static_cast<int64_t>(d)));
      strides.push_back(x.stride(static_cast<int64_t>(d)));
      continue;
    }
    size_t k = static_cast<size_t>(it - r.labels.begin());
    TL_CHECK(sizes[k] == x.size(static_cast<int64_t>(d)), ValueError,
             "einsum(): subscript {} is repeated for operand {} but the sizes don't match, {} != {}",
             label_char(labels[d]), op_index, x.size(static_cast<int64_t>(d)), sizes[k]);
    strides[k] += x.stride(static_cast<int64_t>(d));  // walking both dims at once is the diagonal
  }
  r.t = x.as_strided(sizes, strides, x.storage_offset());
  return r;
}

int64_t pos_of(const std::vector<int>& v, int label) {
  auto it = std::find(v.begin(), v.end(), label);
  return it == v.end() ? -1 : static_cast<int64_t>(it - v.begin());
}

// Sums out every label of `x` that `keep` rejects.
template <typename Keep>
void sum_unneeded(Labeled& x, const Keep& keep) {
  Shape dims;
  std::vector<int> rest;
  for (size_t d = 0; d < x.labels.size(); ++d) {
    if (keep(x.labels[d])) rest.push_back(x.labels[d]);
    else dims.push_back(static_cast<int64_t>(d));
  }
  if (dims.empty()) return;
  x.t = sum(x.t, dims);
  x.labels = rest;
}

// a (labels la) x b (labels lb) -> batch labels, a-only, b-only; shared labels not in
// `needed` are contracted.
template <typename Needed>
Labeled contract(const Labeled& a, const Labeled& b, const Needed& needed) {
  std::vector<int> batch, a_only, b_only, summed;
  for (int l : a.labels) {
    if (pos_of(b.labels, l) < 0) a_only.push_back(l);
    else if (needed(l)) batch.push_back(l);
    else summed.push_back(l);
  }
  for (int l : b.labels) {
    if (pos_of(a.labels, l) < 0) b_only.push_back(l);
  }
  auto size_in = [](const Labeled& x, int l) {
    int64_t p = pos_of(x.labels, l);
    return p < 0 ? int64_t{1} : x.t.size(p);
  };
  // Shared labels broadcast (size 1 against n) before they batch or contract.
  auto arrange = [&](const Labeled& x, const std::vector<int>& g1, const std::vector<int>& g2,
                     const std::vector<int>& g3) {
    Shape perm, target;
    for (const auto* g : {&g1, &g2, &g3}) {
      for (int l : *g) {
        perm.push_back(pos_of(x.labels, l));
        target.push_back(std::max(size_in(a, l), size_in(b, l)));
      }
    }
    return x.t.permute(perm).expand(target);
  };
  auto prod = [&](const std::vector<int>& g) {
    int64_t p = 1;
    for (int l : g) p *= std::max(size_in(a, l), size_in(b, l));
    return p;
  };
  for (int l : a.labels) {
    int64_t pb = pos_of(b.labels, l);
    if (pb < 0) continue;
    int64_t sa = size_in(a, l), sb = size_in(b, l);
    TL_CHECK(sa == sb || sa == 1 || sb == 1, ValueError,
             "einsum(): operands do not broadcast: subscript {} has size {} for one operand and {} for another",
             label_char(l), sa, sb);
  }
  Tensor ta = arrange(a, batch, a_only, summed), tb = arrange(b, batch, summed, b_only);
  int64_t nb = prod(batch), m = prod(a_only), k = prod(summed), n = prod(b_only);
  Tensor r = bmm(ta.reshape({nb, m, k}), tb.reshape({nb, k, n}));
  Labeled out;
  Shape shape;
  for (const auto* g : {&batch, &a_only, &b_only}) {
    for (int l : *g) {
      out.labels.push_back(l);
      shape.push_back(std::max(size_in(a, l), size_in(b, l)));
    }
  }
  out.t = r.reshape(shape);
  return out;
}

}  // namespace

Tensor einsum(std::string_view equation, const std::vector<Tensor>& operands) {
  TL_CHECK(!operands.empty(), ValueError, "einsum(): must provide at least one operand");
  size_t arrow = equation.find("->");
  std::string_view lhs = equation.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(lhs.substr(start, comma == std::string_view::npos ? lhs.npos : comma - start), false));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  TL_CHECK(terms.size() <= operands.size(), ValueError,
           "einsum(): fewer operands were provided than specified in the equation");
  TL_CHECK(terms.size() >= operands.size(), ValueError,
           "einsum(): more operands were provided than specified in the equation");
  // Ellipsis dims align from the right across operands.
  int64_t ell_dims = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    int64_t nl = static_cast<int64_t>(t.labels.size()), nd = operands[i].dim();
    if (t.ellipsis_at < 0) {
      TL_CHECK(nl == nd, ValueError,
               "einsum(): the number of subscripts in the equation ({}) does not match the number of dimensions ({}) "
               "for operand {} and no ellipsis was given",
               nl, nd, i);
    } else {
      TL_CHECK(nl <= nd, ValueError,
               "einsum(): the number of subscripts in the equation ({}) is more than the number of dimensions ({}) for "
               "operand {}",
               nl, nd, i);
      ell_dims = std::max(ell_dims, nd - nl);
    }
  }
  std::vector<Labeled> ops;
  std::array<int, kLetters> counts{};
  for (size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    std::vector<int> labels;
    int64_t e = operands[i].dim() - static_cast<int64_t>(t.labels.size());
    for (int j = 0; j <= static_cast<int>(t.labels.size()); ++j) {
      if (j == t.ellipsis_at) {
        for (int64_t k = 0; k < e; ++k) labels.push_back(kLetters + static_cast<int>(ell_dims - e + k));
      }
      if (j < static_cast<int>(t.labels.size())) {
        labels.push_back(t.labels[static_cast<size_t>(j)]);
        ++counts[static_cast<size_t>(t.labels[static_cast<size_t>(j)])];
      }
    }
    ops.push_back(take_diagonals(operands[i], labels, i));
    TL_CHECK(operands[i].dtype() == operands[0].dtype(), TypeError, "expected scalar type {} but found {}",
             dtype_info(operands[0].dtype()).scalar_type_name, dtype_info(operands[i].dtype()).scalar_type_name);
  }
  // Each label's size must agree with (or broadcast against) what earlier operands had.
  std::vector<int64_t> seen(static_cast<size_t>(kLetters + ell_dims), -1);
  for (size_t i = 0; i < ops.size(); ++i) {
    for (size_t d = 0; d < ops[i].labels.size(); ++d) {
      int l = ops[i].labels[d];
      int64_t sz = ops[i].t.size(static_cast<int64_t>(d));
      int64_t& prev = seen[static_cast<size_t>(l)];
      if (l < kLetters) {
        TL_CHECK(prev < 0 || prev == sz || prev == 1 || sz == 1, ValueError,
                 "einsum(): subscript {} has size {} for operand {} which does not broadcast with previously seen size {}",
                 label_char(l), sz, i, prev);
      }
      if (prev <= 1) prev = sz;
    }
  }
  std::vector<int> out_labels;
  if (arrow == std::string_view::npos) {
    // Implicit output: the ellipsis dims, then labels used once, in label order.
    for (int64_t k = 0; k < ell_dims; ++k) out_labels.push_back(kLetters + static_cast<int>(k));
    for (int l = 0; l < kLetters; ++l) {
      if (counts[static_cast<size_t>(l)] == 1) out_labels.push_back(l);
    }
  } else {
    Term o = parse_term(equation.substr(arrow + 2), true);
    for (int j = 0; j <= static_cast<int>(o.labels.size()); ++j) {
      if (j == o.ellipsis_at) {
        for (int64_t k = 0; k < ell_dims; ++k) out_labels.push_back(kLetters + static_cast<int>(k));
      }
      if (j == static_cast<int>(o.labels.size())) break;
      int l = o.labels[static_cast<size_t>(j)];
      TL_CHECK(counts[static_cast<size_t>(l)] > 0, ValueError,
               "einsum(): output subscript {} does not appear in the equation for any input operand", label_char(l));
      TL_CHECK(pos_of(out_labels, l) < 0, ValueError, "einsum(): output subscript {} appears more than once in the output",
               label_char(l));
      out_labels.push_back(l);
    }
  }
  auto needed_after = [&](size_t i, int l) {
    if (pos_of(out_labels, l) >= 0) return true;
    for (size_t j = i + 1; j < ops.size(); ++j) {
      if (pos_of(ops[j].labels, l) >= 0) return true;
    }
    return false;
  };
  Labeled cur = ops[0];
  sum_unneeded(cur, [&](int l) { return needed_after(0, l); });
  for (size_t i = 1; i < ops.size(); ++i) {
    Labeled next = ops[i];
    sum_unneeded(next, [&](int l) { return needed_after(i, l) || pos_of(cur.labels, l) >= 0; });
    cur = contract(cur, next, [&](int l) { return needed_after(i, l); });
  }
  Shape perm;
  for (int l : out_labels) perm.push_back(pos_of(cur.labels, l));
  return cur.t.permute(perm);
}

}  // namespace torchlet
