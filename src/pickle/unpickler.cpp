// The pickle stack machine (see unpickler.h). One handler per opcode, dispatched from
// the opcode table; globals resolve through the allowlist (allowed_globals.h); the result is checked for
// depth and cycles, and on any error everything built so far is dismantled without
// recursion, so a hostile nesting depth cannot overflow the C++ stack.
#include "pickle/unpickler.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include <torchlet/error.h>

#include "core/python_format.h"
#include "pickle/allowed_globals.h"
#include "pickle/opcodes.h"
#include "pickle/value_walk.h"

namespace torchlet::pickle {

namespace {

// A global the class resolver answered (kept alive with it), and an instance of one
// awaiting its BUILD, with the memo slots that hold its placeholder.
struct External {
  IValue ref;
  ResolvedGlobal global;
};
struct Pending {
  IValue placeholder;
  const ResolvedGlobal* global;
  std::vector<int64_t> memo_slots;
};

// Memo indices come from the file: hashed with IValueHash's seeded integer mixing,
// since with the identity hash indices that are multiples of the bucket count made
// every PUT and GET walk one long chain.
struct MemoIndexHash {
  size_t operator()(int64_t index) const { return IValueHash()(IValue(index)); }
};

// The memo. Picklers number entries 0, 1, 2, ..., so dense indices live in a vector
// (a node-based map made a 100k-tensor state_dict's 800k PUT/GETs the loader's
// second-largest cost); an index is dense when it is below twice the entries so far
// plus kDenseSlack, so a file cannot grow the vector much past what it stores. Other
// indices go to a map hashed with the seeded mix (MemoIndexHash).
class Memo {
 public:
  IValue* find(int64_t index) {
    if (index >= 0 && static_cast<uint64_t>(index) < dense_.size() && !is_unset(dense_[static_cast<size_t>(index)])) {
      return &dense_[static_cast<size_t>(index)];
    }
    if (sparse_.empty()) return nullptr;
    auto it = sparse_.find(index);
    return it == sparse_.end() ? nullptr : &it->second;
  }
  // `index` >= 0; the caller has checked the entry limit.
  void set(int64_t index, IValue v) {
    if (IValue* slot = find(index)) {
      *slot = std::move(v);
      return;
    }
    ++count_;
    const auto i = static_cast<uint64_t>(index);
    if (i < 2 * count_ + kDenseSlack) {
      if (i >= dense_.size()) dense_.resize(static_cast<size_t>(i) + 1, IValue::uninitialized());
      dense_[static_cast<size_t>(i)] = std::move(v);
      return;
    }
    sparse_.emplace(index, std::move(v));
  }
  size_t size() const { return count_; }
  // Moves every entry out (teardown).
  template <typename Fn>
  void drain(Fn&& fn) {
    for (auto& v : dense_) {
      if (!is_unset(v)) fn(std::move(v));
    }
    for (auto& [k, v] : sparse_) fn(std::move(v));
    dense_.clear();
    sparse_.clear();
    count_ = 0;
  }

 private:
  static constexpr uint64_t kDenseSlack = 1 << 16;
  // The VM never makes an Uninitialized value, so it marks an unset slot.
  static bool is_unset(const IValue& v) { return v.tag() == IValueTag::Uninitialized; }
  std::vector<IValue> dense_;
  std::unordered_map<int64_t, IValue, MemoIndexHash> sparse_;
  size_t count_ = 0;
};

// Hash of a set item: IValueHash, except that a frozenset (a list to IValue, which
// IValueHash refuses) hashes by its size, since Python hashes it by its contents in
// any order; frozensets of one size then fall back to equality within the bucket.
struct SetItemHash {
  size_t operator()(const IValue& v) const {
    if (v.isList()) return 0x9e3779b97f4a7c15ull ^ v.listRef().elements.size();
    return IValueHash()(v);
  }
};

class Unpickler {
 public:
  Unpickler(std::span<const std::byte> data, const UnpicklerOptions& options, const std::string& label)
      : in_(data, label), options_(options), label_(label) {}

  IValue run() {
    IValue result;
    std::unordered_set<const RefCounted*> reachable;
    try {
      result = loop();
      reachable = check_result(result, options_.limits.max_nesting, label_);
    } catch (...) {
      // Nothing escapes: empty every container, whoever else refers to it (a cycle
      // refers to itself), so releasing cannot recurse or leak.
      stack_.push_back(std::move(result));
      dismantle_leftovers({});
      throw;
    }
    // The memo may still hold values the result never reached (built, then popped):
    // those are emptied; the result's own containers are left intact.
    dismantle_leftovers(reachable);
    return result;
  }

 private:
  // --- the loop --------------------------------------------------------------------
  IValue loop() {
    while (true) {
      size_t at = in_.pos();
      uint8_t byte = in_.read_byte("opcode");
      const OpInfo* info = op_info(byte);
      TL_CHECK(info != nullptr, FormatError, "{}: unknown pickle opcode 0x{:02x} at offset {}",
               label_, byte, at);
      op_at_ = at;
      // What the last opcode popped and did not store is dropped here; a container among
      // it may contain itself (DUP, APPEND, then POP), so it stays in reach of the
      // teardown instead of leaking its cycle.
      for (auto& v : in_flight_)
        if (is_container(v)) replaced_.push_back(std::move(v));
      in_flight_.clear();
      Arg arg = in_.read_arg(*info);
      if (info->op == Op::STOP) {
        TL_CHECK(marks_.empty(), FormatError, "{}: STOP with an unclosed MARK", label_);
        TL_CHECK(stack_.size() == 1, FormatError,
                 "{}: STOP with {} items on the stack (expected 1)", label_, stack_.size());
        check_nothing_pending();
        IValue r = std::move(stack_.back());
        stack_.pop_back();
        return r;
      }
      dispatch(*info, std::move(arg));
    }
  }

  void dispatch(const OpInfo& info, Arg arg) {
    switch (info.op) {
      case Op::MARK: return op_mark();
      case Op::STOP: return;  // handled in loop()
      case Op::POP: pop(info); return;
      case Op::POP_MARK: pop_mark(info); return;
      case Op::DUP: push(top(info)); return;
      case Op::FLOAT:
      case Op::BINFLOAT: return push(IValue(arg.d));
      case Op::INT:
        if (arg.s == "bool") return push(IValue(arg.i != 0));
        return push(IValue(arg.i));
      case Op::BININT:
      case Op::BININT1:
      case Op::BININT2: return push(IValue(arg.i));
      case Op::LONG:
      case Op::LONG1:
      case Op::LONG4: return op_long(arg);
      case Op::NONE: return push(IValue());
      case Op::NEWTRUE: return push(IValue(true));
      case Op::NEWFALSE: return push(IValue(false));
      case Op::PERSID: return op_persid(IValue(arg.s));
      case Op::BINPERSID: return op_persid(pop(info));
      case Op::REDUCE: return op_reduce(info);
      case Op::STRING:
      case Op::BINSTRING:
      case Op::SHORT_BINSTRING: return op_py2_string(info, std::move(arg.s));
      case Op::UNICODE: return op_unicode_nl(std::move(arg.s));
      case Op::BINUNICODE:
      case Op::SHORT_BINUNICODE:
      case Op::BINUNICODE8:
        check_utf8(info, arg.s, /*allow_surrogates=*/true);
        return push(IValue(std::move(arg.s)));
      case Op::BINBYTES:
      case Op::SHORT_BINBYTES:
      case Op::BINBYTES8: return push(IValue::bytes(std::move(arg.s)));
      case Op::APPEND: return op_append(info);
      case Op::APPENDS: return op_appends(info);
      case Op::BUILD: return op_build(info);
      case Op::GLOBAL: return op_global(info, arg.s, arg.s2);
      case Op::STACK_GLOBAL: return op_stack_global(info);
      case Op::DICT: return op_dict(info);
      case Op::EMPTY_DICT: return push(IValue(make_intrusive<DictImpl>()));
      case Op::LIST: return push(IValue::list(pop_mark(info)));
      case Op::EMPTY_LIST: return push(IValue::list({}));
      case Op::TUPLE: return push(make_tuple(pop_mark(info)));
      case Op::EMPTY_TUPLE: return push(IValue::tuple({}));
      case Op::TUPLE1:
      case Op::TUPLE2:
      case Op::TUPLE3: return op_tuple_n(info, static_cast<size_t>(info.op) - static_cast<size_t>(Op::TUPLE1) + 1);
      case Op::GET:
      case Op::BINGET:
      case Op::LONG_BINGET: return op_get(info, arg.i);
      case Op::PUT:
      case Op::BINPUT:
      case Op::LONG_BINPUT: return op_put(info, arg.i);
      case Op::MEMOIZE: return op_put(info, static_cast<int64_t>(memo_.size()));  // Python: len(memo)
      case Op::SETITEM: return op_setitem(info);
      case Op::SETITEMS: return op_setitems(info);
      case Op::EMPTY_SET: return push(make_set(PyContainerKind::Set, {}));
      case Op::ADDITEMS: return op_additems(info);
      case Op::FROZENSET: return push(make_set(PyContainerKind::FrozenSet, pop_mark(info)));
      case Op::NEWOBJ: return op_newobj(info, /*has_kwargs=*/false);
      case Op::NEWOBJ_EX: return op_newobj(info, /*has_kwargs=*/true);
      case Op::INST: return op_inst(info, arg.s, arg.s2);
      case Op::OBJ: return op_obj(info);
      case Op::PROTO:
        TL_CHECK(arg.i >= 0 && arg.i <= 5, UnsupportedError, "{}: pickle protocol {} is not supported",
                 label_, arg.i);
        return;
      case Op::FRAME:
        // Frames only group bytes (the stream is already in memory), but a frame
        // claiming more than the file holds marks a damaged or crafted pickle.
        TL_CHECK(static_cast<uint64_t>(arg.i) <= in_.remaining(), FormatError,
                 "{}: FRAME at offset {} declares {} bytes but only {} remain", label_, op_at_,
                 static_cast<uint64_t>(arg.i), in_.remaining());
        return;
      case Op::EXT1:
      case Op::EXT2:
      case Op::EXT4:
        TL_FAIL(UnsafeGlobalError,
                "{}: {} at offset {} names extension code {}: the copyreg extension registry "
                "is not consulted (it can name any global)",
                label_, info.name, op_at_, arg.i);
      case Op::BYTEARRAY8: {  // protocol 5's bytearray literal
        auto b = make_intrusive<BytesImpl>(std::move(arg.s));
        b->bytearray = true;
        return push(IValue(b));
      }
      case Op::NEXT_BUFFER:
      case Op::READONLY_BUFFER:
        TL_FAIL(UnsupportedError, "{}: {} at offset {} (protocol 5 buffers) is not supported",
                label_, info.name, op_at_);
    }
  }

  // Python decodes BINUNICODE's bytes as UTF-8 ('surrogatepass') and GLOBAL's lines
  // strictly; text it would refuse is refused here too, naming the opcode and where.
  void check_utf8(const OpInfo& info, std::string_view text, bool allow_surrogates) {
    if (auto why = utf8_error(text, allow_surrogates)) {
      TL_FAIL(FormatError, "{}: {} at offset {}: text is not valid UTF-8 ({})", label_, info.name, op_at_, *why);
    }
  }
  void check_utf8_name(const OpInfo& info, std::string_view module, std::string_view name) {
    if (info.op != Op::GLOBAL && info.op != Op::INST) return;  // STACK_GLOBAL's strings are checked
    check_utf8(info, module, false);
    check_utf8(info, name, false);
  }

  // --- stack helpers ------------------------------------------------------------------
  void push(IValue v) {
    TL_CHECK(++objects_ <= options_.limits.max_objects, LimitError,
             "{}: more than {} objects", label_, options_.limits.max_objects);
    stack_.push_back(std::move(v));
  }
  size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
  IValue pop(const OpInfo& info) {
    TL_CHECK(stack_.size() > floor(), FormatError, "{}: {} at offset {}: stack underflow",
             label_, info.name, op_at_);
    IValue v = std::move(stack_.back());
    stack_.pop_back();
    in_flight_.push_back(v);
    return v;
  }
  IValue& top(const OpInfo& info) {
    TL_CHECK(stack_.size() > floor(), FormatError, "{}: {} at offset {}: stack underflow",
             label_, info.name, op_at_);
    return stack_.back();
  }
  void op_mark() {
    TL_CHECK(marks_.size() < options_.limits.max_marks, LimitError,
             "{}: MARK nesting deeper than {}", label_, options_.limits.max_marks);
    marks_.push_back(stack_.size());
  }
  std::vector<IValue> pop_mark(const OpInfo& info) {
    TL_CHECK(!marks_.empty(), FormatError, "{}: {} at offset {} without a MARK", label_,
             info.name, op_at_);
    size_t m = marks_.back();
    marks_.pop_back();
    std::vector<IValue> items(std::make_move_iterator(stack_.begin() + static_cast<std::ptrdiff_t>(m)),
                              std::make_move_iterator(stack_.end()));
    stack_.resize(m);
    in_flight_.insert(in_flight_.end(), items.begin(), items.end());
    return items;
  }

  // --- opcode handlers -----------------------------------------------------------------
  void op_long(const Arg& arg) {
    if (arg.fits_int64) return push(IValue(arg.i));
    push(IValue(make_intrusive<BigIntImpl>(arg.s)));
  }

  void op_py2_string(const OpInfo& info, std::string s) {
    if (info.op == Op::STRING) {
      // Protocol 0 quotes the text; escapes other than none are not produced by torch.
      TL_CHECK(s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front(),
               FormatError, "{}: STRING at offset {} is not quoted", label_, op_at_);
      s = s.substr(1, s.size() - 2);
      TL_CHECK(s.find('\\') == std::string::npos, UnsupportedError,
               "{}: STRING with escape sequences is not supported", label_);
    }
    // Python 3 decodes Python 2 strings as bytes (torch.load's encoding='bytes'
    // default for legacy files would do the same for non-ASCII).
    push(IValue(std::move(s)));
  }

  // Protocol 0's UNICODE: decoded by the one function the disassembler uses too, so a
  // listing never shows other text than the loader reads.
  void op_unicode_nl(const std::string& s) { push(IValue(raw_unicode_escape_to_utf8(s, label_))); }

  void op_get(const OpInfo& info, int64_t index) {
    const IValue* found = memo_.find(index);
    TL_CHECK(found != nullptr, FormatError, "{}: {} index {} at offset {} is not in the memo ({} entries)",
             label_, info.name, index, op_at_, memo_.size());
    push(*found);
  }

  void op_put(const OpInfo& info, int64_t index) {
    TL_CHECK(index >= 0, FormatError, "{}: {} with negative index", label_, info.name);
    if (memo_.find(index) == nullptr) {
      TL_CHECK(memo_.size() < options_.limits.max_memo, LimitError,
               "{}: memo holds more than {} entries", label_, options_.limits.max_memo);
    }
    if (IValue* old = memo_.find(index)) replaced_.push_back(*old);
    memo_.set(index, top(info));
    if (top(info).isPyObject()) {
      auto p = pending_.find(static_cast<const PyObjectImpl*>(top(info).heapPtr()));
      if (p != pending_.end()) p->second.memo_slots.push_back(index);
    }
  }

  void op_persid(IValue pid) {
    TL_CHECK(static_cast<bool>(options_.persistent_load), FormatError,
             "{}: persistent id at offset {} but this pickle has no storages", label_, op_at_);
    push(options_.persistent_load(pid));
  }

  void op_append(const OpInfo& info) {
    IValue item = pop(info);
    append_items(info, top(info), {std::move(item)});
  }

  void op_appends(const OpInfo& info) {
    std::vector<IValue> items = pop_mark(info);
    append_items(info, top(info), std::move(items));
  }

  void append_items(const OpInfo& info, IValue& target, std::vector<IValue> items) {
    if (target.isList() && target.listRef().py_kind == PyContainerKind::List) {
      auto& v = target.listRef().elements;
      for (auto& i : items) v.push_back(std::move(i));
      return;
    }
    if (target.isPyObject() && !target.toPyObject()->is_reference) {
      auto p = target.toPyObject();
      for (auto& i : items) p->list_items.push_back(std::move(i));
      return;
    }
    TL_FAIL(FormatError, "{}: {} at offset {} on a {} (only lists can be appended to)", label_,
            info.name, op_at_, kind_name(target));
  }

  void op_setitem(const OpInfo& info) {
    IValue value = pop(info);
    IValue key = pop(info);
    set_items(info, top(info), {std::move(key), std::move(value)});
  }

  void op_setitems(const OpInfo& info) {
    std::vector<IValue> items = pop_mark(info);
    TL_CHECK(items.size() % 2 == 0, FormatError, "{}: SETITEMS at offset {} with an odd number of items",
             label_, op_at_);
    set_items(info, top(info), std::move(items));
  }

  void set_items(const OpInfo& info, IValue& target, std::vector<IValue> kv) {
    if (target.isDict()) {
      auto& d = target.dictRef();
      for (size_t i = 0; i < kv.size(); i += 2) check_key(kv[i]), d.insert_or_assign(std::move(kv[i]), std::move(kv[i + 1]));
      return;
    }
    if (target.isPyObject() && !target.toPyObject()->is_reference) {
      auto p = target.toPyObject();
      for (size_t i = 0; i < kv.size(); i += 2) p->dict_items.emplace_back(std::move(kv[i]), std::move(kv[i + 1]));
      return;
    }
    TL_FAIL(FormatError, "{}: {} at offset {} on a {} (only dicts take items)", label_, info.name,
            op_at_, kind_name(target));
  }

  // See Note [Keys are checked as they are built].
  void check_key(const IValue& key) {
    TL_CHECK(key_info(key).hashable, FormatError, "{}: unhashable dict key or set item ({}) at offset {}",
             label_, kind_name(key), op_at_);
  }

  void op_dict(const OpInfo& info) {
    std::vector<IValue> items = pop_mark(info);
    TL_CHECK(items.size() % 2 == 0, FormatError, "{}: DICT at offset {} with an odd number of items",
             label_, op_at_);
    IValue d(make_intrusive<DictImpl>());
    set_items(info, d, std::move(items));
    push(std::move(d));
  }

  void op_additems(const OpInfo& info) {
    std::vector<IValue> items = pop_mark(info);
    IValue& target = top(info);
    TL_CHECK(target.isList() && target.listRef().py_kind == PyContainerKind::Set, FormatError,
             "{}: ADDITEMS at offset {} on a {} (only sets)", label_, op_at_, kind_name(target));
    for (auto& i : items) {
      check_key(i);  // a set holds only hashable items, as for dict keys
      add_to_set(target, std::move(i));
    }
  }

  // Adds to a set through its hash index (made on first use and kept with the set),
  // so n items cost O(n): a linear scan made a 1 MB pickle of a 300k-item set take
  // minutes.
  void add_to_set(const IValue& set, IValue item) {
    auto it = set_index_.find(set.heapPtr());
    if (it == set_index_.end()) {
      SetIndex index{set, {}};
      for (const auto& e : set.listRef().elements) index.items.insert(e);
      it = set_index_.emplace(set.heapPtr(), std::move(index)).first;
    }
    if (it->second.items.insert(item).second) set.listRef().elements.push_back(std::move(item));
  }

  IValue make_set(PyContainerKind kind, std::vector<IValue> items) {
    auto l = make_intrusive<ListImpl>(std::vector<IValue>{});
    l->py_kind = kind;
    IValue set(l);
    for (auto& i : items) {
      check_key(i);
      add_to_set(set, std::move(i));
    }
    if (kind == PyContainerKind::FrozenSet) record_key_container(set, set.listRef().elements);
    return set;
  }

  void op_tuple_n(const OpInfo& info, size_t n) {
    TL_CHECK(stack_.size() >= floor() + n, FormatError, "{}: {} at offset {}: stack underflow",
             label_, info.name, op_at_);
    std::vector<IValue> items(std::make_move_iterator(stack_.end() - static_cast<std::ptrdiff_t>(n)),
                              std::make_move_iterator(stack_.end()));
    stack_.resize(stack_.size() - n);
    push(make_tuple(std::move(items)));
  }

  // Note [Keys are checked as they are built]
  // Dict keys and set items are hashed and compared recursively (IValueHash walks
  // tuples), so a key nested a million tuples deep would overflow the C++ stack, and
  // Python refuses a tuple holding a list as unhashable. Every tuple and frozenset the
  // VM builds therefore records its key depth and hashability once, when it is made;
  // check_key then costs O(1). Only containers that can be keys are recorded, and the
  // record keeps them alive, so a freed address cannot be mistaken for another.
  struct KeyTraits {
    uint32_t depth;
    bool hashable;
  };
  struct KeyInfo {
    IValue keep;
    KeyTraits traits;
  };
  KeyTraits key_info(const IValue& v) const {
    if (v.isList() && v.listRef().py_kind != PyContainerKind::FrozenSet) return {0, false};
    if (v.isDict()) return {0, false};
    if (v.isBytearray()) return {0, false};  // mutable, as in Python
    if (!v.isTuple() && !v.isList()) return {0, true};
    auto it = key_info_.find(v.heapPtr());
    if (it != key_info_.end()) return it->second.traits;
    return {1, true};  // made outside the VM's tuple/frozenset opcodes: no nested keys
  }
  void record_key_container(const IValue& v, const std::vector<IValue>& items) {
    uint32_t depth = 1;
    bool hashable = true;
    for (const auto& e : items) {
      KeyTraits k = key_info(e);
      depth = std::max(depth, k.depth + 1);
      hashable = hashable && k.hashable;
    }
    TL_CHECK(depth <= options_.limits.max_nesting, LimitError,
             "{}: tuples or frozensets nested deeper than {} at offset {}", label_, options_.limits.max_nesting, op_at_);
    if (depth > 1 || !hashable) key_info_.emplace(v.heapPtr(), KeyInfo{v, {depth, hashable}});
  }
  IValue make_tuple(std::vector<IValue> items) {
    IValue t = IValue::tuple(std::move(items));
    record_key_container(t, t.tupleRef().elements);
    return t;
  }

  // --- globals ---------------------------------------------------------------------------
  IValue global_ref(const OpInfo& info, const std::string& module, const std::string& name) {
    check_utf8_name(info, module, name);
    auto r = resolve_allowed(module, name);
    std::optional<ResolvedGlobal> external;
    if (!r && options_.class_resolver) external = options_.class_resolver(module, name);
    if (options_.globals_seen) {
      const bool user = !is_blocked_module(module) && is_user_allowed(options_.safe_globals, module, name);
      options_.globals_seen->push_back({module, name, std::string(info.name), r || external || user});
    }
    if (external) return external_ref(module, name, std::move(*external));
    // A global the user allowed loads as an inert record like those of inert mode: the
    // allowance says the file may hold one, not that anything may run. torch refuses
    // some modules whatever the user allows; so does torchlet.
    if (!r && !options_.inert_unknown_globals &&
        (is_blocked_module(module) || !is_user_allowed(options_.safe_globals, module, name))) {
      TL_FAIL(UnsafeGlobalError, "{}", refusal_message(label_, info.name, op_at_, module, name));
    }
    auto p = make_intrusive<PyObjectImpl>();
    p->module = module;
    p->name = name;
    p->is_reference = true;
    return IValue(p);
  }

  // A global the class resolver builds: a reference like any other, remembered (and
  // kept alive, so its address cannot be reused) with what calling or building it does.
  IValue external_ref(const std::string& module, const std::string& name, ResolvedGlobal g) {
    TL_CHECK(g.call || g.build, InternalError, "class resolver returned neither call nor build for {}.{}",
             module, name);
    auto p = make_intrusive<PyObjectImpl>();
    p->module = module;
    p->name = name;
    p->is_reference = true;
    IValue ref(p);
    external_.emplace(p.get(), External{ref, std::move(g)});
    return ref;
  }

  // NEWOBJ/REDUCE of a resolver's class without `call`: an instance waiting for BUILD.
  IValue pending_instance(const OpInfo& info, const PyObjectImpl& cls, const External& ext, IValue args) {
    TL_CHECK(static_cast<bool>(ext.global.build), FormatError, "{}: {} at offset {} calls {}.{}, which "
             "cannot be called", label_, info.name, op_at_, printable_text(cls.module),
             printable_text(cls.name));
    TL_CHECK(args.tupleRef().elements.empty(), FormatError,
             "{}: {} at offset {} passes {} arguments to class {}.{} (its state comes by BUILD)",
             label_, info.name, op_at_, args.tupleRef().elements.size(),
             printable_text(cls.module), printable_text(cls.name));
    auto p = make_intrusive<PyObjectImpl>();
    p->module = cls.module;
    p->name = cls.name;
    p->args = std::move(args);
    p->built_by_newobj = true;
    IValue placeholder(p);
    pending_.emplace(p.get(), Pending{placeholder, &ext.global, {}});
    return placeholder;
  }

  // BUILD on a pending instance: the resolver makes the object from its state, and it
  // takes the placeholder's place on the stack and in every memo slot that held it.
  void build_pending(IValue& target, IValue state) {
    auto it = pending_.find(static_cast<const PyObjectImpl*>(target.heapPtr()));
    Pending pending = std::move(it->second);
    pending_.erase(it);
    IValue obj = pending.global->build(std::move(state));
    for (int64_t slot : pending.memo_slots) {
      IValue* m = memo_.find(slot);
      if (m != nullptr && m->heapPtr() == pending.placeholder.heapPtr()) *m = obj;
    }
    target = std::move(obj);
  }

  // At STOP every resolver instance has had its BUILD; a placeholder must not escape.
  void check_nothing_pending() const {
    if (pending_.empty()) return;
    const PyObjectImpl& p = *pending_.begin()->first;
    TL_FAIL(FormatError, "{}: STOP with an instance of {}.{} that BUILD never gave its state",
            label_, printable_text(p.module), printable_text(p.name));
  }

  void op_global(const OpInfo& info, const std::string& module, const std::string& name) {
    push(global_ref(info, module, name));
  }

  void op_stack_global(const OpInfo& info) {
    IValue name = pop(info);
    IValue module = pop(info);
    TL_CHECK(module.isString() && name.isString(), FormatError,
             "{}: STACK_GLOBAL at offset {} needs two strings, got {} and {}", label_, op_at_,
             kind_name(module), kind_name(name));
    push(global_ref(info, module.toStringRef(), name.toStringRef()));
  }

  void op_inst(const OpInfo& info, const std::string& module, const std::string& name) {
    IValue cls = global_ref(info, module, name);
    std::vector<IValue> args = pop_mark(info);
    push(call(info, cls, IValue::tuple(std::move(args)), /*newobj=*/false));
  }

  void op_obj(const OpInfo& info) {
    std::vector<IValue> items = pop_mark(info);
    TL_CHECK(!items.empty(), FormatError, "{}: OBJ at offset {} without a class", label_, op_at_);
    IValue cls = std::move(items.front());
    items.erase(items.begin());
    push(call(info, cls, IValue::tuple(std::move(items)), /*newobj=*/false));
  }

  void op_reduce(const OpInfo& info) {
    IValue args = pop(info);
    IValue fn = pop(info);
    push(call(info, fn, std::move(args), /*newobj=*/false));
  }

  void op_newobj(const OpInfo& info, bool has_kwargs) {
    IValue kwargs;
    if (has_kwargs) kwargs = pop(info);
    IValue args = pop(info);
    IValue cls = pop(info);
    TL_CHECK(!has_kwargs || (kwargs.isDict() && kwargs.dictRef().size() == 0) || options_.inert_unknown_globals,
             UnsupportedError, "{}: NEWOBJ_EX with keyword arguments is not supported", label_);
    push(call(info, cls, std::move(args), /*newobj=*/true));
  }

  // Calls (REDUCE/NEWOBJ/INST/OBJ) an allowed global, or records an inert instance.
  IValue call(const OpInfo& info, const IValue& fn, IValue args, bool newobj) {
    TL_CHECK(fn.isPyObject() && fn.toPyObject()->is_reference, FormatError,
             "{}: {} at offset {} calls a {} (expected a global)", label_, info.name, op_at_,
             kind_name(fn));
    TL_CHECK(args.isTuple(), FormatError, "{}: {} at offset {}: arguments are a {}, not a tuple",
             label_, info.name, op_at_, kind_name(args));
    auto g = fn.toPyObject();
    if (auto ext = external_.find(g.get()); ext != external_.end()) {
      if (ext->second.global.call) return ext->second.global.call(args);
      return pending_instance(info, *g, ext->second, std::move(args));
    }
    auto r = resolve_allowed(g->module, g->name);
    if (!r) {  // inert mode or a user-allowed global: global_ref refused it otherwise
      auto p = make_intrusive<PyObjectImpl>();
      p->module = g->module;
      p->name = g->name;
      p->args = std::move(args);
      p->built_by_newobj = newobj;
      return IValue(p);
    }
    if (options_.globals_only && builds_tensor(r->kind)) return IValue();
    const auto& a = args.tupleRef().elements;
    auto need = [&](size_t lo, size_t hi) {
      TL_CHECK(a.size() >= lo && a.size() <= hi, FormatError,
               "{}: {}.{} called with {} arguments at offset {}", label_, g->module, g->name,
               a.size(), op_at_);
    };
    switch (r->kind) {
      case GlobalKind::RebuildTensorV2:
        need(6, 7);
        return rebuild_tensor(a[0], a[1], a[2], a[3], a[4]);
      case GlobalKind::RebuildTensor:
        need(4, 4);
        return rebuild_tensor(a[0], a[1], a[2], a[3], IValue(false));
      case GlobalKind::RebuildParameter:
      case GlobalKind::RebuildParameterWithState:
      case GlobalKind::Parameter: {
        if (r->kind == GlobalKind::Parameter) need(0, 2);
        else if (r->kind == GlobalKind::RebuildParameter) need(3, 3);
        else need(4, 4);
        TL_CHECK(!a.empty() && a[0].isTensor(), FormatError, "{}: Parameter data is a {}", label_,
                 a.empty() ? "missing argument" : kind_name(a[0]));
        if (r->kind == GlobalKind::RebuildParameterWithState) {
          TL_CHECK(a[3].isNone() || (a[3].isDict() && a[3].dictRef().size() == 0), UnsupportedError,
                   "{}: Parameters with extra Python state are not supported", label_);
        }
        bool requires_grad = a.size() >= 2 ? expect_bool(a[1], "requires_grad") : true;
        Tensor t = a[0].toTensor().alias();
        t.set_requires_grad(requires_grad);
        t.impl()->is_parameter_ = true;
        return IValue(t);
      }
      case GlobalKind::RebuildFromTypeV2:
        need(4, 4);
        return rebuild_from_type(info, a[0], a[1], a[2], a[3]);
      case GlobalKind::StorageClass:
      case GlobalKind::DType:
        TL_FAIL(FormatError, "{}: {}.{} is not callable in a checkpoint", label_, g->module, g->name);
      case GlobalKind::Unsupported:
        TL_FAIL(UnsupportedError, "{}: {}.{}: {} are not supported yet", label_, g->module, g->name,
                r->unsupported_reason);
      default:
        return build_python_value(r->kind, *g, args, need);
    }
  }

  // The allowed globals that make plain Python values (containers, numbers, bytes,
  // devices, sizes, layouts) from their arguments, each checked before it is used.
  template <typename Need>
  IValue build_python_value(GlobalKind kind, const PyObjectImpl& g, const IValue& args, const Need& need) {
    const auto& a = args.tupleRef().elements;
    switch (kind) {
      case GlobalKind::OrderedDict:
      case GlobalKind::Counter: {
        need(0, 1);
        auto d = make_intrusive<DictImpl>();
        d->py_kind = kind == GlobalKind::Counter ? PyContainerKind::Counter : PyContainerKind::OrderedDict;
        if (a.size() == 1 && kind == GlobalKind::Counter) {
          // Counter's __reduce__: Counter(dict(self)).
          TL_CHECK(a[0].isDict(), FormatError, "{}: Counter argument is a {}", label_, kind_name(a[0]));
          for (const auto& [k, v] : a[0].dictRef().items()) d->insert_or_assign(k, v);
        } else if (a.size() == 1) {
          TL_CHECK(a[0].isList() || a[0].isTuple(), FormatError, "{}: OrderedDict argument is a {}",
                   label_, kind_name(a[0]));
          const auto& pairs = a[0].isList() ? a[0].listRef().elements : a[0].tupleRef().elements;
          for (const auto& p : pairs) {
            TL_CHECK(p.isTuple() && p.tupleRef().elements.size() == 2, FormatError,
                     "{}: OrderedDict item is not a pair", label_);
            check_key(p.tupleRef().elements[0]);
            d->insert_or_assign(p.tupleRef().elements[0], p.tupleRef().elements[1]);
          }
        }
        return IValue(d);
      }
      case GlobalKind::Device: {
        need(1, 2);
        TL_CHECK(a[0].isString(), FormatError, "{}: torch.device argument is a {}", label_, kind_name(a[0]));
        std::string text = a[0].toStringRef();
        if (a.size() == 2 && !a[1].isNone()) text += ":" + std::to_string(expect_int(a[1], "device index"));
        return IValue(Device::parse(text));
      }
      case GlobalKind::Size: {
        need(1, 1);
        TL_CHECK(a[0].isTuple(), FormatError, "{}: torch.Size argument is a {}", label_, kind_name(a[0]));
        for (const auto& e : a[0].tupleRef().elements) expect_int(e, "torch.Size element");
        auto t = make_intrusive<TupleImpl>(a[0].tupleRef().elements);
        t->py_kind = PyContainerKind::TorchSize;
        return IValue(t);
      }
      case GlobalKind::CodecsEncode: {
        need(2, 2);
        TL_CHECK(a[0].isString() && a[1].isString() && a[1].toStringRef() == "latin1", FormatError,
                 "{}: _codecs.encode is only accepted as encode(str, 'latin1') (how protocol 2 "
                 "pickles bytes)", label_);
        return IValue::bytes(latin1_bytes(a[0].toStringRef()));
      }
      case GlobalKind::Bytes:
        need(0, 0);  // protocol 2 pickles b"" as bytes()
        return IValue::bytes("");
      case GlobalKind::Bytearray: return make_bytearray(a, need);
      case GlobalKind::Set:
      case GlobalKind::FrozenSet: {
        need(0, 1);
        std::vector<IValue> items;
        if (a.size() == 1) {
          TL_CHECK(a[0].isList() || a[0].isTuple(), FormatError, "{}: set argument is a {}", label_, kind_name(a[0]));
          items = a[0].isList() ? a[0].listRef().elements : a[0].tupleRef().elements;
        }
        return make_set(kind == GlobalKind::Set ? PyContainerKind::Set : PyContainerKind::FrozenSet, std::move(items));
      }
      case GlobalKind::Complex: {
        need(0, 2);
        double re = a.size() > 0 ? expect_number(a[0]) : 0.0;
        double im = a.size() > 1 ? expect_number(a[1]) : 0.0;
        return IValue(std::complex<double>(re, im));
      }
      case GlobalKind::GetLayout: {
        // torch pickles a torch.layout as _get_layout(str(layout)). torchlet has no layout
        // value: it keeps the call as an inert record, which saves back as torch wrote it.
        need(1, 1);
        TL_CHECK(a[0].isString() && is_layout_name(a[0].toStringRef()), FormatError,
                 "{}: _get_layout argument is {} (expected the name of a torch layout)", label_,
                 a[0].isString() ? "'" + printable_text(a[0].toStringRef()) + "'" : std::string("a ") + kind_name(a[0]));
        auto p = make_intrusive<PyObjectImpl>();
        p->module = g.module;
        p->name = g.name;
        p->args = args;
        return IValue(p);
      }
      default: break;
    }
    TL_FAIL(InternalError, "unhandled global kind");
  }

  // bytearray(): protocol 2 writes bytearray(_codecs.encode(text, 'latin1')), protocols
  // 3+ bytearray(b'...'), Python 2 bytearray(text, 'latin-1'); empty takes no argument.
  template <typename Need>
  IValue make_bytearray(const std::vector<IValue>& a, const Need& need) {
    need(0, 2);
    std::string data;
    if (a.size() == 1) {
      TL_CHECK(a[0].isBytes(), FormatError, "{}: bytearray argument is a {} (expected bytes)", label_,
               kind_name(a[0]));
      data = a[0].toBytesRef();
    } else if (a.size() == 2) {
      TL_CHECK(a[0].isString() && a[1].isString() &&
                   (a[1].toStringRef() == "latin-1" || a[1].toStringRef() == "latin1"),
               FormatError, "{}: bytearray is only accepted as bytearray(str, 'latin-1')", label_);
      data = latin1_bytes(a[0].toStringRef());
    }
    auto b = make_intrusive<BytesImpl>(std::move(data));
    b->bytearray = true;
    return IValue(b);
  }

  static bool builds_tensor(GlobalKind kind) {
    return kind == GlobalKind::RebuildTensorV2 || kind == GlobalKind::RebuildTensor ||
           kind == GlobalKind::RebuildParameter || kind == GlobalKind::RebuildParameterWithState ||
           kind == GlobalKind::Parameter || kind == GlobalKind::RebuildFromTypeV2;
  }

  void op_build(const OpInfo& info) {
    IValue state = pop(info);
    IValue& target = top(info);
    if (options_.globals_only && target.isNone()) return;  // a tensor the walk did not rebuild
    if (target.isDict() && target.dictRef().py_kind == PyContainerKind::OrderedDict) {
      // OrderedDict instance attributes, e.g. a state_dict's _metadata.
      TL_CHECK(state.isDict() || state.isNone(), FormatError,
               "{}: BUILD on an OrderedDict with a {} state", label_, kind_name(state));
      if (state.isDict()) target.dictRef().set_py_state(std::move(state));
      return;
    }
    if (target.isPyObject() && pending_.count(static_cast<const PyObjectImpl*>(target.heapPtr()))) {
      return build_pending(target, std::move(state));
    }
    if (target.isPyObject() && !target.toPyObject()->is_reference) {
      target.toPyObject()->state = std::move(state);
      return;
    }
    if (target.isTensor()) {
      // torch's tensor __setstate__: an empty state (None / {} / (None, {})) changes nothing.
      TL_CHECK(state.isNone() || (state.isDict() && state.dictRef().size() == 0), UnsupportedError,
               "{}: BUILD with Python attributes on a tensor is not supported", label_);
      return;
    }
    TL_FAIL(FormatError, "{}: BUILD at offset {} on a {} (only OrderedDicts and tensors take "
            "state)", label_, op_at_, kind_name(target));
  }

  // --- tensor rebuilding -----------------------------------------------------------------
  // _rebuild_from_type_v2(func, type, args, state): how torch pickles a tensor subclass
  // or a tensor with Python attributes. Plain tensors and Parameters without state
  // load; a subclass's own GLOBAL was already refused unless inert mode recorded it.
  IValue rebuild_from_type(const OpInfo& info, const IValue& func, const IValue& type,
                           const IValue& args, const IValue& state) {
    TL_CHECK(type.isPyObject() && type.toPyObject()->is_reference, FormatError,
             "{}: _rebuild_from_type_v2 type is a {}", label_, kind_name(type));
    const PyObjectImpl& t = *type.toPyObject();
    const bool plain = (t.module == "torch" && t.name == "Tensor") ||
                       (t.module == "torch.nn.parameter" && t.name == "Parameter");
    TL_CHECK(plain, UnsupportedError, "{}: tensors of subclass {}.{} are not supported", label_,
             printable_text(t.module), printable_text(t.name));
    TL_CHECK(state.isNone() || (state.isDict() && state.dictRef().size() == 0), UnsupportedError,
             "{}: tensors with Python attributes are not supported", label_);
    // func must be a rebuilder, not this function again: no recursion on crafted input.
    TL_CHECK(func.isPyObject() && func.toPyObject()->is_reference, FormatError,
             "{}: _rebuild_from_type_v2 function is a {}", label_, kind_name(func));
    auto r = resolve_allowed(func.toPyObject()->module, func.toPyObject()->name);
    TL_CHECK(r && r->kind != GlobalKind::RebuildFromTypeV2, FormatError,
             "{}: _rebuild_from_type_v2 calls {}.{}", label_, printable_text(func.toPyObject()->module),
             printable_text(func.toPyObject()->name));
    IValue v = call(info, func, args, /*newobj=*/false);
    TL_CHECK(v.isTensor(), FormatError, "{}: _rebuild_from_type_v2 rebuilt a {}, not a tensor", label_,
             kind_name(v));
    return v;
  }

  // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, ...): the
  // storage arrives as the flat tensor persistent_load made; the view is checked to
  // lie inside it before it is made.
  IValue rebuild_tensor(const IValue& storage, const IValue& offset_v, const IValue& size_v,
                        const IValue& stride_v, const IValue& requires_grad) {
    TL_CHECK(storage.isTensor(), FormatError, "{}: tensor storage is a {} (expected a persistent "
             "storage)", label_, kind_name(storage));
    Tensor flat = storage.toTensor();
    int64_t offset = expect_int(offset_v, "storage offset");
    Shape sizes = int_tuple(size_v, "size"), strides = int_tuple(stride_v, "stride");
    Tensor t = checked_storage_view(flat, offset, std::move(sizes), std::move(strides), label_);
    t.set_requires_grad(expect_bool(requires_grad, "requires_grad"));
    return IValue(t);
  }

  // --- value checks ----------------------------------------------------------------------
  const char* kind_name(const IValue& v) const { return v.tag_name(); }
  int64_t expect_int(const IValue& v, const char* what) {
    TL_CHECK(v.isInt(), FormatError, "{}: {} is a {} (expected int)", label_, what, kind_name(v));
    return v.toInt();
  }
  bool expect_bool(const IValue& v, const char* what) {
    TL_CHECK(v.isBool(), FormatError, "{}: {} is a {} (expected bool)", label_, what, kind_name(v));
    return v.toBool();
  }
  double expect_number(const IValue& v) {
    TL_CHECK(v.isDouble() || v.isInt(), FormatError, "{}: complex part is a {}", label_, kind_name(v));
    return v.isDouble() ? v.toDouble() : static_cast<double>(v.toInt());
  }
  Shape int_tuple(const IValue& v, const char* what) {
    TL_CHECK(v.isTuple(), FormatError, "{}: tensor {} is a {} (expected a tuple)", label_, what, kind_name(v));
    Shape out;
    for (const auto& e : v.tupleRef().elements) out.push_back(expect_int(e, what));
    return out;
  }
  std::string latin1_bytes(const std::string& utf8) {
    std::string out;
    for (size_t i = 0; i < utf8.size(); ++i) {
      auto c = static_cast<unsigned char>(utf8[i]);
      if (c < 0x80) {
        out.push_back(static_cast<char>(c));
      } else {
        TL_CHECK((c == 0xc2 || c == 0xc3) && i + 1 < utf8.size(), FormatError,
                 "{}: _codecs.encode text is not latin-1", label_);
        out.push_back(static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(utf8[++i]) & 0x3f)));
      }
    }
    return out;
  }

  // --- teardown ------------------------------------------------------------------------------
  // Empties, iteratively, every container reachable from the stack and memo except
  // those in `keep` (the returned result's), so releasing them cannot recurse deeply
  // and reference cycles are broken.
  void dismantle_leftovers(const std::unordered_set<const RefCounted*>& keep) {
    std::vector<IValue> work;
    for (auto& v : stack_) work.push_back(std::move(v));
    for (auto& v : in_flight_) work.push_back(std::move(v));
    for (auto& v : replaced_) work.push_back(std::move(v));
    memo_.drain([&](IValue v) { work.push_back(std::move(v)); });
    stack_.clear();
    in_flight_.clear();
    replaced_.clear();
    dismantle(std::move(work), keep);
  }

 private:
  ByteReader in_;
  const UnpicklerOptions& options_;
  std::string label_;
  std::vector<IValue> stack_;
  // Values the current opcode has popped: if it throws before placing them, they are
  // out of the stack's and memo's reach, and one that contains itself would leak.
  std::vector<IValue> in_flight_;
  // Memo entries overwritten by a later PUT, and containers earlier opcodes popped, for
  // the same reason.
  std::vector<IValue> replaced_;
  std::vector<size_t> marks_;
  Memo memo_;
  // Globals the class resolver answered, and instances of them awaiting BUILD.
  std::unordered_map<const PyObjectImpl*, External> external_;
  std::unordered_map<const PyObjectImpl*, Pending> pending_;
  // Note [Keys are checked as they are built]; sets' hash indexes (add_to_set).
  std::unordered_map<const RefCounted*, KeyInfo> key_info_;
  struct SetIndex {
    IValue keep;
    std::unordered_set<IValue, SetItemHash, IValueKeyEqual> items;
  };
  std::unordered_map<const RefCounted*, SetIndex> set_index_;
  size_t objects_ = 0;
  size_t op_at_ = 0;
};

}  // namespace

Tensor checked_storage_view(const Tensor& flat, int64_t offset, Shape sizes, Shape strides,
                            const std::string& label) {
  TL_CHECK(sizes.size() == strides.size(), FormatError, "{}: tensor with {} sizes but {} strides",
           label, sizes.size(), strides.size());
  TL_CHECK(offset >= 0, FormatError, "{}: negative storage offset {}", label, offset);
  const uint64_t numel_storage = static_cast<uint64_t>(flat.numel());
  // The largest element index the view touches, computed without overflow.
  uint64_t last = static_cast<uint64_t>(offset);
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    TL_CHECK(sizes[i] >= 0 && strides[i] >= 0, FormatError, "{}: negative size or stride in {} / {}",
             label, shape_repr(sizes), shape_repr(strides));
    if (sizes[i] == 0) empty = true;
    uint64_t span;
    TL_CHECK(!__builtin_mul_overflow(static_cast<uint64_t>(sizes[i] == 0 ? 0 : sizes[i] - 1),
                                     static_cast<uint64_t>(strides[i]), &span) &&
                 !__builtin_add_overflow(last, span, &last),
             FormatError, "{}: tensor size {} with stride {} overflows", label, shape_repr(sizes),
             shape_repr(strides));
  }
  TL_CHECK(empty || last < numel_storage, FormatError,
           "{}: tensor (size {}, stride {}, offset {}) reaches element {} of a storage with {} elements",
           label, shape_repr(sizes), shape_repr(strides), offset, last, numel_storage);
  int64_t total = 1;
  for (int64_t s : sizes) {
    TL_CHECK(!__builtin_mul_overflow(total, s, &total), FormatError, "{}: tensor size {} overflows",
             label, shape_repr(sizes));
  }
  return Tensor(make_intrusive<TensorImpl>(flat.storage(), flat.storage_offset() + offset,
                                           std::move(sizes), std::move(strides), flat.dtype()));
}

IValue unpickle(std::span<const std::byte> data, const UnpicklerOptions& options, const std::string& label) {
  return Unpickler(data, options, label).run();
}

}  // namespace torchlet::pickle
