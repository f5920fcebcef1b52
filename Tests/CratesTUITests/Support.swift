import Foundation
import CratesCore
@testable import CratesTUI

/// The store as the list sees it, in memory: answers `CollectionQuery`s from a fixed
/// collection the way CollectionStore does (sections of non-empty groups, a window of rows,
/// the focus record located, every filter word found in the record's text: barcode, artist,
/// title, labels and catalogue numbers, folded as the store folds them, `TextFolding`).
struct MemoryCollection {
    var sections: [(name: String, items: [CollectionRow])]
    var focus: Int64?
    /// Each record's place, by record id (a query for a place keeps the records placed in it).
    var places: [Int64: Int64] = [:]
    /// Each record's label names and catalogue numbers, by record id (the store's filter
    /// text takes them from the record's release; a row does not show them).
    var labels: [Int64: String] = [:]

    func answer(_ query: CollectionQuery) -> CollectionWindow {
        // A filter that is no query: the store's answer, empty and saying why.
        do {
            _ = try RecordQuery(parsing: query.filter)
        } catch {
            var refused = CollectionWindow(
                outline: CollectionOutline(sections: []), window: query.window, rows: [], filter: query.filter,
                totalRecords: sections.reduce(0) { $0 + $1.items.count }, location: query.location, order: query.order,
                facet: query.facet)
            refused.filterError = error.description
            return refused
        }
        let words = TextFolding.fold(query.filter).split(separator: " ").map(String.init)
        var outline: [SectionSummary] = []
        var rows: [CollectionRow] = []
        for section in sections {
            var matching = section.items.filter { item in
                let text = TextFolding.fold(
                    "\(item.gtin) \(item.artist ?? "") \(item.title ?? "") \(labels[item.recordID] ?? "")")
                return words.allSatisfy { text.contains($0) } && (query.location == nil || places[item.recordID] == query.location)
                    && Self.counts(item, in: section.name, query.facet)
            }
            guard !matching.isEmpty else { continue }
            // Descending: each section's rows the other way round, the sections as they are.
            if query.descending { matching.reverse() }
            outline.append(SectionSummary(name: section.name, count: matching.count, firstRow: rows.count))
            rows += matching
        }
        // Flat: every row in one section, as the store's `CollectionOutline.flattened`.
        if query.flat { outline = CollectionOutline(sections: outline).flattened.sections }
        let focus = query.focus ?? self.focus
        let start = min(query.window.offset, rows.count)
        let end = min(rows.count, query.window.offset + query.window.limit)
        var window = CollectionWindow(
            outline: CollectionOutline(sections: outline), window: RowWindow(offset: start, limit: query.window.limit),
            rows: Array(rows[start..<end]), filter: query.filter,
            totalRecords: sections.reduce(0) { $0 + $1.items.count }, focus: focus,
            focusRow: focus.flatMap { id in rows.firstIndex { $0.recordID == id } }, location: query.location,
            order: query.order, facet: query.facet)
        window.descending = query.descending
        window.flat = query.flat
        return window
    }

    /// Whether a row counts in a bar of the statistics (its genre section or its decade here).
    static func counts(_ item: CollectionRow, in section: String, _ facet: StatisticsFacet?) -> Bool {
        switch facet?.dimension {
        case nil: true
        case .genre?: section == facet?.key
        case .decade?: item.year.map { "\($0 / 10 * 10)s" } == facet?.key
        default: false
        }
    }
}

/// A UI core wired to a `MemoryCollection`: store queries are answered at once, the other
/// commands are collected for the test to check.
struct Harness {
    var state: AppState
    var store: MemoryCollection
    /// Commands other than queries and focus updates, oldest first.
    var commands: [AppCommand] = []

    init(_ store: MemoryCollection = Sample.collection, width: Int = 80, height: Int = 24) {
        self.store = store
        state = AppState(width: width, height: height)
        send(.resize(width: width, height: height))
    }

    /// Applies an event and answers the store requests it makes; returns the other commands.
    @discardableResult
    mutating func send(_ event: AppEvent) -> [AppCommand] {
        var pending = state.handle(event)
        var others: [AppCommand] = []
        while !pending.isEmpty {
            let command = pending.removeFirst()
            switch command {
            case .session(.query(let query)): pending += state.handle(.session(.window(store.answer(query))))
            case .session(.focus(let id)): store.focus = id
            default: others.append(command)
            }
        }
        commands += others
        return others
    }

    /// The collection changed in the store: the observation re-runs the last query.
    mutating func storeChanged(_ change: (inout MemoryCollection) -> Void) {
        change(&store)
        let query = CollectionQuery(
            filter: state.filter, window: RowWindow(offset: state.list.offset, limit: max(200, state.list.rows.count)), focus: store.focus,
            location: state.location?.id, order: state.order, descending: state.descending, flat: state.flat, facet: state.facet)
        send(.window(store.answer(query)))
    }

    /// Sends keys `interval` seconds apart; returns the commands they caused.
    @discardableResult
    mutating func type(_ keys: [Key], from start: Double = 100, interval: Double = 0.2) -> [AppCommand] {
        var out: [AppCommand] = []
        for (i, key) in keys.enumerated() {
            out += send(.key(key, at: start + Double(i) * interval))
        }
        return out
    }

    @discardableResult
    mutating func type(_ text: String, from start: Double = 100, interval: Double = 0.2) -> [AppCommand] {
        type(text.map { Key.character($0) }, from: start, interval: interval)
    }

    /// What the application reports.
    @discardableResult
    mutating func send(_ event: SessionEvent) -> [AppCommand] { send(.session(event)) }

    var screen: Screen { state.render() }
    var lines: [String] { state.render().text.components(separatedBy: "\n") }
}

enum Sample {
    static func item(_ id: Int64, _ gtin: String, artist: String = "", title: String = "", format: String = "",
                     year: Int? = nil, country: String? = nil, catno: String? = nil,
                     state: LookupState = .matched, candidates: Int = 0) -> CollectionRow {
        CollectionRow(
            recordID: id, gtin: gtin, artist: artist.isEmpty ? nil : artist, title: title.isEmpty ? nil : title,
            formats: format.isEmpty ? nil : format, year: year, country: country, catno: catno,
            lookupState: state, candidateCount: candidates,
            addedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)))
    }

    static let collection = MemoryCollection(sections: [
        ("Electronic", [
            item(1, "5099750442227", artist: "Björk", title: "Homogenic", format: "CD", year: 1997),
            item(2, "0724384260910", artist: "Massive Attack", title: "Mezzanine", format: "LP", year: 1998),
        ]),
        ("Folk, World, & Country", [
            item(3, "4988006555556", artist: "坂本龍一", title: "音楽図鑑", format: "CD", year: 1984),
        ]),
        ("Unknown", [
            item(4, "0077774620024", state: .pending),
            item(5, "5012345678900", state: .ambiguous, candidates: 3),
            item(6, "4006381333931", state: .notFound),
        ]),
    ], labels: [1: "One Little Indian TPLP71CD", 2: "Circa WBRLP 4"])

    static let empty = MemoryCollection(sections: [])

    /// A large collection: `count` records in sections of `perSection`.
    static func large(_ count: Int, perSection: Int) -> MemoryCollection {
        var sections: [(name: String, items: [CollectionRow])] = []
        var id: Int64 = 0
        while id < Int64(count) {
            let n = min(perSection, count - Int(id))
            let name = "Genre \(sections.count + 100)"
            sections.append((name, (0..<n).map { i in
                id += 1
                return item(id, String(format: "50%011d", Int(id)), artist: "Artist \(id)", title: "Title \(i)")
            }))
        }
        return MemoryCollection(sections: sections)
    }
}

/// The commands and events of the tests, by their old short names: what a UI asks of the
/// application, and what it hears back.
extension AppCommand {
    static func add(_ gtin: GTIN, method: AddMethod, allowing: AddAllowance = []) -> AppCommand {
        .session(.add(.barcode(gtin), method: method, allowing: allowing))
    }
    static func addCopy(_ gtin: GTIN, method: AddMethod) -> AppCommand { add(gtin, method: method, allowing: .anotherCopy) }
    static func addRelease(id: Int, method: AddMethod) -> AppCommand { .session(.add(.release(id), method: method)) }
    static func delete(_ ids: [Int64]) -> AppCommand { .session(.delete(ids)) }
    static func undo(_ token: Int) -> AppCommand { .session(.undo(token)) }
    static func loadDetails(_ id: Int64) -> AppCommand { .session(.loadDetails(id)) }
    static func choose(recordID: Int64, releaseID: Int) -> AppCommand { .session(.choose(recordID: recordID, releaseID: releaseID)) }

    /// The query, if this command is one.
    var query: CollectionQuery? {
        if case .session(.query(let query)) = self { return query }
        return nil
    }

    /// The barcode and method, if this command adds a barcode.
    var addedBarcode: (GTIN, AddMethod)? {
        if case .session(.add(.barcode(let gtin), let method, _)) = self { return (gtin, method) }
        return nil
    }
}

extension SessionEvent {
    /// The application found the barcode in the collection already.
    static func duplicate(_ gtin: GTIN, method: AddMethod, copies: Int) -> SessionEvent {
        .ask(AddQuestion(entry: .barcode(gtin), gtin: gtin, method: method, kind: .anotherCopy(copies: copies), allowing: []))
    }

    /// A code from the camera daemon, read as an EAN-13 (so its text goes to the prompt's parser).
    static func scan(_ text: String, method: AddMethod) -> SessionEvent {
        .cameraScan(ScanEvent(symbology: .ean13, data: text, at: Date(timeIntervalSince1970: 1_700_000_000)))
    }
}
