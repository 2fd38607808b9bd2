// The body of every fuzz target, one function per parser of untrusted bytes. The
// libFuzzer mains (fuzz/*_fuzz.cpp, clang only) and the regression replay in the normal
// test suite (tests/fuzz/) both call these, so a finding replays through exactly the
// code that found it. Not the place for mutators or corpus handling (scripts/fuzz.sh).
//
// Contract of each entry: a torchlet::Error (other than InternalError) is a correct
// refusal and is swallowed; anything else escaping — InternalError, std::exception, a
// sanitizer report, a crash, a hang — is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace torchlet::fuzz {

using Bytes = std::span<const uint8_t>;

void zip_reader(Bytes data);      // ZipReader over the bytes, every record read with CRC checks
void unpickler(Bytes data);       // raw pickle bytes: strict and inert unpickling, disassembly
void checkpoint(Bytes data);      // whole checkpoint file: load (eager, mapped) and scan
void ir_parser(Bytes data);       // IR text: parse, lint, print, reparse, emit instructions
void script_parser(Bytes data);   // TorchScript source: lexer + parser, file and expression
void compiler(Bytes data);        // TorchScript source: compile, lint and emit every function
void script_archive(Bytes data);  // torch.jit.save archive: load, run forward under a step budget, optimize, freeze
void safetensors(Bytes data);     // .safetensors file: header read, load (eager, mapped), tensors printed
void graph_passes(Bytes data);    // IR text: alias analysis, every graph pass alone and in a row, lint after each
void exported_program(Bytes data);  // torch.export .pt2 archive: load, every accessor, graph text, run on sample inputs

// Steps (loop iterations and calls) the script_archive target lets `forward` take, and
// exported_program one call of the program (straight-line graphs, so only a backstop): a
// hostile archive may loop forever, which is a legitimate program, not a finding. The
// seed models need a few dozen; an endless loop of tensor operators spends ~80 us a step
// under the fuzzer's instrumentation, so 5000 keeps every run well under a second.
inline constexpr int64_t kForwardStepBudget = 5'000;

// Containers one walk over a value (print, compare, hash, type check) may visit in a
// target (ValueVisitBudget): a pickle whose lists share their parts reaches the
// library's 2^22 only after seconds of printing under ASan, past the fuzzers' timeout.
inline constexpr size_t kFuzzValueVisits = size_t{1} << 16;

// Largest single buffer the targets that run programs (compiler: constant folding,
// script_archive: forward, exported_program: the call) let one build (AllocationLimit,
// Note [Allocation limit]).
// Under ASan a refused operator new ends the process instead of throwing, so a program
// asking for 8 GiB ('a'.ljust(1 << 33)) has to be refused before it gets there; the
// seeds need kilobytes, and at 16 MiB even a tolist() of bools (16 bytes a value) stays
// under the 512 MiB ASan cap in script_archive_fuzz.cpp.
inline constexpr size_t kFuzzAllocationBytes = size_t{16} << 20;

struct Target {
  std::string_view name;  // "checkpoint" for fuzz/checkpoint_fuzz.cpp
  void (*run)(Bytes);
};
// Every target, in a fixed order.
std::span<const Target> targets();

}  // namespace torchlet::fuzz
