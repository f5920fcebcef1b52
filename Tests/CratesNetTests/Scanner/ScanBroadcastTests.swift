import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

#if canImport(Glibc)
    import Glibc
#endif

/// Events reach every client; malformed lines are dropped by the client with a reason; a slow,
/// stuck or dead client never holds the daemon or the others up.
@Suite("Scanner: broadcasting to clients")
struct ScanBroadcastTests {
    /// A started server in a scratch directory.
    static func server() throws -> (ScanServer, TemporaryDirectory) {
        let scratch = try TemporaryDirectory()
        return (try ScanServer(socket: ScanSocketPath(path: scratch.path + "/scan.sock", isDefault: false)), scratch)
    }

    @Test("every one of many clients gets every event, in order")
    func manyClients() async throws {
        let (server, scratch) = try Self.server()
        defer { scratch.remove() }
        let logs = (0..<40).map { _ in MessageLog() }
        var connections: [ScanConnection] = []
        for log in logs {
            let connection = try ScanConnection(path: server.socket.path)
            connection.start { log.append($0) }
            connections.append(connection)
        }
        try await waitUntil("40 clients accepted") { server.clientCount == 40 }
        let sent = (0..<25).map { ScanEvent.test(String(format: "50997504422%02d", $0)) }
        for event in sent { try server.broadcast(event) }
        for log in logs {
            try await log.wait("25 events") { _ in log.events.count == 25 }
            #expect(log.events == sent)
            #expect(log.dropped.isEmpty)
        }
        for connection in connections { connection.close() }
        try await waitUntil("every client gone") { server.clientCount == 0 }
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("malformed lines are dropped with a reason, and the events after them still arrive")
    func malformedLines() async throws {
        let (server, scratch) = try Self.server()
        defer { scratch.remove() }
        let log = MessageLog()
        let connection = try ScanConnection(path: server.socket.path)
        connection.start { log.append($0) }
        try await waitUntil("one client accepted") { server.clientCount == 1 }

        let valid = ScanEvent.test("5099750442227")
        let malformed: [[UInt8]] = [
            Array("EAN-13:5099750442227\n".utf8),
            [0xFF, 0xFE, 0x7B, 0x7D, 0x0A],
            Array(#"{"symbology":"EAN-13"}"#.utf8) + [0x0A],
            Array(repeating: UInt8(ascii: "x"), count: 10_000) + [0x0A],
            Array("\n  \n".utf8),  // blank lines: ignored silently
        ]
        for line in malformed { server.broadcast(line: line) }
        try server.broadcast(valid)
        try await log.wait("the event after the bad lines") { _ in log.events.count == 1 }
        #expect(log.events == [valid])
        #expect(log.dropped == [
            .notJSON(detail: "read “EAN-13:5099750442227”"),
            .notUTF8,
            .missingField("data"),
            .tooLong(bytes: 4097),
        ])
        #expect(log.all.first == .dropped(.notJSON(detail: "read “EAN-13:5099750442227”")), "nothing before")
        connection.close()
        try await log.wait("the disconnect") { $0.last == .disconnected(.connectionClosed(path: server.socket.path)) }
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("an event too long for the protocol is refused by the daemon, not sent")
    func tooLongToSend() async throws {
        let (server, scratch) = try Self.server()
        defer { scratch.remove() }
        #expect(throws: ScanLineError.self) { try server.broadcast(.test(String(repeating: "9", count: 5000), .qrCode)) }
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("a client that never reads is dropped; the others get everything, and the daemon never waits")
    func stuckClient() async throws {
        let (server, scratch) = try Self.server()
        defer { scratch.remove() }
        // A raw client that connects and never reads: its socket buffer fills, then the
        // daemon's own buffer for it, then it is dropped.
        let stuck = try UnixSocket.connect(to: server.socket.path).get()
        defer { close(stuck) }
        let log = MessageLog()
        let reader = try ScanConnection(path: server.socket.path)
        reader.start { log.append($0) }
        try await waitUntil("two clients accepted") { server.clientCount == 2 }

        let big = String(repeating: "7", count: 3900)
        let count = 400  // about 1.6 MB: far more than a socket buffer plus 64 KB
        for index in 0..<count {
            // broadcast only queues, so it never waits on a client; batches of 8 (32 KB) at a
            // time keep the reading client within its allowance while the stuck one fills up.
            try server.broadcast(.test("\(index)-\(big)", .qrCode))
            if index % 8 == 7 {
                try await log.wait("event \(index)") { _ in log.events.count > index }
            }
        }
        try await log.wait("all \(count) events at the reading client") { _ in log.events.count == count }
        #expect(log.events.map { $0.data.prefix(while: { $0 != "-" }) } == (0..<count).map { Substring(String($0)) })
        try await waitUntil("the stuck client was dropped") { server.clientCount == 1 }
        reader.close()
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("a client that died (closed, reset) is dropped without disturbing the others")
    func deadClient() async throws {
        let (server, scratch) = try Self.server()
        defer { scratch.remove() }
        let log = MessageLog()
        let reader = try ScanConnection(path: server.socket.path)
        reader.start { log.append($0) }
        // Events go to the clients accepted so far: wait until the reader is one.
        try await waitUntil("one client accepted") { server.clientCount == 1 }
        // Clients that close at once, some after sending bytes the daemon must discard.
        for index in 0..<10 {
            let fd = try UnixSocket.connect(to: server.socket.path).get()
            if index % 2 == 0 { _ = send(fd, "hello\n", 6, Int32(MSG_NOSIGNAL)) }
            var linger = linger(l_onoff: 1, l_linger: 0)  // close with RST
            if index % 3 == 0 { setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size)) }
            close(fd)
        }
        for index in 0..<20 { try server.broadcast(.test(String(index))) }
        try await log.wait("20 events") { _ in log.events.count == 20 }
        try await waitUntil("the dead clients dropped, the reader kept") { server.clientCount == 1 }
        reader.close()
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("stopping the daemon disconnects its clients and removes the socket")
    func stopDisconnects() async throws {
        let (server, scratch) = try Self.server()
        defer { scratch.remove() }
        let path = server.socket.path
        var streamed: [ScanMessage] = []
        let connection = try ScanConnection(path: path)
        try await waitUntil("one client accepted") { server.clientCount == 1 }
        try server.broadcast(.test("5099750442227"))
        server.stop()
        // The AsyncStream form: ends after .disconnected.
        for await message in connection.messages { streamed.append(message) }
        #expect(streamed == [.event(.test("5099750442227")), .disconnected(.connectionClosed(path: path))])
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
        #expect(fileMode(path) == nil)
        #expect(throws: ScannerError.noDaemon(path: path)) { try ScanConnection(path: path) }
    }

    @Test("a follower reports no daemon once, connects when one starts, and reconnects after a restart")
    func follower() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let socket = ScanSocketPath(path: scratch.path + "/scan.sock", isDefault: false)
        let log = MessageLog()
        let follower = ScanFollower(path: socket.path, retryInterval: .milliseconds(50)) { log.append($0) }
        follower.start()
        try await log.wait("no daemon") { $0 == [.disconnected(.noDaemon(path: socket.path))] }
        // Several attempts without a daemon; then one: its "connected" is the sentinel after
        // which every report of those attempts is in the log.
        let attempts = follower.attempts
        try await waitUntil("five more attempts to connect") { follower.attempts >= attempts + 5 }
        let first = try ScanServer(socket: socket)
        try await log.wait("connected") { $0.last == .connected(path: socket.path) }
        #expect(log.all == [.disconnected(.noDaemon(path: socket.path)), .connected(path: socket.path)],
                "no daemon reported once, not at every attempt")
        try await waitUntil("the follower accepted by the first daemon") { first.clientCount == 1 }
        try first.broadcast(.test("1"))
        try await log.wait("an event") { _ in log.events.count == 1 }
        first.stop()
        #expect(await first.waitUntilStopped(timeout: .seconds(30)))
        try await log.wait("disconnected, then no daemon") { $0.last == .disconnected(.noDaemon(path: socket.path)) }

        let second = try ScanServer(socket: socket)
        try await log.wait("reconnected") { $0.last == .connected(path: socket.path) }
        try await waitUntil("the follower accepted by the second daemon") { second.clientCount == 1 }
        try second.broadcast(.test("2"))
        try await log.wait("an event from the new daemon") { _ in log.events.count == 2 }
        #expect(log.all == [
            .disconnected(.noDaemon(path: socket.path)),
            .connected(path: socket.path),
            .event(.test("1")),
            .disconnected(.connectionClosed(path: socket.path)),
            .disconnected(.noDaemon(path: socket.path)),
            .connected(path: socket.path),
            .event(.test("2")),
        ])
        follower.stop()
        try await waitUntil("the follower to finish") { follower.isFinished }
        second.stop()
        #expect(await second.waitUntilStopped(timeout: .seconds(30)))
    }
}
