// Walks over the values an unpickling built, without recursion (a hostile pickle can
// nest containers a million deep): a container's children, the depth and cycle check
// of a result, and the teardown that empties containers so releasing them cannot
// recurse or leak a cycle.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include <torchlet/ivalue.h>

namespace torchlet::pickle {

// The kinds that hold other values: only they can nest or form cycles, so the walks
// track only them (a state_dict's tensors and strings are most of its values). Script
// objects a class resolver built count too: their attributes hold values the pickle
// built (a memoized list inside a module must survive the teardown).
inline bool is_container(const IValue& v) {
  return v.isList() || v.isTuple() || v.isDict() || v.isPyObject() || v.isObject();
}

// Calls fn on each child of a container value (dict keys and values, an OrderedDict's
// instance state, an inert record's arguments, state and items).
template <typename Fn>
void for_each_child(const IValue& v, Fn&& fn) {
  switch (v.tag()) {
    case IValueTag::List: for (const auto& e : v.listRef().elements) fn(e); break;
    case IValueTag::Tuple: for (const auto& e : v.tupleRef().elements) fn(e); break;
    case IValueTag::Dict:
      for (const auto& [k, e] : v.dictRef().items()) fn(k), fn(e);
      if (auto* s = v.dictRef().py_state()) fn(*s);
      break;
    case IValueTag::Object: for (const auto& e : v.objectRef().slots) fn(e); break;
    case IValueTag::PyObject: {
      auto p = v.toPyObject();
      fn(p->args);
      fn(p->state);
      for (const auto& e : p->list_items) fn(e);
      for (const auto& [k, e] : p->dict_items) fn(k), fn(e);
      break;
    }
    default: break;
  }
}

// Depth limit and no cycles (Python can pickle a list that contains itself; nothing
// torchlet loads may, since values are refcounted and printed recursively). Returns
// the containers reachable from `root`. LimitError / UnsupportedError prefixed by `label`.
std::unordered_set<const RefCounted*> check_result(const IValue& root, size_t max_nesting,
                                                   const std::string& label);

// Empties every container reachable from `work` except those in `keep`. Children are
// found by for_each_child, the walk check_result makes, so the teardown reaches every
// edge the cycle check sees.
void dismantle(std::vector<IValue> work, const std::unordered_set<const RefCounted*>& keep);

}  // namespace torchlet::pickle
