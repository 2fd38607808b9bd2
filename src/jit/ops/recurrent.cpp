// The recurrent operators nn.LSTM / nn.GRU / nn.RNN call (aten::lstm.input, gru.input,
// rnn_tanh.input, rnn_relu.input), registered from their kernels' signatures (Note
// [Boxing] in boxing.h; the kernels are recurrent.cpp's in src/tensor/kernels).
#include <torchlet/ops.h>

#include "jit/ops/boxing.h"

namespace torchlet::jit::ops {
namespace {

static RegisterOps reg({
    {"aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)", boxed<&torchlet::lstm>},
    {"aten::gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", boxed<&torchlet::gru>},
    {"aten::rnn_tanh.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", boxed<&torchlet::rnn_tanh>},
    {"aten::rnn_relu.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)", boxed<&torchlet::rnn_relu>},
});

}  // namespace
}  // namespace torchlet::jit::ops
