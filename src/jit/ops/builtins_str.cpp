// TorchScript's string builtins whose names have no tensor or list overloads (str
// methods, join, format, %, str(), print, warn, ord/chr/hex/oct/bin) and torch's IValue
// printer they share. Strings are byte strings, as torch's are (std::string): methods
// look at ASCII classes only, len() counts bytes. Methods are boxed from typed kernels
// on std::string (Note [Boxing]); print, format and % take a variable number of values
// and stay stack adapters. The str overloads of names with other forms are registered
// with those: add.str in arithmetic.cpp, slice.str and split.str in shape.cpp, index.str
// in indexing.cpp (kernels in str_builtins.h, with str.find), and len, [] and count of
// a str in builtins_containers.cpp.
// The printer follows torch 1.13's, which differs from Python's repr: strings inside
// containers are unquoted, integral floats print as "1.", others with 17 significant
// digits ("0.10000000000000001"), complex numbers as "3.+4.j".
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "core/allocation_limit.h"
#include "core/ascii.h"
#include "core/python_format.h"
#include "values/value_recursion.h"
#include "jit/ops/boxing.h"
#include "jit/ops/str_builtins.h"

namespace torchlet::jit::ops {

namespace {

std::string double_str(double d) {
  if (std::isfinite(d) && std::fabs(d) < 9.2233720368547758e18) {
    auto i = static_cast<int64_t>(d);
    if (static_cast<double>(i) == d) return std::to_string(i) + ".";
  }
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return fmt::format("{:.17g}", d);  // printf's %.17g, without the C locale's decimal point
}

// torch's C++ tensor printer (what print(t) and str(t) show in TorchScript): the values
// then a line naming the type and sizes, e.g. " 1.0000\n 2.5000\n[ CPUFloatType{2} ]".
// One format serves every element, chosen from the digit counts (floor(log10) + 1) of
// the largest and smallest finite magnitudes, as torch chooses it (measured on torch
// 1.13 in tests/fixtures/gen_ops.py):
//   all integral:     %g in digits+1 columns, or scientific when more than 9 digits;
//   otherwise:        scientific (11 columns) when the digit counts differ by more than
//                     4; a "scale *" header (10^(digits-1)) when the largest has more
//                     than 5 digits or none before the point; else 4 decimals.
// 1-d tensors print a value per line, 2-d row by row, higher ones as "(i,j,.,.) = "
// slices whose rows are indented by one space.
struct ValueFormat {
  enum class Kind { Int, Fixed, Sci } kind = Kind::Int;
  int width = 2;
  double scale = 1;
};

ValueFormat value_format(const std::vector<double>& values, bool integer_dtype) {
  double max_abs = 0, min_abs = std::numeric_limits<double>::infinity();
  bool integral = true;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    integral = integral && v == std::floor(v);
    max_abs = std::max(max_abs, std::fabs(v));
    min_abs = std::min(min_abs, std::fabs(v));
  }
  auto digits = [](double x) { return x > 0 ? static_cast<int>(std::floor(std::log10(x))) + 1 : 1; };
  const int exp_max = digits(max_abs);
  const int exp_min = std::isfinite(min_abs) ? digits(min_abs) : 1;
  if (integral || integer_dtype) {
    if (exp_max > 9) return {ValueFormat::Kind::Sci, 11, 1};
    return {ValueFormat::Kind::Int, exp_max + 1, 1};
  }
  if (exp_max - exp_min > 4) return {ValueFormat::Kind::Sci, 11, 1};
  if (exp_max > 5 || exp_max < 0) return {ValueFormat::Kind::Fixed, 7, std::pow(10.0, exp_max - 1)};
  return {ValueFormat::Kind::Fixed, std::max(exp_max, 1) + 6, 1};
}

std::string format_value(double v, const ValueFormat& f) {
  std::string text;
  if (std::isnan(v)) {
    text = "nan";
  } else if (std::isinf(v)) {
    text = v > 0 ? "inf" : "-inf";
  } else {
    switch (f.kind) {
      case ValueFormat::Kind::Int: text = fmt::format("{:g}", v); break;
      case ValueFormat::Kind::Fixed: text = fmt::format("{:.4f}", v / f.scale); break;
      case ValueFormat::Kind::Sci: text = fmt::format("{:.4e}", v); break;
    }
  }
  if (static_cast<int>(text.size()) < f.width) text.insert(0, static_cast<size_t>(f.width) - text.size(), ' ');
  return text;
}

std::string tensor_str(const Tensor& t) {
  ClassicStringStream out;
  const std::string type = fmt::format("CPU{}Type", dtype_info(t.dtype()).scalar_type_name);
  std::string sizes;
  for (size_t i = 0; i < t.sizes().size(); ++i) sizes += (i ? "," : "") + std::to_string(t.sizes()[i]);
  if (t.dim() == 0) {
    out << t.item().repr() << "\n[ " << type << "{} ]";
    return out.str();
  }
  if (t.numel() == 0) {
    out << "[ " << type << "{" << sizes << "} ]";
    return out.str();
  }
  std::vector<double> values = t.contiguous().to(DType::Double).to_vector<double>();
  const ValueFormat f = value_format(values, !is_floating(t.dtype()) && !is_complex(t.dtype()));
  if (f.scale != 1) out << fmt::format("{:.4g}", f.scale) << " *\n";  // torch prints it at precision 4
  const int64_t cols = t.size(-1);
  const int64_t rows = t.dim() >= 2 ? t.size(-2) : 1;
  const int64_t matrix = rows * cols;
  for (size_t i = 0; i < values.size(); ++i) {
    const auto idx = static_cast<int64_t>(i);
    if (t.dim() > 2 && idx % matrix == 0) {
      // "(i,j,.,.) = " names the slice by its leading (1-based) indices.
      if (idx) out << "\n";
      std::string head;
      int64_t rem = idx / matrix;
      for (int64_t d = t.dim() - 3; d >= 0; --d) {
        head.insert(0, std::to_string(rem % t.size(d) + 1) + ",");
        rem /= t.size(d);
      }
      out << "(" << head << ".,.) = \n";
    }
    if (t.dim() > 2 && idx % cols == 0) out << " ";
    const bool row_end = t.dim() == 1 || (idx + 1) % cols == 0;
    out << format_value(values[i], f) << (row_end ? "\n" : " ");
  }
  out << "[ " << type << "{" << sizes << "} ]";
  return out.str();
}

void print_to(std::ostream& out, const IValue& v);

void print_to(std::ostream& out, const IValue& v) {
  switch (v.tag()) {
    case IValueTag::None: out << "None"; return;
    case IValueTag::Bool: out << (v.toBool() ? "True" : "False"); return;
    case IValueTag::Int: out << v.toInt(); return;
    case IValueTag::Double: out << double_str(v.toDouble()); return;
    case IValueTag::ComplexDouble: {
      auto c = v.toComplexDouble();
      out << double_str(c.real()) << (c.imag() >= 0 ? "+" : "-") << double_str(std::fabs(c.imag())) << "j";
      return;
    }
    case IValueTag::String: out << v.toStringRef(); return;
    case IValueTag::Tensor: out << tensor_str(v.toTensor()); return;
    case IValueTag::Device: out << v.toDevice().str(); return;
    case IValueTag::List:
    case IValueTag::Tuple:
    case IValueTag::Dict:
      print_container(out, v, [&](const IValue& e) { print_to(out, e); });
      return;
    case IValueTag::Storage:
    case IValueTag::BigInt:
    case IValueTag::Bytes:
    case IValueTag::Object:
    case IValueTag::PyObject:
    case IValueTag::Enum:
    case IValueTag::Future:
    case IValueTag::Uninitialized:
      out << v.repr();
      return;
  }
}

}  // namespace

std::string ivalue_str(const IValue& v) {
  ClassicStringStream out;
  print_to(out, v);
  return out.str();
}

namespace {

// prim::Print(...): the values separated by spaces and a newline, on stdout.
void print(Stack& s) {
  size_t n = pop_num_inputs(s);
  ClassicStringStream out;
  for (size_t i = 0; i < n; ++i) {
    if (i) out << " ";
    print_to(out, peek(s, i, n));
  }
  drop(s, n);
  out << "\n";
  std::cout << out.str() << std::flush;
}

// aten::format(str self, ...): each "{}" takes the next argument (no "{{" escapes, as
// in torch); surplus arguments are ignored, too few is torch's error.
void format(Stack& s) {
  size_t n = pop_num_inputs(s);
  const std::string fmt_text = peek(s, 0, n).toStringRef();
  ClassicStringStream out;
  size_t begin = 0;
  for (size_t i = 1; i < n; ++i) {
    size_t loc = fmt_text.find("{}", begin);
    if (loc == std::string::npos) break;
    out << fmt_text.substr(begin, loc - begin);
    check_printed_length(out, "str.format");  // every {} may print the same long value
    print_to(out, peek(s, i, n));
    begin = loc + 2;
  }
  TL_CHECK(fmt_text.find("{}", begin) == std::string::npos, ScriptError,
           "Too few arguments for format string: {}", fmt_text);
  out << fmt_text.substr(begin);
  drop(s, n);
  push(s, out.str());
}

// aten::percentFormat(str self, ...): "fmt" % args, as torch compiles it; a tuple right
// operand arrives as one tuple. %s prints like str(), %d/%i take an int (a float is
// truncated), %f/%e as C's printf, %c a character code, %% a percent sign; torch 1.13
// refuses every other specifier (%g, %x, a precision) by name.
void percent_format(Stack& s) {
  size_t n = pop_num_inputs(s);
  const std::string fmt_text = peek(s, 0, n).toStringRef();
  std::vector<IValue> args;
  for (size_t i = 1; i < n; ++i) args.push_back(peek(s, i, n));
  if (args.size() == 1 && args[0].isTuple()) args = args[0].tupleRef().elements;
  drop(s, n);
  ClassicStringStream out;
  size_t used = 0, begin = 0;
  while (true) {
    const size_t loc = fmt_text.find('%', begin);
    if (loc == std::string::npos || loc + 1 >= fmt_text.size()) break;
    check_printed_length(out, "str % args");
    out << fmt_text.substr(begin, loc - begin);
    begin = loc + 2;
    const char key = fmt_text[loc + 1];
    if (key == '%') {
      out << '%';
      continue;
    }
    TL_CHECK(used < args.size(), ScriptError, "Too few arguments for format string: {}", fmt_text);
    const IValue& arg = args[used++];
    switch (key) {
      case 'd':
      case 'i':
        TL_CHECK(arg.isInt() || arg.isDouble() || arg.isBool(), ScriptError, "%{} requires a number for formatting, but got {}", key,
                 arg.tag_name());
        out << (arg.isDouble() ? static_cast<int64_t>(arg.toDouble()) : arg.isBool() ? int64_t{arg.toBool()} : arg.toInt());
        break;
      case 'e':
      case 'f': {
        TL_CHECK(arg.isInt() || arg.isDouble(), ScriptError, "%{} requires a number for formatting, but got {}", key, arg.tag_name());
        const double d = arg.isDouble() ? arg.toDouble() : static_cast<double>(arg.toInt());
        // fmt's e and f are printf's, without the C locale's decimal point.
        out << (key == 'e' ? fmt::format("{:e}", d) : fmt::format("{:f}", d));
        break;
      }
      case 'c':
        TL_CHECK(arg.isInt() || arg.isString(), ScriptError, "%c requires an int or char for formatting, but got {}", arg.tag_name());
        if (arg.isInt()) out << static_cast<char>(arg.toInt());
        else out << arg.toStringRef();
        break;
      case 's':
        print_to(out, arg);
        break;
      default:
        TL_FAIL(ScriptError, "The specifier %{} is not supported in TorchScript format strings", key);
    }
  }
  out << fmt_text.substr(std::min(begin, fmt_text.size()));
  push(s, out.str());
}

void warn(const std::string& message, int64_t /*stacklevel*/) { std::cerr << "UserWarning: " << message << "\n"; }

std::string join(const std::string& sep, const IValue& values) {
  const auto& e = values.listRef().elements;
  // Sized first: a list repeating one long string joins to far more than it holds.
  size_t length = 0;  // saturates just past the largest limit: no overflow
  for (size_t i = 0; i < e.size(); ++i)
    length = std::min(length + (i ? sep.size() : 0) + e[i].toStringRef().size(), kMaxAllocationBytes + 1);
  std::string out;
  out.reserve(result_length(length, 1, "str.join"));
  for (size_t i = 0; i < e.size(); ++i) {
    if (i) out += sep;
    out += e[i].toStringRef();
  }
  return out;
}

template <char (*F)(char)>
std::string map_chars(std::string str) {
  for (char& c : str) c = F(c);
  return str;
}
std::string swapcase(std::string str) {
  for (char& c : str) c = ascii_upper(c) ? ascii_to_lower(c) : ascii_to_upper(c);
  return str;
}
std::string capitalize(const std::string& text) {
  std::string str = map_chars<ascii_to_lower>(text);
  if (!str.empty()) str[0] = ascii_to_upper(str[0]);
  return str;
}
// title(): the first cased letter after an uncased character goes upper, others lower.
std::string title(std::string str) {
  bool prev_cased = false;
  for (char& c : str) {
    c = prev_cased ? ascii_to_lower(c) : ascii_to_upper(c);
    prev_cased = ascii_alpha(c);
  }
  return str;
}

// str.isX(): false for the empty string; true when every byte is in the class.
template <bool (*F)(char)>
bool all_chars(const std::string& str) {
  return !str.empty() && std::all_of(str.begin(), str.end(), F);
}
bool isprintable(const std::string& str) {  // true for the empty string, unlike the others
  return std::all_of(str.begin(), str.end(), ascii_print);
}
// isupper/islower: at least one cased byte, and none of the other case.
template <bool kUpper>
bool is_case(const std::string& str) {
  bool cased = false;
  for (char c : str) {
    if (kUpper ? ascii_lower(c) : ascii_upper(c)) return false;
    cased = cased || ascii_alpha(c);
  }
  return cased;
}
bool istitle(const std::string& str) {
  bool prev_cased = false, any = false;
  for (char c : str) {
    if (ascii_upper(c)) {
      if (prev_cased) return false;
      prev_cased = any = true;
    } else if (ascii_lower(c)) {
      if (!prev_cased) return false;
      prev_cased = any = true;
    } else {
      prev_cased = false;
    }
  }
  return any;
}
// torch 1.13's isidentifier (it warns that it follows Python 2): not starting with a
// digit, and every byte alphanumeric, so "_" and "x_1" are not identifiers.
bool isidentifier(const std::string& str) {
  bool ok = !str.empty() && !ascii_digit(str[0]);
  for (char c : str) ok = ok && ascii_alnum(c);
  return ok;
}

// strip family: drop bytes found in `chars` from one or both ends.
template <bool kLeft, bool kRight>
std::string strip(const std::string& str, const std::string& chars) {
  size_t b = 0, e = str.size();
  if (kLeft) while (b < e && chars.find(str[b]) != std::string::npos) ++b;
  if (kRight) while (e > b && chars.find(str[e - 1]) != std::string::npos) --e;
  return str.substr(b, e - b);
}

}  // namespace

std::string_view str_window(const std::string& str, int64_t start, int64_t end) {
  const auto size = static_cast<int64_t>(str.size());
  if (start < 0) start = std::max<int64_t>(0, size + start);
  if (end < 0) end = std::max<int64_t>(0, size + end + 1);
  start = std::min(start, size);
  end = std::min(end, size);
  if (end < start) end = start;
  return std::string_view(str).substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
}

namespace {

bool startswith(const std::string& str, const std::string& sub, int64_t start, int64_t end) {
  return str_window(str, start, end).substr(0, sub.size()) == sub;
}
bool endswith(const std::string& str, const std::string& sub, int64_t start, int64_t end) {
  const std::string_view w = str_window(str, start, end);
  return w.size() >= sub.size() && w.substr(w.size() - sub.size()) == sub;
}
std::string replace(const std::string& str, const std::string& old, const std::string& repl, int64_t max) {
  std::string out;
  size_t pos = 0;
  for (int64_t done = 0; max < 0 || done < max; ++done) {
    size_t at = old.empty() ? (pos <= str.size() ? pos : std::string::npos) : str.find(old, pos);
    if (at == std::string::npos) break;
    // Each replacement may add a long `repl`: checked as the result grows.
    (void)result_length(out.size() + (at - pos) + repl.size() + 1, 1, "str.replace");
    out += str.substr(pos, at - pos) + repl;
    if (old.empty()) {
      if (at < str.size()) out += str[at];
      pos = at + 1;
    } else {
      pos = at + old.size();
    }
  }
  if (pos <= str.size()) out += str.substr(pos);
  return out;
}
std::vector<std::string> rsplit(const std::string& str, const std::string& sep, int64_t max) {
  TL_CHECK(!sep.empty(), ValueError, "empty separator");
  std::vector<std::string> out;
  size_t end = str.size();
  while (max < 0 || static_cast<int64_t>(out.size()) < max) {
    if (end < sep.size()) break;
    size_t at = str.rfind(sep, end - sep.size());
    if (at == std::string::npos) break;
    out.push_back(str.substr(at + sep.size(), end - at - sep.size()));
    end = at;
  }
  out.push_back(str.substr(0, end));
  std::reverse(out.begin(), out.end());
  return out;
}
// torch 1.13's splitlines: every line-break byte ends a line (so "\r\n" makes an
// empty line), a trailing break adds no empty line, and keepends pushes each break as
// its own element.
std::vector<std::string> splitlines(const std::string& str, bool keepends) {
  static constexpr std::string_view kBreaks = "\n\r\v\f\x1c\x1d\x1e";
  std::vector<std::string> out;
  size_t prev = 0;
  for (size_t pos = str.find_first_of(kBreaks, prev); pos != std::string::npos;
       pos = str.find_first_of(kBreaks, prev)) {
    out.push_back(str.substr(prev, pos - prev));
    if (keepends) out.push_back(str.substr(pos, 1));
    prev = pos + 1;
  }
  if (prev < str.size()) out.push_back(str.substr(prev));
  return out;
}
// `-> (str, str, str)` is three returns. An empty separator is Python's ValueError in
// both; torch 1.13 splits at the end (rpartition) or the start (partition) instead.
using Parts = std::tuple<std::string, std::string, std::string>;
Parts partition(const std::string& str, const std::string& sep) {
  TL_CHECK(!sep.empty(), ValueError, "empty separator");
  size_t at = str.find(sep);
  if (at == std::string::npos) return {str, std::string(), std::string()};
  return {str.substr(0, at), sep, str.substr(at + sep.size())};
}
Parts rpartition(const std::string& str, const std::string& sep) {
  TL_CHECK(!sep.empty(), ValueError, "empty separator");
  size_t at = str.rfind(sep);
  if (at == std::string::npos) return {std::string(), std::string(), str};
  return {str.substr(0, at), sep, str.substr(at + sep.size())};
}
// center/ljust/rjust: pad to width with the fill character (center puts the odd one
// on the right when the padding is odd and the length even, as CPython does).
template <int kWhere>  // -1 ljust, 0 center, 1 rjust
std::string justify(const std::string& str, int64_t width, const std::string& fill) {
  TL_CHECK(fill.size() == 1, TypeError, "The fill character must be exactly one character long");
  auto len = static_cast<int64_t>(str.size());
  if (width <= len) return str;
  int64_t pad = width - len;
  (void)repeated_size(1, pad, 1, kWhere < 0 ? "str.ljust" : kWhere > 0 ? "str.rjust" : "str.center");
  int64_t left = kWhere < 0 ? 0 : kWhere > 0 ? pad : pad / 2 + (pad & width & 1);
  return std::string(static_cast<size_t>(left), fill[0]) + str + std::string(static_cast<size_t>(pad - left), fill[0]);
}
// torch's zfill pads on the left without looking at a sign ("-42" -> "000-42").
std::string zfill(const std::string& str, int64_t width) {
  auto len = static_cast<int64_t>(str.size());
  if (width <= len) return str;
  return std::string(repeated_size(1, width - len, 1, "str.zfill"), '0') + str;
}
std::string expandtabs(const std::string& str, int64_t tabsize) {
  std::string out;
  // Each tab adds at most tabsize: reserve that bound once, so a string of tabs with a
  // huge tabsize fails at once rather than appending until memory runs out.
  const auto tabs = static_cast<size_t>(std::count(str.begin(), str.end(), '\t'));
  out.reserve(repeated_size(tabs, std::max<int64_t>(tabsize, 1), 1, "str.expandtabs") + str.size());
  int64_t col = 0;
  for (char c : str) {
    if (c == '\t') {
      if (tabsize > 0) {
        int64_t n = tabsize - col % tabsize;
        out.append(static_cast<size_t>(n), ' ');
        col += n;
      }
    } else {
      out += c;
      col = (c == '\n' || c == '\r') ? 0 : col + 1;
    }
  }
  return out;
}
int64_t ord(const std::string& str) {
  TL_CHECK(str.size() == 1, TypeError, "String for ord() must be 1 character, found {}", str.size());
  return static_cast<int64_t>(static_cast<unsigned char>(str[0]));
}
// chr(i): one byte, as torch's interpreter builds it (no UTF-8 encoding).
std::string chr(int64_t i) {
  TL_CHECK(i >= 0 && i < 0x110000, ValueError, "chr() arg not in range(0x110000), found {}", i);
  return std::string(1, static_cast<char>(i));
}
template <int kBase>
std::string int_to_base(int64_t i) {
  const char* prefix = kBase == 16 ? "0x" : kBase == 8 ? "0o" : "0b";
  uint64_t mag = i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
  std::string digits;
  do {
    digits += "0123456789abcdef"[mag % kBase];
    mag /= kBase;
  } while (mag);
  std::reverse(digits.begin(), digits.end());
  return std::string(i < 0 ? "-" : "") + prefix + digits;
}

}  // namespace

static RegisterOps reg({
    {"aten::str(t elem) -> str", boxed<&ivalue_str>},
    {"prim::Print(...) -> ()", print},
    {"aten::format(str self, ...) -> str", format},
    {"aten::percentFormat(str self, ...) -> str", percent_format},
    {"aten::warn(str message, int stacklevel=2) -> ()", boxed<&warn>},
    {"aten::join(str self, str[] values) -> str", boxed<&join>},
    {"aten::lower(str self) -> str", boxed<&map_chars<ascii_to_lower>>},
    {"aten::upper(str self) -> str", boxed<&map_chars<ascii_to_upper>>},
    {"aten::swapcase(str self) -> str", boxed<&swapcase>},
    {"aten::capitalize(str self) -> str", boxed<&capitalize>},
    {"aten::title(str self) -> str", boxed<&title>},
    {"aten::isalnum(str self) -> bool", boxed<&all_chars<ascii_alnum>>},
    {"aten::isalpha(str self) -> bool", boxed<&all_chars<ascii_alpha>>},
    {"aten::isdigit(str self) -> bool", boxed<&all_chars<ascii_digit>>},
    {"aten::isdecimal(str self) -> bool", boxed<&all_chars<ascii_digit>>},
    {"aten::isnumeric(str self) -> bool", boxed<&all_chars<ascii_digit>>},
    {"aten::isspace(str self) -> bool", boxed<&all_chars<ascii_space>>},
    {"aten::isprintable(str self) -> bool", boxed<&isprintable>},
    {"aten::isupper(str self) -> bool", boxed<&is_case<true>>},
    {"aten::islower(str self) -> bool", boxed<&is_case<false>>},
    {"aten::istitle(str self) -> bool", boxed<&istitle>},
    {"aten::isidentifier(str self) -> bool", boxed<&isidentifier>},
    {"aten::strip(str self, str chars=\" \\n\\t\\f\\v\") -> str", boxed<&strip<true, true>>},
    {"aten::lstrip(str self, str chars=\" \\n\\t\\f\\v\") -> str", boxed<&strip<true, false>>},
    {"aten::rstrip(str self, str chars=\" \\n\\t\\f\\v\") -> str", boxed<&strip<false, true>>},
    {"aten::find(str self, str substr, int start=0, int end=-1) -> int", boxed<&str_find<false, false>>},
    {"aten::rfind(str self, str substr, int start=0, int end=-1) -> int", boxed<&str_find<true, false>>},
    {"aten::rindex(str self, str substr, int start=0, int end=-1) -> int", boxed<&str_find<true, true>>},
    {"aten::startswith(str self, str substr, int start=0, int end=-1) -> bool", boxed<&startswith>},
    {"aten::endswith(str self, str substr, int start=0, int end=-1) -> bool", boxed<&endswith>},
    {"aten::replace(str self, str old, str new, int max=-1) -> str", boxed<&replace>},
    {"aten::rsplit(str self, str separator=\" \", int max=-1) -> str[]", boxed<&rsplit>},
    {"aten::splitlines(str self, bool keepends=False) -> str[]", boxed<&splitlines>},
    {"aten::partition(str self, str separator) -> (str, str, str)", boxed<&partition>},
    {"aten::rpartition(str self, str separator) -> (str, str, str)", boxed<&rpartition>},
    {"aten::ljust(str self, int width, str fillchar=\" \") -> str", boxed<&justify<-1>>},
    {"aten::center(str self, int width, str fillchar=\" \") -> str", boxed<&justify<0>>},
    {"aten::rjust(str self, int width, str fillchar=\" \") -> str", boxed<&justify<1>>},
    {"aten::zfill(str self, int width) -> str", boxed<&zfill>},
    {"aten::expandtabs(str self, int tabsize=8) -> str", boxed<&expandtabs>},
    {"aten::ord(str string) -> int", boxed<&ord>},
    {"aten::chr(int i) -> str", boxed<&chr>},
    {"aten::hex(int i) -> str", boxed<&int_to_base<16>>},
    {"aten::oct(int i) -> str", boxed<&int_to_base<8>>},
    {"aten::bin(int i) -> str", boxed<&int_to_base<2>>},

});

}  // namespace torchlet::jit::ops
