import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The local Discogs catalogue in crates' use cases, in process: a real store file, an
/// in-memory twin of the catalogue, and the loopback Discogs server (counting every request)
/// through the real libcurl transport.
@Suite("The catalogue in crates: import, add --wait, lookup, search, the UI")
struct CatalogueUseTests {
    static let known = (1...3).map { Fixtures.gtin(8_100_000 + $0) }
    /// Two pressings share it.
    static let shared = Fixtures.gtin(8_100_010)
    /// Not in the catalogue (nor on the loopback server).
    static let unknown = Fixtures.gtin(8_100_020)

    static func catalogue() -> InMemoryReleaseCatalogue {
        InMemoryReleaseCatalogue(
            known.enumerated().map { (Fixtures.catalogueRelease(1 + $0.offset), [$0.element]) } + [(Fixtures.catalogueRelease(10), [shared]), (Fixtures.catalogueRelease(11), [shared])])
    }

    /// The record of `gtin` among the first few (a test's collection is small).
    static func record(_ store: CollectionStore, _ gtin: GTIN) async throws -> CollectionRecord? {
        for id in Int64(1)...50 {
            if let record = try await store.record(id), record.gtin == gtin { return record }
        }
        return nil
    }

    static func file(_ gtins: [GTIN]) throws -> ImportFile {
        try ImportFile.parse(Array(gtins.map { $0.canonical + "\n" }.joined().utf8))
    }

    @Test("import with Discogs unreachable: every barcode the catalogue knows is final; the rest waits, saying why")
    func importOffline() async throws {
        let server = try await DiscogsTestServer.start()
        let discogs = try access(server)
        await server.stop()
        let temporary = try TemporaryStore()
        let importer = Importer(
            store: temporary.store, progress: QuietImportProgress(), catalogue: Self.catalogue())
        let outcome = try await importer.run(
            try Self.file(Self.known + [Self.shared, Self.unknown]), name: "shelf.txt", options: .init(), discogs: { .success(discogs) })
        #expect(outcome.added == 5)
        let summary = outcome.lines.joined(separator: "\n")
        #expect(summary.contains("4 answered by the catalogue of 2026-06-01 (no request)"), "\(summary)")
        #expect(summary.contains("Discogs cannot be reached: 1 lookup waits in the queue"), "\(summary)")
        for gtin in Self.known {
            let record = try #require(try await Self.record(temporary.store, gtin))
            #expect(record.lookupState == .matched && record.catalogueEdition?.description == "2026-06-01")
        }
        #expect(try await Self.record(temporary.store, Self.shared)?.lookupState == .ambiguous)
        let waiting = try #require(try await Self.record(temporary.store, Self.unknown))
        #expect(waiting.statusText == "not in the catalogue of 2026-06-01; waiting for Discogs")
    }

    @Test("import without a Discogs account: the catalogue answers what it knows, no request; the rest waits")
    func importWithoutAccount() async throws {
        let server = try await DiscogsTestServer.start()
        let anonymous = try access(server, token: nil)
        let temporary = try TemporaryStore()
        let importer = Importer(
            store: temporary.store, progress: QuietImportProgress(), catalogue: Self.catalogue())
        let outcome = try await importer.run(
            try Self.file(Self.known + [Self.unknown]), name: "shelf.txt", options: .init(), discogs: { .success(anonymous) })
        #expect(outcome.ending == .complete, "\(outcome.lines)")
        let summary = outcome.lines.joined(separator: "\n")
        #expect(summary.contains("Discogs: 3 lookups: 3 matched, 0 ambiguous, 0 not found, 0 failed."), "\(summary)")
        #expect(summary.contains("Not signed in to Discogs"), "\(summary)")
        #expect(summary.contains("1 lookup waits in the queue"), "\(summary)")
        let waiting = try #require(try await Self.record(temporary.store, Self.unknown))
        #expect(waiting.lookupState == .pending && waiting.statusText == "not in the catalogue of 2026-06-01; waiting for Discogs")
        #expect(try await server.stats().requests == 0)
    }

    @Test("add --wait without an account: the catalogue's answer, no request; a barcode it lacks says to sign in")
    func addAndWait() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let adding = AddCodes(
            store: temporary.store, access: try access(server, token: nil), allowing: [], wait: 20, catalogue: Self.catalogue())
        let lines = LockBox<[String]>()
        let said = LockBox<[String]>()
        let status = try await adding.run(
            [Self.known[0].canonical, Self.unknown.canonical], out: { lines.append($0) }, say: { said.append($0) })
        #expect(status == 3, "a lookup did not finish: \(said.all)")
        #expect(lines.all.first?.contains("matched\tArtist 1 — Title 1") == true, "\(lines.all)")
        #expect(lines.all.last?.contains("not in the catalogue of 2026-06-01; waiting for Discogs") == true, "\(lines.all)")
        #expect(said.all.contains { $0.contains("not signed in to Discogs") })
        #expect(try await server.stats().requests == 0)
    }

    @Test("crates lookup: the catalogue answers, its JSON says so; a barcode it lacks, or --online, asks Discogs")
    func lookup() async throws {
        let server = try await DiscogsTestServer.start()
        let signedIn = try access(server)
        let catalogue = Self.catalogue()
        let known = try await DiscogsAnswer.ask(.barcode(Self.known[0]), access: signedIn, catalogue: catalogue)
        #expect(known.source == .catalogue && known.outcome == "matched" && known.releases.map(\.id) == [1])
        let several = try await DiscogsAnswer.ask(.barcode(Self.shared), access: signedIn, catalogue: catalogue)
        #expect(several.source == .catalogue && several.outcome == "ambiguous" && several.releases.map(\.id) == [10, 11])
        let byID = try await DiscogsAnswer.ask(.release(2), access: nil, catalogue: catalogue)
        #expect(byID.source == .catalogue && byID.releases.first?.title == "Title 2")
        #expect(try await server.stats().requests == 0)
        #expect(try Self.source(of: known) == "catalogue")

        let online = try await DiscogsAnswer.ask(.barcode(Fixtures.gtin("5099750442227")), access: signedIn, catalogue: catalogue)
        #expect(online.source == .discogs && online.outcome == "matched")
        #expect(try Self.source(of: online) == "discogs")
        // --online: no catalogue.
        let asked = try await DiscogsAnswer.ask(.barcode(Self.known[0]), access: signedIn, catalogue: nil)
        #expect(asked.source == .discogs && asked.outcome == "notFound")
        #expect(try await server.stats().requests >= 2)
        let anonymous = try access(server, token: nil)
        do {
            _ = try await DiscogsAnswer.ask(.barcode(Self.unknown), access: anonymous, catalogue: catalogue)
            Issue.record("neither the catalogue nor Discogs could answer")
        } catch {
            guard case .notInCatalogue = error else { Issue.record("\(error)"); return }
            #expect(error.description.hasPrefix("not in the catalogue of 2026-06-01, and not signed in to Discogs"), "\(error)")
        }
    }

    static func source(of answer: DiscogsAnswer) throws -> String? {
        let json = try answer.json(input: "x", web: "https://www.discogs.com")
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["source"] as? String
    }

    @Test("crates search and the UI's s: the catalogue answers as typed, no request; --online asks Discogs")
    func search() async throws {
        let server = try await DiscogsTestServer.start()
        let finder = ReleaseFinder(access: try access(server), catalogue: Self.catalogue())
        let answer = try await finder.search(try ReleaseSearchQuery(catno: "cat-2"))
        #expect(answer.source == .catalogue && answer.requests == 0 && answer.hits.map(\.candidate.releaseID) == [2])
        #expect(answer.edition?.description == "2026-06-01")
        let line = try SearchListing.jsonLine(answer.hits[0], source: answer.source, web: server.base, encoder: ExportedRecord.makeJSONEncoder())
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["source"] as? String == "catalogue" && object?["catnoMatches"] as? Bool == true)
        #expect(try await server.stats().requests == 0)
        // Found as the catalogue has it: added with no request.
        #expect(finder.knownRelease(2)?.title == "Title 2")

        let online = try await finder.search(try ReleaseSearchQuery(catno: "1C 064-82 306"), online: true)
        #expect(online.source == .discogs && online.hits.map(\.candidate.releaseID) == [20_100_011])
        // Nothing in the catalogue: Discogs is asked.
        let fallback = try await finder.search(try ReleaseSearchQuery(catno: "1C 064-82 306"))
        #expect(fallback.source == .discogs)
    }

    @Test("the UI without an account: a scan the catalogue knows is matched at once, its pressing chosen offline")
    func sessionWithoutAccount() async throws {
        let server = try await DiscogsTestServer.start()
        let anonymous = try access(server, token: nil)
        await server.stop()
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(
            store: temporary.store, discogs: anonymous, lookups: true, scanner: nil, catalogue: Self.catalogue(), post: log.post)
        session.start()
        _ = try await log.first("not signed in") { if case .discogs(.notSignedIn) = $0 { true } else { nil } }
        session.perform(.add(.barcode(Self.known[0]), method: .wedge))
        let id = try await log.first("added") { if case .added(let id) = $0 { id } else { nil } }
        try await waitUntil("matched from the catalogue") { try await temporary.store.record(id)?.lookupState == .matched }
        let details = try #require(try await temporary.store.details(id))
        #expect(details.record.catalogueEdition?.source == "from Discogs' data of 2026-06-01")

        session.perform(.add(.barcode(Self.shared), method: .wedge))
        let shared = try await log.first("added the shared barcode") {
            if case .added(let added) = $0, added != id { added } else { nil }
        }
        try await waitUntil("ambiguous") { try await temporary.store.record(shared)?.lookupState == .ambiguous }
        session.perform(.choose(recordID: shared, releaseID: 11))
        try await waitUntil("chosen offline") { try await temporary.store.record(shared)?.releaseID == 11 }
        // Chosen among the catalogue's candidates: matched from that catalogue, and says so.
        #expect(try await temporary.store.record(shared)?.catalogueEdition?.dumpDate == "20260601")

        // As the person types: the catalogue only, said to be a preview.
        #expect(try await log.first("the catalogue's edition") { if case .catalogue(let e) = $0 { e } else { nil } }.dumpDate == "20260601")
        session.perform(.searchCatalogue(try ReleaseSearchQuery(artist: "artist 2"), for: nil))
        let typed = try await log.first("the preview") { if case .found(let a) = $0, a.preview { a } else { nil } }
        #expect(typed.candidates.map(\.releaseID) == [2] && typed.requests == 0 && typed.catalogue?.description == "2026-06-01")
        // Enter: the search itself, answered by the catalogue too.
        session.perform(.search(try ReleaseSearchQuery(artist: "artist 3"), for: nil))
        let found = try await log.first("the search's answer") { if case .found(let a) = $0, !a.preview { a } else { nil } }
        #expect(found.failure == nil && found.requests == 0 && found.candidates.map(\.releaseID) == [3])
        await session.stopped()
    }
}
