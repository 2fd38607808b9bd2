// `torchlet script` (see script_archive.h).
#include "jit/serialization/script_archive.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <torchlet/error.h>

#include "archive/zip_writer.h"
#include "jit/frontend/compiler.h"
#include "jit/frontend/lexer.h"
#include "jit/frontend/parser.h"

namespace torchlet::jit {

namespace {

// The source as archive code: import lines blanked (the importer resolves names itself;
// blank, so line numbers stay the user's) and torch.Tensor spelled Tensor, as torch's
// printer spells it.
std::string as_archive_code(const std::string& source) {
  std::istringstream in(source);
  std::string line, out;
  while (std::getline(in, line)) {
    const size_t first = line.find_first_not_of(' ');
    if (first == 0 && (line.rfind("import ", 0) == 0 || line.rfind("from ", 0) == 0)) line.clear();  // keeps line numbers
    for (size_t at; (at = line.find("torch.Tensor")) != std::string::npos;) line.replace(at, 12, "Tensor");
    out += line + "\n";
  }
  return out;
}

// torch's importer resolves a call to another function of the file only by its
// qualified name: `helper(x)` becomes `__torch__.helper(x)` (a name token followed by
// '(' and not after '.' or 'def').
std::string qualify_calls(const std::string& code, const std::vector<std::string>& functions) {
  auto source = std::make_shared<const Source>(code);
  const std::vector<Token> tokens = tokenize(source);
  std::string out;
  size_t copied = 0;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::Ident || tokens[i + 1].kind != TokenKind::LeftParen) continue;
    if (i > 0 && (tokens[i - 1].kind == TokenKind::Dot || tokens[i - 1].kind == TokenKind::Def)) continue;
    if (std::find(functions.begin(), functions.end(), std::string(t.text())) == functions.end()) continue;
    out.append(code, copied, t.range.start() - copied);
    out += "__torch__.";
    copied = t.range.start();
  }
  out.append(code, copied, std::string::npos);
  return out;
}

}  // namespace

void save_script_archive(const std::string& source, const std::string& source_name, const std::string& function,
                         const std::string& path) {
  const std::string code_text = as_archive_code(source);
  auto cu = compile(code_text, source_name);  // CompileError here, with the user's own lines
  const ParsedFile file = parse_file(code_text, source_name);
  const Tree* def = nullptr;
  for (const auto& st : file.statements)
    if (st->kind() == TreeKind::Def && (function.empty() || DefView(*st).name() == function)) {
      def = st.get();
      break;
    }
  TL_CHECK(def, ValueError, "{}: {}", source_name,
           function.empty() ? std::string("defines no function") : "defines no function '" + function + "'");
  DefView d(*def);
  const Function* fn = cu->find_function(d.name());
  TL_INTERNAL_ASSERT(fn, "a compiled function is missing");
  // forward(self, <the function's parameters>) -> <its return type>: return __torch__.f(...)
  std::string params, args;
  const auto& formals = fn->schema().arguments;
  const auto* gf = dynamic_cast<const GraphFunction*>(fn);
  for (size_t i = 0; i < formals.size(); ++i) {
    params += fmt::format(",\n    {}: {}", formals[i].name, gf->graph()->inputs()[i]->type()->annotation_str());
    args += (i ? ", " : "") + formals[i].name;
  }
  std::vector<std::string> functions;
  for (const auto& st : file.statements)
    if (st->kind() == TreeKind::Def) functions.push_back(DefView(*st).name());
  const std::string code = qualify_calls(code_text, functions) + fmt::format(
      "class PlaceholderModule(Module):\n"
      "  __parameters__ = []\n"
      "  __buffers__ = []\n"
      "  training : bool\n"
      "  def forward(self: __torch__.PlaceholderModule{}) -> {}:\n"
      "    return __torch__.{}({})\n",
      params, fn->return_type()->annotation_str(), d.name(), args);
  // data.pkl: GLOBAL '__torch__ PlaceholderModule', EMPTY_TUPLE, NEWOBJ, {'training': True}
  // (MARK ... SETITEMS: torch's unpickler has no SETITEM), BUILD
  static const char kPickle[] = "\x80\x02" "c__torch__\nPlaceholderModule\n" "q\x00" ")\x81" "}q\x01" "(" "X\x08\x00\x00\x00" "training" "q\x02" "\x88" "ub.";
  const std::string pkl(kPickle, sizeof(kPickle) - 1);
  ZipWriter w(path, "archive");
  w.write_record("data.pkl", std::string_view(pkl.data(), pkl.size()));
  w.write_record("code/__torch__.py", code);
  w.write_record("constants.pkl", std::string_view("\x80\x02).", 4));
  w.write_record("version", "4\n");
  w.finalize();
}

}  // namespace torchlet::jit
