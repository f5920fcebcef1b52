import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesApp

/// A renderer twin: a JPEG or a PNG (by its first bytes) becomes cells of one colour, in the
/// size asked; anything else is unreadable, as the real renderer says.
private struct TwinRenderer: CoverRendering {
    func render(_ image: [UInt8], columns: Int, rows: Int, colours: CoverColours) -> CoverArt? {
        guard image.starts(with: [0xFF, 0xD8, 0xFF]) || image.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        let red = CoverArt.RGB(red: 255, green: 0, blue: 0)
        return CoverArt(rows: Array(repeating: Array(repeating: CoverArt.Cell(symbol: "█", foreground: red, background: red), count: columns), count: rows))
    }
}

/// The session's covers: a record's cover fetched off the UI thread and drawn; the reasons
/// there is none said as placeholders.
@Suite("CollectionSession: covers", .serialized)
struct CoverSessionTests {
    private func session(_ server: DiscogsTestServer, _ temporary: TemporaryStore, _ log: EventLog) throws -> CollectionSession {
        let cache = CoverCache(directory: temporary.directory.file("covers"), limitBytes: 1_000_000)
        let access = try access(server)
        return CollectionSession(
            store: temporary.store, discogs: access, lookups: false, scanner: nil,
            covers: CoverLibrary(cache: cache, budget: CoverBudget(cache: cache), store: temporary.store, access: access),
            renderer: TwinRenderer(), post: log.post)
    }

    /// A matched record whose release (stored from an anonymous answer: no address) is 5134861.
    private func matchedRecord(_ store: CollectionStore) async throws -> Int64 {
        let record = try await addPending(store, "727361626525")
        let release = Release(id: 5_134_861, artist: "HammerFall", title: "Glory To The Brave", rawJSON: #"{"id": 5134861, "thumb": "", "images": []}"#)
        try await store.choose(release, for: record.id)
        return record.id
    }

    private func answer(_ log: EventLog, _ request: CoverRequest) async throws -> CoverState {
        try await log.first("the cover's answer") { event -> CoverState? in
            if case .cover(let asked, let state) = event, asked == request { return state }
            return nil
        }
    }

    @Test("a record's cover: its release fetched signed for the address, the image drawn, once")
    func drawsARecordsCover() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "jpeg")
        let temporary = try TemporaryStore()
        let id = try await matchedRecord(temporary.store)
        let log = EventLog()
        let session = try session(server, temporary, log)
        let request = CoverRequest(subject: .record(id), columns: 8, rows: 4, colours: .palette256)
        try await running(session) {
            session.perform(.cover(request))
            guard case .art(let art) = try await answer(log, request) else { Issue.record("no art"); return }
            #expect(art.columns == 8 && art.rows.count == 4)
            // A second size: from the cache.
            let smaller = CoverRequest(subject: .record(id), columns: 4, rows: 2, colours: .palette256)
            session.perform(.cover(smaller))
            guard case .art = try await answer(log, smaller) else { Issue.record("no art"); return }
        }
        #expect(try await server.coverCounts().requests == 1)
        #expect(try await temporary.store.storedRelease(5_134_861)?.hasFullDetails == true, "the signed fetch kept")
    }

    @Test("no release, a corrupt image, a 404: placeholders that say why")
    func placeholders() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "webp")
        try await server.setCover(release: 10_507_194, "404")
        let temporary = try TemporaryStore()
        let matched = try await matchedRecord(temporary.store)
        let pending = try await addPending(temporary.store, "5099750442227")
        let log = EventLog()
        let session = try session(server, temporary, log)
        let webp = CoverRequest(subject: .record(matched), columns: 8, rows: 4, colours: .direct)
        let unmatched = CoverRequest(subject: .record(pending.id), columns: 8, rows: 4, colours: .direct)
        let gone = CoverRequest(subject: .release(10_507_194, url: nil), columns: 8, rows: 4, colours: .direct)
        try await running(session) {
            session.perform(.cover(webp))
            session.perform(.cover(unmatched))
            session.perform(.cover(gone))
            let (a, b, c) = (try await answer(log, webp), try await answer(log, unmatched), try await answer(log, gone))
            #expect(a == .placeholder("not an image crates reads"))
            #expect(b == .placeholder("not matched to a Discogs release yet"))
            #expect(c == .placeholder("no cover on Discogs"))
        }
    }

    /// A pressing in the picker: its cover's address came with the search, so one image
    /// request; without one, the release's signed fetch first (two requests).
    @Test("a pressing's cover: by the search's address one request; without one, the release fetched first")
    func pressingsCovers() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = try session(server, temporary, log)
        let known = CoverRequest(subject: .release(2_000, url: server.base + "/images/R-2000-0.jpg"), columns: 8, rows: 4, colours: .palette256)
        let unknown = CoverRequest(subject: .release(10_507_194, url: nil), columns: 8, rows: 4, colours: .palette256)
        try await running(session) {
            session.perform(.cover(known))
            guard case .art = try await answer(log, known) else { Issue.record("no art"); return }
            #expect(try await server.coverCounts().requests == 1)
            #expect(try await server.stats().releases.isEmpty, "no release fetched for an address the search gave")
            session.perform(.cover(unknown))
            guard case .art = try await answer(log, unknown) else { Issue.record("no art"); return }
        }
        #expect(try await server.coverCounts().requests == 2)
        #expect(try await server.stats().releases.count == 1)
    }

    /// Paging through a long picker asks for many covers; those no longer looked at must not
    /// all be fetched. The line keeps the latest `lineLimit`: the oldest falls out, answered
    /// `.loading` (the UI asks again if it shows it again), and the latest asked goes first.
    @Test("the line: the latest asked first; past its limit the oldest falls out, answered .loading")
    func theLineIsBounded() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = try session(server, temporary, log)
        func request(_ n: Int) -> CoverRequest {
            CoverRequest(subject: .release(3_000 + 2 * n, url: server.base + "/images/R-\(3_000 + 2 * n)-0.jpg"), columns: 4, rows: 2, colours: .sixteen)
        }
        let asked = CoverDesk.lineLimit + 2
        try await server.hold(match: "/images/")
        try await running(session) {
            // The first is taken at once and held at the server; the rest wait in line.
            session.perform(.cover(request(0)))
            try await server.waitUntilHeld(1)
            for n in 1..<asked { session.perform(.cover(request(n))) }
            let dropped = try await log.first("a cover fallen out of line") { event -> CoverRequest? in
                if case .cover(let request, .loading) = event { return request }
                return nil
            }
            #expect(dropped == request(1), "the oldest waiting")
            try await server.release()
            for n in [0, asked - 1, asked - 2] {
                guard case .art = try await answer(log, request(n)) else { Issue.record("no art for \(n)"); return }
            }
            let order = log.all.compactMap { event -> CoverRequest? in
                if case .cover(let request, .art) = event { return request }
                return nil
            }
            #expect(Array(order.prefix(3)) == [request(0), request(asked - 1), request(asked - 2)], "the latest asked first")
            #expect(log.count { if case .cover(_, .loading) = $0 { return true } else { return false } } == 1)
        }
    }

    @Test("covers off: a placeholder, nothing fetched")
    func off() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(store: temporary.store, discogs: try access(server), lookups: false, scanner: nil, post: log.post)
        let request = CoverRequest(subject: .release(1, url: nil), columns: 8, rows: 4, colours: .direct)
        try await running(session) {
            session.perform(.cover(request))
            let answered = try await answer(log, request)
            #expect(answered == .placeholder("covers are off"))
        }
        #expect(try await server.coverCounts().requests == 0)
    }
}
