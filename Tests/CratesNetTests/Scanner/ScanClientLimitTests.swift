import CratesCore
import CratesTestSupport
import Foundation
import Synchronization
import Testing

@testable import CratesNet

#if canImport(Glibc)
    import Glibc
#endif

/// A client turned away at the camera daemon's limit is told why (issue 12, item 11). What a
/// daemon leaves when it is killed, and what it starts with, is tested on `crates scand`
/// itself (CratesCLITests' ScandLifetimeTests).
@Suite("Scanner: the client limit")
struct ScanClientLimitTests {
    @Test func aClientTurnedAwayAtTheLimitIsToldWhy() async throws {
        let (server, scratch) = try ScanBroadcastTests.server()
        defer { scratch.remove() }
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<ScanServer.maximumClients {
            guard case .success(let fd) = try UnixSocket.connect(to: server.socket.path) else {
                Issue.record("could not connect")
                return
            }
            held.append(fd)
        }
        try await waitUntil("every client connected") { server.clientCount == ScanServer.maximumClients }
        let log = MessageLog()
        let connection = try ScanConnection(path: server.socket.path)
        connection.start { log.append($0) }
        let messages = try await log.wait("the refusal") { $0.contains { if case .disconnected = $0 { true } else { false } } }
        guard case .disconnected(let error)? = messages.last else { return }
        guard case .turnedAway(_, let reason) = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(reason.contains("too many clients: 256"))
        #expect(error.description.contains("turned this client away"))
        #expect(log.dropped.isEmpty)
        server.stop()
        #expect(await server.waitUntilStopped())
    }
}
