// ArgumentSpec (reference: jit-technical-overview, "Graph Executor"): what the graph
// executor specialises a function's graph on for one call — each tensor argument's
// dtype, rank, requires_grad and device, and whether each
// Optional argument is None. Calls with equal specs share one optimised plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <torchlet/ivalue.h>

#include "jit/ir/ir.h"

namespace torchlet::jit {

struct ArgumentSpec {
  enum class Kind : uint8_t {
    Unspecialised,  // anything the spec does not record (ints, lists, objects, ...)
    Tensor,         // a defined tensor, described by the fields below
    None,           // None passed for an Optional parameter
    Present,        // a non-None value for an Optional parameter that is not a tensor
  };
  struct Arg {
    Kind kind = Kind::Unspecialised;
    DType dtype{};
    uint8_t rank = 0;
    bool requires_grad = false;
    Device device;
    bool operator==(const Arg&) const = default;
  };
  std::vector<Arg> args;

  bool operator==(const ArgumentSpec&) const = default;
  size_t hash() const;
};

struct ArgumentSpecHash {
  size_t operator()(const ArgumentSpec& s) const { return s.hash(); }
};

// The spec of the call whose arguments are `args` (schema order, self first) to a graph
// with those inputs. Tensors of rank above 255 are left unspecialised.
ArgumentSpec make_argument_spec(const Graph& graph, const IValue* args, size_t count);

// Narrows the graph's input types to what the spec records: a tensor argument's type
// becomes the refined tensor type of its dtype, rank (sizes unknown), requires_grad and
// device; an Optional parameter given None becomes NoneType, one given a value its
// element type. Nothing else in the graph changes (shape propagation does the rest).
void specialise_input_types(Graph& graph, const ArgumentSpec& spec);

}  // namespace torchlet::jit
