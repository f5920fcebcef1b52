import CratesCore
import CratesNet
import CratesStore
import Foundation

/// Adding one copy, by barcode or by Discogs release: the rules every entry point shares
/// (the TUI's prompt and scans, `crates add`).
///
/// 1. A barcode must be a record's (`BarcodeAdmission`): a restricted-circulation number is
///    refused; a book, magazine or coupon needs `allowing: .notARecord`.
///    crates' own labels (`LabelCode`) are refused as records, saying whose label it is
///    (the collection UI acts on them before they reach here: `ScanContext`).
/// 2. A barcode the collection already has needs `allowing: .anotherCopy`. The check is made
///    against the store, not a list in memory, in the insert's own write transaction
///    (`CollectionStore.addIfAbsent`): another process may be adding it at the same moment. With a
///    place to add into (the collection UI's current place), a copy that is elsewhere (or
///    in no place) is offered to be moved here instead (`AddQuestion.Kind.moveHere`: yes
///    moves it, "c" adds another copy here); when every copy is here already, the question
///    is another copy's.
/// 3. A release is fetched from Discogs (anonymously if need be: a release page is public),
///    through transient failures as a lookup is (`RequestRetry`: again after 1, 2, 4 and 8
///    s); its barcode makes the record, stored already matched to the release; a release
///    that lists no barcode makes a record without one (its copies are counted by release).
/// 4. A record entered by hand has no barcode; its values are the collector's.
public struct RecordAdder: Sendable {
    public let store: CollectionStore
    /// Nil when Discogs is not set up (then a release cannot be added).
    public let discogs: DiscogsAccess?

    public init(store: CollectionStore, discogs: DiscogsAccess?) {
        self.store = store
        self.discogs = discogs
    }

    public enum Outcome: Sendable {
        case added(CollectionRecord, release: Release?)
        /// Held back by a rule: the person is asked (TUI) or told the flag (command line).
        case held(AddQuestion)
        case refused(String)
        /// Discogs could not give the release now (a fault that lasted past the retries, or
        /// Discogs unreachable): nothing was added, and the same add may work later.
        case unavailable(String)
    }

    /// Adds what `entry` names, into `location` when given. `known`: the release `entry`
    /// names, already at hand (a search result the person chose), so that it is not fetched
    /// again.
    public func add(
        _ entry: CodeEntry, method: AddMethod, allowing: AddAllowance = [], into location: Location? = nil,
        known: Release? = nil
    ) async throws(StoreError) -> Outcome {
        switch entry {
        case .label(let code):
            return .refused(code.notARecordReason)
        case .barcode(let gtin):
            if let refusal = Self.check(gtin, entry: entry, method: method, allowing: allowing) { return refusal }
            return try await add(NewRecord(gtin: gtin, addMethod: method), entry: entry, allowing: allowing, into: location)
        case .release(let id):
            let release: Release
            if let known, known.id == id {
                release = known
            } else {
                switch await fetch(id) {
                case .success(let found): release = found
                case .failure(let failure) where failure.transient: return .unavailable(failure.reason)
                case .failure(let failure): return .refused(failure.reason)
                }
            }
            // The person named this very release: whatever its barcode's kind, it is a
            // record; and a release that lists no barcode is a record without one.
            let gtin = ReleaseBarcodes.gtin(in: release)
            return try await add(
                NewRecord(gtin: gtin, addMethod: method, release: release), entry: entry, allowing: allowing, into: location)
        }
    }

    /// What adding a record by hand came to.
    public enum HandOutcome: Sendable {
        case added(CollectionRecord)
        /// The collection has this many copies described the same way (catalogue number,
        /// artist and title): not added without `anotherCopy`.
        case duplicate(copies: Int)
    }

    /// Adds a record entered by hand (`crates add --manual`, the TUI's `m`): `fields` (checked
    /// already: `RecordFields.handEntered`) are the record, it has no barcode, it appears in
    /// its genre's section, and no lookup ever touches it. A copy described as one the
    /// collection has needs `anotherCopy`. It goes into `location` when given (the collection
    /// UI's current place).
    public func addByHand(
        _ fields: RecordFields, method: AddMethod = .manual, note: String? = nil, anotherCopy: Bool = false,
        into location: Location? = nil
    ) async throws(StoreError) -> HandOutcome {
        let new = NewRecord(gtin: nil, addMethod: method, note: note, locationID: location?.id, collector: fields, handEntered: true)
        if anotherCopy { return .added(try await store.add(new)) }
        // Counted by what it describes, in the insert's transaction (as `add`).
        switch try await store.addIfAbsent(new) {
        case .added(let record): return .added(record)
        case .present(let copies): return .duplicate(copies: copies)
        }
    }

    /// The admission rule for a barcode entry, as an outcome when it holds the add back.
    static func check(_ gtin: GTIN, entry: CodeEntry, method: AddMethod, allowing: AddAllowance) -> Outcome? {
        switch gtin.admission {
        case .record: return nil
        case .reserved(let reason): return .refused(reason)
        case .label(let code): return .refused(code.notARecordReason)
        case .confirm(let code):
            if allowing.contains(.notARecord) { return nil }
            return .held(AddQuestion(entry: entry, gtin: gtin, method: method, kind: .notARecord(code), allowing: allowing))
        }
    }

    /// The duplicate rule (copies of the barcode, or of the release when it lists none;
    /// with a place: move the copy here?), then the insert: "is it there?" and the insert are
    /// one write transaction (`CollectionStore.addIfAbsent`), so two processes adding one
    /// barcode at once store one copy, and the question comes from what the
    /// collection held at that moment.
    private func add(
        _ new: NewRecord, entry: CodeEntry, allowing: AddAllowance, into location: Location?
    ) async throws(StoreError) -> Outcome {
        var new = new
        new.locationID = location?.id
        if allowing.contains(.anotherCopy) { return .added(try await store.add(new), release: new.release) }
        switch try await store.addIfAbsent(new) {
        case .added(let record):
            return .added(record, release: new.release)
        case .present(let copies):
            if let location, let move = try await moveHere(new, copies: copies, to: location) {
                return .held(AddQuestion(entry: entry, gtin: new.gtin, method: new.addMethod, kind: .moveHere(move), allowing: allowing))
            }
            return .held(AddQuestion(
                entry: entry, gtin: new.gtin, method: new.addMethod, kind: .anotherCopy(copies: copies), allowing: allowing,
                title: try await copyTitle(new), whereabouts: try await whereabouts(new)))
        }
    }

    /// The copy of `new` (of its barcode, or of its release when it lists none) a scan with
    /// `location` current would move: the latest added that is not in `location` already;
    /// nil when every copy is there.
    private func moveHere(_ new: NewRecord, copies: Int, to location: Location) async throws(StoreError) -> MoveHere? {
        let latest: [CollectionRecord]
        if let gtin = new.gtin {
            latest = try await store.copiesWithLocations(of: gtin)
        } else if let release = new.release {
            latest = try await store.copiesWithLocations(ofRelease: release.id)
        } else {
            return nil
        }
        guard let record = latest.first(where: { $0.location?.id != location.id }) else { return nil }
        var title = record.subject
        if record.releaseID != nil, let release = try await store.details(record.id)?.release {
            title = ControlCharacters.cleaned(release.displayTitle)
        }
        return MoveHere(recordID: record.id, title: title, from: record.location, to: location, copies: copies)
    }

    /// "Artist — Title" of the latest copy of `new` the collection has (of its barcode, or of
    /// its release when it lists none), as shown (the collector's values over Discogs'); nil
    /// when that copy has no title yet (waiting for its lookup).
    /// Where the copies of `new` the collection has are, and their grades: "in Room ›
    /// Shelf, VG+/VG; in no place" (the latest three); nil when none is in a place or
    /// graded (nothing to name).
    private func whereabouts(_ new: NewRecord) async throws(StoreError) -> String? {
        let copies: [CollectionRecord]
        if let gtin = new.gtin {
            copies = try await store.copiesWithLocations(of: gtin, limit: 3)
        } else if let release = new.release {
            copies = try await store.copiesWithLocations(ofRelease: release.id, limit: 3)
        } else {
            return nil
        }
        guard copies.contains(where: { $0.location != nil || !$0.grading.isEmpty }) else { return nil }
        let said = copies.map { copy in
            let place = copy.location.map { "in \($0.pathText)" } ?? "in no place"
            let grades = copy.grading.summary
            return ControlCharacters.cleaned(grades.isEmpty ? place : "\(place), \(grades)")
        }
        return said.joined(separator: "; ")
    }

    private func copyTitle(_ new: NewRecord) async throws(StoreError) -> String? {
        let latest: CollectionRecord?
        if let gtin = new.gtin {
            latest = try await store.copiesWithLocations(of: gtin, limit: 1).first
        } else if let release = new.release {
            latest = try await store.copiesWithLocations(ofRelease: release.id, limit: 1).first
        } else {
            latest = nil
        }
        guard let latest, let details = try await store.details(latest.id), details.shown.title != nil else { return nil }
        return ControlCharacters.cleaned(details.displayTitle)
    }

    private struct FetchError: Error {
        var reason: String
        /// A fault that may pass (`DiscogsError.isTransient`), which lasted past the retries.
        var transient = false
    }

    /// The release, asked again through transient faults (a 5xx, an answer that does not
    /// parse, a timeout, a dropped connection) after 1, 2, 4 and 8 s, as a person waiting for
    /// it would ask again: Discogs' own hiccups are not the person's to retry by hand.
    private func fetch(_ id: Int) async -> Result<Release, FetchError> {
        guard let client = discogs?.client else { return .failure(FetchError(reason: "adding by release needs Discogs, which is not set up")) }
        var retry = RequestRetry(pauses: RequestRetry.shortPauses)
        do {
            return .success(try await retry.send { () async throws(DiscogsError) in try await client.release(id: id) })
        } catch .notFound {
            return .failure(FetchError(reason: "Discogs has no release \(id)"))
        } catch where error.isTransient {
            let tries = retry.requests == 1 ? "" : " (asked \(retry.requests) times)"
            return .failure(FetchError(reason: "\(error.description)\(tries): nothing added; run it again later", transient: true))
        } catch {
            return .failure(FetchError(reason: error.description))
        }
    }
}
