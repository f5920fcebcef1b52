/// A named thing the user can do.
public enum Action: String, Sendable, CaseIterable {
    case moveDown, moveUp, pageDown, pageUp, top, bottom, nextSection, previousSection
    case filter, add, delete, undo, open, openInBrowser, retry, authenticate
    case help, back, quit, redraw
    case sync, mediaGrade, sleeveGrade, rate
}

/// Where a binding applies.
public enum KeyContext: String, Sendable, CaseIterable {
    case list = "Collection"
    case details = "Details"
    case picker = "Choosing a pressing"
    case help = "Help"
}

/// One row of the key map: the keys, the action they run, and the help text for it.
public struct KeyBinding: Sendable {
    public var keys: [Key]
    public var action: Action
    public var help: String
    public var contexts: [KeyContext]
}

/// The single table that binds keys; the help screen is generated from it, so the two can
/// never disagree. Digits are not here: in the list, a digit starts barcode entry (wedge
/// scanners type digits then Enter).
public enum KeyMap {
    public static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "next record", contexts: [.list, .picker, .details, .help]),
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "previous record", contexts: [.list, .picker, .details, .help]),
        KeyBinding(keys: [.pageDown, .control("f"), .character(" ")], action: .pageDown, help: "page down", contexts: [.list, .picker, .details, .help]),
        KeyBinding(keys: [.pageUp, .control("b")], action: .pageUp, help: "page up", contexts: [.list, .picker, .details, .help]),
        KeyBinding(keys: [.home, .character("g")], action: .top, help: "first record", contexts: [.list, .picker, .details, .help]),
        KeyBinding(keys: [.end, .character("G")], action: .bottom, help: "last record", contexts: [.list, .picker, .details, .help]),
        KeyBinding(keys: [.character("]"), .tab, .character("J")], action: .nextSection, help: "next section", contexts: [.list]),
        KeyBinding(keys: [.character("["), .backTab, .character("K")], action: .previousSection, help: "previous section", contexts: [.list]),
        KeyBinding(keys: [.character("/")], action: .filter, help: "filter: artist, title, label, catno, barcode", contexts: [.list]),
        KeyBinding(keys: [.character("a")], action: .add, help: "add: barcode, Discogs release id or URL (or just scan)", contexts: [.list]),
        KeyBinding(keys: [.character("d"), .delete], action: .delete, help: "delete the record (asks first)", contexts: [.list, .details]),
        KeyBinding(keys: [.character("u")], action: .undo, help: "undo the last delete", contexts: [.list]),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, help: "details; choose a pressing when ambiguous", contexts: [.list, .picker, .details]),
        KeyBinding(keys: [.character("o")], action: .openInBrowser, help: "open the Discogs page", contexts: [.list, .details, .picker]),
        KeyBinding(keys: [.character("r")], action: .retry, help: "look the record up again", contexts: [.list, .details]),
        KeyBinding(keys: [.character("A")], action: .authenticate, help: "sign in to Discogs (runs `crates auth`)", contexts: [.list]),
        KeyBinding(keys: [.character("S")], action: .sync, help: "sync with your Discogs collection (pull and push)", contexts: [.list]),
        KeyBinding(keys: [.character("M")], action: .mediaGrade, help: "media condition (a picker of Discogs' grades)", contexts: [.details]),
        KeyBinding(keys: [.character("V")], action: .sleeveGrade, help: "sleeve condition (a picker of Discogs' grades)", contexts: [.details]),
        KeyBinding(keys: [.character("*")], action: .rate, help: "rating, 0 to 5 stars (a picker)", contexts: [.details]),
        KeyBinding(keys: [.character("?"), .function(1)], action: .help, help: "this help", contexts: [.list, .details, .picker]),
        KeyBinding(keys: [.escape, .left, .character("h")], action: .back, help: "back; clear the filter", contexts: [.list, .details, .picker, .help]),
        KeyBinding(keys: [.character("q")], action: .quit, help: "quit (back, in a view)", contexts: [.list, .details, .picker, .help]),
        KeyBinding(keys: [.control("l")], action: .redraw, help: "redraw the screen", contexts: [.list, .details, .picker, .help]),
    ]

    /// The action bound to `key` in `context`, if any.
    public static func action(for key: Key, in context: KeyContext) -> Action? {
        table[context]?[key]
    }

    private static let table: [KeyContext: [Key: Action]] = {
        var table: [KeyContext: [Key: Action]] = [:]
        for binding in bindings {
            for context in binding.contexts {
                for key in binding.keys where table[context, default: [:]][key] == nil {
                    table[context, default: [:]][key] = binding.action
                }
            }
        }
        return table
    }()
}
