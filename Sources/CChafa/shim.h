#ifndef CRATES_CCHAFA_SHIM_H
#define CRATES_CCHAFA_SHIM_H
// chafa (Debian libchafa-dev): images drawn as terminal symbols in two colours per cell. Its
// header includes glib's (libglib2.0-dev), found with pkg-config `chafa` (Package.swift).
#include <chafa.h>

#endif
