import CNcursesW

/// Turns what `wget_wch` returns into `Key`s.
enum KeyDecoder {
    static func character(_ value: UInt32) -> Key? {
        switch value {
        case 0x0D, 0x0A: return .enter
        case 0x1B: return .escape
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(UInt8(0x60 + value))))
        default:
            guard value >= 0x20, let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }

    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_NPAGE: return .pageDown
        case KEY_PPAGE: return .pageUp
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
        default: return nil
        }
    }
}
