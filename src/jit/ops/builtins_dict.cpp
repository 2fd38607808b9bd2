// TorchScript's dict builtins (d[k], d[k] = v, get, setdefault, pop, popitem, update,
// keys/values/items, copy, dict(...), len, `in`, clear, del). Dicts are reference types
// that keep insertion order; keys(), values() and items() return new lists typed from
// the dict's key and value types. One adapter serves each method for every key type.
#include "jit/ops/ops_util.h"

namespace torchlet::jit::ops {
namespace {

// torch's message for a missing key: "KeyError: " and the key as print() shows it.
[[noreturn]] void key_error(const IValue& key) { TL_FAIL(IndexError, "KeyError: {}", ivalue_str(key)); }

IValue copy_dict(const DictImpl& d) {
  auto out = make_intrusive<DictImpl>(d.key_type, d.value_type);
  for (const auto& [k, v] : d.items()) out->insert_or_assign(k, v);
  return IValue(std::move(out));
}

void getitem(Stack& s) {
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = d.dictRef().find(key);
  if (!v) key_error(key);
  push(s, *v);
}
void set_item(Stack& s) {
  IValue v = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  d.dictRef().insert_or_assign(std::move(key), std::move(v));
}
void get(Stack& s) {
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = d.dictRef().find(key);
  push(s, v ? *v : IValue());
}
void get_default(Stack& s) {
  IValue dflt = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = d.dictRef().find(key);
  push(s, v ? *v : dflt);
}
void setdefault(Stack& s) {
  IValue dflt = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  if (const IValue* v = d.dictRef().find(key)) return push(s, *v);
  d.dictRef().insert_or_assign(std::move(key), dflt);
  push(s, std::move(dflt));
}
void pop_key(Stack& s) {
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = d.dictRef().find(key);
  if (!v) key_error(key);
  IValue out = *v;
  d.dictRef().erase(key);
  push(s, std::move(out));
}
void pop_default(Stack& s) {
  IValue dflt = pop(s);
  IValue key = pop(s);
  IValue d = pop(s);
  const IValue* v = d.dictRef().find(key);
  if (!v) return push(s, std::move(dflt));
  IValue out = *v;
  d.dictRef().erase(key);
  push(s, std::move(out));
}
// popitem removes and returns the first pair in insertion order: torch 1.13 does so
// (Python would take the last).
void popitem(Stack& s) {
  IValue d = pop(s);
  auto& dict = d.dictRef();
  TL_CHECK(dict.size() != 0, IndexError, "popitem(): dictionary is empty");  // torch's words
  auto [k, v] = dict.items().front();
  dict.erase(k);
  push(s, IValue::tuple({std::move(k), std::move(v)}));
}
void update(Stack& s) {
  IValue other = pop(s);
  IValue d = pop(s);
  std::vector<std::pair<IValue, IValue>> items = other.dictRef().items();  // d.update(d) is safe
  for (auto& [k, v] : items) d.dictRef().insert_or_assign(k, v);
}
void keys(Stack& s) {
  IValue d = pop(s);
  std::vector<IValue> e;
  for (const auto& kv : d.dictRef().items()) e.push_back(kv.first);
  push(s, IValue::list(std::move(e), d.dictRef().key_type));
}
void values(Stack& s) {
  IValue d = pop(s);
  std::vector<IValue> e;
  for (const auto& kv : d.dictRef().items()) e.push_back(kv.second);
  push(s, IValue::list(std::move(e), d.dictRef().value_type));
}
void items(Stack& s) {
  IValue d = pop(s);
  const auto& dict = d.dictRef();
  std::vector<IValue> e;
  for (const auto& [k, v] : dict.items()) e.push_back(IValue::tuple({k, v}));
  TypePtr t = dict.key_type && dict.value_type ? Type::tuple({dict.key_type, dict.value_type}) : nullptr;
  push(s, IValue::list(std::move(e), t));
}
void copy(Stack& s) { push(s, copy_dict(pop(s).dictRef())); }
void len(Stack& s) { push(s, static_cast<int64_t>(pop(s).dictRef().size())); }
void contains(Stack& s) {
  IValue key = pop(s);
  IValue d = pop(s);
  push(s, d.dictRef().contains(key));
}
void clear(Stack& s) { pop(s).dictRef().clear(); }
void delete_(Stack& s) {
  IValue key = pop(s);
  IValue d = pop(s);
  if (!d.dictRef().erase(key)) key_error(key);
}
// dict(): an empty Dict[str, Tensor], the type torch gives it.
void empty_dict(Stack& s) { push(s, IValue(make_intrusive<DictImpl>(Type::str_(), Type::tensor()))); }
// dict(list of (key, value) pairs).
void dict_from_pairs(Stack& s) {
  IValue list = pop(s);
  const ListImpl& l = list.listRef();
  TypePtr kt, vt;
  if (l.elem_type && l.elem_type->kind() == TypeKind::Tuple && l.elem_type->contained().size() == 2) {
    kt = l.elem_type->contained()[0];
    vt = l.elem_type->contained()[1];
  }
  auto out = make_intrusive<DictImpl>(kt, vt);
  for (const auto& e : l.elements) {
    const auto& pair = e.tupleRef().elements;
    TL_CHECK(pair.size() == 2, ValueError, "dictionary update sequence element has length {}; 2 is required",
             pair.size());
    out->insert_or_assign(pair[0], pair[1]);
  }
  push(s, IValue(std::move(out)));
}

}  // namespace

static RegisterOps reg({
    {"aten::__getitem__.Dict_Tensor(Dict(Tensor, t) self, Tensor key) -> t(*)", getitem},
    {"aten::__getitem__.Dict_bool(Dict(bool, t) self, bool key) -> t(*)", getitem},
    {"aten::__getitem__.Dict_complex(Dict(complex, t) self, complex key) -> t(*)", getitem},
    {"aten::__getitem__.Dict_float(Dict(float, t) self, float key) -> t(*)", getitem},
    {"aten::__getitem__.Dict_int(Dict(int, t) self, int key) -> t(*)", getitem},
    {"aten::__getitem__.Dict_str(Dict(str, t) self, str key) -> t(*)", getitem},
    {"aten::_set_item.Tensor(Dict(Tensor, t)(a!) l, Tensor(b -> *) idx, t(c -> *) v) -> ()", set_item},
    {"aten::_set_item.bool(Dict(bool, t)(a!) l, bool(b -> *) idx, t(c -> *) v) -> ()", set_item},
    {"aten::_set_item.complex(Dict(complex, t)(a!) l, complex(b -> *) idx, t(c -> *) v) -> ()", set_item},
    {"aten::_set_item.float(Dict(float, t)(a!) l, float(b -> *) idx, t(c -> *) v) -> ()", set_item},
    {"aten::_set_item.int(Dict(int, t)(a!) l, int(b -> *) idx, t(c -> *) v) -> ()", set_item},
    {"aten::_set_item.str(Dict(str, t)(a!) l, str(b -> *) idx, t(c -> *) v) -> ()", set_item},
    {"aten::get.Tensor(Dict(Tensor, t) self, Tensor key) -> t(*)?", get},
    {"aten::get.bool(Dict(bool, t) self, bool key) -> t(*)?", get},
    {"aten::get.complex(Dict(complex, t) self, complex key) -> t(*)?", get},
    {"aten::get.float(Dict(float, t) self, float key) -> t(*)?", get},
    {"aten::get.int(Dict(int, t) self, int key) -> t(*)?", get},
    {"aten::get.str(Dict(str, t) self, str key) -> t(*)?", get},
    {"aten::get.default_Tensor(Dict(Tensor, t) self, Tensor key, t default_value) -> t(*)", get_default},
    {"aten::get.default_bool(Dict(bool, t) self, bool key, t default_value) -> t(*)", get_default},
    {"aten::get.default_complex(Dict(complex, t) self, complex key, t default_value) -> t(*)", get_default},
    {"aten::get.default_float(Dict(float, t) self, float key, t default_value) -> t(*)", get_default},
    {"aten::get.default_int(Dict(int, t) self, int key, t default_value) -> t(*)", get_default},
    {"aten::get.default_str(Dict(str, t) self, str key, t default_value) -> t(*)", get_default},
    {"aten::setdefault.Tensor(Dict(Tensor, t)(a!) self, Tensor(b -> *) key, t(c -> *) default_value) -> t(*)", setdefault},
    {"aten::setdefault.bool(Dict(bool, t)(a!) self, bool(b -> *) key, t(c -> *) default_value) -> t(*)", setdefault},
    {"aten::setdefault.complex(Dict(complex, t)(a!) self, complex(b -> *) key, t(c -> *) default_value) -> t(*)", setdefault},
    {"aten::setdefault.float(Dict(float, t)(a!) self, float(b -> *) key, t(c -> *) default_value) -> t(*)", setdefault},
    {"aten::setdefault.int(Dict(int, t)(a!) self, int(b -> *) key, t(c -> *) default_value) -> t(*)", setdefault},
    {"aten::setdefault.str(Dict(str, t)(a!) self, str(b -> *) key, t(c -> *) default_value) -> t(*)", setdefault},
    {"aten::pop.Dict_Tensor(Dict(Tensor, t)(a!) self, Tensor key) -> t(*)", pop_key},
    {"aten::pop.Dict_bool(Dict(bool, t)(a!) self, bool key) -> t(*)", pop_key},
    {"aten::pop.Dict_complex(Dict(complex, t)(a!) self, complex key) -> t(*)", pop_key},
    {"aten::pop.Dict_float(Dict(float, t)(a!) self, float key) -> t(*)", pop_key},
    {"aten::pop.Dict_int(Dict(int, t)(a!) self, int key) -> t(*)", pop_key},
    {"aten::pop.Dict_str(Dict(str, t)(a!) self, str key) -> t(*)", pop_key},
    {"aten::pop.Dict_default_Tensor(Dict(Tensor, t)(a!) self, Tensor key, t default_value) -> t(*)", pop_default},
    {"aten::pop.Dict_default_bool(Dict(bool, t)(a!) self, bool key, t default_value) -> t(*)", pop_default},
    {"aten::pop.Dict_default_complex(Dict(complex, t)(a!) self, complex key, t default_value) -> t(*)", pop_default},
    {"aten::pop.Dict_default_float(Dict(float, t)(a!) self, float key, t default_value) -> t(*)", pop_default},
    {"aten::pop.Dict_default_int(Dict(int, t)(a!) self, int key, t default_value) -> t(*)", pop_default},
    {"aten::pop.Dict_default_str(Dict(str, t)(a!) self, str key, t default_value) -> t(*)", pop_default},
    {"aten::popitem.Tensor(Dict(Tensor, t)(a!) self) -> ((Tensor, t))", popitem},
    {"aten::popitem.bool(Dict(bool, t)(a!) self) -> ((bool, t))", popitem},
    {"aten::popitem.complex(Dict(complex, t)(a!) self) -> ((complex, t))", popitem},
    {"aten::popitem.float(Dict(float, t)(a!) self) -> ((float, t))", popitem},
    {"aten::popitem.int(Dict(int, t)(a!) self) -> ((int, t))", popitem},
    {"aten::popitem.str(Dict(str, t)(a!) self) -> ((str, t))", popitem},
    {"aten::update.Tensor(Dict(Tensor, t)(a!) self, Dict(Tensor, t)(a!) to_add) -> ()", update},
    {"aten::update.bool(Dict(bool, t)(a!) self, Dict(bool, t)(a!) to_add) -> ()", update},
    {"aten::update.complex(Dict(complex, t)(a!) self, Dict(complex, t)(a!) to_add) -> ()", update},
    {"aten::update.float(Dict(float, t)(a!) self, Dict(float, t)(a!) to_add) -> ()", update},
    {"aten::update.int(Dict(int, t)(a!) self, Dict(int, t)(a!) to_add) -> ()", update},
    {"aten::update.str(Dict(str, t)(a!) self, Dict(str, t)(a!) to_add) -> ()", update},
    {"aten::keys.Tensor(Dict(Tensor, t) self) -> Tensor[](*)", keys},
    {"aten::keys.bool(Dict(bool, t) self) -> bool[](*)", keys},
    {"aten::keys.complex(Dict(complex, t) self) -> complex[](*)", keys},
    {"aten::keys.float(Dict(float, t) self) -> float[](*)", keys},
    {"aten::keys.int(Dict(int, t) self) -> int[](*)", keys},
    {"aten::keys.str(Dict(str, t) self) -> str[](*)", keys},
    {"aten::values.Tensor(Dict(Tensor, t) self) -> t[](*)", values},
    {"aten::values.bool(Dict(bool, t) self) -> t[](*)", values},
    {"aten::values.complex(Dict(complex, t) self) -> t[](*)", values},
    {"aten::values.float(Dict(float, t) self) -> t[](*)", values},
    {"aten::values.int(Dict(int, t) self) -> t[](*)", values},
    {"aten::values.str(Dict(str, t) self) -> t[](*)", values},
    {"aten::items.Tensor(Dict(Tensor, t) self) -> ((Tensor, t)[])", items},
    {"aten::items.bool(Dict(bool, t) self) -> ((bool, t)[])", items},
    {"aten::items.complex(Dict(complex, t) self) -> ((complex, t)[])", items},
    {"aten::items.float(Dict(float, t) self) -> ((float, t)[])", items},
    {"aten::items.int(Dict(int, t) self) -> ((int, t)[])", items},
    {"aten::items.str(Dict(str, t) self) -> ((str, t)[])", items},
    {"aten::copy.Dict_Tensor(Dict(Tensor, t)(a) self) -> Dict(Tensor, t)", copy},
    {"aten::copy.Dict_bool(Dict(bool, t)(a) self) -> Dict(bool, t)", copy},
    {"aten::copy.Dict_complex(Dict(complex, t)(a) self) -> Dict(complex, t)", copy},
    {"aten::copy.Dict_float(Dict(float, t)(a) self) -> Dict(float, t)", copy},
    {"aten::copy.Dict_int(Dict(int, t)(a) self) -> Dict(int, t)", copy},
    {"aten::copy.Dict_str(Dict(str, t)(a) self) -> Dict(str, t)", copy},
    {"aten::dict.Dict_Tensor(Dict(Tensor, t)(a) self) -> Dict(Tensor, t)", copy},
    {"aten::dict.Dict_bool(Dict(bool, t)(a) self) -> Dict(bool, t)", copy},
    {"aten::dict.Dict_complex(Dict(complex, t)(a) self) -> Dict(complex, t)", copy},
    {"aten::dict.Dict_float(Dict(float, t)(a) self) -> Dict(float, t)", copy},
    {"aten::dict.Dict_int(Dict(int, t)(a) self) -> Dict(int, t)", copy},
    {"aten::dict.Dict_str(Dict(str, t)(a) self) -> Dict(str, t)", copy},
    {"aten::len.Dict_Tensor(Dict(Tensor, t) self) -> int", len},
    {"aten::len.Dict_bool(Dict(bool, t) self) -> int", len},
    {"aten::len.Dict_complex(Dict(complex, t) self) -> int", len},
    {"aten::len.Dict_float(Dict(float, t) self) -> int", len},
    {"aten::len.Dict_int(Dict(int, t) self) -> int", len},
    {"aten::len.Dict_str(Dict(str, t) self) -> int", len},
    {"aten::__contains__.Tensor(Dict(Tensor, t) dict, Tensor key) -> bool", contains},
    {"aten::__contains__.bool(Dict(bool, t) dict, bool key) -> bool", contains},
    {"aten::__contains__.complex(Dict(complex, t) dict, complex key) -> bool", contains},
    {"aten::__contains__.float(Dict(float, t) dict, float key) -> bool", contains},
    {"aten::__contains__.int(Dict(int, t) dict, int key) -> bool", contains},
    {"aten::__contains__.str(Dict(str, t) dict, str key) -> bool", contains},
    {"aten::clear.Tensor(Dict(Tensor, t)(a!) self) -> ()", clear},
    {"aten::clear.bool(Dict(bool, t)(a!) self) -> ()", clear},
    {"aten::clear.complex(Dict(complex, t)(a!) self) -> ()", clear},
    {"aten::clear.float(Dict(float, t)(a!) self) -> ()", clear},
    {"aten::clear.int(Dict(int, t)(a!) self) -> ()", clear},
    {"aten::clear.str(Dict(str, t)(a!) self) -> ()", clear},
    {"aten::Delete.Dict_Tensor(Dict(Tensor, t)(a!) self, Tensor key) -> ()", delete_},
    {"aten::Delete.Dict_bool(Dict(bool, t)(a!) self, bool key) -> ()", delete_},
    {"aten::Delete.Dict_complex(Dict(complex, t)(a!) self, complex key) -> ()", delete_},
    {"aten::Delete.Dict_float(Dict(float, t)(a!) self, float key) -> ()", delete_},
    {"aten::Delete.Dict_int(Dict(int, t)(a!) self, int key) -> ()", delete_},
    {"aten::Delete.Dict_str(Dict(str, t)(a!) self, str key) -> ()", delete_},
    {"aten::dict() -> Dict(str, Tensor)", empty_dict},
    {"aten::dict.Tensor((Tensor, tVal)[] inputs) -> Dict(Tensor, tVal)", dict_from_pairs},
    {"aten::dict.bool((bool, tVal)[] inputs) -> Dict(bool, tVal)", dict_from_pairs},
    {"aten::dict.complex((complex, tVal)[] inputs) -> Dict(complex, tVal)", dict_from_pairs},
    {"aten::dict.float((float, tVal)[] inputs) -> Dict(float, tVal)", dict_from_pairs},
    {"aten::dict.int((int, tVal)[] inputs) -> Dict(int, tVal)", dict_from_pairs},
    {"aten::dict.str((str, tVal)[] inputs) -> Dict(str, tVal)", dict_from_pairs},

});

}  // namespace torchlet::jit::ops
