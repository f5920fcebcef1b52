#ifndef CRATES_CSTRINGSEARCH_SHIM_H
#define CRATES_CSTRINGSEARCH_SHIM_H
#include <stddef.h>

// glibc's memmem, a GNU extension the Glibc module does not declare: the dump's strip and
// scan look for tags with it (several bytes a cycle, where a memchr for each `<` would stop
// every few bytes in a tracklist).
extern void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

#endif
