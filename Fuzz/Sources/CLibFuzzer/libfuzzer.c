// Declarations only: libFuzzer itself comes from compiler-rt through -sanitize=fuzzer.
#include "libfuzzer.h"
