import CratesCore
import CNcursesW
import Glibc

/// The real terminal, over ncursesw. Only this file (and its extensions) call curses, and
/// only from the UI thread: ncurses is not thread-safe.
public final class CursesTerminal {
    public private(set) var width: Int = 80
    public private(set) var height: Int = 24
    private var started = false
    private var colours = false
    /// The frame last drawn; `draw` repaints only the rows that changed (curses then sends
    /// only the changed cells), so scrolling never flickers.
    private var previous: Screen?
    /// Covers' colour pairs (none without colours).
    private var coverPalette = CoverPalette(colours: nil)
    /// The covers' pairs were made again during this frame: the next one repaints everything.
    private var pairsRemade = false

    public init() {}

    /// How many colours covers may use here; nil when the terminal shows none (or NO_COLOR).
    public var coverColours: CoverColours? { coverPalette.colours }

    /// Enters full-screen mode. Safe to call once; `stop()` undoes it.
    public func start() {
        TerminalRestore.install()
        Self.ensureUTF8Locale()
        initscr()
        raw()  // Ctrl-C and Ctrl-Z arrive as keys: quit and suspend are ours to handle cleanly
        noecho()
        nonl()
        keypad(crates_stdscr(), true)
        set_escdelay(25)
        wtimeout(crates_stdscr(), 50)
        curs_set(0)
        colours = ProcessEnvironment.value("NO_COLOR").map(\.isEmpty) ?? true
        if colours, has_colors() {
            start_color()
            use_default_colors()
            Palette.install()
        } else {
            colours = false
        }
        coverPalette = CoverPalette(colours: CoverPalette.detect(hasColours: colours))
        started = true
        refreshSize()
    }

    /// Leaves full-screen mode and restores the terminal as it was.
    public func stop() {
        guard started else { return }
        started = false
        endwin()
        TerminalRestore.restoreNow()
    }

    /// Suspends (Ctrl-Z): restores the terminal, stops the process, and takes the screen back
    /// when the shell resumes it.
    public func suspend() {
        endwin()
        TerminalRestore.restoreNow()
        kill(getpid(), SIGSTOP)
        // Resumed (SIGCONT): re-enter curses mode and repaint everything.
        wrefresh(crates_stdscr())
        previous = nil
        refreshSize()
    }

    /// Reads one key, waiting at most the configured timeout (50 ms) when `wait` is true, not at
    /// all otherwise. Nil on timeout. A resize is reported as `.resize`.
    public func readKey(wait: Bool) -> TerminalInput? {
        wtimeout(crates_stdscr(), wait ? 50 : 0)
        var ch: wint_t = 0
        let result = wget_wch(crates_stdscr(), &ch)
        if result == crates_err() { return nil }
        if result == crates_key_code_yes() {
            if Int32(ch) == crates_key_resize() {
                refreshSize()
                previous = nil
                return .resize(width: width, height: height)
            }
            return KeyDecoder.functionKey(Int32(ch)).map(TerminalInput.key)
        }
        return KeyDecoder.character(UInt32(ch)).map(TerminalInput.key)
    }

    /// How many bytes of input are waiting in the terminal, not yet read (curses reads its
    /// input a byte at a time, so none wait inside it); 0 when the terminal cannot say.
    public func waitingInputBytes() -> Int {
        var waiting: Int32 = 0
        guard ioctl(STDIN_FILENO, UInt(FIONREAD), &waiting) == 0 else { return 0 }
        return Int(max(0, waiting))
    }

    /// Rings the terminal's bell (a refused scan: the person may be looking at the records,
    /// not the screen).
    public func bell() {
        beep()
    }

    /// Forgets what is on the terminal so the next draw repaints it all (Ctrl-L).
    public func invalidate() {
        previous = nil
        clearok(crates_stdscr(), true)
    }

    private func refreshSize() {
        width = Int(crates_cols())
        height = Int(crates_lines())
    }

    /// Draws a frame: changed rows only, then one `doupdate`.
    public func draw(_ screen: Screen) {
        guard started else { return }
        let window = crates_stdscr()
        let sameSize = previous.map { $0.width == screen.width && $0.height == screen.height } ?? false
        if !sameSize { werase(window) }
        for row in 0..<screen.height {
            if sameSize, let previous, rowsEqual(previous, screen, row) { continue }
            drawRow(screen, row)
        }
        if let cursor = screen.cursor {
            curs_set(1)
            wmove(window, Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wnoutrefresh(window)
        doupdate()
        if let link = screen.hyperlink, previous?.hyperlink != link {
            emitHyperlink(link)
        }
        previous = pairsRemade ? nil : screen
        pairsRemade = false
    }

    private func rowsEqual(_ a: Screen, _ b: Screen, _ row: Int) -> Bool {
        for col in 0..<a.width where a[row, col] != b[row, col] { return false }
        return true
    }

    private func drawRow(_ screen: Screen, _ row: Int) {
        let window = crates_stdscr()
        var col = 0
        while col < screen.width {
            let style = screen[row, col].style
            let tint = screen[row, col].tint
            var run: [wchar_t] = []
            let start = col
            while col < screen.width, screen[row, col].style == style, screen[row, col].tint == tint {
                let cell = screen[row, col]
                if !cell.continuation {
                    for scalar in cell.character.unicodeScalars { run.append(wchar_t(bitPattern: scalar.value)) }
                }
                col += 1
            }
            run.append(0)
            if let tint {
                var exhausted = false
                let pair = coverPalette.pair(for: tint, exhausted: &exhausted) ?? 0
                if exhausted { pairsRemade = true }  // cells drawn with the old pairs: all again
                _ = crates_wattr_set_pair(window, crates_a_normal(), pair)
            } else {
                let attributes = Palette.attributes(for: style, colours: colours)
                wattrset(window, Int32(bitPattern: attributes))
            }
            // The last cell of the last row would scroll the screen if written with addwstr:
            // ncurses handles it for the window's bottom-right corner, but only via insch, so
            // skip that one cell rather than risk a scroll.
            let available = (row == screen.height - 1) ? min(run.count - 1, screen.width - 1 - start) : run.count - 1
            if available > 0 {
                run.withUnsafeBufferPointer { buffer in
                    _ = mvwaddnwstr(window, Int32(row), Int32(start), buffer.baseAddress, Int32(available))
                }
            }
        }
        wattrset(window, 0)
    }

    /// OSC 8 hyperlink over text already drawn: the text is written again, wrapped in the
    /// escape, straight to the terminal (curses has no notion of hyperlinks). Terminals that
    /// do not know OSC 8 ignore it.
    private func emitHyperlink(_ link: Screen.Hyperlink) {
        let url = ControlCharacters.cleaned(link.url)
        let text = ControlCharacters.cleaned(link.text)
        let sequence = "\u{1B}7\u{1B}[\(link.row + 1);\(link.column + 1)H\u{1B}]8;;\(url)\u{1B}\\\(text)\u{1B}]8;;\u{1B}\\\u{1B}8"
        TerminalRestore.writeRaw(sequence)
    }

    /// ncurses drops non-ASCII and draws lines as "qqqq" without a UTF-8 locale: take the
    /// user's, and fall back to C.UTF-8 when its codeset is not UTF-8.
    static func ensureUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased().filter({ $0 != "-" }) != "UTF8" {
            setlocale(LC_ALL, "C.UTF-8")
        }
    }
}

/// What the terminal reports.
public enum TerminalInput: Equatable, Sendable {
    case key(Key)
    case resize(width: Int, height: Int)
}
