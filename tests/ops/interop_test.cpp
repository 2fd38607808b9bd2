// Every operator case real PyTorch ran (tests/fixtures/gen_ops.py -> ops/cases.pt) is
// run through the registry with the same arguments (defaults filled from the schema,
// as the interpreter's caller does) and compared: where torch raised, torchlet must
// throw (with torch's message for the cases marked `message`); otherwise each return
// must match in kind, dtype and shape, and in value (exact for integers, bools and
// strings; within the case's relative tolerance for floats: 1e-5 elementwise, 1e-4
// for reductions, convolutions and matrix products, looser for float16/bfloat16), and
// every tensor the op writes (in place, out=) must hold what torch left in it; what an
// op prints (prim::Print) or warns (aten::warn) must match too.
#include <cmath>
#include <complex>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <torchlet/checkpoint.h>
#include <torchlet/error.h>

#include "../common/fixtures.h"
#include "values/type.h"
#include "jit/runtime/operator.h"

namespace torchlet {
namespace {

using jit::Operator;
using jit::OperatorRegistry;
using jit::Stack;

const IValue& field(const IValue& dict, const char* name) {
  const IValue* v = dict.dictRef().find(IValue(name));
  if (!v) throw std::runtime_error(std::string("case without field ") + name);
  return *v;
}

struct Tolerance {
  double rtol = 0, atol = 0;
};

Tolerance tolerance_for(DType d, double case_rtol) {
  if (case_rtol == 0) return {};
  switch (d) {
    case DType::Half: return {std::max(case_rtol, 1e-3), 1e-3};
    case DType::BFloat16: return {std::max(case_rtol, 1e-2), 1e-2};
    default: return {case_rtol, case_rtol * 0.1};
  }
}

bool close(double want, double got, Tolerance tol) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return want == got;
  return std::fabs(want - got) <= tol.atol + tol.rtol * std::fabs(want);
}

// "" when equal, else what differs.
std::string compare(const IValue& want, const IValue& got, double case_rtol, const std::string& path);

std::string compare_tensors(const Tensor& want, const Tensor& got, double case_rtol, const std::string& path) {
  if (want.dtype() != got.dtype())
    return fmt::format("{}: dtype {} vs torch {}", path, dtype_name(got.dtype()), dtype_name(want.dtype()));
  if (!(want.sizes() == got.sizes()))
    return fmt::format("{}: shape {} vs torch {}", path, shape_repr(got.sizes()), shape_repr(want.sizes()));
  if (std::isnan(case_rtol)) return "";  // uninitialized memory: only kind, dtype and shape
  if (is_complex(want.dtype())) {
    auto w = want.to_vector<std::complex<double>>();
    auto g = got.to_vector<std::complex<double>>();
    Tolerance tol = tolerance_for(want.dtype(), case_rtol);
    for (size_t i = 0; i < w.size(); ++i) {
      if (!close(w[i].real(), g[i].real(), tol) || !close(w[i].imag(), g[i].imag(), tol))
        return fmt::format("{}: element {} differs", path, i);
    }
    return "";
  }
  if (!is_floating(want.dtype())) {
    auto w = want.to_vector<int64_t>();
    auto g = got.to_vector<int64_t>();
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] != g[i]) return fmt::format("{}: element {} is {}, torch {}", path, i, g[i], w[i]);
    }
    return "";
  }
  auto w = want.to_vector<double>();
  auto g = got.to_vector<double>();
  // rtol 0 asks for torch's exact values, in every dtype.
  Tolerance tol = case_rtol == 0 ? Tolerance{} : tolerance_for(want.dtype(), case_rtol);
  for (size_t i = 0; i < w.size(); ++i) {
    if (!close(w[i], g[i], tol)) return fmt::format("{}: element {} is {}, torch {}", path, i, g[i], w[i]);
  }
  return "";
}

template <typename Seq>
std::string compare_seq(const Seq& want, const Seq& got, double rtol, const std::string& path) {
  if (want.size() != got.size()) return fmt::format("{}: {} elements vs torch {}", path, got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    std::string d = compare(want[i], got[i], rtol, fmt::format("{}[{}]", path, i));
    if (!d.empty()) return d;
  }
  return "";
}

std::string compare(const IValue& want, const IValue& got, double case_rtol, const std::string& path) {
  // torch.ops hands back a tuple return as a tuple and a list as a list; the stored
  // fixture keeps that, so kinds must agree exactly (bool is not int, int not float).
  if (want.tag() != got.tag()) return fmt::format("{}: {} vs torch {}", path, got.repr(), want.repr());
  switch (want.tag()) {
    case IValueTag::Tensor: return compare_tensors(want.toTensor(), got.toTensor(), case_rtol, path);
    case IValueTag::Double: {
      Tolerance tol{case_rtol == 0 ? 0.0 : std::max(case_rtol, 1e-12), 0.0};
      if (!close(want.toDouble(), got.toDouble(), tol)) return fmt::format("{}: {} vs torch {}", path, got.repr(), want.repr());
      return "";
    }
    case IValueTag::ComplexDouble: {
      Tolerance tol{std::max(case_rtol, 1e-12), 1e-300};
      auto w = want.toComplexDouble(), g = got.toComplexDouble();
      if (!close(w.real(), g.real(), tol) || !close(w.imag(), g.imag(), tol))
        return fmt::format("{}: {} vs torch {}", path, got.repr(), want.repr());
      return "";
    }
    case IValueTag::List: return compare_seq(want.listRef().elements, got.listRef().elements, case_rtol, path);
    case IValueTag::Tuple: return compare_seq(want.tupleRef().elements, got.tupleRef().elements, case_rtol, path);
    case IValueTag::Dict: {
      const auto& w = want.dictRef().items();
      const auto& g = got.dictRef().items();
      if (w.size() != g.size()) return fmt::format("{}: {} vs torch {}", path, got.repr(), want.repr());
      for (size_t i = 0; i < w.size(); ++i) {
        std::string d = compare(w[i].first, g[i].first, case_rtol, path + ".key");
        if (d.empty()) d = compare(w[i].second, g[i].second, case_rtol, path + "." + w[i].first.repr());
        if (!d.empty()) return d;
      }
      return "";
    }
    default:
      return want == got ? "" : fmt::format("{}: {} vs torch {}", path, got.repr(), want.repr());
  }
}

// An Enum member as gen_ops.py stores it: ("__enum__", class name, [(name, value) of
// every member], member name); torch.save cannot hold the member itself. One EnumType
// per class name, as a compiled program has, since Enum equality compares types.
IValue enum_of(const IValue& arg) {
  if (!arg.isTuple()) return arg;
  const auto& t = arg.tupleRef().elements;
  if (t.size() != 4 || !t[0].isString() || t[0].toStringRef() != "__enum__") return arg;
  static std::map<std::string, std::shared_ptr<const jit::EnumType>> types;
  auto& type = types[t[1].toStringRef()];
  if (!type) {
    std::vector<std::pair<std::string, IValue>> members;
    for (const IValue& m : t[2].listRef().elements)
      members.emplace_back(m.tupleRef().elements[0].toStringRef(), m.tupleRef().elements[1]);
    jit::TypePtr value_type = jit::type_of(members.front().second);
    type = std::make_shared<jit::EnumType>(t[1].toStringRef(), value_type, std::move(members));
  }
  for (const auto& [name, value] : type->members()) {
    if (name == t[3].toStringRef()) return IValue(make_intrusive<EnumImpl>(type, name, value));
  }
  throw std::runtime_error("enum case names no member " + t[3].toStringRef());
}

// The interpreter's calling convention: every argument in schema order, positional
// ones first, then keywords by name, then the schema's defaults; a vararg schema
// (`...`) takes every positional value and then their count.
Stack build_stack(const Operator& op, const IValue& args, const IValue& kwargs) {
  Stack stack;
  const auto& schema = op.schema();
  const auto& pos = args.listRef().elements;
  if (schema.is_vararg) {
    stack.assign(pos.begin(), pos.end());
    stack.emplace_back(static_cast<int64_t>(pos.size()));
    return stack;
  }
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    if (i < pos.size()) {
      stack.push_back(enum_of(pos[i]));
      continue;
    }
    if (const IValue* v = kwargs.dictRef().find(IValue(schema.arguments[i].name))) {
      stack.push_back(enum_of(*v));
      continue;
    }
    if (!op.defaults()[i]) throw std::runtime_error("no value for argument " + schema.arguments[i].name);
    stack.push_back(*op.defaults()[i]);
  }
  return stack;
}

struct Outcome {
  size_t cases = 0, failed = 0;
  std::map<std::string, size_t> failures_by_op;
};

// Messages compare without case: torch capitalises the first word ("Dimension out of
// range"), torchlet's kernels prefix the operator ("max: dimension out of range").
std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Runs one case; "" when it matches torch.
std::string run_case(const IValue& c, const Operator& op) {
  const IValue& error = field(c, "error");
  // A NaN tolerance tells compare_tensors the values are uninitialized memory.
  const double rtol = field(c, "uninitialized").toBool() ? std::nan("") : field(c, "rtol").toDouble();
  Stack stack = build_stack(op, field(c, "args"), field(c, "kwargs"));
  const Stack inputs = stack;  // tensor handles: they see in-place writes
  std::string thrown;
  bool threw = false;
  const IValue& want_printed = field(c, "stdout");  // prim::Print's cases
  const IValue& want_warning = field(c, "warning");  // aten::warn's cases
  if (!want_printed.isNone()) ::testing::internal::CaptureStdout();
  if (!want_warning.isNone()) ::testing::internal::CaptureStderr();
  try {
    op.operation()(stack);
  } catch (const Error& e) {
    threw = true;
    thrown = e.what();
  }
  if (!want_printed.isNone()) {
    const std::string printed = ::testing::internal::GetCapturedStdout();
    if (printed != want_printed.toStringRef())
      return "printed '" + printed + "', torch '" + want_printed.toStringRef() + "'";
  }
  if (!want_warning.isNone()) {
    // torch raises a Python UserWarning; torchlet has no Python and reports on stderr.
    const std::string reported = ::testing::internal::GetCapturedStderr();
    const std::string want = "UserWarning: " + want_warning.toStringRef();
    if (reported.find(want) == std::string::npos) return "reported '" + reported + "', torch warned '" + want + "'";
  }
  if (!error.isNone()) {
    if (!threw) return "torch raised '" + error.toStringRef() + "', torchlet returned";
    if (field(c, "message").toBool() && lower(thrown).find(lower(error.toStringRef())) == std::string::npos)
      return "message '" + thrown + "', torch '" + error.toStringRef() + "'";
    return "";
  }
  if (threw) return "threw '" + thrown + "'";
  const auto& want = field(c, "result").listRef().elements;
  if (stack.size() != want.size())
    return fmt::format("{} returns, torch {}", stack.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    std::string d = compare(want[i], stack[i], rtol, fmt::format("return {}", i));
    if (!d.empty()) return d;
  }
  for (const auto& [name, value] : field(c, "after").dictRef().items()) {
    const auto& args = op.schema().arguments;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].name != name.toStringRef()) continue;
      std::string d = compare(value, inputs[i], rtol, "argument " + args[i].name + " after the call");
      if (!d.empty()) return d;
    }
  }
  return "";
}

IValue load_cases() { return load((testing::fixture_dir() / "ops" / "cases.pt").string()); }

TEST(OpsInterop, EveryCaseMatchesTorch) {
  IValue cases;
  ASSERT_NO_THROW(cases = load_cases()) << "run tests/fixtures/generate.py (gen_ops.py)";
  Outcome outcome;
  size_t reported = 0;
  for (const IValue& c : cases.listRef().elements) {
    const std::string key = field(c, "op").toStringRef();
    const Operator* op = OperatorRegistry::global().find(key);
    ++outcome.cases;
    std::string diff = op ? run_case(c, *op) : "not registered";
    if (diff.empty()) continue;
    ++outcome.failed;
    ++outcome.failures_by_op[key];
    if (reported++ < 400) {
      ADD_FAILURE() << key << " " << field(c, "args").repr() << " " << field(c, "kwargs").repr() << ": " << diff;
    }
  }
  std::ostringstream summary;
  for (const auto& [k, n] : outcome.failures_by_op) summary << "  " << k << ": " << n << "\n";
  EXPECT_EQ(outcome.failed, 0u) << outcome.failed << " of " << outcome.cases << " cases differ from torch:\n"
                                << summary.str();
  EXPECT_GT(outcome.cases, 10000u);
  RecordProperty("cases", static_cast<int>(outcome.cases));
}

// Which registered schemas the fixtures exercise. All but 8 have cases; gen_ops.py says
// why those have none (torch's pow.int_to_int breaks its schema, nested tensors are
// refused, embedding_bag's bookkeeping returns, the profiler's handle and future).
// The floor makes a schema that loses its cases fail here.
TEST(OpsInterop, CoverageOfRegisteredSchemas) {
  auto covered = testing::fixture_lines("ops/covered.txt");
  std::set<std::string> keys;
  for (const auto& line : covered) keys.insert(line.substr(0, line.find('(')));
  size_t total = OperatorRegistry::global().size();
  size_t hit = 0;
  for (const Operator* op : OperatorRegistry::global().all()) hit += keys.count(op->qualified_overload());
  RecordProperty("covered", static_cast<int>(hit));
  RecordProperty("registered", static_cast<int>(total));
  std::cout << "[ ops ] " << hit << " of " << total << " registered schemas have torch-checked cases\n";
  EXPECT_GE(hit, 1936u);
}

}  // namespace
}  // namespace torchlet
