#ifndef CRATES_CNCURSESW_SHIM_H
#define CRATES_CNCURSESW_SHIM_H
// Wide-character curses: both must be defined before the include, or get_wch, mvaddwstr and
// wint_t are missing (see DESIGN.md, "Pitfalls").
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Swift 6 rejects C mutable globals and cannot import these macros: reach them here.
static inline WINDOW *crates_stdscr(void) { return stdscr; }
static inline int crates_lines(void) { return LINES; }
static inline int crates_cols(void) { return COLS; }
static inline attr_t crates_a_bold(void) { return A_BOLD; }
static inline attr_t crates_a_reverse(void) { return A_REVERSE; }
static inline attr_t crates_a_dim(void) { return A_DIM; }
static inline attr_t crates_a_underline(void) { return A_UNDERLINE; }
static inline attr_t crates_a_normal(void) { return A_NORMAL; }
static inline int crates_key_resize(void) { return KEY_RESIZE; }
static inline int crates_err(void) { return ERR; }
static inline int crates_ok(void) { return OK; }
static inline int crates_key_code_yes(void) { return KEY_CODE_YES; }
// Covers: colours and colour pairs beyond COLOR_PAIR's 8 bits (ncurses 6.1's extended pairs,
// passed through the `opts` pointer), and the terminfo's direct-colour flag.
static inline int crates_colors(void) { return COLORS; }
static inline int crates_color_pairs(void) { return COLOR_PAIRS; }
static inline int crates_has_direct_colour(void) { return tigetflag("RGB") > 0; }
static inline int crates_wattr_set_pair(WINDOW *w, attr_t attrs, int pair) { return wattr_set(w, attrs, 0, &pair); }

#endif
