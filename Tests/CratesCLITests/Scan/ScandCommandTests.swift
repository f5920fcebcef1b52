import CratesCore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `crates scand` and `crates scan` as real processes, with real decoding and no camera:
/// barcodes drawn by zint, decoded by zbarimg inside `--decoder`, read back with `crates scan`.
@Suite("crates scand and crates scan (process)", .processTimeLimit)
struct ScandCommandTests {
    /// A decoder that waits for `trigger` to exist (so the client is connected first), runs
    /// `body`, then reads a QR code "sentinel" and stays up like a camera with nothing in
    /// view. Once the sentinel has reached a client, everything `body` decoded has been sent
    /// or held back: what came before it is all there is.
    static func gated(_ trigger: String, _ body: String) -> String {
        "while [ ! -e \(ScanSandbox.quote(trigger)) ]; do sleep 0.05; done; \(body); echo QR-Code:sentinel; exec sleep 600"
    }

    @Test("EAN-13, UPC-A and a QR code decoded from images reach crates scan in order; a code repeated back to back is one scan")
    func decodedImagesReachTheClient() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let ean = try await sandbox.image("EANX", "509975044222", name: "ean")
        let upc = try await sandbox.image("UPCA", "07777462002", name: "upc")
        let qr = try await sandbox.image("QRCODE", "https://www.discogs.com/release/249504-Rick-Astley", name: "qr")
        let go = sandbox.path("go")
        let images = [ean, ean, ean, upc, qr].map(ScanSandbox.quote).joined(separator: " ")
        let daemon = try await sandbox.startDaemon(["--decoder", Self.gated(go, "zbarimg -q \(images)")])
        let client = try sandbox.startClient(["--json"])
        try await client.waitUntilConnected()
        let human = try sandbox.startClient([])
        try await human.waitUntilConnected()
        // Whole seconds on the wire: the scans' times lie between these, widened to seconds.
        let released = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        #expect(FileManager.default.createFile(atPath: go, contents: nil))

        // Nothing more comes before the sentinel: the repeats were held back.
        let lines = try await client.waitForLine(containing: "sentinel")
        let received = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.up))
        let humanLines = try await human.waitForLine(containing: "sentinel")
        let stopped = await daemon.stop()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(!stopped.timedOut)
        #expect(stopped.stderr.contains("stopping (SIGTERM)"))
        #expect(ScanSandbox.mode(sandbox.socket) == nil, "socket removed at shutdown")

        let result = await client.result()
        #expect(client.lines == lines, "one line per scan, no more")
        let events = try lines.map { try ScanEvent(jsonLine: Array($0.utf8)) }
        #expect(events.map(\.symbology.rawValue) == ["EAN-13", "EAN-13", "QR-Code", "QR-Code"], "\(stopped)")
        // zbar reports a UPC-A as the EAN-13 with a leading 0.
        #expect(events.map(\.data) == ["5099750442227", "0077774620024", "https://www.discogs.com/release/249504-Rick-Astley", "sentinel"])
        #expect(events.allSatisfy { $0.at >= released && $0.at <= received }, "\(events.map(\.at)) not in \(released)…\(received)")
        #expect(result.status == 1, "the daemon went away: \(result)")
        #expect(client.stderr.contains("closed the connection"))

        let columns: [[String]] = humanLines.map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return fields.count == 4 ? [fields[0], fields[1], fields[3]] : fields
        }
        let expected: [[String]] = [
            ["EAN-13", "5099750442227", "adds barcode"],
            ["EAN-13", "0077774620024", "adds barcode"],
            ["QR-Code", "https://www.discogs.com/release/249504-Rick-Astley", "adds release 249504"],
            ["QR-Code", "sentinel", "ignored"],
        ]
        #expect(columns == expected)
        let humanResult = await human.result()
        #expect(humanResult.status == 1 && !humanResult.signalled, "the daemon went away: \(humanResult)")
    }

    @Test("hold time: the same code with a short gap is one scan, after a gap longer than the hold it is two")
    func holdTime() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let line = try await sandbox.decode(try await sandbox.image("EANX", "509975044222", name: "ean"))
        #expect(line == "EAN-13:5099750442227")
        let go = sandbox.path("go")
        // Readings 0.1 s apart (a camera's frames), then 3 s out of view, then back: with a
        // hold of 2 s that is two scans, not five. (The input's own timing: `sleep` only ever
        // lengthens a gap, and a frame gap would have to grow twentyfold to cross the hold.)
        let replay = "echo \(line); sleep 0.1; echo \(line); sleep 0.1; echo \(line); sleep 3; echo \(line); sleep 0.1; echo \(line)"
        let daemon = try await sandbox.startDaemon(["--hold", "2", "--decoder", Self.gated(go, replay)])
        let client = try sandbox.startClient([])
        try await client.waitUntilConnected()
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        let lines = try await client.waitForLine(containing: "sentinel")
        let stopped = await daemon.stop()
        #expect(stopped.status == 0, "\(stopped)")
        let result = await client.result()
        #expect(result.status == 1, "the daemon went away: \(result)")
        #expect(lines.map { $0.split(separator: "\t").prefix(2).joined(separator: " ") }
            == ["EAN-13 5099750442227", "EAN-13 5099750442227", "QR-Code sentinel"], "\(result)\n\(stopped)")
        #expect(stopped.stderr.components(separatedBy: "scanned EAN-13 5099750442227").count - 1 == 2, "\(stopped)")
    }

    @Test("a decoder that dies is explained and restarted with a growing wait")
    func decoderDies() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let ean = try await sandbox.image("EANX", "509975044222", name: "ean")
        let runs = sandbox.path("runs")
        let daemon = try await sandbox.startDaemon([
            "--decoder", "echo run >> \(ScanSandbox.quote(runs)); zbarimg -q \(ScanSandbox.quote(ean)); echo 'cannot read frame' >&2; exit 3",
        ])
        // Runs at about 0 s, 1 s and 3 s.
        try await waitUntil("three runs of the decoder", lastSeen: { daemon.stderr }) {
            ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count >= 3
        }
        let stopped = await daemon.stop()
        #expect(stopped.status == 0, "\(stopped)")
        let log = stopped.stderr
        #expect(log.contains("decoder: cannot read frame"), "\(log)")
        #expect(log.contains("decoder stopped: the decoder exited with status 3: cannot read frame; restarting in 1 s"), "\(log)")
        #expect(log.contains("decoder stopped: the decoder exited with status 3: cannot read frame; restarting in 2 s"), "\(log)")
        #expect(log.components(separatedBy: "decoder started (pid").count - 1 >= 3)
        // The same code again within the hold (1 s after) is not a new scan; at 3 s it is.
        #expect(log.contains("scanned EAN-13 5099750442227"))
    }

    @Test("a missing command, a missing camera: each named plainly, and retried")
    func decoderCannotRun() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let missing = try await sandbox.startDaemon(["--decoder", "no-such-decoder --scan"])
        try await missing.waitForLog("restarting in 1 s")
        let first = await missing.stop()
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.contains("decoder stopped: the decoder command was not found (exit status 127)"), "\(first)")
        #expect(first.stderr.contains("restarting in 1 s"))

        // The default decoder, zbarcam, on a device that is not there.
        let camera = try await sandbox.startDaemon(["--device", "/dev/crates-no-camera"])
        try await camera.waitForLog("restarting in")
        let second = await camera.stop(SIGINT)
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr.contains("stopping (SIGINT)"))
        let hasZbarcam = FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarcam")
        #expect(second.stderr.contains(hasZbarcam
            ? "no camera at /dev/crates-no-camera: is it plugged in? (choose another with --device)"
            : "zbarcam is not installed"), "\(second)")
    }

    @Test("socket permissions: 0700 directory, 0600 socket; a loose default directory is repaired, a named one refused")
    func socketPermissions() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        #expect(mkdir(sandbox.runtime, 0o755) == 0)
        #expect(mkdir(sandbox.runtime + "/crates", 0o755) == 0)
        #expect(chmod(sandbox.runtime + "/crates", 0o755) == 0)
        let daemon = try await sandbox.startDaemon(["--decoder", "exec sleep 600"])
        #expect(ScanSandbox.mode(sandbox.runtime + "/crates") == 0o700)
        #expect(ScanSandbox.mode(sandbox.socket) == 0o600)
        let stopped = await daemon.stop()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(stopped.stderr.contains("made \(sandbox.runtime)/crates private (mode 755 → 700)"), "\(stopped)")

        let shared = sandbox.path("shared")
        #expect(mkdir(shared, 0o755) == 0)
        #expect(chmod(shared, 0o755) == 0)
        let refused = try await ProcessRunner.crates(
            ["scand", "--socket", shared + "/scan.sock", "--decoder", "exec sleep 600"], deadline: .seconds(120))
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("can be entered by other users (mode 755)"), "\(refused)")
        #expect(refused.stderr.contains("chmod 700"))
        #expect(ScanSandbox.mode(shared) == 0o755, "left as it was")
    }

    @Test("a second daemon is refused; after a crash (kill -9) the stale socket is replaced and clients get scans again")
    func restartAfterCrash() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let ean = try await sandbox.image("EANX", "509975044222", name: "ean")
        let first = try await sandbox.startDaemon(["--decoder", "exec sleep 600"])

        let second = try await ProcessRunner.crates(["scand", "--decoder", "exec sleep 600"], environment: sandbox.environment, deadline: .seconds(120))
        #expect(second.status == 1, "\(second)")
        #expect(second.stderr.contains("another crates scand (pid \(first.pid)) is already serving \(sandbox.socket)"), "\(second)")

        let crashed = await first.stop(SIGKILL)
        #expect(crashed.signalled && crashed.status == SIGKILL, "\(crashed)")
        // A daemon killed with SIGKILL cannot stop its decoder: end it here (by the process
        // group the daemon logged), as the test's own clean-up.
        ScanSandbox.killDecoders(loggedIn: crashed.stderr)
        #expect(ScanSandbox.mode(sandbox.socket) != nil, "a killed daemon leaves its socket behind")
        let noDaemon = try await ProcessRunner.crates(["scan"], environment: sandbox.environment, deadline: .seconds(120))
        #expect(noDaemon.status == 1)
        #expect(noDaemon.stderr.contains("no camera daemon is listening on \(sandbox.socket)"), "\(noDaemon)")

        let go = sandbox.path("go")
        let restarted = try await sandbox.startDaemon(["--decoder", Self.gated(go, "zbarimg -q \(ScanSandbox.quote(ean))")])
        let client = try sandbox.startClient(["--json"])
        try await client.waitUntilConnected()
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        let lines = try await client.waitForLine(containing: "sentinel")
        let stopped = await restarted.stop()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(stopped.stderr.contains("replaced a stale socket"), "\(stopped)")
        let clientResult = await client.result()
        #expect(clientResult.status == 1, "the daemon went away: \(clientResult)")
        #expect(lines.count == 2, "\(stopped)")
        #expect(lines.first?.contains(#""data":"5099750442227""#) == true)
    }

    @Test("without a daemon crates scan says so and exits 1; bad options are refused")
    func noDaemonAndBadOptions() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let result = try await ProcessRunner.crates(["scan", "--socket", sandbox.path("none.sock")], deadline: .seconds(120))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no camera daemon is listening on \(sandbox.path("none.sock")): start one with `crates scand`"))

        for (arguments, message) in [
            (["scand", "--hold=-1"], "--hold takes seconds"),
            (["scand", "--hold", "nan"], "--hold takes seconds"),
            (["scand", "--hold", "soon"], "--hold"),
            (["scand", "--device", "/dev/video1", "--decoder", "zbarimg x.png"], "--device is for zbarcam"),
        ] {
            let refused = try await ProcessRunner.crates(arguments, environment: sandbox.environment, deadline: .seconds(120))
            #expect(refused.status != 0)
            #expect(refused.stderr.contains(message), "\(refused)")
        }
    }
}
