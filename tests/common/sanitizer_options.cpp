// Linked into every unit-test binary: in sanitized builds, an allocation the system
// refuses returns null, as it does without ASan, so the tests that check torchlet's
// OutOfMemoryError see the error instead of ASan ending the process. (The ASAN_OPTIONS
// that scripts/test.sh sets are added to these, not replaced.)
extern "C" const char* __asan_default_options();
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

// glibc 2.36's newlocale (std::locale("de_DE.UTF-8") in tests/core/locale_test.cpp)
// copies LOCPATH into an argz list and never frees it: 1 allocation per call, not
// torchlet's. Matched by the one frame glibc's stack shows (it has no frame pointers).
extern "C" const char* __lsan_default_suppressions();
extern "C" const char* __lsan_default_suppressions() { return "leak:argz_add_sep\n"; }
