import CratesTestSupport
import Foundation
import Testing

/// `crates scan` against a daemon that sends garbage: another program speaking the protocol
/// badly (here a few lines of Python on the socket) costs warnings, never a crash.
@Suite("crates scan: malformed lines (process)", .processTimeLimit)
struct ScanClientCommandTests {
    static let server = #"""
        import os, socket, sys
        path = sys.argv[1]
        s = socket.socket(socket.AF_UNIX)
        # Bound and listening under another name first: the test connects as soon as the
        # path appears, which must not be between bind and listen (ECONNREFUSED).
        s.bind(path + '.new')
        os.chmod(path + '.new', 0o600)
        s.listen(1)
        os.rename(path + '.new', path)
        s.settimeout(300)
        c, _ = s.accept()
        c.sendall(b'EAN-13:5099750442227\n'
                  + b'\xff\xfe{"symbology":"EAN-13"}\n'
                  + b'{"symbology":"EAN-13"}\n'
                  + b'[1,2]\n'
                  + b'x' * 5000 + b'\n'
                  + b'\n'
                  + b'{"symbology":"EAN-13","data":"5099750442227\\u001b[2J","at":"2026-11-22T10:00:00Z"}\n'
                  + b'{"symbology":"QR-Code","data":"https://example.com/","at":"2026-11-22T10:00:01.5+01:00","x":1}\n')
        c.close()
        os.unlink(path)
        """#

    @Test("bad lines are dropped with a warning each; the good ones are printed; exit 1 when the daemon closes")
    func malformedLines() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let socket = sandbox.path("fake.sock")
        let server = try ChildProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", Self.server, socket], deadline: .seconds(300))
        try await waitUntil("the fake daemon's socket", lastSeen: { server.stderrSoFar }) { ScanSandbox.mode(socket) != nil }
        let result = try await ProcessRunner.crates(["scan", "--socket", socket], deadline: .seconds(120))
        let served = await server.result()
        #expect(served.succeeded, "\(served)")
        #expect(result.status == 1, "\(result)")
        #expect(!result.signalled)
        #expect(result.stdoutLines == [
            "EAN-13\t5099750442227\\u{1B}[2J\t2026-11-22T10:00:00Z\trefused: control character \\u{1B} (ESC) at position 14: "
                + "a barcode holds only digits (is a scanner or file sending binary data?)",
            "QR-Code\thttps://example.com/\t2026-11-22T09:00:01Z\tignored",
        ], "\(result)")
        let warnings = result.stderrLines.filter { $0.contains("dropped a line from the daemon") }
        #expect(warnings.count == 5, "\(result)")
        for reason in ["not JSON", "not UTF-8", "no \"data\" member", "not an object", "longer than the 4096-byte limit"] {
            #expect(warnings.contains { $0.contains(reason) }, "\(reason): \(result)")
        }
        #expect(result.stderr.contains("closed the connection"))
        #expect(!result.stdout.contains("\u{1B}"), "no control character reaches the terminal")
    }
}
