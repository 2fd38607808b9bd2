// Tensor printing, byte for byte like torch 1.13's repr (torch/_tensor_str.py):
// one formatter per tensor decides int/fixed/scientific mode and a common width,
// rows wrap at 80 columns, and tensors over 1000 elements are summarised with "...".
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

namespace torchlet {

namespace {

// torch's default print options.
constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 80;

std::string format_fixed(double v, int precision) { return fmt::format("{:.{}f}", v, precision); }
std::string format_sci(double v, int precision) { return fmt::format("{:.{}e}", v, precision); }

// The printable values of one real tensor: doubles for floating dtypes, integers
// (as int64) for integral dtypes, and bools.
enum class ValueKind { Floating, Integral, Boolean };

struct Formatter {
  ValueKind kind;
  bool int_mode = true;
  bool sci_mode = false;
  size_t max_width = 1;

  Formatter(ValueKind k, const std::vector<double>& values) : kind(k) {
    if (kind == ValueKind::Integral) return;  // width from the exact int64s (tensor_body)
    if (kind == ValueKind::Boolean) {
      for (double v : values) max_width = std::max(max_width, plain(v).size());
      return;
    }
    std::vector<double> finite;
    for (double v : values) {
      if (std::isfinite(v) && v != 0.0) finite.push_back(v);
    }
    if (finite.empty()) return;
    double lo = INFINITY, hi = 0;
    for (double v : finite) {
      lo = std::min(lo, std::fabs(v));
      hi = std::max(hi, std::fabs(v));
      if (v != std::ceil(v)) int_mode = false;
    }
    if (int_mode) {
      if (hi / lo > 1000.0 || hi > 1.0e8) {
        sci_mode = true;
        for (double v : finite) max_width = std::max(max_width, format_sci(v, kPrecision).size());
      } else {
        for (double v : finite) max_width = std::max(max_width, format_fixed(v, 0).size() + 1);
      }
    } else if (hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4) {
      sci_mode = true;
      for (double v : finite) max_width = std::max(max_width, format_sci(v, kPrecision).size());
    } else {
      for (double v : finite) {
        max_width = std::max(max_width, format_fixed(v, kPrecision).size());
      }
    }
  }

  std::string plain(double v) const {
    if (kind == ValueKind::Boolean) return v != 0 ? "True" : "False";
    return std::to_string(static_cast<int64_t>(v));
  }

  std::string format(double v) const {
    std::string s;
    if (kind != ValueKind::Floating) {
      s = plain(v);
    } else if (std::isnan(v)) {
      // Python prints every NaN as "nan"; fmt would print "-nan" for a set sign bit,
      // which x86 gives NaNs made by arithmetic and torch's float->bfloat16 copy.
      s = "nan";
    } else if (sci_mode) {
      s = format_sci(v, kPrecision);
    } else if (int_mode) {
      s = std::isinf(v) ? (v > 0 ? "inf" : "-inf") : format_fixed(v, 0) + ".";
    } else {
      s = std::isinf(v) ? (v > 0 ? "inf" : "-inf") : format_fixed(v, kPrecision);
    }
    if (s.size() < max_width) s.insert(0, max_width - s.size(), ' ');
    return s;
  }
};

// The elements a summarised print can show: kEdgeItems at each end of every dimension
// longer than 2 * kEdgeItems, copied into a small tensor of t's dtype. Only these are
// ever converted, as torch's get_summarized_data slices before formatting, so a tensor
// that is large only as a view (an expanded, stride-0 one from a checkpoint, say)
// prints without being materialised.
Tensor summarized_copy(const Tensor& t) {
  Shape small_sizes;
  std::vector<int64_t> long_dims;
  int64_t small_numel = 1;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t n = t.size(d) > 2 * kEdgeItems ? 2 * kEdgeItems : t.size(d);
    if (n != t.size(d)) long_dims.push_back(d);
    small_sizes.push_back(n);
    // 2^24 elements is far past any print anyone reads; the check also keeps the
    // product (and the 2^k copies below) from overflowing on hostile shapes.
    TL_CHECK(n == 0 || small_numel <= (int64_t{1} << 24) / n, LimitError,
             "printing a tensor of shape {}: its summary alone would exceed 2^24 elements", shape_repr(t.sizes()));
    small_numel *= n;
  }
  Tensor small = empty(small_sizes, t.dtype());
  // Each combination of first/last edges along the long dimensions is one block.
  for (uint64_t ends = 0; ends < (uint64_t{1} << long_dims.size()); ++ends) {
    Tensor dst = small, src = t;
    for (size_t k = 0; k < long_dims.size(); ++k) {
      const int64_t d = long_dims[k];
      const bool last = (ends >> k) & 1;
      dst = dst.narrow(d, last ? kEdgeItems : 0, kEdgeItems);
      src = src.narrow(d, last ? t.size(d) - kEdgeItems : 0, kEdgeItems);
    }
    dst.copy_(src);
  }
  return small;
}

// A contiguous double copy of what is printed, indexable recursively by the printed
// tensor's indices. `data` holds either every element or, when summarising, only the
// edges (summarized_copy): index i of a shortened dimension d is then found at
// i - skip[d] once past the first edge.
struct Values {
  std::vector<double> data;
  Shape sizes;
  Shape strides;
  Shape skip;
  int64_t step(size_t d, int64_t i) const { return (i < kEdgeItems ? i : i - skip[d]) * strides[d]; }
};

// `shown` is `full` itself or its summarized_copy.
Values to_values(const Tensor& shown, IntList full) {
  Tensor c = shown.to(DType::Double).contiguous();
  Values v;
  v.data.assign(c.data<double>(), c.data<double>() + c.numel());
  v.sizes.assign(full.begin(), full.end());
  v.strides = contiguous_strides(shown.sizes());
  for (size_t d = 0; d < v.sizes.size(); ++d) v.skip.push_back(v.sizes[d] - shown.size(static_cast<int64_t>(d)));
  return v;
}

// get_summarized_data: offsets of the elements the formatter sees (all of them, or
// the edge items of every dimension when summarising).
void summarized(const Values& v, size_t d, int64_t offset, bool summarize,
                std::vector<int64_t>& out) {
  if (d == v.sizes.size()) {
    out.push_back(offset);
    return;
  }
  int64_t n = v.sizes[d];
  auto visit = [&](int64_t i) { summarized(v, d + 1, offset + v.step(d, i), summarize, out); };
  if (summarize && n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) visit(i);
    for (int64_t i = n - kEdgeItems; i < n; ++i) visit(i);
  } else {
    for (int64_t i = 0; i < n; ++i) visit(i);
  }
}

std::vector<double> summarized_values(const Values& v, bool summarize) {
  std::vector<int64_t> offsets;
  summarized(v, 0, 0, summarize, offsets);
  std::vector<double> out;
  out.reserve(offsets.size());
  for (int64_t o : offsets) out.push_back(v.data[static_cast<size_t>(o)]);
  return out;
}

class Printer {
 public:
  Printer(const Formatter& f1, const Formatter* f2, const Values& real, const Values* imag,
          const std::vector<int64_t>* exact, bool summarize)
      : f1_(f1), f2_(f2), real_(real), imag_(imag), exact_(exact), summarize_(summarize) {}

  std::string element(int64_t offset) const {
    if (exact_ != nullptr) {
      std::string s = std::to_string((*exact_)[offset]);
      if (s.size() < f1_.max_width) s.insert(0, f1_.max_width - s.size(), ' ');
      return s;
    }
    std::string re = f1_.format(real_.data[offset]);
    if (f2_ == nullptr) return re;
    std::string im = f2_->format(imag_->data[offset]) + "j";
    im.erase(0, im.find_first_not_of(' '));
    if (im[0] == '+' || im[0] == '-') return re + im;
    return re + "+" + im;
  }

  std::string tensor(size_t d, int64_t offset, int indent) const {
    size_t nd = real_.sizes.size();
    if (d == nd) return element(offset);
    int64_t n = real_.sizes[d];
    if (d + 1 == nd) return vector(d, n, offset, indent);
    std::vector<std::string> slices;
    auto add = [&](int64_t i) { slices.push_back(tensor(d + 1, offset + real_.step(d, i), indent + 1)); };
    if (summarize_ && n > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i) add(i);
      slices.push_back("...");
      for (int64_t i = n - kEdgeItems; i < n; ++i) add(i);
    } else {
      for (int64_t i = 0; i < n; ++i) add(i);
    }
    std::string sep = "," + std::string(nd - d - 1, '\n') + std::string(indent + 1, ' ');
    return "[" + join(slices, sep) + "]";
  }

 private:
  std::string vector(size_t d, int64_t n, int64_t offset, int indent) const {
    size_t element_length = f1_.max_width + 2;
    if (f2_ != nullptr) element_length += f2_->max_width + 1;
    int64_t per_line = std::max<int64_t>(
        1, static_cast<int64_t>(std::floor(double(kLineWidth - indent) / double(element_length))));
    std::vector<std::string> data;
    if (summarize_ && n > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i) data.push_back(element(offset + real_.step(d, i)));
      data.push_back(" ...");
      for (int64_t i = n - kEdgeItems; i < n; ++i) data.push_back(element(offset + real_.step(d, i)));
    } else {
      for (int64_t i = 0; i < n; ++i) data.push_back(element(offset + real_.step(d, i)));
    }
    std::vector<std::string> lines;
    for (size_t i = 0; i < data.size(); i += static_cast<size_t>(per_line)) {
      std::vector<std::string> line(data.begin() + static_cast<std::ptrdiff_t>(i),
                                    data.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                       data.size(), i + size_t(per_line))));
      lines.push_back(join(line, ", "));
    }
    return "[" + join(lines, ",\n" + std::string(indent + 1, ' ')) + "]";
  }

  static std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (i) out += sep;
      out += parts[i];
    }
    return out;
  }

  const Formatter& f1_;
  const Formatter* f2_;
  const Values& real_;
  const Values* imag_;
  const std::vector<int64_t>* exact_;
  bool summarize_;
};

std::string tensor_body(const Tensor& full, int indent) {
  bool summarize = full.numel() > kThreshold;
  const Tensor t = summarize ? summarized_copy(full) : full;
  DType d = t.dtype();
  if (is_complex(d)) {
    Tensor c = t.to(DType::ComplexDouble).contiguous();
    Tensor re = empty(c.sizes(), DType::Double), im = empty(c.sizes(), DType::Double);
    const auto* src = c.data<std::complex<double>>();
    for (int64_t i = 0; i < c.numel(); ++i) {
      re.data<double>()[i] = src[i].real();
      im.data<double>()[i] = src[i].imag();
    }
    Values rv = to_values(re, full.sizes()), iv = to_values(im, full.sizes());
    std::vector<double> rs = summarized_values(rv, summarize);
    std::vector<double> is = summarized_values(iv, summarize);
    Formatter f1(ValueKind::Floating, rs), f2(ValueKind::Floating, is);
    return Printer(f1, &f2, rv, &iv, nullptr, summarize).tensor(0, 0, indent);
  }
  ValueKind kind = is_floating(d)    ? ValueKind::Floating
                   : d == DType::Bool ? ValueKind::Boolean
                                      : ValueKind::Integral;
  Values v = to_values(t, full.sizes());
  std::vector<int64_t> exact;
  if (kind == ValueKind::Integral) {
    Tensor l = t.to(DType::Long).contiguous();
    exact.assign(l.data<int64_t>(), l.data<int64_t>() + l.numel());
  }
  Formatter f(kind, summarized_values(v, summarize));
  if (kind == ValueKind::Integral) {
    // Width from the exact integers: doubles could round int64 values beyond 2^53.
    std::vector<int64_t> offsets;
    summarized(v, 0, 0, summarize, offsets);
    f.max_width = 1;
    for (int64_t o : offsets) {
      f.max_width = std::max(f.max_width, std::to_string(exact[static_cast<size_t>(o)]).size());
    }
  }
  return Printer(f, nullptr, v, nullptr, kind == ValueKind::Integral ? &exact : nullptr,
                 summarize)
      .tensor(0, 0, indent);
}

std::string add_suffixes(const std::string& body, const std::vector<std::string>& suffixes,
                         int indent) {
  std::string out = body;
  size_t nl = body.rfind('\n');
  // As torch computes it: len(s) - s.rfind("\n") + 1, where rfind gives -1 if absent.
  size_t last_line_len = nl == std::string::npos ? body.size() + 2 : body.size() - nl + 1;
  for (const auto& s : suffixes) {
    if (last_line_len + s.size() + 2 > static_cast<size_t>(kLineWidth)) {
      out += ",\n" + std::string(indent, ' ') + s;
      last_line_len = indent + s.size();
    } else {
      out += ", " + s;
      last_line_len += s.size() + 2;
    }
  }
  return out + ")";
}

}  // namespace

std::string Tensor::repr() const {
  if (!defined()) return "tensor(undefined)";
  const std::string prefix = "tensor(";
  const int indent = static_cast<int>(prefix.size());
  std::vector<std::string> suffixes;
  DType d = dtype();
  TL_CHECK(!is_quantized(d), UnsupportedError, "printing quantized tensors is not supported");
  bool default_dtype = d == kDefaultFloatDType || d == DType::ComplexFloat || d == DType::Long ||
                       d == DType::Bool;
  std::string body;
  if (numel() == 0) {
    if (dim() != 1) {
      std::string shape = shape_repr(sizes());  // "[0, 3]" -> Python tuple "(0, 3)"
      shape.front() = '(';
      shape.back() = ')';
      suffixes.push_back("size=" + shape);
    }
    if (d != kDefaultFloatDType) suffixes.push_back("dtype=" + dtype_repr(d));
    body = "[]";
  } else {
    if (!default_dtype) suffixes.push_back("dtype=" + dtype_repr(d));
    body = tensor_body(*this, indent);
  }
  if (requires_grad()) suffixes.push_back("requires_grad=True");
  std::string out = add_suffixes(prefix + body, suffixes, indent);
  if (impl_->is_parameter_) return "Parameter containing:\n" + out;
  return out;
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.repr(); }

}  // namespace torchlet
