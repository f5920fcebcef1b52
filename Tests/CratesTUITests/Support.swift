import CratesCore
@testable import CratesTUI

/// Builders for UI-core tests: a collection, a state of a given size, and key sequences.
enum Sample {
    static func item(_ id: Int64, _ gtin: String, artist: String = "", title: String = "", format: String = "",
                     year: Int? = nil, state: LookupState = .matched, candidates: Int = 0) -> ListItem {
        ListItem(recordID: id, gtin: gtin, artist: artist, title: title, format: format, year: year, state: state, candidates: candidates)
    }

    static let collection = CollectionView(sections: [
        ListSection(name: "Electronic", items: [
            item(1, "5099750442227", artist: "Björk", title: "Homogenic", format: "CD", year: 1997),
            item(2, "0724384260910", artist: "Massive Attack", title: "Mezzanine", format: "LP", year: 1998),
        ]),
        ListSection(name: "Folk, World, & Country", items: [
            item(3, "4988006555556", artist: "坂本龍一", title: "音楽図鑑", format: "CD", year: 1984),
        ]),
        ListSection(name: "Unknown", items: [
            item(4, "0077774620024", state: .pending),
            item(5, "5012345678900", state: .ambiguous, candidates: 3),
            item(6, "4006381333931", state: .notFound),
        ]),
    ])

    static func state(_ view: CollectionView = collection, width: Int = 80, height: Int = 24) -> AppState {
        var state = AppState(width: width, height: height)
        _ = state.handle(.collection(view))
        return state
    }
}

extension AppState {
    /// Sends keys `interval` seconds apart, collecting the commands.
    mutating func type(_ keys: [Key], from start: Double = 100, interval: Double = 0.2) -> [AppCommand] {
        var commands: [AppCommand] = []
        for (i, key) in keys.enumerated() {
            commands += handle(.key(key, at: start + Double(i) * interval))
        }
        return commands
    }

    mutating func type(_ text: String, from start: Double = 100, interval: Double = 0.2) -> [AppCommand] {
        type(text.map { Key.character($0) }, from: start, interval: interval)
    }
}
