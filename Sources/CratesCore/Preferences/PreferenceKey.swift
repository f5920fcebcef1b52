import Foundation

/// A key of crates' configuration file (`config.json`): its name as written in the file and
/// on the command line (`crates config KEY VALUE`), the values it takes, and its default.
///
/// Keys are the file's top-level members, flat: `covers` and `covers.cacheMB` are two members
/// (`{"covers": false, "covers.cacheMB": 200}`), since `covers` is itself a value.
public enum PreferenceKey: String, CaseIterable, Sendable, Hashable {
    case covers
    case coverCacheMB = "covers.cacheMB"
    case currency
    case labelLayout = "labels.layout"
    case sort
    case syncFolder = "discogs_sync_folder"
    case consumerKey = "discogs_consumer_key"
    case consumerSecret = "discogs_consumer_secret"

    /// What a key takes.
    public enum Kind: Sendable, Hashable {
        /// `true` or `false` in the file; on the command line also on/off, yes/no, 1/0.
        case flag
        case integer(ClosedRange<Int>)
        /// One of these words (any case on the command line; written as listed).
        case choice([String])
        /// A label layout's name (checked by the labels module, which knows them).
        case labelLayout
        /// A Discogs folder: its id (a number) or its name.
        case folder
        /// Any text that is not empty.
        case text
    }

    public var kind: Kind {
        switch self {
        case .covers: .flag
        case .coverCacheMB: .integer(1...1_000_000)
        case .currency: .choice(Self.currencies)
        case .labelLayout: .labelLayout
        case .sort: .choice(ListOrder.allCases.map(\.rawValue))
        case .syncFolder: .folder
        case .consumerKey, .consumerSecret: .text
        }
    }

    /// Discogs' currencies (`curr_abbr`), in Discogs' order.
    public static let currencies = ["USD", "GBP", "EUR", "CAD", "AUD", "JPY", "CHF", "MXN", "BRL", "NZD", "SEK", "ZAR"]

    /// The value a key has when the file does not set it; nil where the default is not a
    /// value of the key (the account's currency, folder 1, no application).
    public var defaultValue: PreferenceValue? {
        switch self {
        case .covers: .flag(true)
        case .coverCacheMB: .integer(500)
        case .labelLayout: .text("a4-3x7")
        case .sort: .text(ListOrder.default.rawValue)
        case .currency, .syncFolder, .consumerKey, .consumerSecret: nil
        }
    }

    /// The default, as `crates config` shows it.
    public var defaultText: String {
        if let value = defaultValue { return value.description }
        switch self {
        case .currency: return "the Discogs account's"
        case .syncFolder: return "1 (\"Uncategorized\")"
        default: return "none"
        }
    }

    /// What the key is for, one line.
    public var summary: String {
        switch self {
        case .covers: "show cover art in the collection UI"
        case .coverCacheMB: "the cover cache's size on disk, in MB (least recently used removed first)"
        case .currency: "the currency of prices and values"
        case .labelLayout: "the label stock `crates labels` uses without --layout"
        case .sort: "the list's order"
        case .syncFolder: "the Discogs folder `crates sync` adds copies to (an id or a name)"
        case .consumerKey: "a registered Discogs application's consumer key, for `crates auth`"
        case .consumerSecret: "that application's consumer secret (set it in the file: never on a command line)"
        }
    }

    /// A key whose value is never shown nor taken on a command line (others can read a
    /// process's arguments).
    public var isSecret: Bool { self == .consumerSecret }

    /// The values allowed, in words, for messages ("true or false", "one of …").
    public func allowed(layouts: [String]) -> String {
        switch kind {
        case .flag: "true or false"
        case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .labelLayout: "a label layout: " + layouts.joined(separator: ", ")
        case .folder: "a Discogs folder's id or name"
        case .text: "text, not empty"
        }
    }

    /// A value typed on the command line, checked and put in the key's form (a choice as
    /// listed, a flag as a boolean); nil when the key does not take it. `layoutNamed` says
    /// whether a label layout exists (nil: yes; else what is wrong with it).
    public func value(typed text: String, layoutProblem: (String) -> String?) -> PreferenceValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .flag:
            switch trimmed.lowercased() {
            case "true", "on", "yes", "1": return .flag(true)
            case "false", "off", "no", "0": return .flag(false)
            default: return nil
            }
        case .integer(let range):
            guard let number = Int(trimmed), range.contains(number) else { return nil }
            return .integer(number)
        case .choice(let words):
            return words.first { $0.lowercased() == trimmed.lowercased() }.map { .text($0) }
        case .labelLayout:
            guard !trimmed.isEmpty, layoutProblem(trimmed) == nil else { return nil }
            return .text(trimmed)
        case .folder:
            guard !trimmed.isEmpty else { return nil }
            return Int(trimmed).map { .integer($0) } ?? .text(trimmed)
        case .text:
            return trimmed.isEmpty ? nil : .text(trimmed)
        }
    }

    /// A value read from the file, checked; nil when the key does not take it.
    public func value(read node: JSONNode, layoutProblem: (String) -> String?) -> PreferenceValue? {
        switch (kind, node) {
        case (.flag, .bool(let value)): return .flag(value)
        case (.integer(let range), .number(let text)):
            guard let number = Int(text), range.contains(number) else { return nil }
            return .integer(number)
        case (.choice(let words), .string(let text)):
            return words.first { $0.lowercased() == text.trimmingCharacters(in: .whitespaces).lowercased() }.map { .text($0) }
        case (.labelLayout, .string(let text)), (.folder, .string(let text)), (.text, .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            if kind == .labelLayout, layoutProblem(trimmed) != nil { return nil }
            return .text(trimmed)
        case (.folder, .number(let text)):
            return Int(text).map { .integer($0) }
        default:
            return nil
        }
    }
}

/// A configuration value.
public enum PreferenceValue: Sendable, Hashable, CustomStringConvertible {
    case flag(Bool)
    case integer(Int)
    case text(String)

    /// As `crates config` prints it.
    public var description: String {
        switch self {
        case .flag(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .text(let text): text
        }
    }

    /// As the file holds it (JSON).
    public var literal: String {
        switch self {
        case .flag(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .text(let text): JSONStringLiteral.quoted(text)
        }
    }
}
