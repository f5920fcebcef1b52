import CratesCore

/// One record as the list shows it. The wiring layer maps the store's rows to these on a
/// background thread, so the UI core does not depend on the store's shape.
public struct ListItem: Equatable, Sendable {
    public var recordID: Int64
    public var gtin: String
    public var artist: String
    public var title: String
    /// A short format summary, e.g. "CD" or "2×LP".
    public var format: String
    public var year: Int?
    public var state: LookupState
    /// How many pressings share the barcode, when the lookup was ambiguous.
    public var candidates: Int
    /// Labels and catalogue numbers, searched by the filter but not shown in the row.
    public var labelsAndCatnos: String

    public init(
        recordID: Int64, gtin: String, artist: String = "", title: String = "", format: String = "",
        year: Int? = nil, state: LookupState = .pending, candidates: Int = 0, labelsAndCatnos: String = ""
    ) {
        self.recordID = recordID
        self.gtin = gtin
        self.artist = TerminalText.sanitised(artist)
        self.title = TerminalText.sanitised(title)
        self.format = TerminalText.sanitised(format)
        self.year = year
        self.state = state
        self.candidates = candidates
        self.labelsAndCatnos = TerminalText.sanitised(labelsAndCatnos)
    }
}

/// A genre section: its name and its records, already in display order.
public struct ListSection: Equatable, Sendable {
    public var name: String
    public var items: [ListItem]

    public init(name: String, items: [ListItem]) {
        self.name = TerminalText.sanitised(name)
        self.items = items
    }
}

/// The collection as the UI holds it: sections plus what makes navigation and filtering
/// cheap at 100,000 records (a lowercased search key per record, a record → position index).
/// Built off the UI thread when the store reports a change.
public struct CollectionView: Sendable {
    public let sections: [ListSection]
    /// Lowercased UTF-8 of "artist title labels catnos gtin", per section and item.
    let searchKeys: [[[UInt8]]]
    public let recordCount: Int
    /// How many copies of each GTIN the collection holds: answers "already have 1 copy".
    let copies: [String: Int]

    public init(sections: [ListSection]) {
        self.sections = sections
        var keys: [[[UInt8]]] = []
        keys.reserveCapacity(sections.count)
        var copies: [String: Int] = [:]
        var count = 0
        for section in sections {
            var sectionKeys: [[UInt8]] = []
            sectionKeys.reserveCapacity(section.items.count)
            for item in section.items {
                let key = "\(item.artist) \(item.title) \(item.labelsAndCatnos) \(item.gtin)".lowercased()
                sectionKeys.append(Array(key.utf8))
                copies[item.gtin, default: 0] += 1
            }
            count += section.items.count
            keys.append(sectionKeys)
        }
        searchKeys = keys
        recordCount = count
        self.copies = copies
    }

    public static let empty = CollectionView(sections: [])

    public func copies(of gtin: String) -> Int { copies[gtin] ?? 0 }
}

/// A line of the list: a section header or a record.
public enum ListLine: Equatable, Sendable {
    case header(section: Int, count: Int)
    case item(section: Int, index: Int)
}

extension CollectionView {
    /// The lines to show: every header and record, or, with a filter, the records matching all
    /// of its words (case-insensitive) under their headers (counts are of the matches).
    public func lines(filter: String) -> [ListLine] {
        let words = filter.lowercased().split(separator: " ").map { Array($0.utf8) }
        var lines: [ListLine] = []
        lines.reserveCapacity(recordCount + sections.count)
        for (s, section) in sections.enumerated() {
            if words.isEmpty {
                guard !section.items.isEmpty else { continue }
                lines.append(.header(section: s, count: section.items.count))
                for i in section.items.indices { lines.append(.item(section: s, index: i)) }
            } else {
                let headerAt = lines.count
                var matched = 0
                for i in section.items.indices where words.allSatisfy({ Self.contains(searchKeys[s][i], $0) }) {
                    if matched == 0 { lines.append(.header(section: s, count: 0)) }
                    lines.append(.item(section: s, index: i))
                    matched += 1
                }
                if matched > 0 { lines[headerAt] = .header(section: s, count: matched) }
            }
        }
        return lines
    }

    public func item(_ line: ListLine) -> ListItem? {
        if case .item(let s, let i) = line { return sections[s].items[i] }
        return nil
    }

    /// Byte substring search; the needle is short, so a first-byte scan is fast enough.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let n = needle.count
        guard haystack.count >= n else { return false }
        var i = 0
        let last = haystack.count - n
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < n, haystack[i + j] == needle[j] { j += 1 }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }
}
