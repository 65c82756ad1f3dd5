#pragma once
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver, for programs that have their own main (LLVM's
   libFuzzer documentation, "Using libFuzzer as a library"). The runtime that
   -sanitize=fuzzer links defines it. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
