#ifndef MAPCOMPOSE_LIBFUZZER_H
#define MAPCOMPOSE_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer): parses the libFuzzer flags in
/// argv and fuzzes `callback`. Called from each target's main.swift, because SwiftPM points an
/// executable's `main` at its module's top-level code, so libFuzzer's own main is never used.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
