import ArgumentParser
import CratesNet
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// `crates scand`: the camera daemon. Runs a barcode decoder on the camera and publishes what
/// it reads on a Unix socket, one JSON line per scan, for the collection UI and `crates scan`.
struct ScandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scand",
        abstract: "Run the camera daemon: decode barcodes from a camera and publish them on a socket.",
        discussion: """
            The decoder is zbar's zbarcam (Debian package zbar-tools) on /dev/video0, or \
            --device; --decoder runs any shell command instead that prints zbar's TYPE:DATA \
            lines (EAN-13:5099750442227, QR-Code:https://…), such as zbarimg over image files \
            or a bridge from a phone camera. Not --raw: crates needs the symbology names.

            A code is published when it comes into view, not again while it stays there, and \
            again once it has been out of view for the hold time (default 1.5 s): two copies \
            of one record scanned one after the other are two scans.

            The socket is $XDG_RUNTIME_DIR/crates/scan.sock (else /tmp/crates-UID/scan.sock), \
            or --socket; it is mode 600 in a directory only you can enter. A socket left by a \
            daemon that crashed is replaced; while a daemon serves it, a second one refuses to \
            start (exit status 1). Each scan goes to every connected client as a line of JSON:
              {"symbology":"EAN-13","data":"5099750442227","at":"2026-11-22T10:00:00Z"}
            (see the README for the protocol).

            When the decoder stops (camera unplugged, no permission on the device, zbarcam \
            missing), scand says why on standard error and starts it again, waiting 1 s, then \
            2, 4… up to 30 s while it keeps failing. SIGINT or SIGTERM stops the decoder, \
            removes the socket, and exits 0. The log goes to standard error.

            Examples:
              crates scand
              crates scand --device /dev/video2 --hold 2
              crates scand --decoder 'zbarimg -q ~/scans/*.png; sleep 5'
            """)

    @Option(help: ArgumentHelp("The socket to serve (default: $XDG_RUNTIME_DIR/crates/scan.sock).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("The camera for zbarcam.", valueName: "device"))
    var device: String?

    @Option(help: ArgumentHelp("A shell command to decode with instead of zbarcam; it prints TYPE:DATA lines.", valueName: "command"))
    var decoder: String?

    @Option(help: ArgumentHelp("How long a code must be out of view before it scans again, in seconds.", valueName: "seconds"))
    var hold: Double = 1.5

    func validate() throws {
        try ScanSocketOption.check(socket, flag: "--socket")
        guard hold.isFinite, hold >= 0, hold <= 3600 else {
            throw ValidationError("--hold takes seconds between 0 and 3600, such as 1.5")
        }
        if device != nil, decoder != nil {
            throw ValidationError("--device is for zbarcam; with --decoder, name the device in the command")
        }
        if let decoder, decoder.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--decoder needs a command")
        }
    }

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("scand")
        // Before any thread starts (see `StopSignals`).
        let signals = StopSignals.block()
        // A client that hangs up must not kill the daemon (sends also use MSG_NOSIGNAL).
        signal(SIGPIPE, SIG_IGN)

        let environment = ProcessInfo.processInfo.environment
        let command = decoder.map(DecoderCommand.shell) ?? DecoderCommand.zbarcam(device: device ?? "/dev/video0", environment: environment)
        let configuration = ScanDaemon.Configuration(
            socket: ScanSocketPath.resolve(option: socket, environment: environment),
            decoder: command,
            hold: .milliseconds(Int((hold * 1000).rounded())))
        let log: @Sendable (String) -> Void = { StandardStreams.err("crates scand: \($0)\n") }
        let daemon: ScanDaemon
        do {
            daemon = try ScanDaemon(configuration: configuration, log: log)
        } catch {
            log(error.description)
            if let detail = error.detail { Diagnostics.note(detail) }
            throw ExitCode(1)
        }
        for note in daemon.server.setupNotes { log(note) }
        log("listening on \(configuration.socket.path); decoder: \(command); hold \(Self.seconds(hold))")
        daemon.start()

        log("stopping (\(StopSignals.name(signals.wait())))")
        daemon.stop()
        if !daemon.waitUntilStopped() { log("the decoder did not stop in time") }
        log("stopped; removed \(configuration.socket.path)")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
