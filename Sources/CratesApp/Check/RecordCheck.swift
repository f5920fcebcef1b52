import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates check` and the collection UI's check mode: what a code is and where the
/// collector stands with it (owned, another pressing owned, wanted, new), from the
/// catalogue, the collection, the wantlist and the price cache, all local. Nothing is added,
/// queued or sent: a code the catalogue knows costs no request, whether or not Discogs can
/// be reached; only a code it does not know is looked up on Discogs (as `crates lookup`
/// does), and while Discogs cannot be reached it is said so and stays unknown.
public struct RecordCheck: Sendable {
    /// How one code was answered (`CheckOutcome`).
    public typealias Outcome = CheckOutcome

    public let store: CollectionStore
    public let catalogue: (any ReleaseCatalogue)?
    /// Discogs, for codes the catalogue does not know; nil: never asked. Made only when
    /// such a code comes: a check the catalogue answers reads no credentials.
    let access: @Sendable () -> DiscogsAccess?
    /// How many pressings a `--search` lists.
    public static let searchLimit = 20

    public init(store: CollectionStore, catalogue: (any ReleaseCatalogue)?, access: DiscogsAccess?) {
        self.init(store: store, catalogue: catalogue, makeAccess: { access })
    }

    /// `makeAccess` is called for each code the catalogue does not know.
    public init(store: CollectionStore, catalogue: (any ReleaseCatalogue)?, makeAccess: @escaping @Sendable () -> DiscogsAccess?) {
        self.store = store
        self.catalogue = catalogue
        self.access = makeAccess
    }

    /// Checks one code as typed or scanned: a barcode in any form `crates barcode` reads, or
    /// a Discogs release (`r249504`, a release page).
    public func check(_ text: String) async -> Outcome {
        let shown = ControlCharacters.cleaned(GTIN.displayForm(of: text))
        let entry: CodeEntry
        do {
            entry = try CodeEntry.parseConfigured(text)
        } catch {
            return .refused(code: shown, reason: error.description)
        }
        return await check(entry, shown: shown)
    }

    /// Checks a code already read.
    public func check(_ entry: CodeEntry, shown: String) async -> Outcome {
        switch entry {
        case .label(let label):
            return .refused(code: shown, reason: "\(label.notARecordReason): nothing to check")
        case .barcode(let gtin):
            switch gtin.admission {
            case .record: break
            case .confirm(let notARecord): return .refused(code: shown, reason: "\(notARecord.reason): nothing to check")
            case .reserved(let reason): return .refused(code: shown, reason: "\(reason): nothing to check")
            case .label(let label): return .refused(code: shown, reason: "\(label.notARecordReason): nothing to check")
            }
            return .answered(await answer(code: shown, gtin: gtin, found: await releases(barcode: gtin)))
        case .release(let id):
            var found = await release(id: id)
            found.named = id
            return .answered(await answer(code: shown, gtin: nil, found: found))
        }
    }

    /// The catalogue's releases for free text (artist, title, catalogue number), each with
    /// its own verdict: for a record without a barcode. Never a request.
    public func search(_ text: String) async -> Outcome {
        let shown = ControlCharacters.cleaned(text)
        let query: ReleaseSearchQuery
        do {
            query = try ReleaseSearchQuery(text: text)
        } catch {
            return .refused(code: shown, reason: error.description)
        }
        guard let catalogue else {
            return .answered(CheckAnswer(code: shown, gtin: nil, note: "no catalogue to search: `crates catalogue fetch` builds one"))
        }
        do {
            let found = try await catalogue.search(query, limit: Self.searchLimit).map { CheckedRelease($0, source: .catalogue) }
            let note = found.isEmpty ? "nothing in the catalogue of \(catalogue.edition) answers it" : nil
            return .answered(await answer(code: shown, gtin: nil, found: Found(releases: found, note: note)))
        } catch {
            return .answered(CheckAnswer(code: shown, gtin: nil, note: error.description))
        }
    }

    // MARK: What the code is

    /// The releases found for a code, or why none (and whether Discogs could not be asked).
    struct Found {
        var releases: [CheckedRelease] = []
        var note: String?
        var unreachable = false
        /// The release the code names (`r249504`), known or not.
        var named: Int?
    }

    private func releases(barcode gtin: GTIN) async -> Found {
        var catalogueNote: String?
        if let catalogue {
            do {
                let found = try await catalogue.releases(barcode: gtin)
                if !found.isEmpty { return Found(releases: found.map { CheckedRelease($0, source: .catalogue) }) }
                catalogueNote = "not in the catalogue of \(catalogue.edition)"
            } catch {
                catalogueNote = error.description
            }
        } else {
            catalogueNote = "no catalogue"
        }
        return await online(catalogueNote ?? "") { client async throws(DiscogsError) -> [CheckedRelease] in
            var retry = RequestRetry.once
            let result = try await DiscogsBarcodeLookup(client: client).lookUp(DiscogsBarcodeQuery(gtin: gtin), retry: &retry)
            switch result.outcome {
            case .matched(let release): return [CheckedRelease(release, source: .discogs)]
            case .ambiguous(let candidates): return candidates.map(Self.checked)
            case .notFound, .skipped, .failed: return []
            }
        }
    }

    private func release(id: Int) async -> Found {
        var catalogueNote = "no catalogue"
        if let catalogue {
            do {
                if let found = try await catalogue.release(id: id) { return Found(releases: [CheckedRelease(found, source: .catalogue)]) }
                catalogueNote = "release \(id) is not in the catalogue of \(catalogue.edition)"
            } catch {
                catalogueNote = error.description
            }
        }
        return await online(catalogueNote) { client async throws(DiscogsError) -> [CheckedRelease] in
            do throws(DiscogsError) {
                return [CheckedRelease(try await client.release(id: id), source: .discogs)]
            } catch .notFound {
                return []
            }
        }
    }

    /// Asks Discogs, as a lookup (at a person's priority), when it can be asked; says why
    /// not otherwise.
    private func online(_ catalogueNote: String, _ ask: @Sendable (DiscogsClient) async throws(DiscogsError) -> [CheckedRelease]) async -> Found {
        guard let access = access(), access.signedIn else {
            return Found(note: "\(catalogueNote); Discogs cannot be asked: not signed in (`crates auth`)", unreachable: true)
        }
        do {
            let found = try await RequestPriority.at(.interactive) { () async throws(DiscogsError) in try await ask(access.client) }
            return Found(releases: found, note: found.isEmpty ? "\(catalogueNote); Discogs knows no release with it" : nil)
        } catch {
            if case .unauthorized = error {
                return Found(note: "\(catalogueNote); \(error.description)", unreachable: true)
            }
            return Found(note: "\(catalogueNote); Discogs cannot be reached", unreachable: true)
        }
    }

    static func checked(_ candidate: ReleaseCandidate) -> CheckedRelease {
        CheckedRelease(
            id: candidate.releaseID, artist: candidate.artist, title: candidate.title, country: candidate.country,
            year: candidate.year, label: candidate.label, catno: candidate.catno,
            format: candidate.formats.isEmpty ? nil : candidate.formats.joined(separator: " + "), source: .discogs)
    }

    // MARK: Where the collector stands

    /// The releases as the collection keeps them (its copies' releases, the wantlist's),
    /// when neither the catalogue nor Discogs could say: without a catalogue, offline, the
    /// collection and the wantlist still answer.
    static func kept(_ facts: CollectionStore.CheckFacts) -> [CheckedRelease] {
        var releases: [CheckedRelease] = []
        for copy in facts.owned {
            guard let id = copy.releaseID, !releases.contains(where: { $0.id == id }) else { continue }
            releases.append(CheckedRelease(
                id: id, artist: copy.artist, title: copy.title, country: copy.country, year: copy.year, label: copy.label,
                catno: copy.catno, format: copy.format, source: .collection))
        }
        for want in facts.wanted where !releases.contains(where: { $0.id == want.releaseID }) {
            releases.append(CheckedRelease(
                id: want.releaseID, artist: want.artist, title: want.title, country: want.country, year: want.year,
                label: want.label, catno: want.catno, format: want.format, master: want.masterID, source: .collection))
        }
        return releases
    }

    /// The collection's side of the answer: copies, other pressings, wants and prices. A
    /// collection that cannot be read leaves the answer as the catalogue gave it, saying so.
    func answer(code: String, gtin: GTIN?, found: Found) async -> CheckAnswer {
        var answer = CheckAnswer(code: code, gtin: gtin, releases: found.releases, note: found.note, unreachable: found.unreachable)
        var ids = found.releases.map(\.id)
        if ids.isEmpty, let named = found.named { ids = [named] }
        let masters = found.releases.compactMap(\.master)
        do {
            let facts = try await store.checkFacts(releases: ids, masters: masters, gtin: gtin)
            answer.owned = facts.owned
            answer.wanted = facts.wanted
            if answer.releases.isEmpty { answer.releases = Self.kept(facts) }
            for index in answer.releases.indices { answer.releases[index].price = facts.prices[answer.releases[index].id] }
            for (copy, master) in facts.sameMaster {
                for release in answer.releases where release.master == master {
                    answer.otherPressings.append(
                        OtherPressing(copy: copy, of: release.id, master: master, differences: release.differences(from: copy)))
                }
            }
        } catch {
            answer.note = [answer.note, "the collection cannot be read: \(error)"].compactMap { $0 }.joined(separator: "; ")
        }
        answer.decide()
        return answer
    }
}
