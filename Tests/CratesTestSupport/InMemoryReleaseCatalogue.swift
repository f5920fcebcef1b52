import CratesCore
import Synchronization

/// An in-memory twin of the local Discogs catalogue (`ReleaseCatalogue`): the releases it is
/// given, found by barcode (a UPC-A and its EAN-13 one key), by id, and by a search that
/// folds case and accents and keys catalogue numbers as the real file does. It counts the
/// questions asked, and can be made to fail as a damaged file would.
public final class InMemoryReleaseCatalogue: ReleaseCatalogue {
    public let edition: CatalogueEdition
    private let byID: [Int: Release]
    private let byBarcode: [UInt64: [Int]]
    private let state = Mutex((questions: 0, failing: false))

    /// `releases`: each release with the barcodes it lists. Releases from the catalogue have
    /// no full details (`hasFullDetails` false), as the dump's index keeps none.
    public init(edition: String = "20260601", _ releases: [(release: Release, barcodes: [GTIN])]) {
        self.edition = CatalogueEdition(dumpDate: edition)
        var byID: [Int: Release] = [:]
        var byBarcode: [UInt64: [Int]] = [:]
        for (release, barcodes) in releases {
            var release = release
            release.hasFullDetails = false
            byID[release.id] = release
            for barcode in Set(barcodes.map(\.gtin14Value)) { byBarcode[barcode, default: []].append(release.id) }
        }
        self.byID = byID
        self.byBarcode = byBarcode.mapValues { $0.sorted() }
    }

    /// Questions asked so far (barcode, search, id).
    public var questions: Int { state.withLock { $0.questions } }

    /// From now on every question fails as an unreadable file's would (`fails` true).
    public func setFailing(_ fails: Bool) {
        state.withLock { $0.failing = fails }
    }

    public func blockingReleases(barcode: GTIN) throws(ReleaseCatalogueError) -> [Release] {
        try asked()
        return (byBarcode[barcode.gtin14Value] ?? []).compactMap { byID[$0] }
    }

    public func blockingSearch(_ query: ReleaseSearchQuery, limit: Int) throws(ReleaseCatalogueError) -> [Release] {
        try asked()
        let found = byID.values.filter { Self.fits($0, query) }.sorted { $0.id < $1.id }
        return Array(found.prefix(max(0, limit)))
    }

    public func blockingRelease(id: Int) throws(ReleaseCatalogueError) -> Release? {
        try asked()
        return byID[id]
    }

    private func asked() throws(ReleaseCatalogueError) {
        let failing = state.withLock { state in
            state.questions += 1
            return state.failing
        }
        if failing { throw .unreadable(path: "(in memory)", reason: "made to fail by the test") }
    }

    /// Every field asked fits: its folded words are among the release's (a catalogue number
    /// by its key, the year equal).
    private static func fits(_ release: Release, _ query: ReleaseSearchQuery) -> Bool {
        func words(_ text: String) -> Set<String> { Set(TextFolding.words(text)) }
        func has(_ asked: String?, in text: String) -> Bool {
            guard let asked else { return true }
            return words(asked).isSubset(of: words(text))
        }
        if let catno = query.catno {
            let key = CatalogueNumber.key(catno)
            guard release.labels.contains(where: { $0.catno.map(CatalogueNumber.key) == key }) else { return false }
        }
        if let year = query.year, release.year != year { return false }
        return has(query.artist, in: release.artist) && has(query.title, in: release.title)
            && has(query.text, in: release.artist + " " + release.title)
            && has(query.label, in: release.labels.map(\.name).joined(separator: " "))
            && has(query.country, in: release.country ?? "") && has(query.format, in: release.formats.joined(separator: " "))
    }
}
