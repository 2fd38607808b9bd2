// Linked into every unit-test binary: in sanitized builds, an allocation the system
// refuses returns null, as it does without ASan, so the tests that check torchlet's
// OutOfMemoryError see the error instead of ASan ending the process. (The ASAN_OPTIONS
// that scripts/test.sh sets are added to these, not replaced.)
extern "C" const char* __asan_default_options();
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
