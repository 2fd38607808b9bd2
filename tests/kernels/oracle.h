// Runs the kernel fixtures real PyTorch wrote (tests/fixtures/gen_kernels.py): decodes
// each case's input views, calls the torchlet operator the test registers under the
// case's op name, and compares with torch's outputs (exact for integers and bool,
// per-dtype tolerances for floats) or expects an error where torch raised one.
#pragma once

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/tensor.h>

#include "../common/fixtures.h"

namespace torchlet::testing {

// Case parameters ("k=v;k=v"), typed on access.
class Params {
 public:
  explicit Params(const std::string& s) {
    for (const auto& kv : split(s, ';')) {
      auto eq = kv.find('=');
      if (eq != std::string::npos) values_[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  }
  bool has(const std::string& k) const { return values_.count(k) != 0 && values_.at(k) != "none"; }
  const std::string& str(const std::string& k) const {
    auto it = values_.find(k);
    if (it == values_.end()) throw std::runtime_error("fixture case lacks parameter " + k);
    return it->second;
  }
  Scalar scalar(const std::string& k) const {
    const std::string& v = str(k);
    if (v == "true" || v == "false") return Scalar(v == "true");
    if (v.find_first_of(".eEn") != std::string::npos) return Scalar(std::stod(v));
    return Scalar(static_cast<int64_t>(std::stoll(v)));
  }
  std::optional<Scalar> opt_scalar(const std::string& k) const {
    if (!has(k)) return std::nullopt;
    return scalar(k);
  }
  int64_t integer(const std::string& k) const { return std::stoll(str(k)); }
  double real(const std::string& k) const { return std::stod(str(k)); }
  bool flag(const std::string& k) const { return str(k) == "true"; }
  Shape ints(const std::string& k) const {
    Shape out;
    for (const auto& p : split(str(k), '|')) {
      if (!p.empty()) out.push_back(std::stoll(p));
    }
    return out;
  }
  std::optional<DType> dtype(const std::string& k) const {
    if (!has(k)) return std::nullopt;
    return dtype_from_name(str(k));
  }

 private:
  std::map<std::string, std::string> values_;
};

inline Shape parse_ints(const std::string& s) {
  Shape out;
  for (const auto& p : split(s, ',')) {
    if (!p.empty()) out.push_back(std::stoll(p));
  }
  return out;
}

inline int hex_digit(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

// dtype;sizes;strides;offset;hex -> the same view of a fresh storage.
inline Tensor decode_tensor(const std::string& field) {
  auto f = split(field, ';');
  if (f.size() != 5) throw std::runtime_error("bad tensor field: " + field.substr(0, 80));
  DType d = dtype_from_name(f[0]).value();
  size_t nbytes = f[4].size() / 2;
  Tensor base = empty({static_cast<int64_t>(nbytes / element_size(d))}, d);
  auto* p = static_cast<unsigned char*>(base.data_ptr());
  for (size_t i = 0; i < nbytes; ++i) {
    p[i] = static_cast<unsigned char>(hex_digit(f[4][2 * i]) * 16 + hex_digit(f[4][2 * i + 1]));
  }
  return base.as_strided(parse_ints(f[1]), parse_ints(f[2]), std::stoll(f[3]));
}

struct Tolerance {
  double rtol;
  double atol;
};

// Elementwise defaults: float32 within 1e-5 relative; float16/bfloat16 within about one
// unit in the last place (torch may round an intermediate differently); float64 tight.
inline Tolerance default_tolerance(DType d) {
  switch (d) {
    case DType::Half: return {2e-3, 1e-5};
    case DType::BFloat16: return {1e-2, 1e-5};
    case DType::Float: return {1e-5, 1e-6};
    case DType::Double: return {1e-9, 1e-12};
    default: return {0, 0};
  }
}

// Returns an empty string when `got` matches `want`, else what differs.
inline std::string compare_tensors(const Tensor& got, const Tensor& want, std::optional<Tolerance> tol) {
  if (got.dtype() != want.dtype()) {
    return "dtype " + std::string(dtype_name(got.dtype())) + " vs torch " + std::string(dtype_name(want.dtype()));
  }
  if (!(got.sizes() == want.sizes())) return "shape " + shape_repr(got.sizes()) + " vs torch " + shape_repr(want.sizes());
  auto g = got.to_vector<double>();
  auto w = want.to_vector<double>();
  Tolerance t = tol.value_or(default_tolerance(got.dtype()));
  if (!is_floating(got.dtype())) t = {0, 0};
  for (size_t i = 0; i < g.size(); ++i) {
    bool ok;
    if (std::isnan(w[i])) ok = std::isnan(g[i]);
    else if (std::isinf(w[i])) ok = g[i] == w[i];
    else ok = std::abs(g[i] - w[i]) <= t.atol + t.rtol * std::abs(w[i]);
    if (!ok) {
      std::ostringstream os;
      os.precision(10);
      os << "element " << i << ": " << g[i] << " vs torch " << w[i];
      return os.str();
    }
  }
  return "";
}

using OpFn = std::function<std::vector<Tensor>(std::vector<Tensor>& inputs, const Params& p)>;

// Runs every case of kernels/<file>. Ops missing from `ops` fail (the fixture and the
// test must cover the same operators). `tolerance(op, dtype)` may override defaults.
// With `match_messages`, torchlet's error text must equal the first line of torch's,
// except dtype refusals ("X" not implemented for 'Long'), whose X is the name of
// torch's internal kernel and changes with the input's memory layout; for those an
// UnsupportedError is required instead. A case whose params carry torch_message=...
// (torch's text names its internals, e.g. "[enforce fail at embedding_lookup_idx.cc]")
// needs only an error.
inline void run_fixture(const std::string& file, const std::map<std::string, OpFn>& ops,
                        std::function<std::optional<Tolerance>(const std::string&, DType)> tolerance = {},
                        bool match_messages = false) {
  auto lines = fixture_lines("kernels/" + file);
  int failures = 0, cases = 0;
  for (const auto& line : lines) {
    auto fields = split(line, '\t');
    auto arrow = std::find(fields.begin(), fields.end(), "=>");
    if (fields.size() < 3 || arrow == fields.end()) {
      ADD_FAILURE() << "malformed fixture line: " << line.substr(0, 120);
      continue;
    }
    ++cases;
    const std::string& op = fields[0];
    auto it = ops.find(op);
    if (it == ops.end()) {
      ADD_FAILURE() << file << ": no torchlet operator registered for fixture op " << op;
      if (++failures > 20) return;
      continue;
    }
    Params params(fields[1]);
    std::vector<Tensor> inputs;
    for (auto f = fields.begin() + 2; f != arrow; ++f) inputs.push_back(decode_tensor(*f));
    std::string where = op + " [" + fields[1] + "] inputs:";
    for (const auto& t : inputs) where += " " + std::string(dtype_name(t.dtype())) + shape_repr(t.sizes());
    bool torch_error = arrow + 1 != fields.end() && (arrow + 1)->rfind("error:", 0) == 0;
    try {
      auto outs = it->second(inputs, params);
      if (torch_error) {
        ADD_FAILURE() << where << ": torch raised \"" << (arrow + 1)->substr(6) << "\" but torchlet returned";
        ++failures;
        continue;
      }
      size_t want_n = static_cast<size_t>(fields.end() - arrow - 1);
      if (outs.size() != want_n) {
        ADD_FAILURE() << where << ": " << outs.size() << " outputs vs torch " << want_n;
        ++failures;
        continue;
      }
      for (size_t i = 0; i < outs.size(); ++i) {
        Tensor want = decode_tensor(*(arrow + 1 + static_cast<long>(i)));
        std::optional<Tolerance> tol;
        if (tolerance) tol = tolerance(op, want.dtype());
        std::string diff = compare_tensors(outs[i], want, tol);
        if (!diff.empty()) {
          ADD_FAILURE() << where << ": output " << i << ": " << diff;
          ++failures;
          break;
        }
      }
    } catch (const Error& e) {
      if (!torch_error) {
        ADD_FAILURE() << where << ": torchlet threw \"" << e.what() << "\" but torch returned";
        ++failures;
      } else if (match_messages && (arrow + 1)->find("not implemented for") != std::string::npos &&
                 e.kind() != ErrorKind::UnsupportedError) {
        ADD_FAILURE() << where << ": torch refused the dtype but torchlet threw \"" << e.what() << "\"";
        ++failures;
      } else if (match_messages && (arrow + 1)->substr(6) != e.what() &&
                 (arrow + 1)->find("not implemented for") == std::string::npos && !params.has("torch_message")) {
        ADD_FAILURE() << where << ": torchlet's message \"" << e.what() << "\" differs from torch's \""
                      << (arrow + 1)->substr(6) << "\"";
        ++failures;
      }
    }
    if (failures > 40) {
      ADD_FAILURE() << file << ": stopping after 40 failures";
      return;
    }
  }
  EXPECT_GT(cases, 0) << file;
}

}  // namespace torchlet::testing
