#ifndef CRATES_CEXPAT_SHIM_H
#define CRATES_CEXPAT_SHIM_H
// expat (Debian libexpat1-dev): the streaming XML parser of Discogs' data dumps.
#include <expat.h>
#include <stddef.h>

// glibc's memmem, a GNU extension the Glibc module does not declare: the search for the end
// tag of an element cut from the dump before expat sees it (`ElementStripper`).
extern void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

#endif
