import CNcursesW

/// How each `Style` looks: colour pairs when the terminal has colours and NO_COLOR is unset
/// (https://no-color.org), attributes alone otherwise.
enum Palette {
    private static let pairs: [Style: (Int16, Int16)] = [
        .header: (Int16(COLOR_CYAN), -1),
        .selected: (Int16(COLOR_BLACK), Int16(COLOR_CYAN)),
        .status: (Int16(COLOR_BLACK), Int16(COLOR_WHITE)),
        .statusAccent: (Int16(COLOR_BLUE), Int16(COLOR_WHITE)),
        .error: (Int16(COLOR_RED), -1),
        .pending: (Int16(COLOR_YELLOW), -1),
        .prompt: (Int16(COLOR_GREEN), -1),
        .verdictOwned: (Int16(COLOR_BLACK), Int16(COLOR_GREEN)),
        .verdictOtherPressing: (Int16(COLOR_BLACK), Int16(COLOR_YELLOW)),
        .verdictWanted: (Int16(COLOR_WHITE), Int16(COLOR_MAGENTA)),
        .verdictNew: (Int16(COLOR_BLACK), Int16(COLOR_CYAN)),
        .verdictUnknown: (Int16(COLOR_WHITE), Int16(COLOR_RED)),
        .checkBanner: (Int16(COLOR_WHITE), Int16(COLOR_MAGENTA)),
    ]

    static func install() {
        for style in Style.allCases {
            if let (fg, bg) = pairs[style] { init_pair(Int16(style.rawValue) + 1, fg, bg) }
        }
    }

    static func attributes(for style: Style, colours: Bool) -> attr_t {
        var attributes: attr_t = crates_a_normal()
        if colours, pairs[style] != nil {
            attributes |= attr_t(bitPattern: Int32(COLOR_PAIR(Int32(style.rawValue) + 1)))
        }
        switch style {
        case .normal: break
        case .header: attributes |= crates_a_bold() | (colours ? 0 : crates_a_underline())
        case .selected: attributes |= colours ? crates_a_bold() : crates_a_reverse()
        case .dim, .pending: attributes |= crates_a_dim()
        case .status: attributes |= colours ? 0 : crates_a_reverse()
        case .statusAccent: attributes |= crates_a_bold() | (colours ? 0 : crates_a_reverse())
        case .error, .title, .prompt: attributes |= crates_a_bold()
        case .verdictOwned, .verdictOtherPressing, .verdictWanted, .verdictNew, .verdictUnknown, .checkBanner:
            attributes |= crates_a_bold() | (colours ? 0 : crates_a_reverse())
        }
        return attributes
    }
}
