// The table of graph passes by name and the runner of a named pipeline: what
// `torchlet graph --passes` and the optimizer (issue #36) run. One row per pass.
#pragma once

#include <string>
#include <vector>

#include "jit/ir/ir.h"

namespace torchlet::jit {

struct GraphPass {
  const char* name;      // as --passes spells it
  bool (*run)(Graph&);   // returns whether it changed the graph
  const char* summary;   // one line: what it does, and which torch pass it matches
};

// Every pass, in the order `torchlet graph --help` lists them.
const std::vector<GraphPass>& graph_passes();

// Runs the named passes in order on `graph`, linting after each one when `lint` (on by
// default in debug builds, so a pass that breaks an invariant is named at once).
// ValueError naming an unknown pass and listing the known ones.
void run_passes(Graph& graph, const std::vector<std::string>& names,
#ifdef NDEBUG
                bool lint = false
#else
                bool lint = true
#endif
);

}  // namespace torchlet::jit
