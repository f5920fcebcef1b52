/// A key press, decoded from the terminal.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Ctrl plus a letter, as the lowercase letter (Ctrl-L → "l").
    case control(Character)
    case function(Int)

    /// How the help screen names the key.
    public var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .control(let c): return "Ctrl-\(c.uppercased())"
        case .function(let n): return "F\(n)"
        }
    }
}
