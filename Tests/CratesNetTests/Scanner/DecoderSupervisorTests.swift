import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

#if canImport(Glibc)
    import Glibc
#endif

/// Reports from a supervisor, collected from its thread.
final class ReportLog: Sendable {
    private let lineBox = LockBox<[String]>()
    private let reportBox = LockBox<[DecoderSupervisor.Report]>()

    func line(_ text: String) { lineBox.append(text) }
    func report(_ report: DecoderSupervisor.Report) { reportBox.append(report) }

    var lines: [String] { lineBox.all }
    var reports: [DecoderSupervisor.Report] { reportBox.all }

    var stops: [(DecoderExit, String, Duration?)] {
        reports.compactMap { if case let .stopped(exit, text, delay) = $0 { (exit, text, delay) } else { nil } }
    }
}

@Suite("Scanner: decoder supervision")
struct DecoderSupervisorTests {
    @Test("restart waits double up to the cap, and start over after a healthy run")
    func backoff() {
        var backoff = RestartBackoff(initial: .seconds(1), maximum: .seconds(30), healthyRun: .seconds(10))
        let quick = (0..<7).map { _ in backoff.delay(after: .milliseconds(100)) }
        #expect(quick == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)])
        #expect(backoff.delay(after: .seconds(60)) == .seconds(1), "a run of a minute was healthy")
        #expect(backoff.delay(after: .seconds(1)) == .seconds(2))
        var odd = RestartBackoff(initial: .seconds(5), maximum: .seconds(1))
        #expect(odd.delay(after: .zero) == .seconds(5), "a cap below the start is raised to it")
    }

    static let zbarcam = DecoderCommand.zbarcam(device: "/dev/video0", environment: ["PATH": "/nonexistent"])

    @Test("why a decoder stopped, in words a user can act on", arguments: [
        (DecoderExit.couldNotStart(errno: ENOENT), zbarcam, [String](), "zbarcam is not installed: install zbar-tools"),
        (.exited(status: 1), zbarcam, ["ERROR: zbar processor in _zbar_video_open():",
                                       "    system error: opening video device '/dev/video0': No such file or directory (2)"],
         "no camera at /dev/video0: is it plugged in? (choose another with --device)"),
        (.exited(status: 1), zbarcam, ["    system error: opening video device '/dev/video1': Permission denied (13)"],
         "no permission to open /dev/video1: add yourself to the video group"),
        (.exited(status: 1), zbarcam, ["v4l2: Device or resource busy"], "/dev/video0 is busy: another program is using the camera"),
        (.exited(status: 127), DecoderCommand.shell("nope"), ["/bin/sh: 1: nope: not found"],
         "the decoder command was not found (exit status 127): /bin/sh: 1: nope: not found"),
        (.exited(status: 0), DecoderCommand.shell("zbarimg -q a.png"), [], "the decoder exited with status 0"),
        (.exited(status: 2), DecoderCommand.shell("x"), ["bad \u{1B}[31mthing"], "the decoder exited with status 2: bad \\u{1B}[31mthing"),
        (.signalled(9), DecoderCommand.shell("x"), [], "the decoder was killed by signal 9"),
        (.unknown, DecoderCommand.shell("x"), [], "the decoder ended"),
    ] as [(DecoderExit, DecoderCommand, [String], String)])
    func explanations(exit: DecoderExit, command: DecoderCommand, stderr: [String], expected: String) {
        #expect(exit.explanation(command: command, stderr: stderr).hasPrefix(expected), "\(exit.explanation(command: command, stderr: stderr))")
    }

    @Test("the default command is zbarcam on the device, without --raw; --decoder goes through sh -c")
    func commands() {
        let camera = DecoderCommand.zbarcam(device: "/dev/video2", environment: ["PATH": "/usr/bin:/bin"])
        #expect(camera.arguments.dropFirst() == ["--nodisplay", "/dev/video2"])
        #expect(!camera.arguments.contains("--raw"))
        #expect(camera.description == "zbarcam --nodisplay /dev/video2")
        let shell = DecoderCommand.shell("zbarimg -q *.png")
        #expect(shell.arguments == ["/bin/sh", "-c", "zbarimg -q *.png"])
        #expect(shell.description == "zbarimg -q *.png")
    }

    @Test("lines reach the handler; a failing decoder is reported and restarted; stderr is relayed without zbar's D-Bus noise")
    func restarts() async throws {
        let log = ReportLog()
        // Virtual time: each restart waits its backoff (1 s, 2 s…) until the test moves on.
        let clock = TestClock()
        let supervisor = try DecoderSupervisor(
            command: .shell("echo EAN-13:5099750442227; echo 'Connection Null' >&2; echo 'frame error' >&2; exit 3"),
            clock: clock, onLine: { log.line($0) }, onReport: { log.report($0) })
        supervisor.start()
        for (run, backoff) in [(1, Duration.seconds(1)), (2, .seconds(2))] {
            try await waitUntil("stop \(run) and its backoff begun") { log.stops.count == run && clock.sleeping == [backoff] }
            #expect(supervisor.runs == run, "no restart before the backoff is over")
            clock.advance(by: backoff)
        }
        try await waitUntil("three stops") { log.stops.count >= 3 }
        supervisor.stop()
        #expect(await supervisor.waitUntilStopped(timeout: .seconds(30)))
        let stops = log.stops
        #expect(log.lines.prefix(3) == ["EAN-13:5099750442227", "EAN-13:5099750442227", "EAN-13:5099750442227"])
        #expect(stops.prefix(3).map { $0.2 } == [.seconds(1), .seconds(2), .seconds(4)])
        for stop in stops.prefix(3) {
            // Foundation's Process in other tests may reap our child first: then the status
            // is unknown, and the explanation says so.
            #expect(stop.0 == .exited(status: 3) || stop.0 == .unknown)
            #expect(stop.1.hasPrefix(stop.0 == .unknown ? "the decoder ended: frame error" : "the decoder exited with status 3: frame error"))
        }
        let relayed = log.reports.compactMap { if case .stderr(let line) = $0 { line } else { nil } }
        #expect(relayed.prefix(2) == ["frame error", "frame error"])
        #expect(!relayed.contains("Connection Null"))
    }

    @Test("stop ends a decoder that runs forever, and what its shell started, at once")
    func stopKillsTheGroup() async throws {
        let log = ReportLog()
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let pidFile = scratch.path + "/child.pid"
        let supervisor = try DecoderSupervisor(
            command: .shell("sleep 600 & echo $! > \(pidFile); echo QR-Code:ready; wait"),
            clock: TestClock(), onLine: { log.line($0) }, onReport: { log.report($0) })
        supervisor.start()
        try await waitUntil("the decoder's ready line") { log.lines == ["QR-Code:ready"] }
        let child = try #require(pid_t(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(child, 0) == 0, "the background sleep runs")
        supervisor.stop()
        // Stopped by SIGTERM: the decoder would otherwise run its 600 s.
        #expect(await supervisor.waitUntilStopped(timeout: .seconds(60)))
        try await waitUntil("the shell's child went with it") { kill(child, 0) != 0 }
        #expect(log.stops.count == 1)
        #expect(log.stops.first?.2 == nil, "no restart after stop")
    }

    @Test("a decoder whose background job keeps the pipe open still counts as stopped when it exits")
    func orphanedPipe() async throws {
        let log = ReportLog()
        let supervisor = try DecoderSupervisor(
            command: .shell("sleep 600 & echo EAN-8:96385074; exit 0"),
            backoff: RestartBackoff(initial: .seconds(30)), onLine: { log.line($0) }, onReport: { log.report($0) })
        supervisor.start()
        // At least one: should this task not run for half a minute (a loaded machine), the
        // second run's stop may be there too; the first is the one that counts.
        try await waitUntil("a stop", lastSeen: { "runs \(supervisor.runs), lines \(log.lines), reports \(log.reports)" }) {
            !log.stops.isEmpty
        }
        #expect(log.lines.first == "EAN-8:96385074")
        #expect(log.stops.first?.2 == .seconds(30))
        supervisor.stop()
        #expect(await supervisor.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("a program that cannot be started is reported and retried")
    func cannotStart() async throws {
        let log = ReportLog()
        let clock = TestClock()
        let supervisor = try DecoderSupervisor(
            command: Self.zbarcam, clock: clock, onLine: { log.line($0) }, onReport: { log.report($0) })
        supervisor.start()
        try await waitUntil("a stop and its backoff begun") { log.stops.count == 1 && clock.sleeping == [.seconds(1)] }
        clock.advance(by: .seconds(1))
        try await waitUntil("two stops") { log.stops.count >= 2 }
        supervisor.stop()
        #expect(await supervisor.waitUntilStopped(timeout: .seconds(30)))
        #expect(log.stops.first?.0 == .couldNotStart(errno: ENOENT))
        #expect(log.stops.first?.1.contains("zbarcam is not installed") == true)
        #expect(!log.reports.contains { if case .started = $0 { true } else { false } })
    }
}

@Suite("Scanner: the daemon in process")
struct ScanDaemonTests {
    @Test("decoder lines become deduplicated events on the socket; odd lines are logged, not sent")
    func linesToEvents() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let socket = ScanSocketPath(path: scratch.path + "/scan.sock", isDefault: false)
        let go = scratch.path + "/go"
        let messages = LockBox<[String]>()
        let daemon = try ScanDaemon(
            configuration: .init(
                socket: socket,
                // After the lines under test, a sentinel: once it has arrived, everything the
                // decoder printed before it has been sent or held back.
                decoder: .shell("while [ ! -e \(go) ]; do sleep 0.02; done; for i in 1 2 3 4 5; do echo EAN-13:5099750442227; done; echo 5099750442227; echo QR-Code:hello; echo QR-Code:sentinel; exec sleep 600"),
                hold: .seconds(5), backoff: RestartBackoff(initial: .seconds(30))),
            log: { line in messages.append(line) })
        daemon.start()
        let log = MessageLog()
        let connection = try ScanConnection(path: socket.path)
        connection.start { log.append($0) }
        try await waitUntil("the client accepted") { daemon.server.clientCount == 1 }
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        try await log.wait("the sentinel") { _ in log.events.last?.data == "sentinel" }
        #expect(log.events.map(\.symbology) == [.ean13, .qrCode, .qrCode])
        #expect(log.events.map(\.data) == ["5099750442227", "hello", "sentinel"])
        daemon.stop()
        try await log.wait("the daemon's disconnect") { $0.last == .disconnected(.connectionClosed(path: socket.path)) }
        try await waitUntil("no client left") { daemon.server.clientCount == 0 }
        let lines = messages.all
        #expect(lines.contains { $0.contains("ignored decoder output: “5099750442227” has no TYPE: prefix") }, "\(lines)")
        #expect(lines.contains("scanned EAN-13 5099750442227 → 1 client"), "\(lines)")
    }
}
