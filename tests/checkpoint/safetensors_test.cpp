// safetensors from C++: every dtype torchlet has round-trips in eager and mapped mode,
// shapes incl. 0-d and empty, __metadata__, the official writer's layout byte for byte
// (its own test vectors), header inspection, and every hostile header the official
// reader refuses, each with its message (which never carries a raw control byte).
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <torchlet/error.h>
#include <torchlet/safetensors.h>
#include <torchlet/tensor.h>

namespace torchlet {
namespace {

namespace fs = std::filesystem;

fs::path temp(const std::string& name) { return fs::temp_directory_path() / ("torchlet_st_" + name); }

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_all(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string le64(uint64_t n) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  return s;
}

// A file of the given header text (no padding added) and `data_bytes` zero bytes.
std::string file_with(const std::string& header, size_t data_bytes) {
  return le64(header.size()) + header + std::string(data_bytes, '\0');
}

// A tensor of `dtype` whose bytes are distinct (bools 0/1), so a misplaced byte shows.
Tensor patterned(IntList shape, DType dtype, int seed) {
  Tensor t = empty(shape, dtype);
  auto* p = static_cast<unsigned char*>(t.data_ptr());
  for (size_t i = 0; i < t.nbytes(); ++i)
    p[i] = dtype == DType::Bool ? static_cast<unsigned char>((i + seed) % 2) : static_cast<unsigned char>(i * 7 + seed);
  return t;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || !(a.sizes() == b.sizes()) || a.nbytes() != b.nbytes()) return false;
  if (a.nbytes() == 0) return true;
  Tensor ca = a.contiguous(), cb = b.contiguous();
  return std::memcmp(ca.data_ptr(), cb.data_ptr(), a.nbytes()) == 0;
}

const std::vector<DType> kLoadable = {DType::Bool, DType::Byte, DType::Char, DType::Short, DType::Int, DType::Long,
                                      DType::Half, DType::BFloat16, DType::Float, DType::Double, DType::ComplexFloat};

TEST(Safetensors, EveryDtypeAndShapeRoundTripsEagerAndMapped) {
  std::vector<std::pair<std::string, Tensor>> tensors;
  int seed = 0;
  for (DType d : kLoadable) {
    const std::string n(dtype_name(d));
    tensors.emplace_back(n + ".matrix", patterned({3, 5}, d, seed++));
    tensors.emplace_back(n + ".scalar", patterned({}, d, seed++));  // 0-d
    tensors.emplace_back(n + ".empty", patterned({2, 0, 3}, d, seed++));
    tensors.emplace_back(n + ".odd", patterned({7}, d, seed++));
  }
  const fs::path p = temp("dtypes.safetensors");
  save_safetensors(tensors, p.string());
  for (LoadMode mode : {LoadMode::Eager, LoadMode::Mapped, LoadMode::Metadata}) {
    SafetensorsFile f = load_safetensors(p.string(), mode);
    ASSERT_EQ(f.tensors.size(), tensors.size());
    for (const auto& [name, want] : tensors) {
      const Tensor* got = f.find(name);
      ASSERT_NE(got, nullptr) << name;
      EXPECT_TRUE(same_bytes(*got, want)) << name;
      EXPECT_TRUE(got->is_contiguous()) << name;
      if (want.nbytes() == 0) continue;
      EXPECT_EQ(got->storage()->is_owned(), mode == LoadMode::Eager) << name;  // mapped ones alias the file
      EXPECT_EQ(reinterpret_cast<uintptr_t>(got->data_ptr()) % got->element_size(), 0u) << name;
    }
  }
  fs::remove(p);
}

TEST(Safetensors, MetadataRoundTripsAndMappedWritesNeverReachTheFile) {
  const std::map<std::string, std::string> meta = {{"format", "pt"}, {"note", "line\nbreak \"quoted\" \u00e9"}};
  const fs::path p = temp("meta.safetensors");
  save_safetensors({{"w", arange(6, DType::Float).reshape({2, 3})}}, p.string(), meta);
  EXPECT_EQ(read_safetensors_header(p.string()).metadata, meta);
  SafetensorsFile m = load_safetensors(p.string(), LoadMode::Mapped);
  EXPECT_EQ(m.metadata, meta);
  m.tensors[0].second.fill_(-1);  // copy-on-write pages
  EXPECT_EQ(load_safetensors(p.string()).tensors[0].second.at({1, 2}).to_double(), 5.0);
  fs::remove(p);
}

// The official writer's own test vectors (safetensors/src/tensor.rs, test_serialization
// and test_empty): the same bytes, header padding included.
TEST(Safetensors, LayoutMatchesTheOfficialWritersTestVectors) {
  const fs::path p = temp("vector.safetensors");
  save_safetensors({{"attn.0", arange(6, DType::Float).reshape({1, 2, 3})}}, p.string());
  const std::string header = R"({"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}})";
  std::string want = le64(64) + header;
  for (float v : {0.f, 1.f, 2.f, 3.f, 4.f, 5.f}) want.append(reinterpret_cast<const char*>(&v), 4);
  EXPECT_EQ(read_all(p), want);
  save_safetensors({}, p.string());
  EXPECT_EQ(read_all(p), le64(8) + "{}      ");
  save_safetensors({}, p.string(), {{"framework", "pt"}});
  EXPECT_EQ(read_all(p), le64(40) + R"({"__metadata__":{"framework":"pt"}})" + "     ");
  fs::remove(p);
}

// Sorted by dtype, widest alignment first in the official enum order, then by name;
// the header lists them in that (data) order after __metadata__.
TEST(Safetensors, TensorsAreOrderedAsTheOfficialWriterOrdersThem) {
  const fs::path p = temp("order.safetensors");
  save_safetensors({{"b", zeros({1}, DType::Float)},
                    {"a", zeros({1}, DType::Float)},
                    {"z", zeros({1}, DType::Bool)},
                    {"h", zeros({1}, DType::Half)},
                    {"l", zeros({1}, DType::Long)},
                    {"c", zeros({1}, DType::ComplexFloat)},
                    {"d", zeros({1}, DType::Double)}},
                   p.string());
  std::vector<std::string> names;
  for (const auto& t : read_safetensors_header(p.string()).tensors) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"l", "d", "c", "a", "b", "h", "z"}));
  const std::string bytes = read_all(p);
  EXPECT_EQ(bytes.find(R"("l":{"dtype":"I64")"), 9u);  // first after the opening brace
  uint64_t n;
  std::memcpy(&n, bytes.data(), 8);
  EXPECT_EQ(n % 8, 0u);
  const std::string header = bytes.substr(8, n);  // padded with spaces only
  EXPECT_EQ(header.find_last_not_of(' '), header.rfind('}'));
  fs::remove(p);
}

TEST(Safetensors, ViewsAndSharedStoragesAreWrittenAsTheirOwnValues) {
  Tensor base = arange(12, DType::Int).reshape({3, 4});
  const fs::path p = temp("views.safetensors");
  save_safetensors({{"base", base}, {"t", base.t()}, {"row", base.select(0, 1)}}, p.string());
  SafetensorsFile f = load_safetensors(p.string());
  EXPECT_TRUE(same_bytes(*f.find("t"), base.t().contiguous()));
  EXPECT_TRUE(same_bytes(*f.find("row"), base.select(0, 1).contiguous()));
  EXPECT_FALSE(f.find("t")->shares_storage(*f.find("base")));
  fs::remove(p);
}

TEST(Safetensors, HeaderInspectionListsEveryOfficialDtypeWithoutLoading) {
  // U16 and F8_E4M3 are valid safetensors that torchlet's tensors cannot hold.
  const std::string header =
      R"({"__metadata__":{"k":"v"},"a":{"dtype":"U16","shape":[2],"data_offsets":[0,4]},)"
      R"("b":{"dtype":"F8_E4M3","shape":[3],"data_offsets":[4,7]},"c":{"dtype":"F32","shape":[],"data_offsets":[7,11]}})";
  const fs::path p = temp("inspect.safetensors");
  write_all(p, file_with(header, 11));
  SafetensorsHeader h = read_safetensors_header(p.string());
  ASSERT_EQ(h.tensors.size(), 3u);
  EXPECT_EQ(h.header_bytes, header.size());
  EXPECT_EQ(h.data_start, 8 + header.size());
  EXPECT_EQ(h.data_bytes, 11u);
  EXPECT_EQ(h.tensors[0].dtype_name, "U16");
  EXPECT_FALSE(h.tensors[0].dtype.has_value());
  EXPECT_EQ(h.tensors[1].begin, 4u);
  EXPECT_EQ(h.tensors[1].end, 7u);
  EXPECT_EQ(h.tensors[2].dtype, DType::Float);
  EXPECT_TRUE(h.tensors[2].shape.empty());
  EXPECT_EQ(h.metadata.at("k"), "v");
  try {
    load_safetensors(p.string());
    ADD_FAILURE() << "U16 loaded";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 'a' has dtype U16"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(looks_like_safetensors(p.string()));
  fs::remove(p);
}

// The file order is the data's order, whatever order the JSON lists the entries in.
TEST(Safetensors, LoadGivesTensorsInDataOrder) {
  const std::string header = R"({"second":{"dtype":"U8","shape":[1],"data_offsets":[1,2]},)"
                             R"("first":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"extra":{"dtype":"U8",)"
                             R"("shape":[0],"data_offsets":[2,2],"ignored":{"nested":[1,{"x":null}]}}})";
  const fs::path p = temp("order_in.safetensors");
  write_all(p, le64(header.size()) + header + "\x05\x09");
  SafetensorsFile f = load_safetensors(p.string());
  ASSERT_EQ(f.tensors.size(), 3u);
  EXPECT_EQ(f.tensors[0].first, "first");
  EXPECT_EQ(f.tensors[1].first, "second");
  EXPECT_EQ(f.tensors[1].second.at({0}).to_int(), 9);
  fs::remove(p);
}

// No official writer leaves the data unaligned, but the format allows any header length:
// a mapped load then copies the tensor rather than hand out a misaligned pointer.
TEST(Safetensors, UnalignedDataIsCopiedInMappedMode) {
  const std::string header = R"({"f":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";  // 57 bytes
  ASSERT_NE((8 + header.size()) % 4, 0u);
  std::string data(8, '\0');
  const float values[2] = {1.5f, -2.0f};
  std::memcpy(data.data(), values, 8);
  const fs::path p = temp("unaligned.safetensors");
  write_all(p, le64(header.size()) + header + data);
  SafetensorsFile f = load_safetensors(p.string(), LoadMode::Mapped);
  const Tensor& t = f.tensors.at(0).second;
  EXPECT_TRUE(t.storage()->is_owned());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % 4, 0u);
  EXPECT_EQ(t.at({1}).to_double(), -2.0);
  fs::remove(p);
}

struct Hostile {
  const char* what;
  std::string bytes;
  ErrorKind kind;
  const char* message;  // a part of the expected message
};

std::string deep(size_t levels) {
  return R"({"a":{"dtype":"U8","shape":[0],"data_offsets":[0,0],"x":)" + std::string(levels, '[') +
         std::string(levels, ']') + "}}";
}

TEST(Safetensors, HostileHeadersAreRefusedWithClearMessages) {
  const std::string esc = "\x1b[31mred\x07";     // raw: invalid inside JSON strings
  const std::string json_esc = "\\u001b[31mred\\u0007";  // the same bytes, JSON-escaped
  const std::vector<Hostile> cases = {
      {"shorter than the length field", "\x05\x00\x00", ErrorKind::FormatError, "shorter than the 8-byte header length"},
      {"length past the file", le64(1000) + "{}", ErrorKind::FormatError, "header length 1000 runs past the end"},
      {"length huge", le64(uint64_t{1} << 62) + "{}", ErrorKind::LimitError, "over the 100000000-byte limit"},
      {"length just over the limit", le64(100'000'001) + "{}", ErrorKind::LimitError, "over the 100000000-byte limit"},
      {"invalid JSON", file_with(R"({"a":{"dtype":)", 0), ErrorKind::FormatError, "not valid JSON"},
      {"invalid JSON with escapes", file_with("{\"" + esc + "\" " + esc, 0), ErrorKind::FormatError, "not valid JSON"},
      {"trailing garbage", file_with("{} x", 0), ErrorKind::FormatError, "not valid JSON"},
      {"not an object", file_with("[1]", 0), ErrorKind::FormatError, "does not start with '{'"},
      {"invalid UTF-8", file_with("{\"\xff\":1}", 0), ErrorKind::FormatError, "not valid UTF-8"},
      {"deep nesting", file_with(deep(100000), 0), ErrorKind::LimitError, "deeper than 64 levels"},
      {"overlap",
       file_with(R"({"a":{"dtype":"U8","shape":[8],"data_offsets":[0,8]},"b":{"dtype":"U8","shape":[8],"data_offsets":[4,12]}})", 12),
       ErrorKind::FormatError, "tensor 'b': data_offsets [4, 12] overlap the previous tensor's end (byte 8)"},
      {"gap",
       file_with(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[4],"data_offsets":[8,12]}})", 12),
       ErrorKind::FormatError, "leave a gap after the previous tensor's end (byte 4)"},
      {"not starting at 0", file_with(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}})", 6),
       ErrorKind::FormatError, "leave a gap"},
      {"past the end", file_with(R"({"a":{"dtype":"F32","shape":[250],"data_offsets":[0,1000]}})", 24),
       ErrorKind::FormatError, "run past the end of the data buffer (24 bytes)"},
      {"end before begin", file_with(R"({"a":{"dtype":"U8","shape":[0],"data_offsets":[4,0]}})", 4),
       ErrorKind::FormatError, "end before they begin"},
      {"byte count", file_with(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", 4), ErrorKind::FormatError,
       "F32 [2] needs 8 bytes but its data_offsets [0, 4] hold 4"},
      {"shape overflows", file_with(R"({"a":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,0]}})", 0),
       ErrorKind::FormatError, "overflows"},
      {"data not covered", file_with(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", 5),
       ErrorKind::FormatError, "cover 2 of the data buffer's 5 bytes"},
      {"unknown dtype", file_with(R"({"a":{"dtype":"Q4)" + json_esc + R"(","shape":[0],"data_offsets":[0,0]}})", 0),
       ErrorKind::FormatError, "unknown safetensors dtype 'Q4\\x1b[31mred\\x07'"},
      {"unsupported dtype", file_with(R"({"a":{"dtype":"U64","shape":[1],"data_offsets":[0,8]}})", 8),
       ErrorKind::UnsupportedError, "has dtype U64"},
      {"duplicate names",
       file_with("{\"" + json_esc + R"(":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},")" + json_esc + "\":{}}", 0),
       ErrorKind::FormatError, "names tensor '\\x1b[31mred\\x07' twice"},
      {"duplicate field", file_with(R"({"a":{"dtype":"U8","dtype":"U8","shape":[0],"data_offsets":[0,0]}})", 0),
       ErrorKind::FormatError, "tensor 'a' has two dtype fields"},
      {"entry not an object", file_with(R"({"a":3})", 0), ErrorKind::FormatError, "entry 'a' is a number, not an object"},
      {"entry an array", file_with(R"({"a":[]})", 0), ErrorKind::FormatError, "entry 'a' is an array, not an object"},
      {"metadata not strings", file_with(R"({"__metadata__":{"k":1}})", 0), ErrorKind::FormatError,
       "__metadata__['k'] is a number, not a string"},
      {"metadata not an object", file_with(R"({"__metadata__":"x"})", 0), ErrorKind::FormatError,
       "__metadata__ is a string, not an object"},
      {"negative dimension", file_with(R"({"a":{"dtype":"U8","shape":[-1],"data_offsets":[0,0]}})", 0),
       ErrorKind::FormatError, "holds a negative number"},
      {"fractional dimension", file_with(R"({"a":{"dtype":"U8","shape":[1.5],"data_offsets":[0,1]}})", 1),
       ErrorKind::FormatError, "not an integer"},
      {"three offsets", file_with(R"({"a":{"dtype":"U8","shape":[0],"data_offsets":[0,0,0]}})", 0),
       ErrorKind::FormatError, "hold more than 2 numbers"},
      {"one offset", file_with(R"({"a":{"dtype":"U8","shape":[0],"data_offsets":[0]}})", 0), ErrorKind::FormatError,
       "hold 1 numbers, not 2"},
      {"missing field", file_with(R"({"a":{"shape":[0],"data_offsets":[0,0]}})", 0), ErrorKind::FormatError,
       "tensor 'a' has no dtype"},
      {"dtype not a string", file_with(R"({"a":{"dtype":7,"shape":[0],"data_offsets":[0,0]}})", 0),
       ErrorKind::FormatError, "field 'dtype' of tensor 'a' is a number, not a string"},
      {"dimension past int64", file_with(R"({"a":{"dtype":"U8","shape":[18446744073709551615],"data_offsets":[0,0]}})", 0),
       ErrorKind::LimitError, "larger than torchlet's sizes hold"},
      {"65 dimensions",
       file_with(R"({"a":{"dtype":"U8","shape":[1)" + [] { std::string s; for (int i = 0; i < 64; ++i) s += ",1"; return s; }() +
                     R"(],"data_offsets":[0,1]}})", 1),
       ErrorKind::LimitError, "more than 64 dimensions"},
  };
  const fs::path p = temp("hostile.safetensors");
  for (const Hostile& c : cases) {
    SCOPED_TRACE(c.what);
    write_all(p, c.bytes);
    for (int entry = 0; entry < 2; ++entry) {
      try {
        if (entry == 0) {
          (void)load_safetensors(p.string(), LoadMode::Mapped);
        } else if (c.kind != ErrorKind::UnsupportedError) {
          (void)read_safetensors_header(p.string());
        } else {
          continue;  // the header itself is valid
        }
        ADD_FAILURE() << "accepted";
      } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(e.kind(), c.kind) << msg;
        EXPECT_NE(msg.find(c.message), std::string::npos) << msg;
        EXPECT_NE(msg.find(p.string()), std::string::npos) << "names the file: " << msg;
        for (unsigned char ch : msg) EXPECT_FALSE(ch < 0x20 || ch == 0x7f) << "raw control byte in: " << msg;
      }
    }
  }
  fs::remove(p);
}

TEST(Safetensors, SaveRefusesWhatTheFormatCannotHoldAndLeavesNoFile) {
  const fs::path p = temp("refused.safetensors");
  fs::remove(p);
  Tensor t = zeros({2});
  EXPECT_THROW(save_safetensors({{"a", t}, {"a", t}}, p.string()), ValueError);
  EXPECT_THROW(save_safetensors({{"__metadata__", t}}, p.string()), ValueError);
  EXPECT_THROW(save_safetensors({{"bad\xff", t}}, p.string()), ValueError);
  EXPECT_THROW(save_safetensors({{"c", zeros({2}, DType::ComplexDouble)}}, p.string()), UnsupportedError);
  EXPECT_THROW(save_safetensors({{"a", t}}, p.string(), {{"k", "\xc3"}}), ValueError);
  EXPECT_FALSE(fs::exists(p));
  // A failed save over an existing file keeps the old bytes.
  save_safetensors({{"a", t}}, p.string());
  const std::string before = read_all(p);
  EXPECT_THROW(save_safetensors({{"a", t}, {"a", t}}, p.string()), ValueError);
  EXPECT_EQ(read_all(p), before);
  for (const auto& e : fs::directory_iterator(p.parent_path()))
    EXPECT_EQ(e.path().filename().string().find("torchlet_st_refused.safetensors.tmp"), std::string::npos);
  fs::remove(p);
}

TEST(Safetensors, OtherFilesDoNotLookLikeSafetensors) {
  const fs::path p = temp("other.pt");
  save(IValue(zeros({2})), p.string());
  EXPECT_FALSE(looks_like_safetensors(p.string()));
  EXPECT_FALSE(looks_like_safetensors("/nonexistent/x.safetensors"));
  EXPECT_THROW(load_safetensors(p.string()), Error);  // "PK\3\4..." reads as a huge header length
  fs::remove(p);
}

}  // namespace
}  // namespace torchlet
