import CratesCore
import Foundation
import Synchronization

/// `crates scand` without its command line: the decoder under supervision, its lines parsed
/// and deduplicated by hold time, each new scan broadcast on the socket.
public final class ScanDaemon: Sendable {
    public struct Configuration: Sendable {
        public var socket: ScanSocketPath
        public var decoder: DecoderCommand
        /// How long a code must be out of view before it counts as a new scan.
        public var hold: Duration
        public var backoff: RestartBackoff

        public init(socket: ScanSocketPath, decoder: DecoderCommand, hold: Duration = ScanDeduplicator<ContinuousClock.Instant>.defaultHold,
                    backoff: RestartBackoff = RestartBackoff()) {
            self.socket = socket
            self.decoder = decoder
            self.hold = hold
            self.backoff = backoff
        }
    }

    /// Odd decoder lines logged per run before the rest are only counted.
    static let ignoredLinesShown = 5

    public let configuration: Configuration
    public let server: ScanServer
    private let supervisor: DecoderSupervisor
    private let log: @Sendable (String) -> Void

    /// What the decoder's lines go through, shared by the supervisor's two callbacks.
    private final class Reading: Sendable {
        struct State {
            var dedup: ScanDeduplicator<ContinuousClock.Instant>
            var ignoredThisRun = 0
        }

        let state: Mutex<State>

        init(hold: Duration) {
            state = Mutex(State(dedup: ScanDeduplicator(hold: hold)))
        }
    }

    /// Creates the socket (refusing when another daemon serves it, see `ScanServer`). The
    /// decoder starts with `start()`. `log` gets one line per thing worth saying.
    public init(configuration: Configuration, log: @escaping @Sendable (String) -> Void) throws(ScannerError) {
        self.configuration = configuration
        self.log = log
        let server = try ScanServer(socket: configuration.socket, log: log)
        self.server = server
        // With the lock held no other daemon runs: a decoder noted beside it was left by one
        // that was killed, and still holds the camera.
        let recordPath = configuration.socket.path + ".decoder"
        if let note = DecoderRecord(path: recordPath).endLeftover() { log(note) }
        let reading = Reading(hold: configuration.hold)
        do throws(ScannerError) {
            supervisor = try DecoderSupervisor(
                command: configuration.decoder, backoff: configuration.backoff, recordPath: recordPath,
                onLine: { line in Self.handle(line, reading: reading, server: server, log: log) },
                onReport: { report in Self.report(report, reading: reading, log: log) })
        } catch {
            server.stop()
            _ = server.waitUntilStopped()
            throw error
        }
    }

    /// Starts the decoder.
    public func start() {
        supervisor.start()
    }

    /// Stops the decoder and the socket (removing it). Returns at once.
    public func stop() {
        supervisor.stop()
        server.stop()
    }

    /// Blocks until both are stopped, at most `timeout` each.
    public func waitUntilStopped(timeout: Duration = .seconds(5)) -> Bool {
        let decoder = supervisor.waitUntilStopped(timeout: timeout)
        return server.waitUntilStopped(timeout: timeout) && decoder
    }

    private static func handle(_ line: String, reading: Reading, server: ScanServer, log: @Sendable (String) -> Void) {
        switch DecoderLine(parsing: line) {
        case .ignored(let reason):
            let shown = reading.state.withLock { state in
                state.ignoredThisRun += 1
                return state.ignoredThisRun
            }
            if shown <= ignoredLinesShown {
                log("ignored decoder output: \(reason)")
                if shown == ignoredLinesShown { log("(more odd decoder lines are not shown until the decoder restarts)") }
            }
        case let .code(symbology, data):
            let now = ContinuousClock.now
            guard reading.state.withLock({ $0.dedup.admit(symbology, data, at: now) }) else { return }
            let event = ScanEvent(symbology: symbology, data: data, at: Date())
            do {
                try server.broadcast(event)
                let clients = server.clientCount
                log("scanned \(symbology) \(GTIN.displayForm(of: data, limit: 80)) → \(clients) client\(clients == 1 ? "" : "s")")
            } catch {
                log("not sent: \(symbology) \(GTIN.displayForm(of: data, limit: 40)): \(error)")
            }
        }
    }

    private static func report(_ report: DecoderSupervisor.Report, reading: Reading, log: @Sendable (String) -> Void) {
        switch report {
        case .started(let pid):
            reading.state.withLock { $0.ignoredThisRun = 0 }
            log("decoder started (pid \(pid))")
        case .stderr(let line):
            log("decoder: \(line)")
        case let .stopped(exit, explanation, restartIn):
            if let restartIn {
                let what = if case .couldNotStart = exit { "decoder not started" } else { "decoder stopped" }
                log("\(what): \(explanation); restarting in \(Self.seconds(restartIn))")
            } else {
                log("decoder stopped")  // by us: how it died (SIGTERM) is no news
            }
        }
    }

    /// "1 s", "0.5 s", "30 s".
    static func seconds(_ duration: Duration) -> String {
        let value = duration.inSeconds
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
