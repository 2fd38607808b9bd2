// One file's definitions (FileCompiler): classes declared and their methods compiled on
// first use, enums, interfaces, NamedTuples, torch's library context managers (Note
// [Library context managers]); and the entry points compile() and define_methods().
#include "jit/frontend/function_compiler.h"

#include "jit/passes/execution_pipeline.h"

namespace torchlet::jit {

const std::vector<LibraryClass>& library_classes() {
  static const std::vector<LibraryClass> kClasses = {
      {{"torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"},
       "__torch__.torch.autograd.grad_mode",
       "no_grad",
       R"(class no_grad:
  prev : bool
  def __enter__(self: __torch__.torch.autograd.grad_mode.no_grad) -> NoneType:
    self.prev = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    return None
  def __exit__(self: __torch__.torch.autograd.grad_mode.no_grad,
    exc_type: Any,
    exc_value: Any,
    traceback: Any) -> NoneType:
    prev = self.prev
    torch.set_grad_enabled(prev)
    return None
  def __init__(self: __torch__.torch.autograd.grad_mode.no_grad) -> NoneType:
    self.prev = False
    return None
)"},
      {{"torch.autograd.profiler.record_function", "torch.profiler.record_function"},
       "__torch__.torch.autograd.profiler",
       "record_function",
       R"(class record_function:
  name : str
  args : Optional[str]
  run_callbacks_on_exit : bool
  handle : Tensor
  def __enter__(self: __torch__.torch.autograd.profiler.record_function) -> __torch__.torch.autograd.profiler.record_function:
    name = self.name
    args = self.args
    _0 = ops.profiler._record_function_enter(name, args)
    self.handle = _0
    return self
  def __exit__(self: __torch__.torch.autograd.profiler.record_function,
    exc_type: Any,
    exc_value: Any,
    traceback: Any) -> NoneType:
    run_callbacks_on_exit = self.run_callbacks_on_exit
    if run_callbacks_on_exit:
      handle = self.handle
      ops.profiler._record_function_exit(handle)
    else:
      pass
    return None
  def __init__(self: __torch__.torch.autograd.profiler.record_function,
    name: str,
    args: Optional[str]=None) -> NoneType:
    self.name = name
    self.args = args
    self.run_callbacks_on_exit = True
    self.handle = torch.zeros([1])
    return None
  def _call_end_callbacks_on_future(self: __torch__.torch.autograd.profiler.record_function,
    fut: Future[Any]) -> Future[Any]:
    _1 = "_call_end_callbacks_on_future can only be called once."
    run_callbacks_on_exit = self.run_callbacks_on_exit
    _2 = torch.__not__(run_callbacks_on_exit)
    if _2:
      ops.prim.RaiseException(_1, "builtins.RuntimeError")
    else:
      pass
    self.run_callbacks_on_exit = False
    handle = self.handle
    profiled_future = ops.profiler._call_end_callbacks_on_jit_fut(handle, fut)
    return profiled_future
)"},
  };
  return kClasses;
}

const LibraryClass* library_class(const std::string& dotted) {
  for (const LibraryClass& c : library_classes())
    if (std::find(c.spellings.begin(), c.spellings.end(), dotted) != c.spellings.end()) return &c;
  return nullptr;
}


// --- files and classes ----------------------------------------------------------------------

namespace {

// A method of an archive's class that does not compile here (it calls an operator
// torchlet lacks, say): the class still loads, and calling the method raises the
// compile error — torch compiles every method, but has every operator.
class UncompiledMethod : public Function {
 public:
  UncompiledMethod(std::string qualname, const Tree& def, TypePtr returns, std::string error)
      : Function(std::move(qualname)), returns_(std::move(returns)), error_(std::move(error)) {
    schema_.name = this->qualname();
    for (const auto& p : DefView(def).params()) {
      SchemaArgument a;
      a.type = std::make_shared<SchemaType>();
      a.type->name = "Any";
      a.name = ParamView(*p).name();
      schema_.arguments.push_back(std::move(a));
      defaults_.push_back(std::nullopt);
    }
  }
  const FunctionSchema& schema() const override { return schema_; }
  const std::vector<std::optional<IValue>>& defaults() const override { return defaults_; }
  TypePtr return_type() const override { return returns_; }
  void run(Stack&) const override {
    TL_FAIL(UnsupportedError, "{} could not be compiled when its archive was loaded: {}", qualname(), error_);
  }

 private:
  FunctionSchema schema_;
  std::vector<std::optional<IValue>> defaults_;
  TypePtr returns_;
  std::string error_;
};

}  // namespace

FileCompiler::FileCompiler(CompilationUnit& cu, const ParsedFile& file, std::string prefix, CompilerHooks hooks)
    : cu_(cu), file_(file), prefix_(std::move(prefix)), hooks_(std::move(hooks)),
      depth_(hooks_.nesting ? hooks_.nesting : std::make_shared<size_t>(0)) {
  for (const auto& st : file.statements) {
    if (st->kind() == TreeKind::Def) defs_[DefView(*st).name()] = st.get();
    else if (st->kind() == TreeKind::ClassDef) classes_[ClassDefView(*st).name()] = st.get();
    // imports and module-level assignments (op_version_set = 1) carry nothing to compile
  }
}

void FileCompiler::compile_all() {
  for (const auto& st : file_.statements) {
    if (st->kind() == TreeKind::Def) function(DefView(*st).name(), st->range());
    else if (st->kind() == TreeKind::ClassDef) class_type(ClassDefView(*st).name());
  }
}

Function* FileCompiler::function(const std::string& name, const SourceRange& use) {
  auto it = defs_.find(name);
  if (it == defs_.end()) return nullptr;
  const std::string qualname = prefix_ + name;
  if (Function* f = cu_.find_function(qualname)) return f;
  if (!in_progress_.insert(qualname).second)
    throw_compile_error(use, fmt::format("function '{}' is called recursively. Recursive calls are not supported", name));
  Nest nest(*this, use);
  GraphFunction* f = FunctionCompiler(*this, *it->second, qualname).compile();
  in_progress_.erase(qualname);
  return f;
}

TypePtr FileCompiler::parse_annotation(const Tree& ann, std::optional<int64_t>* broadcast) {
  // "Foo": a forward reference written as a string, as in Python.
  std::string text = ann.kind() == TreeKind::StringLiteral ? ann.str() : annotation_source(ann);
  if (const size_t at = text.find("BroadcastingList"); broadcast && at != std::string::npos) {
    size_t end = at + 16;
    while (end < text.size() && ascii_digit(text[end])) ++end;
    if (end > at + 16 && end - at - 16 < 3) {
      *broadcast = std::stoll(text.substr(at + 16, end - at - 16));
      text.replace(at, end - at, "List");
    }
  }
  // `torch.Tensor` is how Python code names the tensor type.
  for (size_t at; (at = text.find("torch.Tensor")) != std::string::npos;) text.replace(at, 12, "Tensor");
  for (const char* p : {"typing.", "t."})
    for (size_t at; (at = text.find(p)) != std::string::npos && (at == 0 || !ascii_alnum(text[at - 1]));)
      text.erase(at, std::string_view(p).size());
  try {
    return parse_type_annotation(text, false, [&](std::string_view name) { return resolve_type(std::string(name)); });
  } catch (const CompileError& e) {
    // torch's wording for a name it does not know; other errors as the parser says them.
    const std::string what = e.what();
    if (const size_t at = what.find("unknown type '"); at != std::string::npos) {
      const size_t b = at + 14, end = what.find('\'', b);
      throw_compile_error(ann.range(), fmt::format("Unknown type name '{}'", what.substr(b, end - b)));
    }
    throw_compile_error(ann.range(), fmt::format("unknown type annotation '{}': {}", text, what));
  }
}

TypePtr FileCompiler::resolve_type(const std::string& qualname) {
  if (TypePtr t = cu_.find_type(qualname)) return t;
  if (qualname.rfind(prefix_, 0) == 0 && classes_.count(qualname.substr(prefix_.size())))
    return class_type(qualname.substr(prefix_.size()));
  if (classes_.count(qualname)) return class_type(qualname);
  return hooks_.resolve_type ? hooks_.resolve_type(qualname) : nullptr;
}

TypePtr FileCompiler::library_class_type(const LibraryClass& c) {
  const std::string qualname = std::string(c.module) + "." + c.name;
  if (TypePtr t = resolve_type(qualname)) return t;
  SourceFile(cu_, parse_file(c.source, "<" + qualname + ">"), std::string(c.module) + ".").compile_all();
  TypePtr t = cu_.find_type(qualname);
  TL_INTERNAL_ASSERT(t, fmt::format("{} did not compile", qualname));
  return t;
}

Function* FileCompiler::nn_functional(const std::string& name, const SourceRange& use) {
  const std::string qualname = std::string(kNNFunctionalModule) + "." + name;
  if (Function* f = cu_.find_function(qualname)) return f;
  if (!nn_functional_defines(name)) return nullptr;
  // A loaded archive that carries torch's own compilation of it (methods defined on a
  // loaded module): that one, which its kept code already holds.
  if (Function* f = cu_.find_function("__torch__." + qualname)) return f;
  // Its own file compiler: the library's helpers resolve among themselves, and the
  // user's names (a function of theirs called relu) do not leak in.
  Nest nest(*this, use);
  SourceFile library(cu_, parse_file(nn_functional_source(), "<torch.nn.functional>"), std::string(kNNFunctionalModule) + ".");
  Function* f = library.function(name);
  TL_INTERNAL_ASSERT(f, fmt::format("{} did not compile", qualname));
  return f;
}

// Note [tensordot's dims]: torch.tensordot is Python (torch/functional.py) that turns an
// int dims into the two lists of dimensions aten::tensordot takes; torch.jit.script
// compiles it into __torch__.torch.functional.tensordot. torchlet builds the lists
// while compiling when dims is a constant (emit_torch_tensordot), and for an int known
// only at run time calls this function, compiled on first use as the nn.functional
// library is, so an archive carries it in code/__torch__/torch/functional.py as torch's
// archives do. The loop stops one past a's dimensions: past that, aten::tensordot
// refuses the first entry (-dims) whatever follows, so a huge dims fails as torch does
// without building a huge list.
Function* FileCompiler::tensordot_function(const SourceRange& use) {
  static constexpr const char* kSource = R"(def tensordot(a: Tensor, b: Tensor, dims: int=2, out: Optional[Tensor]=None) -> Tensor:
  if dims < 0:
    ops.prim.RaiseException("tensordot expects dims >= 0, but got dims={}".format(dims), "builtins.RuntimeError")
  dims_a = annotate(List[int], [])
  dims_b = annotate(List[int], [])
  for i in range(min(dims, a.dim() + 1)):
    dims_a.append(i - dims)
    dims_b.append(i)
  if out is None:
    return torch.tensordot(a, b, dims_a, dims_b)
  return torch.tensordot(a, b, dims_a, dims_b, out=out)
)";
  const std::string qualname = "torch.functional.tensordot";
  if (Function* f = cu_.find_function(qualname)) return f;
  // A loaded archive's own compilation, when torch compiled it for an int dims (it
  // mangles the variants for other dims types).
  if (Function* f = cu_.find_function("__torch__." + qualname)) {
    const std::vector<TypePtr> types = param_types(*f);
    if (types.size() == 4 && types[2]->kind() == TypeKind::Int) return f;
  }
  Nest nest(*this, use);
  SourceFile library(cu_, parse_file(kSource, "<torch.functional>"), "torch.functional.");
  Function* f = library.function("tensordot");
  TL_INTERNAL_ASSERT(f, "torch.functional.tensordot did not compile");
  return f;
}

Function* FileCompiler::resolve_function(const std::string& qualname, const SourceRange& use) {
  if (Function* f = cu_.find_function(qualname)) return f;
  if (qualname.rfind(prefix_, 0) == 0 && defs_.count(qualname.substr(prefix_.size())))
    return function(qualname.substr(prefix_.size()), use);
  return hooks_.resolve_function ? hooks_.resolve_function(qualname) : nullptr;
}

TypePtr FileCompiler::class_type(const std::string& name) {
  auto it = classes_.find(name);
  if (it == classes_.end()) return nullptr;
  const std::string qualname = prefix_ + name;
  if (TypePtr t = cu_.find_type(qualname)) return t;
  Nest nest(*this, it->second->range());
  ClassDefView cd(*it->second);
  if (cd.bases().size() == 1 && (cd.bases()[0]->range().text() == "NamedTuple" ||
                                 cd.bases()[0]->range().text() == "typing.NamedTuple")) {
    // class P(NamedTuple): x : int ... -> a NamedTuple type; calls construct tuples.
    std::vector<std::string> fields;
    std::vector<TypePtr> types;
    std::vector<std::optional<IValue>> defaults;
    for (const auto& st : cd.body()) {
      if (st->kind() == TreeKind::AnnAssign && AnnAssignView(*st).target().kind() == TreeKind::Name) {
        fields.push_back(AnnAssignView(*st).target().str());
        types.push_back(parse_annotation(AnnAssignView(*st).annotation()));
        defaults.emplace_back();
        if (const Tree* v = AnnAssignView(*st).value()) {
          defaults.back() = constant_of_tree(*v);
          if (!defaults.back()) throw_compile_error(v->range(), "NamedTuple field defaults must be constants");
          if (types.back()->kind() == TypeKind::Float && defaults.back()->isInt())
            defaults.back() = IValue(static_cast<double>(defaults.back()->toInt()));
        } else if (std::any_of(defaults.begin(), defaults.end() - 1, [](const auto& d) { return d.has_value(); })) {
          throw_compile_error(st->range(), "non-default NamedTuple field follows a default one");
        }
      } else if (st->kind() != TreeKind::Pass && st->kind() != TreeKind::ExprStmt) {
        throw_compile_error(st->range(), "NamedTuple classes hold field declarations only");
      }
    }
    TypePtr t = Type::named_tuple(qualname, std::move(fields), std::move(types));
    cu_.register_type(t);
    named_tuple_defaults_[qualname] = std::move(defaults);
    return t;
  }
  if (cd.bases().size() == 1 && (cd.bases()[0]->range().text() == "Enum" || cd.bases()[0]->range().text() == "enum.Enum"))
    return declare_enum(qualname, cd);
  auto is_module_base = [](std::string_view text) {
    return text == "Module" || text == "torch.nn.Module" || text == "nn.Module";
  };
  for (const auto& d : cd.decorators())
    if (const std::string n = decorator_name(*d); n == "torch.jit.interface" || n == "jit.interface" || n == "interface")
      return declare_interface(qualname, cd,
                               std::any_of(cd.bases().begin(), cd.bases().end(),
                                           [&](const auto& b) { return is_module_base(b->range().text()); }));
  // Archives spell interfaces as `class I(Interface):` / `class I(ModuleInterface):`.
  if (cd.bases().size() == 1 && (cd.bases()[0]->range().text() == "Interface" ||
                                 cd.bases()[0]->range().text() == "ModuleInterface"))
    return declare_interface(qualname, cd, cd.bases()[0]->range().text() == "ModuleInterface");
  bool is_module = false;
  for (const auto& base : cd.bases()) {
    const std::string_view text = base->range().text();
    if (is_module_base(text)) is_module = true;
    else if (text != "object") throw_compile_error(base->range(), fmt::format("class {}: only Module and object are supported as bases", name));
  }
  auto cls = ClassType::create(qualname, is_module);
  cu_.register_type(cls);
  // __parameters__ / __buffers__ name which attributes are parameters and buffers.
  std::unordered_set<std::string> params, buffers;
  for (const auto& st : cd.body()) {
    if (st->kind() != TreeKind::Assign) continue;
    AssignView a(*st);
    if (a.targets().size() != 1 || a.targets()[0]->kind() != TreeKind::Name) continue;
    const std::string& n = a.targets()[0]->str();
    if (n != "__parameters__" && n != "__buffers__") continue;
    if (a.value().kind() != TreeKind::ListLiteral) throw_compile_error(a.value().range(), n + " must be a list of names");
    for (const auto& item : a.value().children()) {
      if (item->kind() != TreeKind::StringLiteral) throw_compile_error(item->range(), n + " must be a list of names");
      (n == "__parameters__" ? params : buffers).insert(item->str());
    }
  }
  auto kind_of = [&](const std::string& n) {
    return params.count(n) ? ClassAttribute::Kind::Parameter
                           : buffers.count(n) ? ClassAttribute::Kind::Buffer : ClassAttribute::Kind::Regular;
  };
  for (const auto& st : cd.body()) {
    switch (st->kind()) {
      case TreeKind::AnnAssign: {
        AnnAssignView a(*st);
        if (a.target().kind() != TreeKind::Name) throw_compile_error(a.target().range(), "class attributes are declared by name");
        const Tree& ann = a.annotation();
        const bool is_final = ann.kind() == TreeKind::Subscript && SubscriptView(ann).value().range().text() == "Final";
        if (is_final) {  // `eps : Final[float] = 1e-05`: a class constant
          if (!a.value()) throw_compile_error(st->range(), "Final class attributes need a value");
          auto v = constant_of_tree(*a.value());
          if (!v) throw_compile_error(a.value()->range(), "Final class attributes must be constants");
          TypePtr t = parse_annotation(*SubscriptView(ann).items()[0]);
          if (t->kind() == TypeKind::Float && v->isInt()) v = IValue(static_cast<double>(v->toInt()));
          cls->add_constant(a.target().str(), *v);
        } else {
          cls->add_attribute(a.target().str(), parse_annotation(ann), kind_of(a.target().str()));
        }
        break;
      }
      case TreeKind::Assign: {
        AssignView a(*st);
        // __annotations__["0"] = T declares an attribute whose name is not an identifier.
        const Tree& target = *a.targets()[0];
        if (target.kind() == TreeKind::Subscript && SubscriptView(target).value().range().text() == "__annotations__") {
          const Tree& key = *SubscriptView(target).items()[0];
          if (key.kind() != TreeKind::StringLiteral) throw_compile_error(key.range(), "__annotations__ keys are strings");
          cls->add_attribute(key.str(), parse_annotation(a.value()), kind_of(key.str()));
        }
        break;  // __parameters__ / __buffers__ were read above; others carry nothing
      }
      case TreeKind::Def:
        if (has_decorator(DefView(*st), "staticmethod")) static_defs_[qualname][DefView(*st).name()] = st.get();
        else pending_methods_[qualname][DefView(*st).name()] = st.get();
        break;
      case TreeKind::Pass:
      case TreeKind::ExprStmt:  // docstrings
        break;
      default:
        throw_compile_error(st->range(), fmt::format("unexpected {} in a class body", tree_kind_description(st->kind())));
    }
  }
  // Methods compile now, so a class handed out is complete (methods defined later in
  // the body and called earlier are compiled on demand by method()).
  std::vector<std::string> names;
  // __init__ first: a TorchScript class's attributes are the ones it assigns.
  for (const auto& st : cd.body())
    if (st->kind() == TreeKind::Def && DefView(*st).name() == "__init__") names.push_back("__init__");
  for (const auto& st : cd.body())
    if (st->kind() == TreeKind::Def && DefView(*st).name() != "__init__") names.push_back(DefView(*st).name());
  for (const auto& m : names) method(*cls, m, cd.range());
  return cls;
}

// class Color(Enum): RED = 1 ... : an enum type whose members are the class's
// assignments of constants, all of one type (int, float or str), as torch requires.
TypePtr FileCompiler::declare_enum(const std::string& qualname, const ClassDefView& cd) {
  std::vector<std::pair<std::string, IValue>> members;
  TypePtr value_type;
  for (const auto& st : cd.body()) {
    if (st->kind() == TreeKind::Pass || st->kind() == TreeKind::ExprStmt) continue;
    if (st->kind() != TreeKind::Assign || AssignView(*st).targets().size() != 1 ||
        AssignView(*st).targets()[0]->kind() != TreeKind::Name)
      throw_compile_error(st->range(), "Enum classes hold member assignments (NAME = constant) only");
    auto v = constant_of_tree(AssignView(*st).value());
    if (!v || !(v->isInt() || v->isDouble() || v->isString()))
      throw_compile_error(AssignView(*st).value().range(), "Enum member values must be int, float or str constants");
    TypePtr t = type_of(*v);
    if (value_type && !(*value_type == *t))
      throw_compile_error(st->range(), fmt::format("Enum class with varying value types are not supported. Found {} and {}",
                                                   value_type->annotation_str(), t->annotation_str()));
    value_type = t;
    members.emplace_back(AssignView(*st).targets()[0]->str(), *v);
  }
  if (members.empty()) throw_compile_error(cd.range(), "Enum classes need at least one member");
  auto t = std::make_shared<EnumType>(qualname, value_type, std::move(members));
  cu_.register_type(t);
  return t;
}

// @torch.jit.interface class I: def m(self, x: int) -> int: ... : an interface type whose
// methods are the declared signatures (bodies are not compiled); a class with methods of
// those names is a subtype, and calls on an I dispatch by name on the object's class.
TypePtr FileCompiler::declare_interface(const std::string& qualname, const ClassDefView& cd, bool is_module) {
  auto t = std::make_shared<InterfaceType>(qualname, is_module);
  cu_.register_type(t);
  for (const auto& st : cd.body()) {
    if (st->kind() == TreeKind::Pass || st->kind() == TreeKind::ExprStmt) continue;
    if (st->kind() != TreeKind::Def) throw_compile_error(st->range(), "interfaces declare methods only");
    DefView def(*st);
    InterfaceMethod m;
    m.schema.name = def.name();
    for (size_t i = 0; i < def.params().size(); ++i) {
      ParamView param(*def.params()[i]);
      if (i == 0) continue;  // self
      if (!param.annotation()) throw_compile_error(def.params()[i]->range(), "interface method arguments need type annotations");
      SchemaArgument a;
      a.name = param.name();
      a.type = std::make_shared<SchemaType>();
      m.types.push_back(parse_annotation(*param.annotation()));
      a.type->name = m.types.back()->str();
      m.schema.arguments.push_back(std::move(a));
    }
    m.returns = def.return_annotation() ? parse_annotation(*def.return_annotation()) : Type::none();
    SchemaArgument r;
    r.type = std::make_shared<SchemaType>();
    r.type->name = m.returns->str();
    m.schema.returns.push_back(std::move(r));
    t->add_method(std::make_shared<FunctionSchema>(m.schema));
    interface_methods_[qualname][def.name()] = std::move(m);
  }
  return t;
}

Function* FileCompiler::static_method(const std::string& cls, const std::string& name, const SourceRange& use) {
  const std::string local = cls.rfind(prefix_, 0) == 0 ? cls.substr(prefix_.size()) : cls;
  if (!classes_.count(local)) return nullptr;
  TypePtr t = class_type(local);
  auto pc = static_defs_.find(t->name());
  if (pc == static_defs_.end()) return nullptr;
  auto pm = pc->second.find(name);
  if (pm == pc->second.end()) return nullptr;
  const std::string qualname = t->name() + "." + name;
  if (Function* f = cu_.find_function(qualname)) return f;
  if (!in_progress_.insert(qualname).second)
    throw_compile_error(use, fmt::format("function '{}' is called recursively. Recursive calls are not supported", qualname));
  Nest nest(*this, use);
  GraphFunction* f = FunctionCompiler(*this, *pm->second, qualname).compile();
  in_progress_.erase(qualname);
  return f;
}

Function* FileCompiler::method(const ClassType& cls, const std::string& name, const SourceRange& use) {
  if (Function* f = cls.find_method(name)) return f;
  auto pc = pending_methods_.find(cls.name());
  if (pc == pending_methods_.end()) return nullptr;
  auto pm = pc->second.find(name);
  if (pm == pc->second.end()) return nullptr;
  const std::string qualname = cls.name() + "." + name;
  if (!in_progress_.insert(qualname).second)
    throw_compile_error(use, fmt::format("method '{}' is called recursively. Recursive calls are not supported", name));
  auto self = cu_.find_class(cls.name());
  Function* f = nullptr;
  try {
    f = FunctionCompiler(*this, *pm->second, qualname, self).compile();
  } catch (const CompileError& e) {
    if (!hooks_.defer_method_errors) {
      in_progress_.erase(qualname);
      throw;
    }
    TypePtr returns = Type::any();
    if (const Tree* ann = DefView(*pm->second).return_annotation()) {
      try {
        returns = parse_annotation(*ann);
      } catch (const Error&) {
      }
    }
    f = cu_.adopt(std::make_unique<UncompiledMethod>(qualname, *pm->second, returns, e.what()));
    self->add_method(name, f);
  }
  in_progress_.erase(qualname);
  return f;
}

std::vector<Function*> FileCompiler::define_methods(const ClassTypePtr& cls) {
  defs_.clear();  // every def here is a method of cls, never a free function
  auto& pending = pending_methods_[cls->name()];
  std::vector<const Tree*> defs;
  for (const auto& st : file_.statements) {
    if (st->kind() != TreeKind::Def)
      throw_compile_error(st->range(), fmt::format("define() takes method definitions only, found {}", tree_kind_description(st->kind())));
    const std::string& name = DefView(*st).name();
    if (cls->find_method(name) || pending.count(name))
      throw_compile_error(st->range(), fmt::format("Can't redefine method: {} on class: {}", name, cls->name()));
    if (DefView(*st).params().empty()) throw_compile_error(st->range(), fmt::format("method {} takes no self argument", name));
    pending[name] = st.get();
    defs.push_back(st.get());
  }
  const std::vector<Function*> before = cu_.functions();
  std::vector<Function*> out;
  for (const Tree* d : defs) out.push_back(method(*cls, DefView(*d).name(), d->range()));
  for (Function* fn : out) cu_.add_defined_method(cls->name(), fn);
  // Functions compiled on the way that are not methods (fork's closures) are recorded
  // with no class: jit::save cannot place them in kept code yet, and says so.
  for (Function* fn : cu_.functions())
    if (std::find(before.begin(), before.end(), fn) == before.end() && std::find(out.begin(), out.end(), fn) == out.end())
      cu_.add_defined_method("", fn);
  return out;
}

SourceFile::SourceFile(CompilationUnit& cu, ParsedFile file, std::string prefix, CompilerHooks hooks)
    : file_(std::make_unique<ParsedFile>(std::move(file))),
      impl_(std::make_unique<FileCompiler>(cu, *file_, std::move(prefix), std::move(hooks))) {}
SourceFile::~SourceFile() = default;
TypePtr SourceFile::class_type(const std::string& name) { return impl_->class_type(name); }
Function* SourceFile::function(const std::string& name) { return impl_->function(name, {}); }
void SourceFile::compile_all() { impl_->compile_all(); }

std::shared_ptr<CompilationUnit> compile(const std::string& source, const std::string& filename) {
  auto cu = std::make_shared<CompilationUnit>();
  enable_graph_executor(*cu);
  SourceFile(*cu, resolve_module_aliases(parse_file(source, filename)), "").compile_all();
  return cu;
}

std::vector<Function*> define_methods(CompilationUnit& cu, const ClassTypePtr& cls, const std::string& source,
                                      const std::string& filename) {
  // Names the source uses resolve to what the unit holds: an archive's classes and
  // functions are all there once its module is loaded (its classes compile whole).
  CompilerHooks hooks;
  hooks.resolve_type = [&cu](const std::string& q) { return cu.find_type(q); };
  hooks.resolve_function = [&cu](const std::string& q) { return cu.find_function(q); };
  ParsedFile file = parse_file(source, filename);
  FileCompiler fc(cu, file, "", std::move(hooks));
  return fc.define_methods(cls);
}

// Declared with Module (runtime/module.h) and defined here, a layer up, as torch defines
// CompilationUnit::define in its frontend: the runtime does not compile.
void Module::define(const std::string& source) { define_methods(*cu_, type_, source); }

}  // namespace torchlet::jit
