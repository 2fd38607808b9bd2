// Decoding .debug_pkl records (see debug_info.h).
#include "jit/serialization/debug_info.h"

#include <map>
#include <span>
#include <tuple>

#include <torchlet/error.h>

#include "values/type.h"
#include "pickle/unpickler.h"

namespace torchlet::jit {

std::vector<Source::OriginalSpan> decode_debug_pkl(const std::string& bytes, const std::string& where) {
  pickle::UnpicklerOptions uo;
  // The segment index lists are typed lists: torch writes them through
  // torch.jit._pickle.build_intlist([...]), torchlet's pickler through
  // restore_type_tag([...], "List[int]"). Either gives the list.
  uo.class_resolver = [&where](const std::string& m, const std::string& n) -> std::optional<pickle::ResolvedGlobal> {
    if (m != "torch.jit._pickle" || (n != "build_intlist" && n != "restore_type_tag")) return std::nullopt;
    pickle::ResolvedGlobal g;
    g.call = [&where, n](const IValue& args) -> IValue {
      const auto& a = args.tupleRef().elements;
      TL_CHECK(!a.empty() && a[0].isList(), FormatError, "{}: {} expects a list", where, n);
      IValue v = a[0];
      v.listRef().elem_type = Type::int_();
      return v;
    };
    return g;
  };
  IValue v = pickle::unpickle(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())), uo, where);
  std::vector<Source::OriginalSpan> spans;
  const auto& top = v.tupleRef().elements;
  TL_CHECK(top.size() == 3 && top[0].isString() && top[0].toStringRef() == "FORMAT_WITH_STRING_TABLE", FormatError,
           "{}: not a FORMAT_WITH_STRING_TABLE record", where);
  const auto& table = top[1].tupleRef().elements;
  std::map<std::tuple<std::vector<int64_t>, int64_t, int64_t>, std::shared_ptr<const Source>> sources;
  for (const IValue& entry : top[2].tupleRef().elements) {
    const auto& e = entry.tupleRef().elements;
    const auto& range = e.at(1).tupleRef().elements;
    const auto& src = range.at(0).tupleRef().elements;
    std::vector<int64_t> segments;
    for (const IValue& i : src.at(0).listRef().elements) segments.push_back(i.toInt());
    auto key = std::make_tuple(segments, src.at(1).toInt(), src.at(2).toInt());
    auto it = sources.find(key);
    if (it == sources.end()) {
      std::string text;
      for (int64_t i : segments) text += table.at(static_cast<size_t>(i)).toStringRef();
      const int64_t file = src.at(1).toInt();
      const int64_t line = src.at(2).toInt();
      it = sources.emplace(key, std::make_shared<Source>(std::move(text), table.at(static_cast<size_t>(file)).toStringRef(),
                                                           static_cast<size_t>(std::max<int64_t>(line, 1)))).first;
    }
    const int64_t start = range.at(1).toInt(), end = range.at(2).toInt();
    if (segments.empty() || start < 0 || end < start) {  // "no source": keep the code/ line
      spans.push_back({static_cast<size_t>(e.at(0).toInt()), nullptr, 0, 0});
      continue;
    }
    spans.push_back({static_cast<size_t>(e.at(0).toInt()), it->second, static_cast<size_t>(start), static_cast<size_t>(end)});
  }
  return spans;
}

}  // namespace torchlet::jit
