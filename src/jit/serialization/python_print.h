// The python printer: compiled TorchScript (graphs, classes, modules, NamedTuples,
// enums, interfaces) back to the Python dialect torch.jit.save writes under code/, so
// that real torch.jit.load — and torchlet's importer — compile it to an equivalent
// graph. It follows torch's printer where that matters to a reader of the archive:
// single-use results are inlined into the expression that uses them, user variable
// names are kept (x, x0, x1 ... for SSA versions; _0, _1 ... for temporaries), every
// aten:: call is `torch.name(...)` and other namespaces `ops.ns.name(...)`, trailing
// arguments equal to their defaults are left out, tensor constants become
// CONSTANTS.cN (collected for constants.pkl), and the version record is the lowest one
// that gives every printed operator its current meaning.
//
// Names: torchlet compiles user source with the names as written ("Net", "helper");
// archives name everything under `__torch__.` (archive_qualified_name in type.h), so the
// printer and the pickler both add that prefix.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <torchlet/ivalue.h>

#include "jit/ir/source_range.h"
#include "jit/ir/symbol.h"
#include "values/type.h"
#include "jit/runtime/function.h"

namespace torchlet::jit {

// A type as an archive's code spells it: annotation_str() with nominal types under
// `__torch__.`.
std::string python_type_str(const TypePtr& type);

// A constant as a Python literal the importer reads back to the same value: None,
// True, 3, -1.5, inf, "text", [1, 2], (1, "a"), torch.device("cpu"),
// __torch__.Color.RED. UnsupportedError for values with no literal (tensors, objects).
std::string python_literal(const IValue& value);

// From `offset` of a printed file up to the next record's offset, the code was printed
// from nodes compiled from `range` of the user's source (empty: no source known).
struct TaggedRange {
  size_t offset;
  SourceRange range;
};

struct PrintedFile {
  std::string module;  // "__torch__.a.b"
  std::string text;
  std::vector<TaggedRange> ranges;  // by offset, the first at 0; what .debug_pkl records
};

class PythonPrinter {
 public:
  PythonPrinter();
  ~PythonPrinter();
  PythonPrinter(const PythonPrinter&) = delete;
  PythonPrinter& operator=(const PythonPrinter&) = delete;

  // Prints a class, NamedTuple, enum or interface (and, transitively, every type and
  // function its code uses) unless already printed. Other types are ignored.
  void add_type(const TypePtr& type);
  // Prints a free function (and what it uses).
  void add_function(const Function& fn);

  // Treats a type or function (by archive qualified name) as printed elsewhere, so code
  // that uses it does not print it again (an archive's kept code/ files).
  void mark_printed(const std::string& archive_qualname) { printed_.insert(archive_qualname); }
  // Prints methods of `cls` as its class body holds them (indented one level), without
  // the class itself: the file of cls's module gets just these defs.
  void add_methods(const ClassType& cls, const std::vector<const Function*>& methods);
  // Tensor constants are numbered from `first` (CONSTANTS.c<first>, ...): the printed
  // code joins code whose constants.pkl already holds `first` of them.
  void set_first_constant(size_t first) { first_constant_ = first; }
  // The archive version an operator needs to keep its current meaning (3 for most).
  static int64_t operator_version(Symbol kind);

  // The code/ files: module ("__torch__.a.b") -> text, in the order first printed.
  std::vector<std::pair<std::string, std::string>> files() const;
  // The same files with the source range each stretch of text was printed from (when
  // the ranges lie in code an archive generated, the user's original ranges .debug_pkl
  // gave for it).
  std::vector<PrintedFile> printed_files() const;
  // The tensors CONSTANTS.c0, c1, ... refer to, for constants.pkl.
  IValue constants() const;
  // The archive version the printed operators need (3 unless one changed meaning since).
  int64_t version() const { return version_; }

 private:
  friend class FunctionPrinter;
  struct File {
    std::string text;
    std::unordered_map<std::string, size_t> next_id;  // genName counters, per file as torch keeps them
  };
  File& file_for(const std::string& archive_qualname);
  // Queue what printed code refers to; drain() prints the queue, leaves first found
  // first, each into its module's file.
  void note_types(const TypePtr& type);  // every nominal type inside `type`
  void note_function(const Function& fn);
  void note_operator(Symbol kind);       // raises the version for operators that changed
  void drain();
  void print_type(const TypePtr& type);
  void print_function(const Function& fn, File& file, size_t level);
  // CONSTANTS.cN for a tensor, reusing N for the same tensor.
  std::string tensor_constant(const Tensor& t);
  // Marks in a file's text where the code printed from a node begins (`range_begin`,
  // empty when the node has no source range) and ends (kRangeEnd); printed_files()
  // turns the marks into TaggedRanges and removes them. Control characters never
  // occur in printed code: string literals escape them.
  std::string range_begin(const SourceRange& range);
  static constexpr char kRangeBegin = '\x01', kRangeBeginClose = '\x02', kRangeEnd = '\x03';
  std::vector<SourceRange> marked_ranges_;
  void need_version(int64_t v) { version_ = std::max(version_, v); }

  std::vector<std::string> file_order_;
  std::map<std::string, File> files_;
  std::unordered_set<std::string> printed_;  // archive qualified names of types and functions
  std::vector<std::pair<TypePtr, const Function*>> pending_;
  bool draining_ = false;
  std::vector<Tensor> constants_;
  size_t first_constant_ = 0;
  int64_t version_ = 3;
};

}  // namespace torchlet::jit
