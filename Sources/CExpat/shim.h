#ifndef CRATES_CEXPAT_SHIM_H
#define CRATES_CEXPAT_SHIM_H
// expat (Debian libexpat1-dev): the conforming XML parser the tests hold the dump's own
// scanner (`ReleaseScanner`) to.
#include <expat.h>

#endif
