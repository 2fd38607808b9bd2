// The unpickler's iterative value walks (value_walk.h): the result check and the
// teardown, each with an explicit stack instead of recursion.
#include "pickle/value_walk.h"

#include <unordered_map>

#include <torchlet/error.h>

namespace torchlet::pickle {

namespace {

// Releases what a container holds; the containers among it are still held by the
// teardown's work list, so nothing is freed recursively here.
void drop_children(const IValue& v) {
  switch (v.tag()) {
    case IValueTag::List: v.listRef().elements.clear(); break;
    case IValueTag::Tuple: v.tupleRef().elements.clear(); break;
    case IValueTag::Dict:
      v.dictRef().clear();
      if (auto* s = v.dictRef().py_state()) *s = IValue();
      break;
    case IValueTag::Object:
      for (auto& e : v.objectRef().slots) e = IValue();
      break;
    case IValueTag::PyObject: {
      auto p = v.toPyObject();
      p->args = IValue();
      p->state = IValue();
      p->list_items.clear();
      p->dict_items.clear();
      break;
    }
    default: break;
  }
}

}  // namespace

std::unordered_set<const RefCounted*> check_result(const IValue& root, size_t max_nesting,
                                                   const std::string& label) {
  enum class Mark : uint8_t { Active, Done };
  std::unordered_map<const RefCounted*, Mark> marks;
  struct Frame {
    IValue v;
    std::vector<IValue> children;
    size_t next = 0;
  };
  std::vector<Frame> frames;
  auto enter = [&](const IValue& v) {
    if (!is_container(v)) return;  // leaves have no children: no depth, no cycle
    const RefCounted* p = v.heapPtr();
    auto it = marks.find(p);
    if (it != marks.end()) {
      TL_CHECK(it->second == Mark::Done, UnsupportedError,
               "{}: the pickled value contains itself (a recursive structure)", label);
      return;
    }
    TL_CHECK(frames.size() < max_nesting, LimitError, "{}: values nested deeper than {}", label, max_nesting);
    marks[p] = Mark::Active;
    Frame f{v, {}, 0};
    for_each_child(v, [&](const IValue& c) { f.children.push_back(c); });
    frames.push_back(std::move(f));
  };
  enter(root);
  while (!frames.empty()) {
    Frame& f = frames.back();
    if (f.next < f.children.size()) {
      IValue c = f.children[f.next++];
      enter(c);
      continue;
    }
    marks[f.v.heapPtr()] = Mark::Done;
    frames.pop_back();
  }
  std::unordered_set<const RefCounted*> reachable;
  for (const auto& [p, m] : marks) reachable.insert(p);
  return reachable;
}

void dismantle(std::vector<IValue> work, const std::unordered_set<const RefCounted*>& keep) {
  std::unordered_set<const RefCounted*> emptied;
  while (!work.empty()) {
    IValue v = std::move(work.back());
    work.pop_back();
    if (!is_container(v) || keep.count(v.heapPtr()) || !emptied.insert(v.heapPtr()).second) continue;
    for_each_child(v, [&](const IValue& c) {
      if (is_container(c)) work.push_back(c);
    });
    drop_children(v);
  }
}

}  // namespace torchlet::pickle
