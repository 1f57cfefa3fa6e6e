// Thread-locals read on hot paths.
//
// Code in a shared library (the Python module) reaches a thread_local through
// a call to __tls_get_addr by default: one call per syntax tree node made.
// The initial-exec model makes it one load from the thread pointer, at the
// price of a few bytes of the static TLS that the C library keeps spare for
// libraries loaded later; keep what carries it small (pointers and flags).
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define UNVEIL_FAST_TLS __attribute__((tls_model("initial-exec")))
#else
#define UNVEIL_FAST_TLS
#endif
