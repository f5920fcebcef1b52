import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesApp

/// The session's lifecycle: what it starts, it owns, and its stop ends all of it.
@Suite("CollectionSession: one worker, and a stop that ends what it started", .serialized)
struct SessionLifecycleTests {
    @Test("two sign-ins in a row: one worker runs, and the stop ends every worker started")
    func twoSignIns() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(
            store: temporary.store, discogs: try access(server), lookups: true, scanner: nil, post: log.post)
        try await running(session) {
            session.signedIn(try access(server))
            session.signedIn(try access(server))
            try await waitUntil("both sign-ins answered") {
                log.count { if case .message(let text, false) = $0 { text.hasPrefix("Signed in to Discogs as") } else { false } } == 2
            }
            #expect(session.workersRunning == 1)
            await session.stopped()
            #expect(session.workersRunning == 0)
        }
        await server.stop()
    }

    @Test("the stop cancels the searches and the adds by release it started, and waits for them")
    func stopCancelsStartedWork() async throws {
        let server = try await DiscogsTestServer.start()
        let temporary = try TemporaryStore()
        let log = EventLog()
        let session = CollectionSession(
            store: temporary.store, discogs: try access(server), lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            try await server.hold(match: "/database/search")
            try await server.hold(match: "/releases/")
            session.perform(.search(try ReleaseSearchQuery(catno: "1C 064-82 306"), for: nil))
            session.perform(.add(.release(20_100_011), method: .releaseID))
            try await server.waitUntilHeld(2)

            await session.stopped()
            // Both ended before the stop returned, though the server still holds their requests.
            #expect(log.count { if case .found(let answer) = $0 { answer.failure != nil } else { false } } == 1)
            #expect(log.count { if case .message(_, true) = $0 { true } else { false } } == 1)
            #expect(log.count { if case .added = $0 { true } else { false } } == 0)
            #expect(try await temporary.store.sections().isEmpty)
        }
        try await server.release()
        await server.stop()
    }
}
