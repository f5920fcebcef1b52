import CratesCore
import Foundation
import Synchronization
import Testing

@testable import CratesNet

#if canImport(Glibc)
    import Glibc
#endif

/// What a camera daemon leaves when it is killed, and what it starts with (issue 12, item
/// 11): its decoder dies with it, a new daemon ends what a dead one left, a daemon started
/// without standard error does not write its log into its files, and a client turned away
/// at the limit is told why.
@Suite("Scanner: daemon lifetime")
struct DaemonLifetimeTests {
    /// The pid in a log line "decoder started (pid N)".
    private func decoderPID(_ daemon: BenchDriver) async -> Int32? {
        guard let line = await daemon.line(containing: "decoder started (pid ") else { return nil }
        return Int32(line.split(separator: "(pid ").last?.dropLast() ?? "")
    }

    @Test(.enabled(if: DecoderProcess.deathSignalWrapper != nil))
    func theDecoderDiesWithItsDaemon() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let daemon = try BenchDriver(["scand", "--socket", scratch.path + "/scan.sock", "--decoder", "exec sleep 1000"])
        let decoder = try #require(await decoderPID(daemon), "daemon said \(daemon.lines)")
        #expect(!processIsGone(decoder))
        kill(daemon.pid, SIGKILL)
        #expect(await daemon.exitStatus() != nil)
        #expect(await eventually(.seconds(10)) { processIsGone(decoder) }, "decoder \(decoder) outlived its daemon")
        if !processIsGone(decoder) { kill(decoder, SIGKILL) }
    }

    /// A shell decoder's child is not its death signal's: the next daemon ends it, found by
    /// the process group noted beside the lock file.
    @Test func aNewDaemonEndsTheDecoderADeadOneLeft() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let socket = scratch.path + "/scan.sock"
        let childFile = scratch.path + "/child"
        let dead = try BenchDriver(["scand", "--socket", socket, "--decoder", "sleep 1000 & echo $! > \(childFile); wait"])
        _ = try #require(await decoderPID(dead), "daemon said \(dead.lines)")
        #expect(await eventually { ((try? String(contentsOfFile: childFile, encoding: .utf8)) ?? "").hasSuffix("\n") })
        let child = try #require(Int32((try String(contentsOfFile: childFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(dead.pid, SIGKILL)
        #expect(await dead.exitStatus() != nil)
        #expect(!processIsGone(child))  // the leftover: still running

        let log = Mutex<[String]>([])
        let next = try ScanDaemon(
            configuration: .init(socket: ScanSocketPath(path: socket, isDefault: false), decoder: .shell("exec sleep 1000")),
            log: { line in log.withLock { $0.append(line) } })
        next.start()
        #expect(await eventually(.seconds(10)) { processIsGone(child) }, "the leftover decoder \(child) still runs")
        #expect(log.withLock { $0 }.contains { $0.contains("left running by a daemon that did not shut down") })
        next.stop()
        #expect(next.waitUntilStopped())
        if !processIsGone(child) { kill(child, SIGKILL) }
    }

    @Test("started without standard error (2>&-, and <&- too), the daemon's files do not become it",
          arguments: ["2>&-", "<&- 2>&-"])
    func closedStandardDescriptors(_ redirections: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.path + "/lock"
        let driver = try BenchDriver(["descriptors", "--file", file], redirections: redirections)
        #expect(await driver.exitStatus() == 0)
        let lines = driver.lines
        let opened = lines.first { $0.hasPrefix("opened ") }.flatMap { Int($0.dropFirst("opened ".count)) }
        #expect((opened ?? 0) >= 3, "\(lines)")
        #expect(lines.contains("fd2 /dev/null"), "\(lines)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).isEmpty)
    }

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
        #expect(await eventually { server.clientCount == ScanServer.maximumClients })
        let log = MessageLog()
        let connection = try ScanConnection(path: server.socket.path)
        connection.start { log.append($0) }
        let messages = await log.wait("the refusal") { $0.contains { if case .disconnected = $0 { true } else { false } } }
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
