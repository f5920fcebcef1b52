#ifndef CRATES_CEXPAT_SHIM_H
#define CRATES_CEXPAT_SHIM_H
// expat (Debian libexpat1-dev): the streaming XML parser of Discogs' data dumps.
#include <expat.h>

#endif
