// Loop unrolling (loop_unrolling.h), as torch's UnrollLoops: the same loops chosen, the
// same copies made in the same order, so the same graph comes out.
#include "jit/passes/loop_unrolling.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "jit/passes/constant_values.h"
#include "jit/passes/dead_code_elimination.h"

namespace torchlet::jit {

namespace {

constexpr int64_t kUnrollFactor = 8;
constexpr int64_t kMaxBodySize = 32;
constexpr int64_t kMaxBodyRepeats = 64;
// Constant unrolling has no body-size limit in torch, so loops nested in loops multiply:
// four levels of 63 trips make 15 million copies. A loop whose copies would hold more
// nodes than this stays a loop (torch would unroll it, or run out of memory).
constexpr int64_t kMaxCopiedNodes = int64_t{1} << 16;

const Symbol kRoundToZeroFloordiv = Symbol::from_qual_string("aten::__round_to_zero_floordiv");

bool is_true_constant(const Value* v) {
  std::optional<IValue> iv = to_ivalue(v);
  return iv && iv->isBool() && iv->toBool();
}

// A loop that starts and continues unconditionally: `for i in range(n)`.
bool is_for_loop(const Node* n) {
  return n->kind() == sym::prim_Loop && n->inputs().size() >= 2 && is_true_constant(n->input(1)) &&
         is_true_constant(n->blocks().at(0)->outputs().at(0));
}

// torch's limitedBlockSize: nodes other than constants, nested blocks' included, and
// each block's return node; counting stops near `limit`.
int64_t limited_block_size(const Block* body, int64_t limit) {
  int64_t i = 0;
  auto count = [&](const Node* n) {
    for (const Block* sub : n->blocks()) i += limited_block_size(sub, limit - i);
    if (n->kind() != sym::prim_Constant) ++i;
  };
  for (const Node* n : body->nodes()) {
    if (i >= limit) return limit;
    count(n);
  }
  if (i >= limit) return limit;
  count(body->return_node());
  return i;
}

bool is_small_block(const Block* body) { return limited_block_size(body, kMaxBodySize + 1) <= kMaxBodySize; }

// How many copies of the body unrolling makes: all iterations of a short constant loop,
// else the unroll factor.
int64_t copies_made(const Node* loop) {
  std::optional<int64_t> length = constant_int(loop->input(0));
  return length && *length < kMaxBodyRepeats ? std::max<int64_t>(*length, 0) : kUnrollFactor;
}

bool within_copy_budget(const Node* loop) {
  const int64_t copies = copies_made(loop);
  if (copies == 0) return true;
  const int64_t per_copy = kMaxCopiedNodes / copies;
  return limited_block_size(loop->blocks()[0], per_copy + 1) <= per_copy;
}

Value* insert_int_op(Graph& graph, Symbol kind, Value* a, Value* b) {
  Value* out = graph.insert(kind, {a, b})->output();
  out->set_type(Type::int_());
  return out;
}

Value* insert_int_op(Graph& graph, Symbol kind, Value* a, int64_t b) {
  return insert_int_op(graph, kind, a, graph.insert_constant(IValue(b)));
}

// A copy of body's nodes at the graph's insert point, its inputs bound to `inputs`;
// returns what its outputs became.
std::vector<Value*> insert_block_copy(Graph& graph, const Block* body, const std::vector<Value*>& inputs) {
  std::unordered_map<const Value*, Value*> env;
  for (size_t i = 0; i < inputs.size(); ++i) env[body->inputs()[i]] = inputs[i];
  auto map = [&](Value* v) {
    auto it = env.find(v);
    return it == env.end() ? v : it->second;
  };
  for (const Node* n : body->nodes()) {
    Node* copy = graph.insert_node(graph.create_clone(n, map));
    for (size_t i = 0; i < n->outputs().size(); ++i) env[n->output(i)] = copy->output(i);
  }
  std::vector<Value*> outputs;
  for (Value* v : body->outputs()) outputs.push_back(map(v));
  return outputs;
}

// dest becomes `times` copies of body in a row, each iteration's carried values feeding
// the next (the loop counter is unused by then).
void repeat_body(Graph& graph, Block* body, int64_t times, Block* dest) {
  InsertPointGuard guard(graph);
  graph.set_insert_point(dest);
  for (Value* in : body->inputs()) dest->add_input()->copy_metadata(in);
  std::vector<Value*> io(dest->inputs().begin(), dest->inputs().end());
  for (int64_t i = 0; i < times; ++i) {
    io[0] = body->inputs()[0];
    io = insert_block_copy(graph, body, io);
  }
  for (Value* out : io) dest->register_output(out);
  // The copies' own "continue" constants and the like: gone before an outer loop's
  // size is judged.
  eliminate_dead_code_in_block(dest);
}

// The counter becomes a value the loop carries, starting at 0 and incremented at the
// end of the body, so the unrolled loop and its epilogue can share it.
void replace_loop_counter(Graph& graph, Node* loop) {
  Block* body = loop->blocks()[0];
  InsertPointGuard guard(graph, loop);
  Value* init = graph.insert_constant(IValue(int64_t{0}));
  loop->insert_input(2, init);
  loop->insert_output(0)->set_type(Type::int_());
  Value* counter = body->insert_input(1)->set_type(Type::int_());
  body->inputs()[0]->replace_all_uses_with(counter);
  graph.set_insert_point(body->return_node());
  body->insert_output(1, insert_int_op(graph, sym::aten_add, counter, int64_t{1}));
}

// A loop known to run its (only) block exactly once, replaced by that block's nodes.
void inline_body(Graph& graph, Node* loop) {
  Block* body = loop->blocks()[0];
  InsertPointGuard guard(graph, loop);
  std::vector<Value*> inputs{body->inputs()[0]};
  for (size_t i = 2; i < loop->inputs().size(); ++i) inputs.push_back(loop->input(i));
  const std::vector<Value*> outputs = insert_block_copy(graph, body, inputs);
  for (size_t i = 0; i < loop->outputs().size(); ++i) loop->output(i)->replace_all_uses_with(outputs[i + 1]);
  // Destroyed here: the loop may hold effects dead-code elimination would keep.
  loop->destroy();
}

void unroll(Graph& graph, Node* loop) {
  Block* body = loop->blocks()[0];
  if (body->inputs()[0]->has_uses()) replace_loop_counter(graph, loop);
  // A short loop of known length becomes straight-line code (a negative count runs
  // no iteration).
  if (std::optional<int64_t> length = constant_int(loop->input(0)); length && *length < kMaxBodyRepeats) {
    Block* dest = loop->add_block();
    repeat_body(graph, body, std::max<int64_t>(*length, 0), dest);
    loop->erase_block(0);
    inline_body(graph, loop);
    return;
  }
  InsertPointGuard guard(graph, loop);
  // The epilogue runs what is left after the unrolled loop's whole groups of 8.
  Node* epilogue = graph.create_clone(loop, [](Value* v) { return v; });
  epilogue->insert_after(loop);
  for (size_t i = 0; i < loop->outputs().size(); ++i) {
    loop->output(i)->replace_all_uses_with(epilogue->output(i));
    epilogue->replace_input(i + 2, loop->output(i));
  }
  Block* dest = loop->add_block();
  repeat_body(graph, body, kUnrollFactor, dest);
  loop->erase_block(0);
  Value* count = loop->input(0);
  Value* groups = insert_int_op(graph, kRoundToZeroFloordiv, count, kUnrollFactor);
  loop->replace_input(0, groups);
  epilogue->replace_input(0, insert_int_op(graph, sym::aten_sub, count,
                                           insert_int_op(graph, sym::aten_mul, groups, kUnrollFactor)));
}

bool unroll_block(Graph& graph, Block* block, bool constant_only) {
  bool changed = false;
  // A snapshot: unrolling destroys the loop and adds nodes around it.
  const std::vector<Node*> nodes(block->nodes().begin(), block->nodes().end());
  for (Node* n : nodes) {
    for (Block* sub : n->blocks()) changed |= unroll_block(graph, sub, constant_only);
    if (!is_for_loop(n)) continue;
    if (constant_only ? n->input(0)->node()->kind() != sym::prim_Constant || !within_copy_budget(n)
                      : !is_small_block(n->blocks()[0])) {
      continue;
    }
    unroll(graph, n);
    changed = true;
  }
  return changed;
}

bool unroll_graph(Graph& graph, bool constant_only) {
  const bool changed = unroll_block(graph, graph.block(), constant_only);
  if (changed) eliminate_dead_code(graph, DeadCodeWrites::AliasAware);
  return changed;
}

}  // namespace

bool unroll_loops(Graph& graph) { return unroll_graph(graph, false); }
bool unroll_constant_loops(Graph& graph) { return unroll_graph(graph, true); }

}  // namespace torchlet::jit
