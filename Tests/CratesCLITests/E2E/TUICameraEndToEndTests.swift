import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The TUI fed by a camera daemon, with real decoding and no camera: barcode images made by
/// zint, decoded by zbarimg inside `crates scand --decoder`, scans over the real socket into
/// the real binary in tmux.
@Suite("TUI camera end to end", .serialized, .processTimeLimit)
struct TUICameraEndToEndTests {
    typealias Sandbox = TUIEndToEndTests.Sandbox

    /// The socket the TUI finds by default in the sandbox (`$XDG_RUNTIME_DIR/crates/scan.sock`).
    static func socket(_ sandbox: Sandbox) -> String {
        sandbox.directory.appendingPathComponent("crates/scan.sock").path
    }

    /// Draws a barcode with zint into the sandbox and returns the image's path.
    static func image(_ sandbox: Sandbox, symbology: String, data: String, name: String) async throws -> String {
        let path = sandbox.directory.appendingPathComponent("\(name).png").path
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["zint", "-b", symbology, "-d", data, "-o", path],
            deadline: .seconds(120))
        try #require(result.status == 0, "zint: \(result)")
        return path
    }

    /// `crates scand` in a tmux pane of its own, its decoder running `decoder` (a shell
    /// command line); the pane shows the daemon's messages.
    static func startDaemon(_ sandbox: Sandbox, decoder: String) async throws -> TmuxSession {
        let binary = try ProcessRunner.cratesBinary().path
        return try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) scand --decoder \(TmuxSession.quote(decoder))",
            environment: sandbox.environment, width: 120, height: 20)
    }

    /// A decoder that waits for `go` to exist (so that the TUI is connected before anything is
    /// read), decodes the images once with zbarimg, and then stays up like a camera with
    /// nothing in view.
    static func decoder(_ sandbox: Sandbox, trigger: String, images: [String]) -> String {
        decoder(sandbox, stages: [(trigger, images)])
    }

    /// The same in stages: each stage's images once its trigger file exists.
    static func decoder(_ sandbox: Sandbox, stages: [(trigger: String, images: [String])]) -> String {
        let decoding = stages.map { stage in
            let quotedImages = stage.images.map(TmuxSession.quote).joined(separator: " ")
            return "while [ ! -e \(TmuxSession.quote(stage.trigger)) ]; do sleep 0.05; done; zbarimg -q \(quotedImages)"
        }
        return (decoding + ["exec sleep 600"]).joined(separator: "; ")
    }

    @Test("camera scans are added as records; a QR code that is no release is shown, not added; a daemon restart reconnects")
    func cameraScansAndDaemonRestart() async throws {
        let sandbox = try Sandbox()
        let ean = try await Self.image(sandbox, symbology: "EANX", data: "502914177763", name: "ean")
        let upc = try await Self.image(sandbox, symbology: "UPCA", data: "72736162652", name: "upc")
        let qr = try await Self.image(sandbox, symbology: "QRCODE", data: "https://example.com/x", name: "qr")
        let go = sandbox.directory.appendingPathComponent("go").path

        let tui = try await sandbox.start(width: 100, height: 24, extra: "--no-lookup")
        // No daemon yet: said once, not on every status line.
        try await tui.waitFor(text: "No camera daemon (crates scand starts one)")

        // The QR code comes once the session has said both records were added: the message
        // line shows the latest word, and the session's "Added …" comes after the scan.
        let qrGo = sandbox.directory.appendingPathComponent("go-qr").path
        var daemon: TmuxSession? = try await Self.startDaemon(
            sandbox, decoder: Self.decoder(sandbox, stages: [(go, [ean, upc]), (qrGo, [qr])]))
        try await tui.waitFor(text: "camera: connected")
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        var screen = try await tui.waitFor(text: "2 records")
        #expect(screen.contains { $0.contains("5029141777638") })
        // The UPC-A as its sleeve prints it.
        #expect(screen.contains { $0.contains("7 27361 62652 5") })
        try await tui.waitFor("the second record said added") { lines in
            lines.contains { $0.contains("Added ") && $0.contains("727361626525") }
        }
        #expect(FileManager.default.createFile(atPath: qrGo, contents: nil))
        screen = try await tui.waitFor(text: "ignored QR-Code: https://example.com/x")

        // The daemon goes away: the TUI says so and keeps working from the keyboard.
        daemon = nil  // its tmux server is killed, and the daemon with it
        try await tui.waitFor(text: "camera: no daemon")
        try await tui.type("5017066907438\r")
        try await tui.waitFor(text: "3 records")

        // A new daemon on the same socket (the old one's socket file is stale now).
        try FileManager.default.removeItem(atPath: go)
        let again = try await Self.image(sandbox, symbology: "EANX", data: "509150008063", name: "again")
        daemon = try await Self.startDaemon(sandbox, decoder: Self.decoder(sandbox, trigger: go, images: [again]))
        try await tui.waitFor(text: "camera: connected")
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        screen = try await tui.waitFor(text: "4 records")
        #expect(screen.contains { $0.contains("5091500080635") })

        try await tui.press("q")
        #expect(try await tui.exitReport().status == 0)
        _ = daemon

        let store = try CollectionStore(path: sandbox.database)
        let rows = try await store.sections().flatMap(\.rows)
        #expect(Set(rows.map(\.gtin)) == ["5029141777638", "0727361626525", "5017066907438", "5091500080635"]
            || Set(rows.map(\.gtin)) == ["5029141777638", "727361626525", "5017066907438", "5091500080635"])
        var methods: [String: AddMethod] = [:]
        for row in rows {
            methods[row.gtin] = try await store.record(row.recordID)?.addMethod
        }
        #expect(methods["5029141777638"] == .camera)
        #expect(methods["5091500080635"] == .camera)
        #expect(methods["5017066907438"] != .camera)
    }

    @Test("malformed lines from a daemon are dropped with a logged warning; the good line still adds")
    func malformedLinesAreDropped() async throws {
        let sandbox = try Sandbox()
        var lines = Data()
        lines.append(Data("this is not json\n".utf8))
        lines.append(Data((String(repeating: "x", count: 5000) + "\n").utf8))
        lines.append(Data([0xFF, 0xFE] + Array("{\"symbology\":\"EAN-13\",\"data\":\"5017066907438\",\"at\":\"2026-11-22T10:00:00Z\"}\n".utf8)))
        lines.append(Data("{\"symbology\":\"EAN-13\",\"data\":\"5029141777638\",\"at\":\"2026-11-22T10:00:00Z\"}\n".utf8))
        let file = sandbox.directory.appendingPathComponent("lines").path
        try lines.write(to: URL(fileURLWithPath: file))
        let socket = Self.socket(sandbox)
        try FileManager.default.createDirectory(
            atPath: (socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])

        // A daemon that is not crates: socat serves the lines to the first client.
        let fake = try await TmuxSession(
            command: "socat -u OPEN:\(TmuxSession.quote(file)),rdonly UNIX-LISTEN:\(TmuxSession.quote(socket)),mode=600",
            environment: sandbox.environment)
        let tui = try await sandbox.start(width: 100, height: 24, extra: "--no-lookup")
        let screen = try await tui.waitFor(text: "1 record")
        #expect(screen.contains { $0.contains("5029141777638") })
        #expect(!screen.contains { $0.contains("5017066907438") }, "a line that is not UTF-8 adds nothing")
        try await tui.press("q")
        #expect(try await tui.exitReport().status == 0)
        _ = fake

        let log = try String(
            contentsOfFile: sandbox.directory.appendingPathComponent("state/crates/crates.log").path, encoding: .utf8)
        let warnings = log.split(separator: "\n").filter { $0.contains("camera: dropped a line") }
        #expect(warnings.count == 3, "\(log)")
    }
}
