// The recurrent layers nn.LSTM / nn.GRU / nn.RNN run (aten::lstm.input, gru.input,
// rnn_tanh.input, rnn_relu.input): layers, both directions, batch_first, LSTM
// projections (proj_size). Each layer's input projection is one linear over every time
// step; the recurrence then steps through time with the cell equations torch documents
// for each module. Dropout between layers applies in training only, as torch's.
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

enum class CellKind { LSTM, GRU, Tanh, Relu };

struct Weights {
  Tensor w_ih, w_hh;
  std::optional<Tensor> b_ih, b_hh, w_hr;
};

// params holds, per layer and direction: w_ih, w_hh, then b_ih, b_hh when has_biases,
// then w_hr when the LSTM has projections.
std::vector<Weights> unpack(const std::vector<Tensor>& params, bool has_biases, size_t groups, const char* op) {
  TL_CHECK(groups > 0 && params.size() % groups == 0, ValueError, "{}: {} parameters for {} layer directions", op,
           params.size(), groups);
  const size_t per = params.size() / groups;
  const size_t expected = has_biases ? 4 : 2;
  TL_CHECK(per == expected || per == expected + 1, ValueError, "{}: {} parameters per layer direction", op, per);
  std::vector<Weights> out;
  for (size_t g = 0; g < groups; ++g) {
    const Tensor* p = &params[g * per];
    Weights w{p[0], p[1], std::nullopt, std::nullopt, std::nullopt};
    if (has_biases) {
      w.b_ih = p[2];
      w.b_hh = p[3];
    }
    if (per == expected + 1) w.w_hr = p[expected];
    out.push_back(std::move(w));
  }
  return out;
}

// One direction of one layer over the whole sequence x (T, B, I), from state (h, c).
// Returns the outputs (T, B, H_out) and leaves the final state in h and c.
Tensor run_direction(CellKind kind, const Tensor& x, const Weights& w, bool reverse, Tensor& h, Tensor& c) {
  const int64_t steps = x.size(0);
  Tensor xproj = linear(x, w.w_ih, w.b_ih);  // (T, B, G)
  std::vector<Tensor> outputs(static_cast<size_t>(steps));
  for (int64_t i = 0; i < steps; ++i) {
    const int64_t t = reverse ? steps - 1 - i : i;
    Tensor gi = xproj.select(0, t);
    Tensor gh = linear(h, w.w_hh, w.b_hh);
    switch (kind) {
      case CellKind::LSTM: {
        auto g = chunk(add(gi, gh), 4, 1);
        Tensor in = sigmoid(g[0]), forget = sigmoid(g[1]);
        Tensor cell = tanh(g[2]), out = sigmoid(g[3]);
        c = add(mul(forget, c), mul(in, cell));
        h = mul(out, tanh(c));
        if (w.w_hr) h = linear(h, *w.w_hr);
        break;
      }
      case CellKind::GRU: {
        auto a = chunk(gi, 3, 1);
        auto b = chunk(gh, 3, 1);
        Tensor r = sigmoid(add(a[0], b[0]));
        Tensor z = sigmoid(add(a[1], b[1]));
        Tensor n = tanh(add(a[2], mul(r, b[2])));
        // h' = (1 - z) * n + z * h = n + z * (h - n)
        h = add(n, mul(z, sub(h, n)));
        break;
      }
      case CellKind::Tanh: h = tanh(add(gi, gh)); break;
      case CellKind::Relu: h = relu(add(gi, gh)); break;
    }
    outputs[static_cast<size_t>(t)] = h;
  }
  return stack(outputs, 0);
}

struct RnnArgs {
  const Tensor& input;
  std::vector<Tensor> hx;  // h0 (and c0 for the LSTM)
  const std::vector<Tensor>& params;
  bool has_biases = true;
  int64_t num_layers = 1;
  double dropout = 0;
  bool train = false, bidirectional = false, batch_first = false;
};

// Runs every layer; returns the output and fills the final states.
Tensor run(CellKind kind, const RnnArgs& a, std::vector<Tensor>& h_n, std::vector<Tensor>& c_n, const char* op) {
  TL_CHECK(a.input.dim() == 3, ValueError, "{}: expected a 3-D input, got {}-D", op, a.input.dim());
  const int64_t dirs = a.bidirectional ? 2 : 1;
  auto weights = unpack(a.params, a.has_biases, static_cast<size_t>(a.num_layers * dirs), op);
  Tensor x = a.batch_first ? a.input.transpose(0, 1) : a.input;
  for (int64_t layer = 0; layer < a.num_layers; ++layer) {
    std::vector<Tensor> outs;
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t idx = layer * dirs + d;
      Tensor h = a.hx[0].select(0, idx);
      Tensor c = kind == CellKind::LSTM ? a.hx[1].select(0, idx) : Tensor();
      outs.push_back(run_direction(kind, x, weights[static_cast<size_t>(idx)], d == 1, h, c));
      h_n.push_back(h);
      if (kind == CellKind::LSTM) c_n.push_back(c);
    }
    x = dirs == 1 ? outs[0] : cat(outs, 2);
    // Between layers in training, as torch's apply_layer_stack: the sequence-first
    // output through dropout, drawing from torch's generator.
    if (a.dropout != 0 && a.train && layer < a.num_layers - 1) x = dropout(x, a.dropout, true);
  }
  return a.batch_first ? x.transpose(0, 1).contiguous() : x;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, const std::vector<Tensor>& hx,
                                        const std::vector<Tensor>& params, bool has_biases, int64_t num_layers,
                                        double dropout, bool train, bool bidirectional, bool batch_first) {
  TL_CHECK(hx.size() == 2, ValueError, "lstm: expected two hidden states (h0, c0), got {}", hx.size());
  const RnnArgs a{input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first};
  std::vector<Tensor> h_n, c_n;
  Tensor out = run(CellKind::LSTM, a, h_n, c_n, "lstm");
  return {out, stack(h_n, 0), stack(c_n, 0)};
}

namespace {

std::tuple<Tensor, Tensor> rnn(CellKind kind, const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                               bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional,
                               bool batch_first) {
  const RnnArgs a{input, {hx}, params, has_biases, num_layers, dropout, train, bidirectional, batch_first};
  std::vector<Tensor> h_n, c_n;
  Tensor out = run(kind, a, h_n, c_n, kind == CellKind::GRU ? "gru" : "rnn");
  return {out, stack(h_n, 0)};
}

}  // namespace

std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                               bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional,
                               bool batch_first) {
  return rnn(CellKind::GRU, input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first);
}
std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first) {
  return rnn(CellKind::Tanh, input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first);
}
std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx, const std::vector<Tensor>& params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first) {
  return rnn(CellKind::Relu, input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first);
}

}  // namespace torchlet
