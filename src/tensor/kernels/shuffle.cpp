// Channel rearrangements, composed from views as torch 1.13 composes them:
// pixel_shuffle / pixel_unshuffle (channels to and from r x r spatial blocks) and
// channel_shuffle (channels regrouped by transposing [groups, C / groups]).
#include <torchlet/error.h>
#include <torchlet/ops.h>

namespace torchlet {
namespace {

Tensor pixel_shuffle_impl(const Tensor& x, int64_t r, bool shuffle) {
  const char* op = shuffle ? "pixel_shuffle" : "pixel_unshuffle";
  TL_CHECK(x.dim() >= 3, ValueError, "{} expects input to have at least 3 dimensions, but got input with {} dimension(s)",
           op, x.dim());
  TL_CHECK(r > 0, ValueError, "{} expects a positive {}, but got {}", op, shuffle ? "upscale_factor" : "downscale_factor",
           r);
  Shape lead(x.sizes().begin(), x.sizes().end() - 3);
  const int64_t c = x.size(-3), h = x.size(-2), w = x.size(-1);
  const auto nd = static_cast<int64_t>(lead.size());
  Shape view = lead, perm, out = lead;
  for (int64_t i = 0; i < nd; ++i) perm.push_back(i);
  if (shuffle) {
    TL_CHECK(c % (r * r) == 0, ValueError,
             "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but "
             "input.size(-3)={} is not divisible by {}",
             c, r * r);
    view.insert(view.end(), {c / (r * r), r, r, h, w});
    perm.insert(perm.end(), {nd, nd + 3, nd + 1, nd + 4, nd + 2});
    out.insert(out.end(), {c / (r * r), h * r, w * r});
  } else {
    TL_CHECK(h % r == 0, ValueError,
             "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)={} is not divisible "
             "by {}",
             h, r);
    TL_CHECK(w % r == 0, ValueError,
             "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)={} is not divisible "
             "by {}",
             w, r);
    view.insert(view.end(), {c, h / r, r, w / r, r});
    perm.insert(perm.end(), {nd, nd + 2, nd + 4, nd + 1, nd + 3});
    out.insert(out.end(), {c * r * r, h / r, w / r});
  }
  return x.reshape(view).permute(perm).contiguous().reshape(out);
}

}  // namespace

Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor) { return pixel_shuffle_impl(self, upscale_factor, true); }
Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor) {
  return pixel_shuffle_impl(self, downscale_factor, false);
}

Tensor channel_shuffle(const Tensor& self, int64_t groups) {
  TL_CHECK(self.dim() > 2, ValueError,
           "channel_shuffle expects input to have at least 3 dimensions, but got input with {} dimension(s)", self.dim());
  TL_CHECK(groups > 0, ValueError, "Number of groups to divide channels in must be positive. Value of groups:{}", groups);
  const int64_t c = self.size(1);
  TL_CHECK(c % groups == 0, ValueError, "Number of channels must be divisible by groups. Got {} channels and {} groups.", c,
           groups);
  Shape view{self.size(0), groups, c / groups};
  view.insert(view.end(), self.sizes().begin() + 2, self.sizes().end());
  return self.reshape(view).transpose(1, 2).contiguous().reshape(self.sizes());
}

}  // namespace torchlet
