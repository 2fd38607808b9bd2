// Interpreter micro-benchmark, torchlet side: runs a graph (IR text file) with one int
// argument and prints the result and the best time of REPS runs. bench/interpreter_bench.py
// runs the same graph through torch 1.13's interpreter in the same run and prints the ratio.
//   interpreter_bench GRAPH.txt N [REPS]
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <torchlet/error.h>

#include "jit/ir/ir_parser.h"
#include "jit/runtime/compilation_unit.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: interpreter_bench GRAPH.txt N [REPS]\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    const int64_t n = std::stoll(argv[2]);
    const int reps = argc > 3 ? std::stoi(argv[3]) : 5;
    torchlet::jit::CompilationUnit cu;
    auto* fn = cu.create_function("bench", torchlet::jit::parse_ir(text.str()));
    double best_ms = 1e300;
    torchlet::IValue result;
    for (int r = 0; r < reps; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      result = (*fn)({torchlet::IValue(n)});
      auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      best_ms = std::min(best_ms, ms);
    }
    std::printf("result=%s ms=%.3f\n", result.repr().c_str(), best_ms);
  } catch (const torchlet::Error& e) {
    std::cerr << "interpreter_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
