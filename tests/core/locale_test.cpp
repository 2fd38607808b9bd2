// Numbers written as text (protocol 0's FLOAT, IR constants, schema defaults,
// TorchScript's float(str)) are read as Python reads them whatever C locale the host
// program has set: a program that calls setlocale(LC_ALL, "de_DE.UTF-8") must not read
// "0.5" as 0 (strtod stops at the '.' in a decimal-comma locale) or accept "1,5". And
// text torchlet prints (code for archives, IR, str()) is the same whatever C++ global
// locale the program has set: std::locale::global(std::locale("de_DE.UTF-8")) makes
// every new ostringstream print 1234567 as "1.234.567". And character classes (str.isalpha,
// names in IR text) are ASCII's in a single-byte locale too.
#include <cctype>
#include <clocale>
#include <cstdlib>
#include <filesystem>
#include <locale>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>
#include <torchlet/error.h>

#include "jit/frontend/compiler.h"
#include "values/function_schema.h"
#include "jit/ir/ir.h"
#include "jit/ir/ir_parser.h"
#include "jit/runtime/compilation_unit.h"
#include "jit/serialization/python_print.h"
#include "pickle/unpickler.h"

namespace torchlet {
namespace {

// For its scope, the process's C locale (LC_ALL) is NAME, built with localedef from the
// Debian `locales` definitions (scripts/setup.sh --test installs them) into a temporary
// folder named by LOCPATH. NAME is "de_DE.<charmap>".
class BuiltLocale {
 public:
  explicit BuiltLocale(const std::string& charmap) : name_("de_DE." + charmap) {
    dir_ = std::filesystem::temp_directory_path() / ("torchlet-locale-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    const std::string cmd = "localedef -i de_DE -f " + charmap + " '" + (dir_ / name_).string() + "' > /dev/null 2>&1";
    built_ = std::system(cmd.c_str()) == 0;
    ::setenv("LOCPATH", dir_.c_str(), 1);
    saved_ = std::setlocale(LC_ALL, nullptr);
    active_ = built_ && std::setlocale(LC_ALL, name_.c_str()) != nullptr;
  }
  ~BuiltLocale() {
    std::setlocale(LC_ALL, saved_.c_str());
    ::unsetenv("LOCPATH");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  BuiltLocale(const BuiltLocale&) = delete;
  BuiltLocale& operator=(const BuiltLocale&) = delete;

  // Why the locale could not be set up (empty when it is active).
  std::string problem() const {
    if (!built_) return "localedef for " + name_ + " failed (the Debian `locales` package: scripts/setup.sh --test)";
    if (!active_) return "setlocale(LC_ALL, \"" + name_ + "\") failed";
    return "";
  }

 private:
  std::string name_;
  std::filesystem::path dir_;
  std::string saved_;
  bool built_ = false;
  bool active_ = false;
};

std::span<const std::byte> bytes_of(const std::string& s) { return std::as_bytes(std::span<const char>(s.data(), s.size())); }

TEST(DecimalCommaLocale, NumbersInTextReadAsInPython) {
  const BuiltLocale german("UTF-8");
  ASSERT_EQ(german.problem(), "");
  ASSERT_STREQ(std::localeconv()->decimal_point, ",");

  // Protocol 0's FLOAT: pickle.dumps(0.5, protocol=0) == b'F0.5\n.'
  EXPECT_EQ(pickle::unpickle(bytes_of("F0.5\n."), {}, "t.pkl").toDouble(), 0.5);
  EXPECT_THROW((void)pickle::unpickle(bytes_of("F0,5\n."), {}, "t.pkl"), FormatError);

  // An IR constant, and a float attribute.
  std::unordered_map<std::string, jit::Value*> values;
  const jit::GraphPtr g = jit::parse_ir("graph():\n  %c : float = prim::Constant[value=0.25]()\n  return (%c)\n", nullptr, &values);
  EXPECT_EQ(jit::to_ivalue(values.at("c"))->toDouble(), 0.25);

  // A schema default: momentum=0.1 is not 0.
  const jit::FunctionSchema s = jit::parse_schema("aten::f(Tensor x, float momentum=0.1, float eps=1.5e-05) -> Tensor");
  EXPECT_EQ(jit::default_value(s.arguments[1])->toDouble(), 0.1);
  EXPECT_EQ(jit::default_value(s.arguments[2])->toDouble(), 1.5e-05);

  // TorchScript float(str), and a float literal in source.
  auto cu = jit::compile(R"(
def f(s: str) -> float:
    return float(s) + 0.5
)");
  const jit::Function& f = *cu->find_function("f");
  EXPECT_EQ(f({IValue(std::string("2.25"))}).toDouble(), 2.75);
  EXPECT_THROW((void)f({IValue(std::string("2,25"))}), Error);
}

// For its scope, the C++ global locale (what new streams imbue) is German.
class CppGlobalLocale {
 public:
  explicit CppGlobalLocale(const char* name) : saved_(std::locale::global(std::locale(name))) {}
  ~CppGlobalLocale() { std::locale::global(saved_); }
  CppGlobalLocale(const CppGlobalLocale&) = delete;
  CppGlobalLocale& operator=(const CppGlobalLocale&) = delete;

 private:
  std::locale saved_;
};

TEST(DecimalCommaLocale, PrintedTextIsTheSameInEveryCppGlobalLocale) {
  const BuiltLocale german("UTF-8");
  ASSERT_EQ(german.problem(), "");
  ASSERT_STREQ(std::localeconv()->decimal_point, ",");
  const CppGlobalLocale cpp("de_DE.UTF-8");
  std::ostringstream probe;
  probe << 1234567;
  ASSERT_EQ(probe.str(), "1.234.567");  // the locale is in force for new streams

  // TorchScript's str() and format(), and a value's repr.
  auto cu = jit::compile(R"(
def f(n: int, x: float) -> str:
    return str(n) + " " + "{} {}".format(n, x) + " " + str([n]) + " " + "%f %e" % (x, x)
)");
  const jit::Function& f = *cu->find_function("f");
  EXPECT_EQ(f({IValue(int64_t{1234567}), IValue(0.5)}).toStringRef(), "1234567 1234567 0.5 [1234567] 0.500000 5.000000e-01");
  EXPECT_EQ(IValue::tuple({IValue(int64_t{1234567}), IValue(0.5)}).repr(), "(1234567, 0.5)");

  // IR text, printed and parsed back.
  std::unordered_map<std::string, jit::Value*> values;
  const std::string ir = "graph():\n  %c : int = prim::Constant[value=1234567]()\n  return (%c)\n";
  const jit::GraphPtr g = jit::parse_ir(ir, nullptr, &values);
  EXPECT_EQ(g->str(), ir);

  // Code printed for an archive.
  jit::PythonPrinter printer;
  printer.add_function(f);
  auto cu2 = jit::compile(R"(
def g() -> List[int]:
    return [1234567, 7654321]
)");
  printer.add_function(*cu2->find_function("g"));
  ASSERT_FALSE(printer.files().empty());
  for (const auto& [module, text] : printer.files()) {
    EXPECT_EQ(text.find("1.234.567"), std::string::npos) << text;
    EXPECT_EQ(text.find("7.654.321"), std::string::npos) << text;
  }
}

// In a single-byte locale <cctype> calls bytes of UTF-8 text letters and changes their
// case ('\xc3' -> '\xe3'), which would make str.lower() break a UTF-8 string and let a
// name in IR text take a non-ASCII byte. torchlet answers as torch 1.13 does under Python
// in C.UTF-8: bytes past ASCII belong to no class and keep their case. The expected
// values are torch's, printed by
//   @torch.jit.script
//   def f(s: str) -> List[str]:
//       return [s.lower(), s.upper(), s.swapcase(), s.title(), s.capitalize(),
//               str(s.isalpha()), str(s.isalnum()), str(s.isprintable()), str(s.isupper()),
//               str(s.islower()), str(s.isspace()), str(s.isidentifier()), str(s.istitle())]
TEST(SingleByteLocale, CharacterClassesAreAsciiAsInTorch) {
  const BuiltLocale latin1("ISO-8859-1");
  ASSERT_EQ(latin1.problem(), "");
  // volatile: gcc folds <cctype> calls on constants as the "C" locale answers them.
  volatile int feminine_ordinal = 0xaa, a_tilde = 0xc3;
  ASSERT_NE(std::isalpha(feminine_ordinal), 0);  // 'ª' is a letter here
  ASSERT_EQ(std::tolower(a_tilde), 0xe3);        // 'Ã' has a lower case

  auto cu = jit::compile(R"(
def f(s: str) -> List[str]:
    return [s.lower(), s.upper(), s.swapcase(), s.title(), s.capitalize(),
            str(s.isalpha()), str(s.isalnum()), str(s.isprintable()), str(s.isupper()),
            str(s.islower()), str(s.isspace()), str(s.isidentifier()), str(s.istitle())]
)");
  const jit::Function& f = *cu->find_function("f");
  auto run = [&](const std::string& s) {
    std::vector<std::string> out;
    const IValue result = f({IValue(s)});
    for (const IValue& v : result.toList()->elements) out.push_back(v.toStringRef());
    return out;
  };
  const std::vector<std::string> no(8, "False");
  auto unchanged = [&](const std::string& s) {
    std::vector<std::string> out(5, s);
    out.insert(out.end(), no.begin(), no.end());
    return out;
  };
  for (const char* s : {"\xc3\x8a", "\xc3\xaa", "\xc2\xaa\xc2\xba", "\xc2\xa0", "\xc2\xb5"}) {
    EXPECT_EQ(run(s), unchanged(s)) << s;
  }
  const std::vector<std::string> a_acute{"a\xc3\xa9", "A\xc3\xa9", "a\xc3\xa9", "A\xc3\xa9", "A\xc3\xa9", "False", "False",
                                         "False", "True", "False", "False", "False", "True"};
  EXPECT_EQ(run("A\xc3\xa9"), a_acute);

  // A value name in IR text is ASCII letters, digits and '_': the byte 0xaa ends it.
  EXPECT_THROW((void)jit::parse_ir("graph(%x\xaa : int):\n  return (%x\xaa)\n"), Error);
  EXPECT_THROW((void)jit::parse_schema("aten::f\xaa(Tensor x) -> Tensor"), Error);
}

}  // namespace
}  // namespace torchlet
