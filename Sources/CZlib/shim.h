#ifndef CRATES_CZLIB_SHIM_H
#define CRATES_CZLIB_SHIM_H
// zlib (Debian zlib1g-dev): gzread inflates a .gz file, or reads an uncompressed one as it is.
#include <zlib.h>

#endif
