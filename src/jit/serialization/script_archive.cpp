// `torchlet script` (see script_archive.h).
#include "jit/serialization/script_archive.h"

#include <fmt/format.h>
#include <torchlet/error.h>

#include "jit/frontend/compiler.h"
#include "jit/frontend/parser.h"
#include "jit/runtime/module.h"
#include "jit/serialization/export.h"
#include "jit/serialization/python_print.h"

namespace torchlet::jit {

namespace {

// `def name(self, a: T, b: T=default) -> R: return target(a, b)`, as source.
std::string wrapper_method(const std::string& name, const Function& target) {
  const auto* gf = dynamic_cast<const GraphFunction*>(&target);
  TL_INTERNAL_ASSERT(gf, "a compiled function without a graph");
  const auto& formals = target.schema().arguments;
  const auto& defaults = target.defaults();
  std::string params = "self", args;
  for (size_t i = 0; i < formals.size(); ++i) {
    params += fmt::format(", {}: {}", formals[i].name, gf->graph()->inputs()[i]->type()->annotation_str());
    if (i < defaults.size() && defaults[i]) params += "=" + python_literal(*defaults[i]);
    args += (i ? ", " : "") + formals[i].name;
  }
  return fmt::format("  def {}({}) -> {}:\n    return {}({})\n", name, params, target.return_type()->annotation_str(),
                     target.name(), args);
}

// The wrapper methods are compiled from text appended to the user's source; their nodes
// forget that range, so .debug_pkl points only at lines the user wrote (a traceback
// frame in a wrapper names its code/ line instead).
void forget_source_ranges(Block* block) {
  for (Node* n : block->nodes()) {
    n->set_source_range({});
    for (Block* b : n->blocks()) forget_source_ranges(b);
  }
  block->return_node()->set_source_range({});
}

}  // namespace

namespace {

// The source's top-level function names, in order.
std::vector<std::string> function_names(const std::string& code, const std::string& source_name) {
  std::vector<std::string> functions;
  for (const auto& st : parse_file(code, source_name).statements)
    if (st->kind() == TreeKind::Def) functions.push_back(DefView(*st).name());
  return functions;
}

}  // namespace

std::string source_graphs(const std::string& source, const std::string& source_name, const std::string& function) {
  auto cu = compile(source, source_name);
  const std::vector<std::string> functions = function_names(source, source_name);
  auto graph_of = [&](const std::string& name) {
    const auto* gf = dynamic_cast<const GraphFunction*>(cu->find_function(name));
    TL_INTERNAL_ASSERT(gf, "a compiled function without a graph");
    return gf->graph()->str();
  };
  if (!function.empty()) {
    TL_CHECK(std::find(functions.begin(), functions.end(), function) != functions.end(), ValueError,
             "{}: defines no function '{}'", source_name, function);
    return graph_of(function);
  }
  TL_CHECK(!functions.empty(), ValueError, "{}: defines no function", source_name);
  std::string out;
  for (const auto& name : functions) out += (out.empty() ? "" : "\n") + fmt::format("# {}\n", name) + graph_of(name);
  return out;
}

void save_script_archive(const std::string& source, const std::string& source_name, const std::string& function,
                         const std::string& path) {
  auto cu = compile(source, source_name);  // CompileError here, with the user's own lines
  const std::vector<std::string> functions = function_names(source, source_name);
  std::string target = function;
  if (target.empty()) {
    TL_CHECK(!functions.empty(), ValueError, "{}: defines no function", source_name);
    target = functions.front();
  }
  TL_CHECK(std::find(functions.begin(), functions.end(), target) != functions.end(), ValueError,
           "{}: defines no function '{}'", source_name, target);
  TL_CHECK(!cu->find_type("PlaceholderModule"), ValueError,
           "{}: defines a class PlaceholderModule, the name torchlet script gives its wrapper module", source_name);

  std::string wrapper =
      "class PlaceholderModule(Module):\n"
      "  __parameters__ = []\n"
      "  __buffers__ = []\n"
      "  training : bool\n" +
      wrapper_method("forward", *cu->find_function(target));
  for (const auto& name : functions)
    if (name != "forward") wrapper += wrapper_method(name, *cu->find_function(name));
  const bool ends_line = source.empty() || source.back() == '\n';
  auto full = compile(source + (ends_line ? "" : "\n") + wrapper, source_name);
  const ClassTypePtr cls = full->find_class("PlaceholderModule");
  TL_INTERNAL_ASSERT(cls, "the wrapper module did not compile");
  for (const auto& [name, fn] : cls->methods())
    if (const auto* gf = dynamic_cast<const GraphFunction*>(fn)) forget_source_ranges(gf->graph()->block());
  auto object = make_intrusive<ObjectImpl>(cls, cls->attributes().size());
  object->slots[*cls->find_attribute("training")] = IValue(true);
  save(Module(full, object), path);
}

}  // namespace torchlet::jit
