#ifndef CRATES_CZINT_SHIM_H
#define CRATES_CZINT_SHIM_H
// libzint (Debian libzint-dev): barcode symbols as vector output (rectangles and strings).
// It ships no pkg-config file: the module map links `zint` by name.
#include <zint.h>

#endif
