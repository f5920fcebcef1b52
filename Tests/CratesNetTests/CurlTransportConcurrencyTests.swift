import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// Several requests at once through one transport, each on its own connection.
@Suite struct CurlTransportConcurrencyTests {
    private func get(_ transport: CurlTransport, _ server: DiscogsTestServer, _ path: String) async throws(TransportError) -> HTTPResponse {
        try await transport.send(HTTPRequest(url: server.base + path, headers: [("Authorization", "Discogs token=\(DiscogsTestServer.token)")]))
    }

    @Test func aHeldAnswerHoldsBackOnlyItself() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.hold(match: "/releases/1", count: 1)
        // The held request waits while the six others are answered, however long a loaded
        // machine takes for them: not the 10 s of the tests' usual timeout.
        let transport = try testTransport(timeout: 120)
        let held = Task { try await get(transport, server, "/releases/1") }
        try await waitUntil("(try? await server.lookupStats().held) == 1") { (try? await server.lookupStats().held) == 1 }
        for _ in 0..<6 {
            #expect(try await get(transport, server, "/releases/5134861").status == 200)
        }
        #expect(try await server.lookupStats().held == 1, "still held while the others were answered")
        try await server.release()
        #expect(try await held.value.status == 200)
        let stats = try await server.lookupStats()
        #expect(stats.maxInFlight == 2)
    }

    @Test func requestsBeyondTheConnectionsWaitForOne() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.hold(match: "/releases/1", count: 2)
        let transport = try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 120, connections: 2))
        let held = [Task { try await get(transport, server, "/releases/1") }, Task { try await get(transport, server, "/releases/1") }]
        try await waitUntil("(try? await server.lookupStats().held) == 2") { (try? await server.lookupStats().held) == 2 }
        let third = Task { try await get(transport, server, "/releases/10507194") }
        try await server.release()
        for task in held + [third] { #expect(try await task.value.status == 200) }
        let stats = try await server.lookupStats()
        #expect(stats.maxInFlight == 2 && stats.order.last == "/releases/10507194")
    }

    @Test func aCancelledRequestIsAbortedWithoutWaitingForItsAnswer() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.hold(match: "/releases/1", count: 1)
        let transport = try testTransport(timeout: 120)
        let held = Task { try await get(transport, server, "/releases/1") }
        try await waitUntil("(try? await server.lookupStats().held) == 1") { (try? await server.lookupStats().held) == 1 }
        held.cancel()
        await #expect(throws: TransportError.cancelled) { _ = try await held.value }
        #expect(try await server.lookupStats().held == 1, "cancelled while the server still held it")
        try await server.release()
        #expect(try await get(transport, server, "/releases/1").status == 200, "the handle serves the next request")
    }

    @Test func aResetConnectionIsTransient() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.inject("reset", match: "/releases/1")
        let transport = try testTransport()
        do {
            _ = try await get(transport, server, "/releases/1")
            Issue.record("expected the connection to break")
        } catch {
            guard case .connectionLost = error else { Issue.record("got \(error)"); return }
            #expect(error.isTransient && !error.isOffline)
        }
    }
}
