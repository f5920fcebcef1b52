import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Records without a barcode (issue 14), in process: the use cases against a real store file
/// and the loopback Discogs server's field search, through the real libcurl transport.
@Suite("Records without a barcode: search, entry by hand, edit, refresh, import", .serialized)
struct NoBarcodeTests {
    /// Signed in to `server` with its token, through libcurl.
    static func access(_ server: DiscogsTestServer) throws -> DiscogsAccess {
        let transport = try CurlTransport(configuration: .init(userAgent: "crates-tests", connectTimeout: 5, totalTimeout: 60))
        let client = DiscogsClient(
            transport: transport, endpoints: server.endpoints, credentials: .personalToken(server.token),
            rateLimiter: RateLimiter(configuration: .init(limit: 60, window: 60)))
        return DiscogsAccess(client: client, username: "tester", signedIn: true)
    }

    /// A UI session on a fresh store, signed in to a fresh server, lookups off.
    static func session() async throws -> (DiscogsTestServer, TemporaryStore, EventLog, CollectionSession) {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(
            store: temporary.store, discogs: try access(server), lookups: false, scanner: nil, post: log.post)
        return (server, temporary, log, session)
    }

    @Test("s in the UI: a search's candidates come back, and the one chosen is added as found, with no further request")
    func searchAndAdd() async throws {
        let (server, temporary, log, session) = try await Self.session()
        try await running(session) {
            let query = try ReleaseSearchQuery(catno: "1C 064-82 306")
            session.perform(.search(query, for: nil))
            let answer = try await log.first("the search's answer") { if case .found(let a) = $0 { a } else { nil } }
            #expect(answer.failure == nil && answer.requests == 1 && answer.recordID == nil)
            #expect(answer.candidates.map(\.releaseID) == [20_100_011])
            session.perform(.add(.release(20_100_011), method: .search))
            let id = try await log.first("added") { if case .added(let id) = $0 { id } else { nil } }
            // Named with its pressing, as a pressing picked for a barcode is.
            let said = try await log.first("said added") { event -> String? in
                if case .message(let text, false) = event, text.hasPrefix("Added ") { text } else { nil }
            }
            #expect(said.hasPrefix("Added Kraftwerk — Trans Europa Express (") && said.contains("1C 064-82 306"), "\(said)")
            let details = try #require(try await temporary.store.details(id))
            #expect(details.record.gtin == nil && details.record.lookupState == .matched && details.record.addMethod == .search)
            #expect(details.displayTitle == "Kraftwerk — Trans Europa Express")
            #expect(try await temporary.store.sections().map(\.name) == ["Electronic"])
            let stats = try await server.stats()
            #expect(stats.requests == 1 && stats.releases.isEmpty, "one search, and the release completed from it")
        }
    }

    @Test("a search for a record entered by hand links it; the collector's own values stay and win")
    func linkAHandEntry() async throws {
        let (server, temporary, log, session) = try await Self.session()
        defer { _ = server }
        try await running(session) {
            let typed = try RecordFields.handEntered([.artist: "kraftwerk", .title: "trans-europe express", .genre: "Krautrock"])
            session.perform(.enterByHand(typed, for: nil))
            let id = try await log.first("entered") { if case .added(let id) = $0 { id } else { nil } }
            #expect(try await temporary.store.record(id)?.lookupState == .handEntered)
            session.perform(.search(try ReleaseSearchQuery(artist: "kraftwerk", title: "trans-europe express"), for: id))
            let answer = try await log.first("the search's answer") { if case .found(let a) = $0 { a } else { nil } }
            #expect(answer.recordID == id && Set(answer.candidates.map(\.country)) == ["US", "UK"])
            let chosen = try #require(answer.candidates.first { $0.country == "UK" })
            session.perform(.choose(recordID: id, releaseID: chosen.releaseID))
            try await waitUntil("the record is matched") { try await temporary.store.record(id)?.lookupState == .matched }
            let details = try #require(try await temporary.store.details(id))
            #expect(details.release?.id == chosen.releaseID && details.release?.country == "UK")
            #expect(details.shown.title == "trans-europe express" && details.shown.genre == "Krautrock", "the collector's values kept")
            #expect(try await temporary.store.sections().map(\.name) == ["Krautrock"])
            #expect(details.history.map(\.kind) == [.enteredByHand, .chosen])
        }
    }

    @Test("an edit survives a refresh: Discogs' values are fetched again, the collector's still win")
    func editSurvivesRefresh() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let access = try Self.access(server)
        guard case .added(let record, _) = try await RecordAdder(store: temporary.store, discogs: access).add(.release(20_000_001), method: .releaseID)
        else {
            Issue.record("not added")
            return
        }
        #expect(record.gtin == nil, "the release lists no barcode")
        let edited = try await RecordEditing.edit(
            record.id, values: [.year: "1974", .title: "DSOTM"], clear: [], note: "gatefold", store: temporary.store)
        #expect(edited.listingLine.hasSuffix("\ttitle,year\t"), "the collector's fields, then no place")
        try await server.reset()
        let outcome = try await Refresh.run([record.id], store: temporary.store, access: access, timeout: 30)
        #expect(outcome.ending == .complete, "\(outcome.messages)")
        #expect(outcome.lines == ["\(record.id)\t\tmatched\tPink Floyd — DSOTM\n"])
        #expect(try await server.stats().releases == ["20000001"], "the release fetched again by its id, not searched")
        let details = try #require(try await temporary.store.details(record.id))
        #expect(details.release?.year == 1973 && details.shown.year == 1974 && details.shown.title == "DSOTM")
        #expect(details.record.note == "gatefold")
        // A record entered by hand is never looked up.
        guard case .added(let typed) = try await RecordAdder(store: temporary.store, discogs: access)
            .addByHand(try RecordFields.handEntered([.artist: "X", .title: "Y"]))
        else {
            Issue.record("not added by hand")
            return
        }
        let refused = try await Refresh.run([typed.id, 999], store: temporary.store, access: access, timeout: 30)
        #expect(refused.ending == .notLookedUp && refused.lines.isEmpty)
        #expect(refused.messages.count == 2 && refused.messages[0].contains("entered by hand"), "\(refused.messages)")
    }

    @Test("a CSV without barcodes: each row searched; matched (Discogs' values stand), ambiguous with candidates, not found (its values kept)")
    func importWithoutBarcodes() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let access = try Self.access(server)
        let csv = """
            artist,title,catno,year
            Kraftwerk,Trans Europa Express,1C 064-82 306,
            Pink Floyd,The Dark Side Of The Moon,SHVL 804,
            Nobody,Nothing,ZZZ 999,
            Motörhead,Ace Of Spades,,1980

            """
        let parsed = try ImportFile.parse(Array(csv.utf8))
        #expect(parsed.refusals.isEmpty && parsed.entries.count == 4)
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let first = try await importer.run(parsed, name: "shelf.csv", options: .init(), discogs: { .success(access) })
        #expect(first.ending == .complete)
        #expect(first.lines.first == "shelf.csv: 4 added, 0 already in the collection.")
        #expect(first.lines.contains("Discogs: 4 lookups: 2 matched, 1 ambiguous, 1 not found, 0 failed."), "\(first.lines)")
        #expect(first.report.items.map(\.kind) == ["ambiguous", "not-found"])
        #expect(first.report.items.map(\.line) == [3, 4])
        #expect(first.report.needsAChoice, "the records needing a choice are said, for the command line to point to the UI")
        // 1 + 1 + 3 (as typed, without the number, compacted) + 1, and no release fetched.
        let stats = try await server.stats()
        #expect(stats.requests == 6 && stats.releases.isEmpty, "\(stats.requests) requests")

        let rows = try await temporary.store.sections().flatMap(\.rows)
        let kraftwerk = try #require(rows.first { $0.title == "Trans Europa Express" })
        #expect(kraftwerk.lookupState == .matched && kraftwerk.gtin.isEmpty)
        let pinkFloyd = try #require(rows.first { $0.title == "The Dark Side Of The Moon" })
        #expect(pinkFloyd.lookupState == .ambiguous && pinkFloyd.candidateCount == 4)
        let nobody = try #require(rows.first { $0.lookupState == .notFound })
        #expect(nobody.displayTitle == "Nobody — Nothing", "a row not found still shows what it is")
        // The row's values found Kraftwerk's release: Discogs' stand now, none kept as the
        // collector's. The row not found keeps its own.
        #expect(try await temporary.store.record(kraftwerk.recordID)?.collector == RecordFields.none)
        #expect(try await temporary.store.record(nobody.recordID)?.collector.catno == "ZZZ 999")
        let candidates = try #require(try await temporary.store.record(pinkFloyd.recordID)?.candidates)
        #expect(Set(candidates.compactMap(\.catno)) == ["SHVL 804", "SHVL.804", "SHVL-804", "TC-SHVL 804"])
        #expect(try await temporary.store.needingAPerson() == [pinkFloyd.recordID, nobody.recordID])

        // Again, with --manual-missing: nothing added twice; the row not found is entered by hand.
        try await server.reset()
        let again = try await importer.run(parsed, name: "shelf.csv", options: .init(manualMissing: true), discogs: { .success(access) })
        #expect(again.lines.first == "shelf.csv: 0 added, 4 already in the collection.")
        #expect(again.lines.contains("1 row Discogs has no release for entered by hand (--manual-missing)."), "\(again.lines)")
        #expect(try await temporary.store.record(nobody.recordID)?.lookupState == .handEntered)
        #expect(try await server.stats().requests == 0)
    }

    @Test("a CSV row without a barcode that finds a release the collection has: a copy already there, not added again, said so")
    func describedRowFindingACopyAlreadyThere() async throws {
        let server = try await DiscogsTestServer.start()
        let access = try Self.access(server)
        let csv = "artist,title,catno\nKraftwerk,Trans Europa Express,1C 064-82 306\n"
        let parsed = try ImportFile.parse(Array(csv.utf8))
        // The release the row finds, as another collection holds it.
        let elsewhere = try TemporaryStore()
        _ = try await Importer(store: elsewhere.store, progress: QuietImportProgress())
            .run(parsed, name: "shelf.csv", options: .init(), discogs: { .success(access) })
        let found = try #require(try await elsewhere.store.details(1)?.release, "the row found its release")

        // A collection with that release already (added by its release, say).
        let temporary = try TemporaryStore()
        let held = try await temporary.store.add(NewRecord(gtin: nil, addMethod: .typed, release: found))
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let outcome = try await importer.run(parsed, name: "shelf.csv", options: .init(), discogs: { .success(access) })
        #expect(outcome.lines.prefix(2) == [
            "shelf.csv: 0 added, 1 already in the collection.",
            "1 row without a barcode found a release the collection has already: not added again, as a barcode already there is not (--copies adds it).",
        ], "\(outcome.lines)")
        #expect(try await temporary.store.sections().flatMap(\.rows).map(\.recordID) == [held.id], "one copy, not two")

        // --copies adds it all the same.
        let copies = try await importer.run(parsed, name: "shelf.csv", options: .init(copies: true), discogs: { .success(access) })
        #expect(copies.lines.first == "shelf.csv: 1 added, 0 already in the collection.", "\(copies.lines)")
        #expect(try await temporary.store.sections().flatMap(\.rows).count == 2)
    }

    @Test("a CSV without barcodes, --keep-values: the row's values stay the collector's after they find the release")
    func importKeepingValues() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let access = try Self.access(server)
        let csv = "artist,title,catno\nKraftwerk,Trans Europa Express,1C 064-82 306\n"
        let parsed = try ImportFile.parse(Array(csv.utf8))
        let importer = Importer(store: temporary.store, progress: QuietImportProgress())
        let outcome = try await importer.run(parsed, name: "shelf.csv", options: .init(keepValues: true), discogs: { .success(access) })
        #expect(outcome.ending == .complete, "\(outcome.lines)")
        let row = try #require(try await temporary.store.sections().flatMap(\.rows).first)
        #expect(row.lookupState == .matched)
        let kept = try #require(try await temporary.store.record(row.recordID)?.collector)
        #expect(kept.artist == "Kraftwerk" && kept.title == "Trans Europa Express" && kept.catno == "1C 064-82 306")
    }
}
