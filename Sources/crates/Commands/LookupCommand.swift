import ArgumentParser
import CratesCore
import CratesNet
import Foundation

/// `crates lookup CODE`: what Discogs says about a barcode (or a release), without adding
/// anything to the collection.
struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Show what Discogs returns for a barcode, without adding it to the collection.",
        discussion: """
            CODE is a barcode in any form `crates barcode` reads, or a Discogs release \
            (r249504, or a release page URL). A barcode is searched on Discogs in each of its \
            printed forms, as the collection's lookups do, until one has results.

            Output: one line per release, tab-separated:
              outcome  release_id  artist  title  label  catno  format  year  country  url
            outcome is "matched" when the barcode names one release, "ambiguous" on each \
            line when several pressings share it (add the one in your hands with \
            `crates add rRELEASE_ID`). Empty fields are values Discogs does not give.

            With --json, one JSON object: input, gtin, outcome (matched, ambiguous or \
            notFound), matchedForm (the barcode form that had results) and releases (id, \
            artist, title, label, catno, formats, year, country, url).

            Searching Discogs' database needs an account: sign in first with `crates auth`. \
            Requests go at the rate Discogs allows.

            Exit status:
              0  found: one release, or several to choose from
              1  CODE is not a valid barcode, or not a record's (an ISBN, a coupon…)
              2  Discogs knows no release with this barcode (or no such release id)
              3  not signed in to Discogs, or Discogs refused the credentials
              4  Discogs could not be reached, or answered with an error

            Examples:
              crates lookup 5099750442227
              crates lookup '0 77774 62002 4' --json | jq -r '.releases[].title'
              crates lookup r249504
            """)

    @Flag(help: "Print one JSON object instead of tab-separated lines.")
    var json = false

    @Argument(help: "The barcode (as printed or scanned), or a Discogs release (r249504 or its URL).")
    var code: String

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let shown = GTIN.displayForm(of: code)
        let query: Query
        if let id = ReleaseReference.parse(code) {
            query = .release(id)
        } else {
            let parsed: ParsedBarcode
            do {
                parsed = try GTIN.parse(code)
            } catch {
                StandardStreams.err("crates lookup: \(shown): \(error)\n")
                throw ExitCode(1)
            }
            if let reason = parsed.gtin.notARecordReason {
                StandardStreams.err("crates lookup: \(shown): \(reason); Discogs lists records only\n")
                throw ExitCode(1)
            }
            query = .barcode(parsed.gtin)
        }

        let stored: StoredCredentials?
        let client: DiscogsClient
        do {
            stored = try CredentialStore(environment: environment).load()
            client = try DiscogsSetup.client(environment: environment, version: Crates.version)
        } catch {
            throw CLIError("\(error)")
        }
        if case .barcode = query, stored == nil {
            StandardStreams.err("""
                crates lookup: not signed in to Discogs, whose database search needs an account: \
                run `crates auth` (or `crates auth --token`) first\n
                """)
            throw ExitCode(3)
        }

        let answer: Answer
        do {
            answer = try blocking { try await Self.ask(client, query) }
        } catch let error as DiscogsError {
            if case .notFound = error, case .release(let id) = query {
                StandardStreams.err("crates lookup: Discogs has no release \(id)\n")
                throw ExitCode(2)
            }
            StandardStreams.err("crates lookup: \(shown): \(error)\n")
            if case .unauthorized = error { throw ExitCode(3) }
            throw ExitCode(4)
        }

        let web = client.endpoints.web
        if json {
            try StandardStreams.out(try answer.json(input: shown, web: web) + "\n")
        } else {
            var text = ""
            for release in answer.releases {
                text += TabSeparatedText.line([answer.outcome] + release.fields(web: web)) + "\n"
            }
            try StandardStreams.out(text)
        }
        if answer.releases.isEmpty {
            let forms = answer.searched.isEmpty ? "" : " (searched: \(answer.searched.joined(separator: "; ")))"
            StandardStreams.err("crates lookup: Discogs knows no release with barcode \(shown)\(forms)\n")
            throw ExitCode(2)
        }
    }

    /// What was asked.
    enum Query: Sendable {
        case barcode(GTIN)
        case release(Int)
    }

    /// Discogs' answer, reduced to what is shown.
    struct Answer: Sendable {
        var gtin: GTIN?
        /// "matched", "ambiguous" or "notFound".
        var outcome: String
        var matchedForm: String?
        var searched: [String]
        var releases: [Listed]

        func json(input: String, web: String) throws -> String {
            let object = AnswerJSON(
                input: input, gtin: gtin?.canonical, outcome: outcome, matchedForm: matchedForm,
                releases: releases.map { ListedJSON($0, web: web) })
            return String(decoding: try ExportedRecord.makeJSONEncoder().encode(object), as: UTF8.self)
        }
    }

    /// One release or candidate as `lookup` lists it.
    struct Listed: Sendable {
        var id: Int
        var artist: String
        var title: String
        var label: String?
        var catno: String?
        var formats: [String]
        var year: Int?
        var country: String?
        var url: String?

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
        func page(web: String) -> String { url ?? "\(web)/release/\(id)" }

        func fields(web: String) -> [String] {
            [
                String(id), artist, title, label ?? "", catno ?? "", formats.joined(separator: " + "),
                year.map(String.init) ?? "", country ?? "", page(web: web),
            ]
        }
    }

    static func ask(_ client: DiscogsClient, _ query: Query) async throws(DiscogsError) -> Answer {
        switch query {
        case .release(let id):
            let release = try await client.release(id: id)
            return Answer(
                gtin: ReleaseBarcodes.gtin(in: release), outcome: LookupState.matched.rawValue, matchedForm: nil,
                searched: [], releases: [Listed(release)])
        case .barcode(let gtin):
            let barcodeQuery = DiscogsBarcodeQuery(gtin: gtin)
            let result = try await DiscogsBarcodeLookup(client: client).lookUp(barcodeQuery)
            switch result.outcome {
            case .matched(let release):
                return Answer(
                    gtin: gtin, outcome: LookupState.matched.rawValue, matchedForm: result.matchedForm,
                    searched: barcodeQuery.forms, releases: [Listed(release)])
            case .ambiguous(let candidates):
                return Answer(
                    gtin: gtin, outcome: LookupState.ambiguous.rawValue, matchedForm: result.matchedForm,
                    searched: barcodeQuery.forms, releases: candidates.map(Listed.init))
            case .notFound, .skipped, .failed:
                // lookUp throws its failures and skips nothing that got this far.
                return Answer(
                    gtin: gtin, outcome: LookupState.notFound.rawValue, matchedForm: nil,
                    searched: barcodeQuery.forms, releases: [])
            }
        }
    }
}

private struct AnswerJSON: Encodable {
    let input: String
    let gtin: String?
    let outcome: String
    let matchedForm: String?
    let releases: [ListedJSON]

    enum Key: String, CodingKey { case input, gtin, outcome, matchedForm, releases }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(input, forKey: .input)
        try c.encode(gtin, forKey: .gtin)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(matchedForm, forKey: .matchedForm)
        try c.encode(releases, forKey: .releases)
    }
}

private struct ListedJSON: Encodable {
    let listed: LookupCommand.Listed
    let web: String

    init(_ listed: LookupCommand.Listed, web: String) {
        self.listed = listed
        self.web = web
    }

    enum Key: String, CodingKey { case id, artist, title, label, catno, formats, year, country, url }

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
    }
}
