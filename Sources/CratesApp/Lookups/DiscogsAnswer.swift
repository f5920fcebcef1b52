import CratesCore
import CratesNet
import Foundation

/// `crates lookup CODE`: what Discogs says about a barcode (each of its printed forms until
/// one has results, as the collection's lookups search) or a release, reduced to what is
/// shown. Nothing is added to the collection.
public struct DiscogsAnswer: Sendable {
    public var gtin: GTIN?
    /// "matched", "ambiguous" or "notFound".
    public var outcome: String
    public var matchedForm: String?
    public var searched: [String]
    public var releases: [Listed]
    /// Where the answer came from: the local catalogue (no request) or Discogs.
    public var source: AnswerSource = .discogs
    /// The catalogue that answered, when it did.
    public var edition: CatalogueEdition?

    /// One release or candidate as `lookup` lists it.
    public struct Listed: Sendable {
        public var id: Int
        public var artist: String
        public var title: String
        public var label: String?
        public var catno: String?
        public var formats: [String]
        public var year: Int?
        public var country: String?
        public var url: String?

        init(_ release: Release) {
            id = release.id
            artist = release.artist
            title = release.title
            label = release.labels.isEmpty ? nil : release.labels.map(\.name).joined(separator: ", ")
            let catnos = release.labels.compactMap(\.catno)
            catno = catnos.isEmpty ? nil : catnos.joined(separator: ", ")
            formats = release.formats
            year = release.year
            country = release.country
            url = release.url
        }

        init(_ candidate: ReleaseCandidate) {
            id = candidate.releaseID
            artist = candidate.artist
            title = candidate.title
            label = candidate.label
            catno = candidate.catno
            formats = candidate.formats
            year = candidate.year
            country = candidate.country
            url = nil
        }

        /// The release's page: Discogs' own link when it gave one, else the canonical
        /// /release/ID address (which Discogs redirects to the full one).
        public func page(web: String) -> String { url ?? "\(web)/release/\(id)" }

        /// `release_id  artist  title  label  catno  format  year  country  url`.
        public func fields(web: String) -> [String] {
            [
                String(id), artist, title, label ?? "", catno ?? "", formats.joined(separator: " + "),
                year.map(String.init) ?? "", country ?? "", page(web: web),
            ]
        }
    }

    /// What `crates lookup CODE` asks about: the code read as typed (a barcode, `r249504`
    /// or a release's address), refused when it is never a record's (a crates label), or not
    /// a record's barcode (an ISBN, a coupon) unless `force`. Checked before anything is
    /// opened or asked; a refusal is `.notARecord`, in words that follow the code.
    public static func entry(_ code: String, force: Bool) throws(DiscogsAnswerError) -> CodeEntry {
        let entry: CodeEntry
        do {
            entry = try CodeEntry.parseConfigured(code)
        } catch {
            throw .notARecord("\(error)")
        }
        if case .barcode(let gtin) = entry, let refusal = gtin.admission.refusal(force: force, action: "look it up anyway") {
            throw .notARecord("\(refusal)")
        }
        if case .label(let label) = entry { throw .notARecord("\(label.notARecordReason): nothing to look up") }
        return entry
    }

    /// Asks the local catalogue first, when there is one and it knows the code; else
    /// Discogs. A barcode search on Discogs needs an account: `access` must be signed in.
    public static func ask(
        _ entry: CodeEntry, access: DiscogsAccess?, catalogue: (any ReleaseCatalogue)? = nil
    ) async throws(DiscogsAnswerError) -> DiscogsAnswer {
        if let catalogue, let answer = await fromCatalogue(entry, catalogue) { return answer }
        guard let access else {
            throw catalogue.map { .notInCatalogue($0.edition, .notSignedIn) } ?? .access(.notSignedIn)
        }
        do {
            return try await ask(entry, access: access)
        } catch .access(let problem) {
            // Not signed in: say first that the catalogue does not know it either.
            throw catalogue.map { .notInCatalogue($0.edition, problem) } ?? .access(problem)
        }
    }

    /// The catalogue's answer: a release it lists, or the releases that list a barcode;
    /// nil when it has none (or cannot be read: Discogs is asked, as without one).
    static func fromCatalogue(_ entry: CodeEntry, _ catalogue: any ReleaseCatalogue) async -> DiscogsAnswer? {
        let edition = catalogue.edition
        switch entry {
        case .release(let id):
            guard let release = try? await catalogue.release(id: id) else { return nil }
            return DiscogsAnswer(
                gtin: ReleaseBarcodes.gtin(in: release), outcome: LookupState.matched.rawValue, matchedForm: nil,
                searched: [], releases: [Listed(release)], source: .catalogue, edition: edition)
        case .barcode(let gtin):
            guard let found = try? await catalogue.releases(barcode: gtin), !found.isEmpty else { return nil }
            let outcome = found.count == 1 ? LookupState.matched : .ambiguous
            return DiscogsAnswer(
                gtin: gtin, outcome: outcome.rawValue, matchedForm: nil, searched: [], releases: found.map(Listed.init),
                source: .catalogue, edition: edition)
        case .label:
            return nil
        }
    }

    /// Asks Discogs. A barcode search needs an account: `access` must be signed in.
    public static func ask(_ entry: CodeEntry, access: DiscogsAccess) async throws(DiscogsAnswerError) -> DiscogsAnswer {
        let client = access.client
        switch entry {
        case .label(let code):
            // crates' own label: nothing Discogs could know, and no request spent on it.
            throw .notARecord(code.notARecordReason)
        case .release(let id):
            do {
                let release = try await client.release(id: id)
                return DiscogsAnswer(
                    gtin: ReleaseBarcodes.gtin(in: release), outcome: LookupState.matched.rawValue, matchedForm: nil,
                    searched: [], releases: [Listed(release)])
            } catch .notFound {
                throw .noSuchRelease(id)
            } catch {
                throw .discogs(error)
            }
        case .barcode(let gtin):
            guard access.signedIn else { throw .access(.notSignedIn) }
            let query = DiscogsBarcodeQuery(gtin: gtin)
            let result: DiscogsBarcodeLookup.Result
            do {
                result = try await DiscogsBarcodeLookup(client: client).lookUp(query)
            } catch {
                throw .discogs(error)
            }
            switch result.outcome {
            case .matched(let release):
                return DiscogsAnswer(
                    gtin: gtin, outcome: LookupState.matched.rawValue, matchedForm: result.matchedForm,
                    searched: query.forms, releases: [Listed(release)])
            case .ambiguous(let candidates):
                return DiscogsAnswer(
                    gtin: gtin, outcome: LookupState.ambiguous.rawValue, matchedForm: result.matchedForm,
                    searched: query.forms, releases: candidates.map(Listed.init))
            case .notFound, .skipped, .failed:
                // lookUp throws its failures, and skips nothing that got this far.
                return DiscogsAnswer(
                    gtin: gtin, outcome: LookupState.notFound.rawValue, matchedForm: nil, searched: query.forms, releases: [])
            }
        }
    }

    /// The tab-separated lines, a release each: `outcome` then `Listed.fields`.
    public func lines(web: String) -> [(line: String, releaseID: Int)] {
        releases.map { (TabSeparatedText.line([outcome] + $0.fields(web: web)), $0.id) }
    }

    /// What a lookup that found no release says, with the forms searched: `shown` is the
    /// code as the person typed it.
    public func nothingFound(shown: String) -> String {
        let forms = searched.isEmpty ? "" : " (searched: \(searched.joined(separator: "; ")))"
        return "Discogs knows no release with barcode \(shown)\(forms)"
    }

    /// One JSON object: input, gtin, outcome, matchedForm, releases (each with what the
    /// collection holds of it: `owned`, `wanted`) and source.
    public func json(input: String, web: String, marks: [Int: ReleaseMarks] = [:]) throws -> String {
        let object = AnswerJSON(
            input: input, gtin: gtin?.canonical, outcome: outcome, matchedForm: matchedForm,
            releases: releases.map { ListedJSON($0, web: web, marks: marks[$0.id] ?? ReleaseMarks()) }, source: source)
        return String(decoding: try ExportedRecord.makeJSONEncoder().encode(object), as: UTF8.self)
    }
}

/// Why `crates lookup` has no answer, with its exit status.
public enum DiscogsAnswerError: Error, CustomStringConvertible {
    case noSuchRelease(Int)
    case access(DiscogsAccessError)
    case discogs(DiscogsError)
    /// A code that is never a record's (a crates label): refused before any request.
    case notARecord(String)
    /// The local catalogue does not know the code, and Discogs cannot be asked.
    case notInCatalogue(CatalogueEdition, DiscogsAccessError)

    public var description: String {
        switch self {
        case .notInCatalogue(let edition, let problem): "not in the catalogue of \(edition), and \(problem)"
        case .noSuchRelease(let id): "Discogs has no release \(id)"
        case .notARecord(let reason): reason
        case .access(let problem): problem.description
        case .discogs(let error): error.description
        }
    }
}

private struct AnswerJSON: Encodable {
    let input: String
    let gtin: String?
    let outcome: String
    let matchedForm: String?
    let releases: [ListedJSON]
    let source: AnswerSource

    enum Key: String, CodingKey { case input, gtin, outcome, matchedForm, releases, source }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(input, forKey: .input)
        try c.encode(gtin, forKey: .gtin)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(matchedForm, forKey: .matchedForm)
        try c.encode(releases, forKey: .releases)
        try c.encode(source, forKey: .source)
    }
}

private struct ListedJSON: Encodable {
    let listed: DiscogsAnswer.Listed
    let web: String
    let marks: ReleaseMarks

    init(_ listed: DiscogsAnswer.Listed, web: String, marks: ReleaseMarks) {
        self.listed = listed
        self.web = web
        self.marks = marks
    }

    enum Key: String, CodingKey { case id, artist, title, label, catno, formats, year, country, url, owned, wanted }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(listed.id, forKey: .id)
        try c.encode(listed.artist, forKey: .artist)
        try c.encode(listed.title, forKey: .title)
        try c.encode(listed.label, forKey: .label)
        try c.encode(listed.catno, forKey: .catno)
        try c.encode(listed.formats, forKey: .formats)
        try c.encode(listed.year, forKey: .year)
        try c.encode(listed.country, forKey: .country)
        try c.encode(listed.page(web: web), forKey: .url)
        try c.encode(OwnedJSON(marks), forKey: .owned)
        try c.encode(marks.wanted, forKey: .wanted)
    }
}
