// torch.nn.functional's Python-level functions, written in TorchScript for torchlet's
// compiler (nn_functional.h). Each keeps torch 1.13's signature, defaults, checks and
// error wording, and computes with the operator torch's own function ends in, so results
// match torch bit for bit; the differential tests in tests/fixtures/gen_conformance.py
// compare them with torch.jit.script of the same calls.
#include "jit/frontend/nn_functional.h"

#include <unordered_map>
#include <unordered_set>

#include "jit/frontend/ast.h"
#include "jit/frontend/parser.h"

namespace torchlet::jit {

namespace {

// The text. Helpers start with an underscore; torch's boolean_dispatch pairs are
// _max_pool2d / max_pool2d_with_indices. Legacy size_average/reduce flags are honoured
// as torch's _Reduction.legacy_get_string does.
const char* const kSource = R"TS(
def _reduction(size_average: Optional[bool], reduce: Optional[bool], reduction: str) -> int:
    if size_average is not None or reduce is not None:
        average = True
        if size_average is not None:
            average = size_average
        do_reduce = True
        if reduce is not None:
            do_reduce = reduce
        if average and do_reduce:
            reduction = "mean"
        elif do_reduce:
            reduction = "sum"
        else:
            reduction = "none"
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(reduction + " is not a valid value for reduction")

def _reduction_name(size_average: Optional[bool], reduce: Optional[bool], reduction: str) -> str:
    code = _reduction(size_average, reduce, reduction)
    if code == 0:
        return "none"
    if code == 1:
        return "mean"
    return "sum"

def _check_probability(p: float):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))

def relu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.relu_(input)
    return torch.relu(input)

def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.relu6_(input)
    return torch.relu6(input)

def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.elu_(input, alpha)
    return torch.elu(input, alpha)

def selu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.selu_(input)
    return torch.selu(input)

def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.celu_(input, alpha)
    return torch.celu(input, alpha)

def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.leaky_relu_(input, negative_slope)
    return torch.leaky_relu(input, negative_slope)

def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.hardtanh_(input, min_val, max_val)
    return torch.hardtanh(input, min_val, max_val)

def silu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.silu_(input)
    return torch.silu(input)

def mish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.mish_(input)
    return torch.mish(input)

def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.hardswish_(input)
    return torch.hardswish(input)

def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.hardsigmoid_(input)
    return torch.hardsigmoid(input)

def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.threshold_(input, threshold, value)
    return torch.threshold(input, threshold, value)

def rrelu(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False, inplace: bool = False) -> Tensor:
    if inplace:
        return torch.rrelu_(input, lower, upper, training)
    return torch.rrelu(input, lower, upper, training)

def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return torch.glu(input, dim)

def sigmoid(input: Tensor) -> Tensor:
    warnings.warn("nn.functional.sigmoid is deprecated. Use torch.sigmoid instead.")
    return input.sigmoid()

def tanh(input: Tensor) -> Tensor:
    warnings.warn("nn.functional.tanh is deprecated. Use torch.tanh instead.")
    return input.tanh()

def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)

def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()

def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn("Implicit dimension choice for " + name + " has been deprecated. Change the call to include dim=X as an argument.")
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1

def softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.softmax(dim)
    return input.softmax(dim, dtype=dtype)

def log_softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.log_softmax(dim)
    return input.log_softmax(dim, dtype=dtype)

def softmin(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)

def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.")
    gumbels = -torch.empty_like(logits, memory_format=torch.legacy_contiguous_format).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = torch.zeros_like(logits, memory_format=torch.legacy_contiguous_format).scatter_(dim, index, 1.0)
        ret = y_hard - y_soft.detach() + y_soft
    else:
        ret = y_soft
    return ret

def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _check_probability(p)
    if inplace:
        return torch.dropout_(input, p, training)
    return torch.dropout(input, p, training)

def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    _check_probability(p)
    if inplace:
        return torch.alpha_dropout_(input, p, training)
    return torch.alpha_dropout(input, p, training)

def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    _check_probability(p)
    if inplace:
        return torch.feature_alpha_dropout_(input, p, training)
    return torch.feature_alpha_dropout(input, p, training)

def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool, batched: bool) -> Tensor:
    if not batched:
        if inplace:
            input = input.unsqueeze_(0)
        else:
            input = input.unsqueeze(0)
    if inplace:
        result = torch.feature_dropout_(input, p, training)
    else:
        result = torch.feature_dropout(input, p, training)
    if not batched:
        if inplace:
            result = result.squeeze_(0)
        else:
            result = result.squeeze(0)
    return result

def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _check_probability(p)
    ndim = input.dim()
    if ndim != 2 and ndim != 3:
        raise RuntimeError("dropout1d: Expected 2D or 3D input, but received a " + str(ndim) + "D input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout(input, p, training, inplace, ndim == 3)

def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _check_probability(p)
    ndim = input.dim()
    if ndim != 3 and ndim != 4:
        warnings.warn("dropout2d: Received a " + str(ndim) + "-D input to dropout2d, which is deprecated and will result in an error in a future release.")
    if ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is desired - input is interpreted as shape (N, C, L).")
    return _feature_dropout(input, p, training, inplace, True)

def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _check_probability(p)
    ndim = input.dim()
    if ndim != 4 and ndim != 5:
        warnings.warn("dropout3d: Received a " + str(ndim) + "-D input to dropout3d, which is deprecated and will result in an error in a future release.")
    return _feature_dropout(input, p, training, inplace, ndim == 5)

def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Optional[Tensor] = None) -> Tensor:
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return torch.div(input, denom, out=out)

def embedding(input: Tensor, weight: Tensor, padding_idx: Optional[int] = None, max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        # torch.jit.script drops the renormalisation (torch 1.13 compiles F.embedding
        # without its call); scripted code keeps the weight as is, and so does this.
        warnings.warn("embedding: max_norm is ignored in TorchScript (as torch.jit.script does)")
        input = input.contiguous()
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)

def embedding_bag(input: Tensor, weight: Tensor, offsets: Optional[Tensor] = None, max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False, per_sample_weights: Optional[Tensor] = None, include_last_offset: bool = False, padding_idx: Optional[int] = None) -> Tensor:
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError("embedding_bag: If per_sample_weights (" + str(per_sample_weights.size()) + ") is not None, then it must have the same shape as the input (" + str(input.size()) + ")")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences. However, found offsets of type Tensor")
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension " + str(input.dim()))
    if mode == "sum":
        mode_enum = 0
    elif mode == "mean":
        mode_enum = 1
    elif mode == "max":
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        warnings.warn("embedding_bag: max_norm is ignored in TorchScript (as torch.jit.script does)")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='" + mode + "'). Please open a feature request on GitHub.")
    assert offsets is not None
    result = torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_enum, sparse, per_sample_weights, include_last_offset, padding_idx)
    return result[0]

def _verify_batch_size(size: List[int]):
    values = size[0]
    for i in range(len(size) - 2):
        values *= size[i + 2]
    if values == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size " + str(size))

def _verify_spatial_size(size: List[int]):
    values = 1
    for i in range(2, len(size)):
        values *= size[i]
    if values == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size " + str(size))

def batch_norm(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor], weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, training: bool = False, momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    if training:
        _verify_batch_size(input.size())
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, True)

def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None, running_var: Optional[Tensor] = None, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    if use_input_stats:
        _verify_spatial_size(input.size())
    return torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, True)

def layer_norm(input: Tensor, normalized_shape: List[int], weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, eps: float = 1e-05) -> Tensor:
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, True)

def group_norm(input: Tensor, num_groups: int, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, eps: float = 1e-05) -> Tensor:
    if input.dim() < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received " + str(input.dim()))
    size = [input.size(0) * input.size(1) // num_groups, num_groups]
    for i in range(2, input.dim()):
        size.append(input.size(i))
    _verify_batch_size(size)
    return torch.group_norm(input, num_groups, weight, bias, eps, True)

def local_response_norm(input: Tensor, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0) -> Tensor:
    ndim = input.dim()
    if ndim < 3:
        raise ValueError("Expected 3D or higher dimensionality input (got " + str(ndim) + " dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if ndim == 3:
        div = torch.pad(div, [0, 0, size // 2, (size - 1) // 2])
        div = torch.avg_pool2d(div, [size, 1], [1, 1]).squeeze(1)
    else:
        sizes = input.size()
        div = div.view([sizes[0], 1, sizes[1], sizes[2], -1])
        div = torch.pad(div, [0, 0, 0, 0, size // 2, (size - 1) // 2])
        div = torch.avg_pool3d(div, [size, 1, 1], [1, 1, 1]).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div

def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, ignore_index: int = -100, reduce: Optional[bool] = None, reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    return torch.cross_entropy_loss(input, target, weight, _reduction(size_average, reduce, reduction), ignore_index, label_smoothing)

def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, ignore_index: int = -100, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    return torch.nll_loss_nd(input, target, weight, _reduction(size_average, reduce, reduction), ignore_index)

def _warn_size_mismatch(input: Tensor, target: Tensor):
    if target.size() != input.size():
        warnings.warn("Using a target size (" + str(target.size()) + ") that is different to the input size (" + str(input.size()) + "). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.")

def mse_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    _warn_size_mismatch(input, target)
    both = torch.broadcast_tensors([input, target])
    return torch.mse_loss(both[0], both[1], _reduction(size_average, reduce, reduction))

def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _reduction(None, None, reduction), zero_infinity)

def l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    _warn_size_mismatch(input, target)
    both = torch.broadcast_tensors([input, target])
    return torch.l1_loss(both[0], both[1], _reduction(size_average, reduce, reduction))

def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    _warn_size_mismatch(input, target)
    both = torch.broadcast_tensors([input, target])
    if beta == 0.0:
        return torch.l1_loss(both[0], both[1], _reduction(size_average, reduce, reduction))
    return torch.smooth_l1_loss(both[0], both[1], _reduction(size_average, reduce, reduction), beta)

def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    _warn_size_mismatch(input, target)
    both = torch.broadcast_tensors([input, target])
    return torch.huber_loss(both[0], both[1], _reduction(None, None, reduction), delta)

def binary_cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    code = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError("Using a target size (" + str(target.size()) + ") that is different to the input size (" + str(input.size()) + ") is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(torch._infer_size(target.size(), weight.size()))
    return torch.binary_cross_entropy(input, target, weight, code)

def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", pos_weight: Optional[Tensor] = None) -> Tensor:
    code = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError("Target size (" + str(target.size()) + ") must be the same as input size (" + str(input.size()) + ")")
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, code)

def kl_div(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", log_target: bool = False) -> Tensor:
    if size_average is not None or reduce is not None:
        code = _reduction(size_average, reduce, reduction)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size.'batchmean' divides only by the batch size, and aligns with the KL div math definition.'mean' will be changed to behave the same as 'batchmean' in the next major release.")
        if reduction == "batchmean":
            code = 2
        else:
            code = _reduction(None, None, reduction)
    reduced = torch.kl_div(input, target, code, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size(0)
    return reduced

def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False, size_average: Optional[bool] = None, eps: float = 1e-08, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    return torch.poisson_nll_loss(input, target, log_input, full, eps, _reduction(size_average, reduce, reduction))

def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-06, reduction: str = "mean") -> Tensor:
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    if bool(torch.any(var < 0)):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss

def soft_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    return torch.soft_margin_loss(input, target, _reduction(size_average, reduce, reduction))

def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    name = _reduction_name(size_average, reduce, reduction)
    loss = -(target * torch.log_sigmoid(input) + (1 - target) * torch.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if name == "none":
        return loss
    if name == "mean":
        return loss.mean()
    return loss.sum()

def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    return torch.multilabel_margin_loss(input, target, _reduction(size_average, reduce, reduction))

def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    code = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None:
        if weight.dim() != 1:
            raise ValueError("weight must be one-dimensional")
    return torch.multi_margin_loss(input, target, p, margin, weight, code)

def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    return torch.hinge_embedding_loss(input, target, margin, _reduction(size_average, reduce, reduction))

def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    code = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: " + str(input1.size()) + ", input2: " + str(input2.size()) + ", target: " + str(target.size()) + " ")
    return torch.margin_ranking_loss(input1, input2, target, margin, code)

def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    return torch.cosine_embedding_loss(input1, input2, target, margin, _reduction(size_average, reduce, reduction))

def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2.0, eps: float = 1e-06, swap: bool = False, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    code = _reduction(size_average, reduce, reduction)
    if anchor.dim() != positive.dim() or positive.dim() != negative.dim():
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor " + str(anchor.dim()) + "D, positive " + str(positive.dim()) + "D, and negative " + str(negative.dim()) + "D inputs")
    return torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, code)

def _max_pool1d(input: Tensor, kernel_size: BroadcastingList1[int], stride: Optional[BroadcastingList1[int]] = None, padding: BroadcastingList1[int] = 0, dilation: BroadcastingList1[int] = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)

def max_pool1d_with_indices(input: Tensor, kernel_size: BroadcastingList1[int], stride: Optional[BroadcastingList1[int]] = None, padding: BroadcastingList1[int] = 0, dilation: BroadcastingList1[int] = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

def _max_pool2d(input: Tensor, kernel_size: BroadcastingList2[int], stride: Optional[BroadcastingList2[int]] = None, padding: BroadcastingList2[int] = 0, dilation: BroadcastingList2[int] = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)

def max_pool2d_with_indices(input: Tensor, kernel_size: BroadcastingList2[int], stride: Optional[BroadcastingList2[int]] = None, padding: BroadcastingList2[int] = 0, dilation: BroadcastingList2[int] = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

def _max_pool3d(input: Tensor, kernel_size: BroadcastingList3[int], stride: Optional[BroadcastingList3[int]] = None, padding: BroadcastingList3[int] = 0, dilation: BroadcastingList3[int] = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)

def max_pool3d_with_indices(input: Tensor, kernel_size: BroadcastingList3[int], stride: Optional[BroadcastingList3[int]] = None, padding: BroadcastingList3[int] = 0, dilation: BroadcastingList3[int] = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        stride = torch.jit.annotate(List[int], [])
    return torch.max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

def _unpool_output_size(input: Tensor, kernel_size: List[int], stride: List[int], padding: List[int], output_size: Optional[List[int]]) -> List[int]:
    input_size = input.size()
    default_size: List[int] = []
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        return default_size
    size = output_size
    if len(size) == len(kernel_size) + 2:
        size = size[2:]
    if len(size) != len(kernel_size):
        raise ValueError("output_size should be a sequence containing {} or {} elements, but it has a length of '{}'".format(len(kernel_size), len(kernel_size) + 2, len(size)))
    for d in range(len(kernel_size)):
        min_size = default_size[d] - stride[d]
        max_size = default_size[d] + stride[d]
        if not (min_size < size[d] < max_size):
            raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'.format(size, d, min_size, max_size))
    return size

def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList1[int], stride: Optional[BroadcastingList1[int]] = None, padding: BroadcastingList1[int] = 0, output_size: Optional[BroadcastingList1[int]] = None) -> Tensor:
    _stride = kernel_size
    if stride is not None:
        _stride = stride
    size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return torch.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size + [1]).squeeze(-1)

def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList2[int], stride: Optional[BroadcastingList2[int]] = None, padding: BroadcastingList2[int] = 0, output_size: Optional[BroadcastingList2[int]] = None) -> Tensor:
    _stride = kernel_size
    if stride is not None:
        _stride = stride
    return torch.max_unpool2d(input, indices, _unpool_output_size(input, kernel_size, _stride, padding, output_size))

def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList3[int], stride: Optional[BroadcastingList3[int]] = None, padding: BroadcastingList3[int] = 0, output_size: Optional[BroadcastingList3[int]] = None) -> Tensor:
    _stride = kernel_size
    if stride is not None:
        _stride = stride
    return torch.max_unpool3d(input, indices, _unpool_output_size(input, kernel_size, _stride, padding, output_size), _stride, padding)

def _list_with_default(out_size: List[int], defaults: List[int]) -> List[int]:
    if len(defaults) <= len(out_size):
        raise ValueError("Input dimension should be at least " + str(len(out_size) + 1))
    return out_size

def adaptive_avg_pool2d(input: Tensor, output_size: BroadcastingList2[int]) -> Tensor:
    return torch.adaptive_avg_pool2d(input, _list_with_default(output_size, input.size()))

def adaptive_avg_pool3d(input: Tensor, output_size: BroadcastingList3[int]) -> Tensor:
    return torch.adaptive_avg_pool3d(input, _list_with_default(output_size, input.size()))

def _adaptive_max_pool1d(input: Tensor, output_size: BroadcastingList1[int], return_indices: bool = False) -> Tensor:
    return torch.adaptive_max_pool1d(input, output_size)[0]

def adaptive_max_pool1d_with_indices(input: Tensor, output_size: BroadcastingList1[int], return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool1d(input, output_size)

def _adaptive_max_pool2d(input: Tensor, output_size: BroadcastingList2[int], return_indices: bool = False) -> Tensor:
    return torch.adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))[0]

def adaptive_max_pool2d_with_indices(input: Tensor, output_size: BroadcastingList2[int], return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))

def _adaptive_max_pool3d(input: Tensor, output_size: BroadcastingList3[int], return_indices: bool = False) -> Tensor:
    return torch.adaptive_max_pool3d(input, _list_with_default(output_size, input.size()))[0]

def adaptive_max_pool3d_with_indices(input: Tensor, output_size: BroadcastingList3[int], return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool3d(input, _list_with_default(output_size, input.size()))

def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Optional[BroadcastingList1[int]] = None, ceil_mode: bool = False) -> Tensor:
    if stride is not None:
        out = torch.avg_pool1d(input.pow(norm_type), [kernel_size], stride, [0], ceil_mode)
    else:
        out = torch.avg_pool1d(input.pow(norm_type), [kernel_size], [kernel_size], [0], ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)

def lp_pool2d(input: Tensor, norm_type: float, kernel_size: BroadcastingList2[int], stride: Optional[BroadcastingList2[int]] = None, ceil_mode: bool = False) -> Tensor:
    if stride is not None:
        out = torch.avg_pool2d(input.pow(norm_type), kernel_size, stride, [0, 0], ceil_mode)
    else:
        out = torch.avg_pool2d(input.pow(norm_type), kernel_size, kernel_size, [0, 0], ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kernel_size[0] * kernel_size[1]).pow(1.0 / norm_type)

def unfold(input: Tensor, kernel_size: BroadcastingList2[int], dilation: BroadcastingList2[int] = 1, padding: BroadcastingList2[int] = 0, stride: BroadcastingList2[int] = 1) -> Tensor:
    return torch.im2col(input, kernel_size, dilation, padding, stride)

def fold(input: Tensor, output_size: BroadcastingList2[int], kernel_size: BroadcastingList2[int], dilation: BroadcastingList2[int] = 1, padding: BroadcastingList2[int] = 0, stride: BroadcastingList2[int] = 1) -> Tensor:
    return torch.col2im(input, output_size, kernel_size, dilation, padding, stride)

def affine_grid(theta: Tensor, size: List[int], align_corners: Optional[bool] = None) -> Tensor:
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please specify align_corners=True if the old behavior is desired. See the documentation of grid_sample for details.")
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError("Expected theta to have floating point type, but got " + str(theta.dtype))
    if len(size) == 4:
        if theta.dim() != 3 or theta.size(-2) != 2 or theta.size(-1) != 3:
            raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size " + str(size) + ". Got " + str(theta.size()) + ".")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.size(-2) != 3 or theta.size(-1) != 4:
            raise ValueError("Expected a batch of 3D affine matrices of shape Nx3x4 for size " + str(size) + ". Got " + str(theta.size()) + ".")
        spatial = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size " + str(size) + ".")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when align_corners=True. This is not an issue for standard usage of affine_grid. See the documentation of affine_grid for details.")
    elif min(size) <= 0:
        raise ValueError("Expected non-zero, positive output size. Got " + str(size))
    return torch.affine_grid_generator(theta, size, align_corners)

def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros", align_corners: Optional[bool] = None) -> Tensor:
    if mode != "bilinear" and mode != "nearest" and mode != "bicubic":
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '" + mode + "'")
    if padding_mode != "zeros" and padding_mode != "border" and padding_mode != "reflection":
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '" + padding_mode + "'")
    if mode == "bilinear":
        mode_enum = 0
    elif mode == "nearest":
        mode_enum = 1
    else:
        mode_enum = 2
    if padding_mode == "zeros":
        padding_mode_enum = 0
    elif padding_mode == "border":
        padding_mode_enum = 1
    else:
        padding_mode_enum = 2
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please specify align_corners=True if the old behavior is desired. See the documentation of grid_sample for details.")
        align_corners = False
    return torch.grid_sampler(input, grid, mode_enum, padding_mode_enum, align_corners)

def _interp_output_size(input: Tensor, dim: int, size: Optional[List[int]], scale_factor: Optional[List[float]]) -> List[int]:
    result: List[int] = []
    if size is not None:
        return size
    if scale_factor is not None:
        for i in range(dim):
            result.append(int(math.floor(float(input.size(i + 2)) * scale_factor[i])))
    return result

def interpolate(input: Tensor, size: Union[int, List[int], None] = None, scale_factor: Union[float, List[float], None] = None, mode: str = "nearest", align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None, antialias: bool = False) -> Tensor:
    if mode == "nearest" or mode == "area" or mode == "nearest-exact":
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear")
    else:
        if align_corners is None:
            align_corners = False
    dim = input.dim() - 2
    output_size: Optional[List[int]] = None
    scale_factors: Optional[List[float]] = None
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        if isinstance(size, int):
            output_size = [size for _ in range(dim)]
        else:
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of " + str(input.size()[2:]) + " and output size of " + str(size) + ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            output_size = size
    elif scale_factor is not None:
        if isinstance(scale_factor, float):
            scale_factors = [scale_factor for _ in range(dim)]
        else:
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of " + str(input.size()[2:]) + " and scale_factor of shape " + str(scale_factor) + ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = scale_factor
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = _interp_output_size(input, dim, output_size, scale_factors)
        scale_factors = None
    if antialias and not ((mode == "bilinear" or mode == "bicubic") and input.dim() == 4):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")
    if input.dim() == 3 and mode == "nearest":
        return torch.upsample_nearest1d(input, output_size, scale_factors)
    if input.dim() == 4 and mode == "nearest":
        return torch.upsample_nearest2d(input, output_size, scale_factors)
    if input.dim() == 5 and mode == "nearest":
        return torch.upsample_nearest3d(input, output_size, scale_factors)
    if input.dim() == 3 and mode == "nearest-exact":
        return torch._upsample_nearest_exact1d(input, output_size, scale_factors)
    if input.dim() == 4 and mode == "nearest-exact":
        return torch._upsample_nearest_exact2d(input, output_size, scale_factors)
    if input.dim() == 5 and mode == "nearest-exact":
        return torch._upsample_nearest_exact3d(input, output_size, scale_factors)
    if mode == "area":
        sizes = _interp_output_size(input, dim, output_size, scale_factors)
        if input.dim() == 3:
            return torch.adaptive_avg_pool1d(input, sizes)
        if input.dim() == 4:
            return torch.adaptive_avg_pool2d(input, sizes)
        if input.dim() == 5:
            return torch.adaptive_avg_pool3d(input, sizes)
    corners = False
    if align_corners is not None:
        corners = align_corners
    if input.dim() == 3 and mode == "linear":
        return torch.upsample_linear1d(input, output_size, corners, scale_factors)
    if input.dim() == 4 and mode == "bilinear":
        if antialias:
            return torch._upsample_bilinear2d_aa(input, output_size, corners, scale_factors)
        return torch.upsample_bilinear2d(input, output_size, corners, scale_factors)
    if input.dim() == 5 and mode == "trilinear":
        return torch.upsample_trilinear3d(input, output_size, corners, scale_factors)
    if input.dim() == 4 and mode == "bicubic":
        if antialias:
            return torch._upsample_bicubic2d_aa(input, output_size, corners, scale_factors)
        return torch.upsample_bicubic2d(input, output_size, corners, scale_factors)
    if input.dim() == 3 and mode == "bilinear":
        raise NotImplementedError("Got 3D input, but bilinear mode needs 4D input")
    if input.dim() == 3 and mode == "trilinear":
        raise NotImplementedError("Got 3D input, but trilinear mode needs 5D input")
    if input.dim() == 4 and mode == "linear":
        raise NotImplementedError("Got 4D input, but linear mode needs 3D input")
    if input.dim() == 4 and mode == "trilinear":
        raise NotImplementedError("Got 4D input, but trilinear mode needs 5D input")
    if input.dim() == 5 and mode == "linear":
        raise NotImplementedError("Got 5D input, but linear mode needs 3D input")
    if input.dim() == 5 and mode == "bilinear":
        raise NotImplementedError("Got 5D input, but bilinear mode needs 4D input")
    raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported (got " + str(input.dim()) + "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got " + mode + ")")

def upsample(input: Tensor, size: Union[int, List[int], None] = None, scale_factor: Union[float, List[float], None] = None, mode: str = "nearest", align_corners: Optional[bool] = None) -> Tensor:
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)

def upsample_nearest(input: Tensor, size: Union[int, List[int], None] = None, scale_factor: Union[float, List[float], None] = None) -> Tensor:
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, "nearest")

def upsample_bilinear(input: Tensor, size: Union[int, List[int], None] = None, scale_factor: Union[float, List[float], None] = None) -> Tensor:
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, "bilinear", True)
)TS";

}  // namespace

const std::string& nn_functional_source() {
  static const std::string source(kSource);
  return source;
}

bool nn_functional_defines(const std::string& name) {
  static const std::unordered_set<std::string> names = [] {
    std::unordered_set<std::string> defined;
    for (const auto& st : parse_file(nn_functional_source(), "<torch.nn.functional>").statements)
      if (st->kind() == TreeKind::Def) defined.insert(DefView(*st).name());
    return defined;
  }();
  return names.count(name) != 0;
}

std::optional<std::string> nn_functional_builtin(const std::string& name) {
  // torch.jit._builtins binds these torch.nn.functional names to operators (1.13).
  static const std::unordered_set<std::string> kBuiltins = {
      "adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "bilinear", "celu_", "channel_shuffle",
      "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
      "cosine_similarity", "elu_", "gelu", "hardshrink", "hardtanh_", "leaky_relu_", "linear",
      "native_channel_shuffle", "one_hot", "pad", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle",
      "prelu", "relu_", "rrelu_", "selu_", "softplus", "softshrink", "threshold_"};
  if (name == "logsigmoid") return std::string("log_sigmoid");
  if (kBuiltins.count(name)) return name;
  return std::nullopt;
}

std::optional<size_t> nn_functional_return_indices_position(const std::string& name) {
  static const std::unordered_map<std::string, size_t> kPositions = {
      {"max_pool1d", 6},          {"max_pool2d", 6},          {"max_pool3d", 6},
      {"adaptive_max_pool1d", 2}, {"adaptive_max_pool2d", 2}, {"adaptive_max_pool3d", 2},
  };
  auto it = kPositions.find(name);
  if (it == kPositions.end()) return std::nullopt;
  return it->second;
}

}  // namespace torchlet::jit
