// Operator benchmark: every kernel family of torchlet against libtorch 1.13's ATen
// (Debian's libtorch-dev, the same library python3-torch loads) in one process, on the
// shapes of resnet18 and mobilenet_v2 (batch 1, 224x224) and one BERT-base encoder
// layer (seq 128, hidden 768, 12 heads). Both sides get the same input bytes, run on
// the same OpenMP runtime and the same oneDNN, and their outputs are compared before
// anything is timed, so a ratio always compares the same computation.
//
//   ops_bench [--filter SUBSTR] [--threads 1,2] [--rounds 7] [--target-ms 10] [--markdown] [--wall]
//
// Timing: after a 50 ms warm-up of both sides at the thread count, each case is
// calibrated so one batch of calls takes about TARGET ms per side;
// then ROUNDS rounds each time one batch of torchlet and one of torch, the order
// alternating per round, and the per-call median over rounds is reported. The ratio
// is torchlet time / torch time (below 1.0: torchlet is faster). Single-threaded runs
// are timed by the thread's CPU clock (robust to other processes taking the core; --wall
// to use the wall clock), multi-threaded ones by the wall clock.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <malloc.h>
#include <map>
#include <string>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>
#include <torchlet/tensor.h>

#include "core/parallel.h"

namespace tl = torchlet;

namespace {

// One benchmarked call: the family it belongs to, where the shape occurs, and the
// same computation written against each library.
struct Case {
  std::string family;
  std::string shape;
  std::function<tl::Tensor()> ours;
  std::function<at::Tensor()> theirs;
};

// The same values on both sides: drawn by ATen's generator, copied into torchlet.
struct Pair {
  tl::Tensor ours;
  at::Tensor theirs;
};

tl::Tensor copy_to_torchlet(const at::Tensor& t) {
  at::Tensor c = t.contiguous();
  tl::DType d = c.scalar_type() == at::kLong ? tl::DType::Long : tl::DType::Float;
  tl::Tensor out = tl::empty(tl::Shape(c.sizes().begin(), c.sizes().end()), d);
  std::memcpy(out.data_ptr(), c.data_ptr(), c.nbytes());
  return out;
}

Pair randn(std::vector<int64_t> shape) {
  at::Tensor t = at::randn(shape);
  return {copy_to_torchlet(t), t};
}
// Strictly positive values (variances).
Pair rand_pos(std::vector<int64_t> shape) {
  at::Tensor t = at::rand(shape) + 0.5;
  return {copy_to_torchlet(t), t};
}
Pair randint(int64_t high, std::vector<int64_t> shape) {
  at::Tensor t = at::randint(high, shape, at::kLong);
  return {copy_to_torchlet(t), t};
}

std::string dims(std::initializer_list<int64_t> v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

// --- the cases --------------------------------------------------------------------

struct ConvShape {
  const char* model;
  int64_t cin, cout, hw, k, stride, pad, groups;
};

void add_conv(std::vector<Case>& cases, const char* family, const ConvShape& c) {
  Pair x = randn({1, c.cin, c.hw, c.hw});
  Pair w = randn({c.cout, c.cin / c.groups, c.k, c.k});
  int64_t s = c.stride, p = c.pad, g = c.groups;
  std::string shape = std::string(c.model) + " " + std::to_string(c.cin) + "->" + std::to_string(c.cout) + " k" +
                      std::to_string(c.k) + " s" + std::to_string(s) + " @" + std::to_string(c.hw);
  cases.push_back({family, shape,
                   [=] { return tl::conv2d(x.ours, w.ours, std::nullopt, {s, s}, {p, p}, {1, 1}, g); },
                   [=] { return at::conv2d(x.theirs, w.theirs, {}, {s, s}, {p, p}, {1, 1}, g); }});
}

void add_convs(std::vector<Case>& cases) {
  // resnet18: stem, the 3x3 convolutions of each stage, 1x1 stride-2 downsamples.
  const ConvShape resnet3x3[] = {
      {"resnet18", 3, 64, 224, 7, 2, 3, 1},     {"resnet18", 64, 64, 56, 3, 1, 1, 1},
      {"resnet18", 64, 128, 56, 3, 2, 1, 1},    {"resnet18", 128, 128, 28, 3, 1, 1, 1},
      {"resnet18", 128, 256, 28, 3, 2, 1, 1},   {"resnet18", 256, 256, 14, 3, 1, 1, 1},
      {"resnet18", 256, 512, 14, 3, 2, 1, 1},   {"resnet18", 512, 512, 7, 3, 1, 1, 1},
      {"mobilenet_v2", 3, 32, 224, 3, 2, 1, 1},
  };
  for (const auto& c : resnet3x3) add_conv(cases, "conv2d", c);
  // mobilenet_v2's depthwise 3x3 convolutions (channels, input size, stride).
  const int64_t dw[][3] = {{32, 112, 1}, {96, 112, 2}, {144, 56, 1}, {144, 56, 2}, {192, 28, 1},
                           {192, 28, 2}, {384, 14, 1}, {576, 14, 1}, {576, 14, 2}, {960, 7, 1}};
  for (const auto& d : dw) add_conv(cases, "conv2d_depthwise", {"mobilenet_v2", d[0], d[0], d[1], 3, d[2], 1, d[0]});
  // 1x1 convolutions: resnet18's downsamples and every pointwise one of mobilenet_v2.
  const ConvShape pw[] = {
      {"resnet18", 64, 128, 56, 1, 2, 0, 1},     {"resnet18", 128, 256, 28, 1, 2, 0, 1},
      {"resnet18", 256, 512, 14, 1, 2, 0, 1},    {"mobilenet_v2", 32, 16, 112, 1, 1, 0, 1},
      {"mobilenet_v2", 16, 96, 112, 1, 1, 0, 1}, {"mobilenet_v2", 96, 24, 56, 1, 1, 0, 1},
      {"mobilenet_v2", 24, 144, 56, 1, 1, 0, 1}, {"mobilenet_v2", 144, 24, 56, 1, 1, 0, 1},
      {"mobilenet_v2", 144, 32, 28, 1, 1, 0, 1}, {"mobilenet_v2", 32, 192, 28, 1, 1, 0, 1},
      {"mobilenet_v2", 192, 32, 28, 1, 1, 0, 1}, {"mobilenet_v2", 192, 64, 14, 1, 1, 0, 1},
      {"mobilenet_v2", 64, 384, 14, 1, 1, 0, 1}, {"mobilenet_v2", 384, 64, 14, 1, 1, 0, 1},
      {"mobilenet_v2", 384, 96, 14, 1, 1, 0, 1}, {"mobilenet_v2", 96, 576, 14, 1, 1, 0, 1},
      {"mobilenet_v2", 576, 96, 14, 1, 1, 0, 1}, {"mobilenet_v2", 576, 160, 7, 1, 1, 0, 1},
      {"mobilenet_v2", 160, 960, 7, 1, 1, 0, 1}, {"mobilenet_v2", 960, 160, 7, 1, 1, 0, 1},
      {"mobilenet_v2", 960, 320, 7, 1, 1, 0, 1}, {"mobilenet_v2", 320, 1280, 7, 1, 1, 0, 1},
  };
  for (const auto& c : pw) add_conv(cases, "conv2d_1x1", c);
}

void add_linear(std::vector<Case>& cases) {
  // (model, rows, in, out): BERT's QKV/output, FFN up/down; the CNN classifiers.
  struct L {
    const char* model;
    int64_t rows, in, out;
  };
  const L ls[] = {{"bert", 128, 768, 768},    {"bert", 128, 768, 3072}, {"bert", 128, 3072, 768},
                  {"resnet18", 1, 512, 1000}, {"mobilenet_v2", 1, 1280, 1000}};
  for (const auto& l : ls) {
    Pair w = randn({l.out, l.in}), b = randn({l.out});
    std::string shape = std::string(l.model) + " " + dims({l.rows, l.in}) + " -> " + std::to_string(l.out);
    if (std::string(l.model) == "bert") {
      Pair x = randn({1, l.rows, l.in});  // 3-d, as BERT calls it: matmul + bias
      cases.push_back({"linear", shape, [=] { return tl::linear(x.ours, w.ours, b.ours); },
                       [=] { return at::linear(x.theirs, w.theirs, b.theirs); }});
    } else {
      Pair x = randn({l.rows, l.in});  // 2-d: addmm
      cases.push_back({"addmm", shape, [=] { return tl::linear(x.ours, w.ours, b.ours); },
                       [=] { return at::linear(x.theirs, w.theirs, b.theirs); }});
    }
  }
}

void add_matmul(std::vector<Case>& cases) {
  // Attention scores and context: q @ k^T (k transposed as a view) and probs @ v.
  Pair q = randn({1, 12, 128, 64}), k = randn({1, 12, 128, 64}), p = randn({1, 12, 128, 128});
  cases.push_back({"matmul", "bert q@k^T 1x12x128x64", [=] { return tl::matmul(q.ours, k.ours.transpose(-2, -1)); },
                   [=] { return at::matmul(q.theirs, k.theirs.transpose(-2, -1)); }});
  cases.push_back({"matmul", "bert p@v 1x12x128x128", [=] { return tl::matmul(p.ours, q.ours); },
                   [=] { return at::matmul(p.theirs, q.theirs); }});
  Pair a = randn({12, 128, 64}), bt = randn({12, 64, 128}), pp = randn({12, 128, 128});
  cases.push_back({"bmm", "bert 12x128x64 @ 12x64x128", [=] { return tl::bmm(a.ours, bt.ours); },
                   [=] { return at::bmm(a.theirs, bt.theirs); }});
  cases.push_back({"bmm", "bert 12x128x128 @ 12x128x64", [=] { return tl::bmm(pp.ours, a.ours); },
                   [=] { return at::bmm(pp.theirs, a.theirs); }});
}

void add_pooling(std::vector<Case>& cases) {
  Pair r = randn({1, 64, 112, 112});
  cases.push_back({"max_pool2d", "resnet18 64x112x112 k3 s2 p1",
                   [=] { return tl::max_pool2d(r.ours, {3, 3}, {2, 2}, {1, 1}); },
                   [=] { return at::max_pool2d(r.theirs, {3, 3}, {2, 2}, {1, 1}); }});
  Pair m = randn({1, 128, 56, 56});
  cases.push_back({"max_pool2d", "128x56x56 k2 s2", [=] { return tl::max_pool2d(m.ours, {2, 2}, {2, 2}); },
                   [=] { return at::max_pool2d(m.theirs, {2, 2}, {2, 2}); }});
  cases.push_back({"avg_pool2d", "128x56x56 k2 s2", [=] { return tl::avg_pool2d(m.ours, {2, 2}, {2, 2}); },
                   [=] { return at::avg_pool2d(m.theirs, {2, 2}, {2, 2}); }});
  Pair l4 = randn({1, 512, 7, 7});
  cases.push_back({"avg_pool2d", "resnet18 512x7x7 k7", [=] { return tl::avg_pool2d(l4.ours, {7, 7}); },
                   [=] { return at::avg_pool2d(l4.theirs, {7, 7}); }});
  cases.push_back({"adaptive_avg_pool2d", "resnet18 512x7x7 -> 1",
                   [=] { return tl::adaptive_avg_pool2d(l4.ours, {1, 1}); },
                   [=] { return at::adaptive_avg_pool2d(l4.theirs, {1, 1}); }});
  Pair mb = randn({1, 1280, 7, 7});
  cases.push_back({"adaptive_avg_pool2d", "mobilenet_v2 1280x7x7 -> 1",
                   [=] { return tl::adaptive_avg_pool2d(mb.ours, {1, 1}); },
                   [=] { return at::adaptive_avg_pool2d(mb.theirs, {1, 1}); }});
  cases.push_back({"adaptive_max_pool2d", "512x7x7 -> 1",
                   [=] { return std::get<0>(tl::adaptive_max_pool2d(l4.ours, {1, 1})); },
                   [=] { return std::get<0>(at::adaptive_max_pool2d(l4.theirs, {1, 1})); }});
}

// Activation shapes of the three models (NCHW without the batch of 1, or BERT's).
const std::vector<std::pair<std::string, std::vector<int64_t>>>& cnn_shapes() {
  static const std::vector<std::pair<std::string, std::vector<int64_t>>> shapes = {
      {"resnet18", {1, 64, 112, 112}},    {"resnet18", {1, 64, 56, 56}},      {"resnet18", {1, 256, 14, 14}},
      {"resnet18", {1, 512, 7, 7}},       {"mobilenet_v2", {1, 96, 112, 112}}, {"mobilenet_v2", {1, 144, 56, 56}},
      {"mobilenet_v2", {1, 576, 14, 14}}, {"mobilenet_v2", {1, 960, 7, 7}},
  };
  return shapes;
}

std::string shape_name(const std::string& model, const std::vector<int64_t>& s) {
  std::string r = model + " ";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "x" : "") + std::to_string(s[i]);
  return r;
}

void add_norms(std::vector<Case>& cases) {
  for (const auto& [model, s] : cnn_shapes()) {
    Pair x = randn(s), w = randn({s[1]}), b = randn({s[1]}), mean = randn({s[1]}), var = rand_pos({s[1]});
    cases.push_back({"batch_norm", shape_name(model, s),
                     [=] { return tl::batch_norm(x.ours, w.ours, b.ours, mean.ours, var.ours, false, 0.1, 1e-5); },
                     [=] {
                       return at::batch_norm(x.theirs, w.theirs, b.theirs, mean.theirs, var.theirs, false, 0.1, 1e-5,
                                             true);
                     }});
  }
  Pair x = randn({1, 128, 768}), w = randn({768}), b = randn({768});
  cases.push_back({"layer_norm", "bert 1x128x768", [=] { return tl::layer_norm(x.ours, {768}, w.ours, b.ours, 1e-12); },
                   [=] { return at::layer_norm(x.theirs, {768}, w.theirs, b.theirs, 1e-12); }});
}

void add_softmax(std::vector<Case>& cases) {
  Pair s = randn({1, 12, 128, 128}), logits = randn({1, 1000});
  cases.push_back({"softmax", "bert scores 1x12x128x128", [=] { return tl::softmax(s.ours, -1); },
                   [=] { return at::softmax(s.theirs, -1); }});
  cases.push_back({"softmax", "classifier 1x1000", [=] { return tl::softmax(logits.ours, 1); },
                   [=] { return at::softmax(logits.theirs, 1); }});
  cases.push_back({"log_softmax", "bert scores 1x12x128x128", [=] { return tl::log_softmax(s.ours, -1); },
                   [=] { return at::log_softmax(s.theirs, -1); }});
  cases.push_back({"log_softmax", "classifier 1x1000", [=] { return tl::log_softmax(logits.ours, 1); },
                   [=] { return at::log_softmax(logits.theirs, 1); }});
}

void add_activations(std::vector<Case>& cases) {
  auto add = [&](const char* family, const std::string& shape, const Pair& x, tl::Tensor (*ours)(const tl::Tensor&),
                 at::Tensor (*theirs)(const at::Tensor&)) {
    cases.push_back({family, shape, [=] { return ours(x.ours); }, [=] { return theirs(x.theirs); }});
  };
  for (const auto& [model, s] : cnn_shapes()) {
    Pair x = randn(s);
    std::string name = shape_name(model, s);
    if (model == "resnet18") {
      add("relu", name, x, [](const tl::Tensor& t) { return tl::relu(t); }, [](const at::Tensor& t) { return at::relu(t); });
    } else {
      add("hardtanh", name, x, [](const tl::Tensor& t) { return tl::hardtanh(t, 0, 6); },
          [](const at::Tensor& t) { return at::hardtanh(t, 0, 6); });
      add("hardswish", name, x, [](const tl::Tensor& t) { return tl::hardswish(t); },
          [](const at::Tensor& t) { return at::hardswish(t); });
      add("hardsigmoid", name, x, [](const tl::Tensor& t) { return tl::hardsigmoid(t); },
          [](const at::Tensor& t) { return at::hardsigmoid(t); });
      add("silu", name, x, [](const tl::Tensor& t) { return tl::silu(t); }, [](const at::Tensor& t) { return at::silu(t); });
      add("sigmoid", name, x, [](const tl::Tensor& t) { return tl::sigmoid(t); },
          [](const at::Tensor& t) { return at::sigmoid(t); });
    }
  }
  Pair ffn = randn({1, 128, 3072}), pooled = randn({1, 768}), hidden = randn({1, 128, 768});
  add("gelu", "bert 1x128x3072", ffn, [](const tl::Tensor& t) { return tl::gelu(t); },
      [](const at::Tensor& t) { return at::gelu(t); });
  add("gelu", "bert 1x128x3072 tanh", ffn, [](const tl::Tensor& t) { return tl::gelu(t, "tanh"); },
      [](const at::Tensor& t) { return at::gelu(t, "tanh"); });
  add("tanh", "bert 1x128x3072", ffn, [](const tl::Tensor& t) { return tl::tanh(t); },
      [](const at::Tensor& t) { return at::tanh(t); });
  add("tanh", "bert pooler 1x768", pooled, [](const tl::Tensor& t) { return tl::tanh(t); },
      [](const at::Tensor& t) { return at::tanh(t); });
  add("relu", "bert 1x128x768", hidden, [](const tl::Tensor& t) { return tl::relu(t); },
      [](const at::Tensor& t) { return at::relu(t); });
  add("sigmoid", "bert 1x128x3072", ffn, [](const tl::Tensor& t) { return tl::sigmoid(t); },
      [](const at::Tensor& t) { return at::sigmoid(t); });
}

void add_binary(std::vector<Case>& cases) {
  // Residual additions (same shape), bias and mask broadcasting, scaling.
  for (const auto& [model, s] : cnn_shapes()) {
    if (s[2] > 56) continue;
    Pair a = randn(s), b = randn(s), gate = randn({1, s[1], 1, 1});
    cases.push_back({"add", shape_name(model, s) + " + same", [=] { return tl::add(a.ours, b.ours); },
                     [=] { return at::add(a.theirs, b.theirs); }});
    cases.push_back({"mul", shape_name(model, s) + " * Cx1x1", [=] { return tl::mul(a.ours, gate.ours); },
                     [=] { return at::mul(a.theirs, gate.theirs); }});
  }
  Pair h = randn({1, 128, 768}), h2 = randn({1, 128, 768}), bias = randn({768});
  Pair scores = randn({1, 12, 128, 128}), mask = randn({1, 1, 1, 128});
  cases.push_back({"add", "bert 1x128x768 + same", [=] { return tl::add(h.ours, h2.ours); },
                   [=] { return at::add(h.theirs, h2.theirs); }});
  cases.push_back({"add", "bert 1x128x768 + 768", [=] { return tl::add(h.ours, bias.ours); },
                   [=] { return at::add(h.theirs, bias.theirs); }});
  cases.push_back({"add", "bert scores + mask 1x1x1x128", [=] { return tl::add(scores.ours, mask.ours); },
                   [=] { return at::add(scores.theirs, mask.theirs); }});
  cases.push_back({"mul", "bert 1x128x768 * 768", [=] { return tl::mul(h.ours, bias.ours); },
                   [=] { return at::mul(h.theirs, bias.theirs); }});
  cases.push_back({"mul", "bert 1x128x768 * same", [=] { return tl::mul(h.ours, h2.ours); },
                   [=] { return at::mul(h.theirs, h2.theirs); }});
  cases.push_back({"div", "bert scores / 8.0", [=] { return tl::div(scores.ours, tl::Scalar(8.0)); },
                   [=] { return at::div(scores.theirs, 8.0); }});
  Pair denom = rand_pos({1, 128, 1});
  cases.push_back({"div", "bert 1x128x768 / 1x128x1", [=] { return tl::div(h.ours, denom.ours); },
                   [=] { return at::div(h.theirs, denom.theirs); }});
}

void add_reductions(std::vector<Case>& cases) {
  Pair big = randn({1, 64, 112, 112}), l4 = randn({1, 512, 7, 7}), h = randn({1, 128, 768});
  Pair mb = randn({1, 1280, 7, 7});
  cases.push_back({"sum", "resnet18 1x64x112x112 all", [=] { return tl::sum(big.ours); },
                   [=] { return at::sum(big.theirs); }});
  cases.push_back({"sum", "bert 1x128x768 dim -1", [=] { return tl::sum(h.ours, {-1}, true); },
                   [=] { return at::sum(h.theirs, {-1}, true); }});
  cases.push_back({"sum", "bert 1x128x768 dim 1", [=] { return tl::sum(h.ours, {1}); },
                   [=] { return at::sum(h.theirs, {1}); }});
  cases.push_back({"mean", "resnet18 512x7x7 dims (2,3)", [=] { return tl::mean(l4.ours, {2, 3}); },
                   [=] { return at::mean(l4.theirs, {2, 3}); }});
  cases.push_back({"mean", "mobilenet_v2 1280x7x7 dims (2,3)", [=] { return tl::mean(mb.ours, {2, 3}); },
                   [=] { return at::mean(mb.theirs, {2, 3}); }});
  cases.push_back({"mean", "bert 1x128x768 dim -1", [=] { return tl::mean(h.ours, {-1}, true); },
                   [=] { return at::mean(h.theirs, {-1}, true); }});
}

void add_shape_ops(std::vector<Case>& cases) {
  Pair q = randn({1, 128, 768}), k = randn({1, 128, 768}), v = randn({1, 128, 768});
  cases.push_back({"cat", "bert 3 x 1x128x768 dim -1", [=] { return tl::cat({q.ours, k.ours, v.ours}, -1); },
                   [=] { return at::cat({q.theirs, k.theirs, v.theirs}, -1); }});
  cases.push_back({"cat", "bert 3 x 1x128x768 dim 0", [=] { return tl::cat({q.ours, k.ours, v.ours}, 0); },
                   [=] { return at::cat({q.theirs, k.theirs, v.theirs}, 0); }});
  Pair a = randn({1, 64, 56, 56}), b = randn({1, 64, 56, 56});
  cases.push_back({"cat", "2 x 1x64x56x56 dim 1", [=] { return tl::cat({a.ours, b.ours}, 1); },
                   [=] { return at::cat({a.theirs, b.theirs}, 1); }});
  // Heads split and merged: [1,128,12,64] <-> [1,12,128,64].
  cases.push_back({"transpose_contiguous", "bert 1x128x12x64 -> heads",
                   [=] { return q.ours.view({1, 128, 12, 64}).permute({0, 2, 1, 3}).contiguous(); },
                   [=] { return q.theirs.view({1, 128, 12, 64}).permute({0, 2, 1, 3}).contiguous(); }});
  Pair heads = randn({1, 12, 128, 64});
  cases.push_back({"transpose_contiguous", "bert 1x12x128x64 -> merged",
                   [=] { return heads.ours.transpose(1, 2).contiguous(); },
                   [=] { return heads.theirs.transpose(1, 2).contiguous(); }});
  cases.push_back({"transpose_contiguous", "1x64x56x56 -> channels last",
                   [=] { return a.ours.permute({0, 2, 3, 1}).contiguous(); },
                   [=] { return a.theirs.permute({0, 2, 3, 1}).contiguous(); }});
  Pair w = randn({768, 3072});
  cases.push_back({"transpose_contiguous", "768x3072 weight .t()", [=] { return w.ours.t().contiguous(); },
                   [=] { return w.theirs.t().contiguous(); }});
}

void add_embedding(std::vector<Case>& cases) {
  Pair words = randn({30522, 768}), ids = randint(30522, {1, 128}), pos = randn({512, 768});
  Pair pos_ids = {copy_to_torchlet(at::arange(128, at::kLong).unsqueeze(0)), at::arange(128, at::kLong).unsqueeze(0)};
  cases.push_back({"embedding", "bert words 30522x768, 1x128 ids", [=] { return tl::embedding(words.ours, ids.ours); },
                   [=] { return at::embedding(words.theirs, ids.theirs); }});
  cases.push_back({"embedding", "bert positions 512x768, 1x128 ids",
                   [=] { return tl::embedding(pos.ours, pos_ids.ours); },
                   [=] { return at::embedding(pos.theirs, pos_ids.theirs); }});
}

void add_attention(std::vector<Case>& cases) {
  // softmax(q k^T / sqrt(d) + mask) v for BERT's 12 heads, the way HF BERT spells it.
  Pair q = randn({1, 12, 128, 64}), k = randn({1, 12, 128, 64}), v = randn({1, 12, 128, 64});
  Pair mask = randn({1, 1, 1, 128});
  cases.push_back({"attention", "bert 12 heads seq 128 (matmul, div, add, softmax, matmul)",
                   [=] {
                     tl::Tensor s = tl::matmul(q.ours, k.ours.transpose(-1, -2));
                     s = tl::add(tl::div(s, tl::Scalar(8.0)), mask.ours);
                     return tl::matmul(tl::softmax(s, -1), v.ours);
                   },
                   [=] {
                     at::Tensor s = at::matmul(q.theirs, k.theirs.transpose(-1, -2));
                     s = at::add(at::div(s, 8.0), mask.theirs);
                     return at::matmul(at::softmax(s, -1), v.theirs);
                   }});
}

// --- checking and timing ----------------------------------------------------------

// Largest |ours - theirs| relative to max(1, |theirs|); NaN if the shapes differ.
double max_rel_diff(const tl::Tensor& ours, const at::Tensor& theirs) {
  at::Tensor t = theirs.contiguous().to(at::kFloat);
  if (ours.numel() != t.numel() || ours.dim() != t.dim()) return NAN;
  for (int64_t d = 0; d < ours.dim(); ++d) {
    if (ours.size(d) != t.size(d)) return NAN;
  }
  std::vector<float> a = ours.to_vector<float>();
  const float* b = t.data_ptr<float>();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    double diff = std::fabs(double(a[i]) - double(b[i])) / std::max(1.0, std::fabs(double(b[i])));
    worst = std::max(worst, diff);
  }
  return worst;
}

// With one thread the calling thread's CPU time is used: it is the wall time minus the
// time this thread sat descheduled, which on a shared 2-core machine is most of the
// noise. With more threads the wall clock is the only fair measure.
bool g_thread_clock = false;

double now_seconds() {
  if (g_thread_clock) {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename F>
double batch_seconds(const F& f, int64_t iters) {
  double t0 = now_seconds();
  for (int64_t i = 0; i < iters; ++i) f();
  return now_seconds() - t0;
}

// Calls per batch so a batch takes about target seconds.
template <typename F>
int64_t calibrate(const F& f, double target) {
  int64_t iters = 1;
  for (;;) {
    double s = batch_seconds(f, iters);
    if (s >= target / 4 || iters >= (int64_t(1) << 24)) {
      return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(iters * target / std::max(s, 1e-9))));
    }
    iters *= 4;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Timing {
  double ours_us, theirs_us;
};

// Runs both sides, alternating, for about `seconds`. After a change of thread count the
// first tens of milliseconds are slow for whoever runs first (the idle vCPU and the
// sleeping OpenMP worker have to wake up; measured ~2x for 30 ms on this VM), so both
// sides get past that before anything is timed (50 ms: 20 ms left some cases slow).
void warm_up(const Case& c, double seconds) {
  double t0 = now_seconds();
  while (now_seconds() - t0 < seconds) {
    (void)c.ours();
    (void)c.theirs();
  }
}

Timing measure(const Case& c, int rounds, double target) {
  auto ours = [&] { (void)c.ours(); };
  auto theirs = [&] { (void)c.theirs(); };
  warm_up(c, std::max(5 * target, 0.05));
  int64_t n_ours = calibrate(ours, target), n_theirs = calibrate(theirs, target);
  std::vector<double> o, t;
  for (int r = 0; r < rounds; ++r) {
    if (r % 2 == 0) {
      o.push_back(batch_seconds(ours, n_ours) / double(n_ours));
      t.push_back(batch_seconds(theirs, n_theirs) / double(n_theirs));
    } else {
      t.push_back(batch_seconds(theirs, n_theirs) / double(n_theirs));
      o.push_back(batch_seconds(ours, n_ours) / double(n_ours));
    }
  }
  return {median(o) * 1e6, median(t) * 1e6};
}

void set_threads(int n) {
  // Both end in omp_set_num_threads on the one OpenMP runtime they share; ATen also
  // resets its own bookkeeping.
  at::set_num_threads(n);
  tl::set_num_threads(n);
}

double geomean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? NAN : std::exp(s / double(v.size()));
}

struct Options {
  std::string filter;
  std::vector<int> threads{1, 2};
  int rounds = 7;
  double target_ms = 10;
  bool markdown = false;
  bool wall = false;  // wall clock even with one thread
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--filter") {
      o.filter = next();
    } else if (a == "--threads") {
      o.threads.clear();
      std::string v = next();
      for (size_t p = 0; p <= v.size();) {
        size_t q = v.find(',', p);
        if (q == std::string::npos) q = v.size();
        o.threads.push_back(std::stoi(v.substr(p, q - p)));
        p = q + 1;
      }
    } else if (a == "--rounds") {
      o.rounds = std::stoi(next());
    } else if (a == "--target-ms") {
      o.target_ms = std::stod(next());
    } else if (a == "--wall") {
      o.wall = true;
    } else if (a == "--markdown") {
      o.markdown = true;
    } else {
      throw std::runtime_error("unknown argument " + a +
                               " (usage: ops_bench [--filter S] [--threads 1,2] [--rounds N] [--target-ms MS] "
                               "[--markdown] [--wall])");
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  try {
    opt = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ops_bench: %s\n", e.what());
    return 2;
  }
  // glibc adapts its mmap and trim thresholds to the allocation history, so one
  // library's frees would decide whether the other's next large allocation page-faults.
  // Fixed thresholds keep freed memory in the heap for both, so neither timing depends
  // on what ran before it.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1024 << 20);
  at::manual_seed(0);
  std::vector<Case> all;
  add_convs(all);
  add_linear(all);
  add_matmul(all);
  add_pooling(all);
  add_norms(all);
  add_softmax(all);
  add_activations(all);
  add_binary(all);
  add_reductions(all);
  add_shape_ops(all);
  add_embedding(all);
  add_attention(all);
  std::vector<Case> cases;
  for (auto& c : all) {
    if (opt.filter.empty() || (c.family + " " + c.shape).find(opt.filter) != std::string::npos) cases.push_back(c);
  }

  std::printf("ops_bench: torchlet vs libtorch (ATen, same process), %zu cases, threads", cases.size());
  for (int t : opt.threads) std::printf(" %d", t);
  std::printf("; median of %d interleaved rounds of ~%.0f ms (1 thread: %s); ratio = torchlet / torch\n",
              opt.rounds, opt.target_ms, opt.wall ? "wall clock" : "thread CPU time");

  // Results per family and thread count, for the geometric means.
  std::map<std::string, std::map<int, std::vector<double>>> ratios;
  std::vector<std::string> family_order;
  bool mismatch = false;
  const char* sep = opt.markdown ? " | " : "  ";
  if (opt.markdown) {
    std::printf("| family | shape | check");
    for (int t : opt.threads) std::printf(" | torch %dT us | torchlet %dT us | ratio %dT", t, t, t);
    std::printf(" |\n|---|---|---");
    for (size_t i = 0; i < opt.threads.size(); ++i) std::printf("|---:|---:|---:");
    std::printf("|\n");
  } else {
    std::printf("%-22s %-50s %8s", "family", "shape", "check");
    for (int t : opt.threads) std::printf("  %9s %9s %6s", ("torch" + std::to_string(t) + "T").c_str(),
                                          ("ours" + std::to_string(t) + "T").c_str(), "ratio");
    std::printf("\n");
  }
  for (const Case& c : cases) {
    if (std::find(family_order.begin(), family_order.end(), c.family) == family_order.end()) {
      family_order.push_back(c.family);
    }
    // Same result first (also the warm-up: primitive caches, allocations).
    set_threads(opt.threads.front());
    double diff;
    try {
      diff = max_rel_diff(c.ours(), c.theirs());
    } catch (const std::exception& e) {
      std::printf("%s %s: torchlet failed: %s\n", c.family.c_str(), c.shape.c_str(), e.what());
      mismatch = true;
      continue;
    }
    bool ok = diff <= 1e-3;  // convolutions and GEMMs accumulate in different orders
    mismatch = mismatch || !ok;
    if (opt.markdown) {
      std::printf("| %s | %s | %s", c.family.c_str(), c.shape.c_str(), ok ? "ok" : "DIFF");
    } else {
      std::printf("%-22s %-50s %8s", c.family.c_str(), c.shape.c_str(), ok ? "ok" : "DIFF");
    }
    for (int t : opt.threads) {
      set_threads(t);
      g_thread_clock = t == 1 && !opt.wall;
      Timing r = measure(c, opt.rounds, opt.target_ms / 1000);
      double ratio = r.ours_us / r.theirs_us;
      ratios[c.family][t].push_back(ratio);
      if (opt.markdown) {
        std::printf("%s%.1f%s%.1f%s%.2f", sep, r.theirs_us, sep, r.ours_us, sep, ratio);
      } else {
        std::printf("  %9.1f %9.1f %6.2f", r.theirs_us, r.ours_us, ratio);
      }
    }
    std::printf(opt.markdown ? " |\n" : "\n");
    std::fflush(stdout);
  }

  std::printf("\nper-family geometric mean of the ratio (torchlet / torch; target <= 1.0)\n");
  if (opt.markdown) {
    std::printf("| family | cases");
    for (int t : opt.threads) std::printf(" | %d thread%s", t, t > 1 ? "s" : "");
    std::printf(" |\n|---|---:");
    for (size_t i = 0; i < opt.threads.size(); ++i) std::printf("|---:");
    std::printf("|\n");
  }
  std::map<int, std::vector<double>> overall;
  for (const auto& f : family_order) {
    size_t n = ratios[f].empty() ? 0 : ratios[f].begin()->second.size();
    if (opt.markdown) std::printf("| %s | %zu", f.c_str(), n);
    else std::printf("%-22s %3zu", f.c_str(), n);
    for (int t : opt.threads) {
      double g = geomean(ratios[f][t]);
      overall[t].insert(overall[t].end(), ratios[f][t].begin(), ratios[f][t].end());
      if (opt.markdown) std::printf(" | %.2f%s", g, g > 1.0 ? " (miss)" : "");
      else std::printf("  %dT %5.2f%s", t, g, g > 1.0 ? " *" : "  ");
    }
    std::printf(opt.markdown ? " |\n" : "\n");
  }
  if (opt.markdown) std::printf("| all | %zu", cases.size());
  else std::printf("%-22s %3zu", "all cases", cases.size());
  for (int t : opt.threads) {
    if (opt.markdown) std::printf(" | %.2f", geomean(overall[t]));
    else std::printf("  %dT %5.2f  ", t, geomean(overall[t]));
  }
  std::printf(opt.markdown ? " |\n" : "\n");
  if (mismatch) {
    std::fprintf(stderr, "ops_bench: some results differ from torch (DIFF above)\n");
    return 1;
  }
  return 0;
}
