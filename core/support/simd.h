// Whether the byte scans of emit and ast (string literals, docstrings,
// identifiers) take sixteen bytes a step with SSE2.
//
// The portable loops stay for other CPUs. Configuring with
// -DUNVEIL_PORTABLE_SCANS=ON builds them on x86-64 too: the Release build
// of scripts/test.sh does, and its sanitizer build keeps SSE2, so that CI
// runs the test suite over both paths.
#pragma once

#if defined(__SSE2__) && !defined(UNVEIL_PORTABLE_SCANS)
#define UNVEIL_SSE2 1
#include <emmintrin.h>
#else
#define UNVEIL_SSE2 0
#endif
