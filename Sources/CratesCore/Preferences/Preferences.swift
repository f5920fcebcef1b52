/// crates' preferences, as the configuration file (`config.json`) sets them: each key's value
/// where the file sets one that the key takes, else its default; and what is wrong with the
/// file, in sentences that name it and the line, for crates to say every time it starts.
public struct Preferences: Sendable, Hashable {
    /// The list's orders a person can prefer.
    /// A problem with the file.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The key whose value is wrong; nil for the file as a whole (not JSON, not an
        /// object) or a member crates does not know.
        public var key: PreferenceKey?
        public var description: String
    }

    /// The values the file sets that their keys take.
    public private(set) var values: [PreferenceKey: PreferenceValue] = [:]
    /// What is wrong with the file, in the order found.
    public private(set) var problems: [Problem] = []
    /// The file cannot be read as a configuration at all (not JSON, or not an object): every
    /// key has its default, and nothing may be written over it without losing what it holds.
    public private(set) var isUnusable = false

    /// Every key at its default (no file).
    public init() {}

    /// Every key at its default, for a file that cannot be read (`problem` says why).
    public init(unreadable problem: String) {
        isUnusable = true
        problems = [Problem(key: nil, description: problem)]
    }

    /// The preferences of a file's bytes. `path` names the file in the problems;
    /// `layoutProblem` says what is wrong with a label layout's name (nil when it is one).
    public init(reading bytes: [UInt8], path: String, layouts: [String], layoutProblem: (String) -> String?) {
        let outline: JSONOutline
        do {
            outline = try JSONOutline(bytes)
        } catch {
            isUnusable = true
            problems = [Problem(key: nil, description: "\(path) is not valid JSON: \(error)")]
            return
        }
        guard let members = outline.members else {
            isUnusable = true
            problems = [Problem(key: nil, description: "\(path) must hold a JSON object, such as {\"covers\": false}")]
            return
        }
        for member in members {
            let line = outline.line(of: member.nameStart)
            guard let key = PreferenceKey(rawValue: member.name) else {
                problems.append(
                    Problem(
                        key: nil,
                        description: "\(path), line \(line): \(JSONStringLiteral.quoted(member.name)) is not a setting crates knows (`crates config` lists them)"))
                continue
            }
            if let node = outline.value(of: member), let value = key.value(read: node, layoutProblem: layoutProblem) {
                values[key] = value
                problems.removeAll { $0.key == key }  // a name written twice: the last one counts
                continue
            }
            values[key] = nil
            var written = String(decoding: outline.bytes[member.valueStart..<member.valueEnd], as: UTF8.self)
            if written.count > 40 { written = String(written.prefix(39)) + "…" }
            let shown = key.isSecret ? "" : " is \(ControlCharacters.cleaned(written))"
            problems.removeAll { $0.key == key }
            problems.append(
                Problem(key: key, description: "\(path), line \(line): \(key.rawValue)\(shown): it takes \(key.allowed(layouts: layouts))"))
        }
    }

    /// The key's value: the file's, else the default (nil where the default is none).
    public subscript(key: PreferenceKey) -> PreferenceValue? {
        values[key] ?? key.defaultValue
    }

    /// Whether the file sets the key (to a value it takes).
    public func isSet(_ key: PreferenceKey) -> Bool { values[key] != nil }

    /// The problem with one key's value, if the file gives it one it does not take.
    public func problem(with key: PreferenceKey) -> Problem? {
        problems.first { $0.key == key }
    }

    // MARK: Typed

    /// Cover art in the collection UI.
    public var covers: Bool {
        if case .flag(let value) = self[.covers] { return value }
        return true
    }

    /// The cover cache's bound, in MB.
    public var coverCacheMB: Int {
        if case .integer(let value) = self[.coverCacheMB] { return value }
        return 500
    }

    /// The cover cache's bound, in bytes.
    public var coverCacheBytes: Int { coverCacheMB * 1_000_000 }

    /// The currency asked for (Discogs' `curr_abbr`); nil: the account's.
    public var currency: String? {
        if case .text(let code) = self[.currency] { return code }
        return nil
    }

    /// The label layout `crates labels` uses when none is given.
    public var labelLayout: String {
        if case .text(let name) = self[.labelLayout] { return name }
        return "a4-3x7"
    }

    /// The list's order: `crates list`'s without `--sort`, and the UI's (whose `O` key sets it).
    public var sort: ListOrder {
        if case .text(let name) = self[.sort], let sort = ListOrder(rawValue: name) { return sort }
        return .default
    }

    /// The folder a sync adds copies to, as the file names it (an id or a name); nil when it
    /// names none.
    public var syncFolder: String? {
        switch values[.syncFolder] {
        case .integer(let id): String(id)
        case .text(let name): name
        default: nil
        }
    }

    /// The registered application's consumer key and secret, when the file has both.
    public var consumer: (key: String, secret: String)? {
        guard case .text(let key) = self[.consumerKey], case .text(let secret) = self[.consumerSecret] else { return nil }
        return (key, secret)
    }
}
