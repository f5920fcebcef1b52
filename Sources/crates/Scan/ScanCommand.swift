import ArgumentParser
import CratesApp
import CratesNet
import Foundation

/// `crates scan`: a small client of the camera daemon that prints its scans, for scripts and
/// for checking a camera set-up.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Print the camera daemon's scans as they come, one per line.",
        discussion: """
            Connects to `crates scand` and prints each scan on standard output as it arrives, \
            with tab-separated columns:
              symbology  data  time  what-crates-does
            where the last column is "adds barcode", "adds release ID", "asks first: REASON" \
            (an ISBN or other code that is not a record's: the collection UI asks), \
            "refused: REASON" or "ignored" (only EAN/UPC/ISBN codes and QR codes holding a \
            Discogs release URL add records). \
            Control characters in the data are shown as escapes (\\u{1B}).

            With --json, each scan is printed as the daemon's JSON line instead.

            Lines from the daemon that are not scans are dropped with a warning on standard \
            error. Without a daemon, or when it goes away, crates scan says so and exits 1; \
            with --follow it waits for one instead and reconnects after a daemon restart, \
            until interrupted.

            Examples:
              crates scan
              crates scan --json | jq -r .data
              crates scan --follow --socket /tmp/scan.sock
            """)

    @Option(help: ArgumentHelp("The daemon's socket (default: $XDG_RUNTIME_DIR/crates/scan.sock).", valueName: "path"))
    var socket: String?

    @Flag(help: "Print each scan as the daemon's JSON line.")
    var json = false

    @Flag(help: "Wait for a daemon and reconnect after it restarts, instead of exiting.")
    var follow = false

    func validate() throws {
        try ScanSocketOption.check(socket, flag: "--socket")
    }

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("scan")
        let path = ScanSocketPath.resolve(option: socket, environment: ProcessInfo.processInfo.environment).path
        let json = self.json
        if follow { return Self.follow(path: path, json: json) }
        let connection: ScanConnection
        do {
            connection = try ScanConnection(path: path)
        } catch {
            StandardStreams.err("crates scan: \(error.description)\n")
            if let detail = error.detail { Diagnostics.note(detail) }
            throw ExitCode(1)
        }
        StandardStreams.err("crates scan: connected to \(path)\n")
        var ended: ScannerError?
        connection.run { message in
            if case .disconnected(let error) = message { ended = error } else { Self.show(message, json: json) }
        }
        StandardStreams.err("crates scan: \(ended?.description ?? "disconnected")\n")
        if let detail = ended?.detail { Diagnostics.note(detail) }
        throw ExitCode(1)
    }

    /// Follows the daemon on a thread of its own until SIGINT, SIGTERM or SIGHUP, then exits 0.
    private static func follow(path: String, json: Bool) {
        let signals = StopSignals.block()
        let follower = ScanFollower(path: path) { message in show(message, json: json) }
        follower.start()
        _ = signals.wait()
        follower.stop()
    }

    private static func show(_ message: ScanMessage, json: Bool) {
        switch message {
        case .connected(let path):
            StandardStreams.errLine("crates scan: connected to \(path)")
        case .event(let event):
            // One write per line, at once: a script reading the pipe sees each scan as it comes.
            try? json ? StandardStreams.out(jsonLines: [event.jsonLine]) : StandardStreams.out(ScanReport.line(for: event) + "\n")
        case .dropped(let error):
            StandardStreams.errLine("crates scan: dropped a line from the daemon: \(error.description)")
        case .disconnected(let error):
            StandardStreams.errLine("crates scan: \(error.description); waiting for the daemon")
            if let detail = error.detail { Diagnostics.note(detail) }
        }
    }
}
