#ifndef CRATES_CCAIRO_SHIM_H
#define CRATES_CCAIRO_SHIM_H
// cairo (Debian libcairo2-dev): vector PDF surfaces at exact page sizes in points.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>

#endif
