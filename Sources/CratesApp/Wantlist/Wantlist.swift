import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates want`, and the collection UI's wantlist: releases the collector is looking for,
/// kept in the collection file and as one with the Discogs wantlist by the sync
/// (`WantlistSync`). A code names a release through the local catalogue first (no
/// request), else Discogs; a release Discogs cannot be asked about now is put on the
/// wantlist by its id alone, and the next sync fills in what it is.
public struct Wantlist: Sendable {
    /// Why a code names no one release to want.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not a barcode or release, or not a record's (an ISBN, a crates label).
        case refused(code: String, reason: String)
        /// Several pressings share the barcode: the person names one (`rID`).
        case ambiguous(code: String, pressings: [CheckedRelease])
        case notFound(code: String, reason: String)
        /// The code is not in the catalogue, and Discogs cannot be asked.
        case unreachable(code: String, reason: String)

        public var description: String {
            switch self {
            case .refused(let code, let reason): "\(code): \(reason)"
            case .ambiguous(let code, let pressings):
                "\(code): \(pressings.count) pressings share this barcode; name one: "
                    + pressings.map { "r\($0.id) (\($0.pressing))" }.joined(separator: ", ")
            case .notFound(let code, let reason): "\(code): \(reason)"
            case .unreachable(let code, let reason): "\(code): \(reason)"
            }
        }
    }

    public let store: CollectionStore
    public let catalogue: (any ReleaseCatalogue)?
    let makeAccess: @Sendable () -> DiscogsAccess?

    public init(store: CollectionStore, catalogue: (any ReleaseCatalogue)?, makeAccess: @escaping @Sendable () -> DiscogsAccess?) {
        self.store = store
        self.catalogue = catalogue
        self.makeAccess = makeAccess
    }

    /// The release a code names: the catalogue's, else Discogs'; a release named by id
    /// that neither can give now is named by its id alone.
    public func release(for text: String) async -> Result<CheckedRelease, Failure> {
        let check = RecordCheck(store: store, catalogue: catalogue, makeAccess: makeAccess)
        switch await check.check(text) {
        case .refused(let code, let reason):
            return .failure(.refused(code: code, reason: reason))
        case .answered(let answer):
            switch answer.releases.count {
            case 1:
                return .success(answer.releases[0])
            case 0:
                if let id = ReleaseReference.parse(text, webBases: [DiscogsEndpoints(environment: ProcessInfo.processInfo.environment).web]) {
                    return .success(CheckedRelease(id: id, artist: "", title: "release \(id)", source: .collection))
                }
                let reason = answer.note ?? "no release has this barcode"
                return .failure(answer.unreachable ? .unreachable(code: answer.code, reason: reason) : .notFound(code: answer.code, reason: reason))
            default:
                return .failure(.ambiguous(code: answer.code, pressings: answer.releases))
            }
        }
    }

    /// Puts the release a code names on the wantlist.
    public func add(_ text: String, notes: String? = nil, rating: Rating = .unrated, now: Date = Date()) async throws(StoreError)
        -> Result<CollectionStore.WantAddition, Failure>
    {
        switch await release(for: text) {
        case .failure(let failure): return .failure(failure)
        case .success(let release): return .success(try await add(release, notes: notes, rating: rating, now: now))
        }
    }

    /// Puts a release on the wantlist.
    public func add(_ release: CheckedRelease, notes: String? = nil, rating: Rating = .unrated, now: Date = Date()) async throws(StoreError)
        -> CollectionStore.WantAddition
    {
        try await store.addWant(Self.entry(release, notes: notes, rating: rating, addedAt: now), now: now)
    }

    static func entry(_ release: CheckedRelease, notes: String?, rating: Rating, addedAt: Date) -> WantEntry {
        WantEntry(
            releaseID: release.id, artist: release.artist, title: release.title, year: release.year, country: release.country,
            format: release.format, label: release.label, catno: release.catno, masterID: release.master, notes: notes,
            rating: rating, addedAt: addedAt)
    }

    /// The wanted releases a code names: `rID` (or a bare release id, as `want list`
    /// prints it), or a barcode (each of its pressings on the wantlist), with no request.
    public func wanted(by text: String) async throws(StoreError) -> Result<[WantEntry], Failure> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let id = Int(trimmed), id > 0, trimmed.count < 11 {
            return .success(try await store.want(id).map { [$0] } ?? [])
        }
        let entry: CodeEntry
        do {
            entry = try CodeEntry.parseConfigured(trimmed)
        } catch {
            return .failure(.refused(code: ControlCharacters.cleaned(trimmed), reason: error.description))
        }
        switch entry {
        case .release(let id):
            return .success(try await store.want(id).map { [$0] } ?? [])
        case .label(let label):
            return .failure(.refused(code: trimmed, reason: label.notARecordReason))
        case .barcode(let gtin):
            let ids = ((try? await catalogue?.releases(barcode: gtin)) ?? []).map(\.id)
            var found: [WantEntry] = []
            for id in ids { if let want = try await store.want(id) { found.append(want) } }
            return .success(found)
        }
    }

    /// Takes the wanted releases a code names off the wantlist; returns them.
    public func remove(_ text: String, now: Date = Date()) async throws(StoreError) -> Result<[WantEntry], Failure> {
        let found: [WantEntry]
        switch try await wanted(by: text) {
        case .failure(let failure): return .failure(failure)
        case .success(let wants): found = wants
        }
        var removed: [WantEntry] = []
        for want in found { if let gone = try await store.removeWant(want.releaseID, now: now) { removed.append(gone) } }
        return .success(removed)
    }

    /// Changes the notes (`.some(nil)` removes them) and the rating of the want a code names
    /// (`wanted(by:)`'s first); `.notFound` when none is on the wantlist.
    public func edit(_ text: String, notes: String??, rating: Rating?, now: Date = Date()) async throws(StoreError)
        -> Result<WantEntry, Failure>
    {
        let found: [WantEntry]
        switch try await wanted(by: text) {
        case .failure(let failure): return .failure(failure)
        case .success(let wants): found = wants
        }
        guard let want = found.first, let edited = try await store.editWant(want.releaseID, notes: notes, rating: rating, now: now) else {
            return .failure(.notFound(code: ControlCharacters.cleaned(text), reason: "not on the wantlist"))
        }
        return .success(edited)
    }

    /// Every want, with the price cache's latest figure of each, by artist, then title
    /// (`WantOrder` arranges them otherwise).
    public func list() async throws(StoreError) -> [WantListing] {
        let wants = try await store.wants()
        let prices = try await store.latestPrices(releases: wants.map(\.releaseID))
        return wants.map { WantListing(want: $0, price: prices[$0.releaseID]) }
    }
}
