// The recurrent operators nn.LSTM / nn.GRU / nn.RNN call (aten::lstm.input,
// gru.input, rnn_tanh.input, rnn_relu.input), in eval mode: layers, both directions,
// batch_first, LSTM projections (proj_size). Each layer's input projection is one
// linear over every time step; the recurrence then steps through time with the cell
// equations torch documents for each module. Dropout between layers exists only in
// training, which is refused.
#include <torchlet/ops.h>

#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
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
  Tensor xproj = torchlet::linear(x, w.w_ih, w.b_ih);  // (T, B, G)
  std::vector<Tensor> outputs(static_cast<size_t>(steps));
  for (int64_t i = 0; i < steps; ++i) {
    const int64_t t = reverse ? steps - 1 - i : i;
    Tensor gi = xproj.select(0, t);
    Tensor gh = torchlet::linear(h, w.w_hh, w.b_hh);
    switch (kind) {
      case CellKind::LSTM: {
        auto g = torchlet::chunk(torchlet::add(gi, gh), 4, 1);
        Tensor in = torchlet::sigmoid(g[0]), forget = torchlet::sigmoid(g[1]);
        Tensor cell = torchlet::tanh(g[2]), out = torchlet::sigmoid(g[3]);
        c = torchlet::add(torchlet::mul(forget, c), torchlet::mul(in, cell));
        h = torchlet::mul(out, torchlet::tanh(c));
        if (w.w_hr) h = torchlet::linear(h, *w.w_hr);
        break;
      }
      case CellKind::GRU: {
        auto a = torchlet::chunk(gi, 3, 1);
        auto b = torchlet::chunk(gh, 3, 1);
        Tensor r = torchlet::sigmoid(torchlet::add(a[0], b[0]));
        Tensor z = torchlet::sigmoid(torchlet::add(a[1], b[1]));
        Tensor n = torchlet::tanh(torchlet::add(a[2], torchlet::mul(r, b[2])));
        // h' = (1 - z) * n + z * h = n + z * (h - n)
        h = torchlet::add(n, torchlet::mul(z, torchlet::sub(h, n)));
        break;
      }
      case CellKind::Tanh: h = torchlet::tanh(torchlet::add(gi, gh)); break;
      case CellKind::Relu: h = torchlet::relu(torchlet::add(gi, gh)); break;
    }
    outputs[static_cast<size_t>(t)] = h;
  }
  return torchlet::stack(outputs, 0);
}

struct RnnArgs {
  Tensor input;
  std::vector<Tensor> hx;  // h0 (and c0 for the LSTM)
  std::vector<Tensor> params;
  bool has_biases = true;
  int64_t num_layers = 1;
  double dropout = 0;
  bool train = false, bidirectional = false, batch_first = false;
};

RnnArgs pop_args(Stack& s, bool lstm) {
  RnnArgs a;
  a.batch_first = pop_bool(s);
  a.bidirectional = pop_bool(s);
  a.train = pop_bool(s);
  a.dropout = pop_double(s);
  a.num_layers = pop_int(s);
  a.has_biases = pop_bool(s);
  a.params = pop_tensor_list(s);
  if (lstm) a.hx = pop_tensor_list(s);
  else a.hx = {pop_tensor(s)};
  a.input = pop_tensor(s);
  return a;
}

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
    x = dirs == 1 ? outs[0] : torchlet::cat(outs, 2);
    // Between layers in training, as torch's apply_layer_stack: the sequence-first
    // output through dropout, drawing from torch's generator.
    if (a.dropout != 0 && a.train && layer < a.num_layers - 1) x = torchlet::dropout(x, a.dropout, true);
  }
  return a.batch_first ? x.transpose(0, 1).contiguous() : x;
}

void lstm(Stack& s) {
  RnnArgs a = pop_args(s, true);
  TL_CHECK(a.hx.size() == 2, ValueError, "lstm: expected two hidden states (h0, c0), got {}", a.hx.size());
  std::vector<Tensor> h_n, c_n;
  Tensor out = run(CellKind::LSTM, a, h_n, c_n, "lstm");
  push(s, out, torchlet::stack(h_n, 0), torchlet::stack(c_n, 0));
}
template <CellKind K>
void rnn(Stack& s) {
  RnnArgs a = pop_args(s, false);
  std::vector<Tensor> h_n, c_n;
  Tensor out = run(K, a, h_n, c_n, K == CellKind::GRU ? "gru" : "rnn");
  push(s, out, torchlet::stack(h_n, 0));
}

}  // namespace

static RegisterOps reg({
    {"aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)", lstm},
    {"aten::gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", rnn<CellKind::GRU>},
    {"aten::rnn_tanh.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", rnn<CellKind::Tanh>},
    {"aten::rnn_relu.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", rnn<CellKind::Relu>},
});

}  // namespace torchlet::jit::ops
