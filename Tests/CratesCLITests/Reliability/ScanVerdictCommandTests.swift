import CratesTestSupport
import Foundation
import Testing

/// Issue 12, item 11: `crates scan` printed "adds barcode" for data that `crates add`
/// refuses. Now each scan's last column is what `crates add` does with the same data: a fake
/// camera daemon (a few lines of Python on the socket) sends the scans, `crates scan` prints
/// its verdicts, and `crates add` is run on each datum, in a collection of its own.
@Suite("crates scan says what crates add does (process)", .processTimeLimit)
struct ScanVerdictCommandTests {
    /// Scanned data, as a camera's decoder may report them for EAN/UPC symbols.
    static let scanned = [
        "5099750442227", "0077774620024", "077774620024", "96385074", "04252614", "5099750442228", "9780306406157",
        "9790260000438", "9771234567003", "2012345678903", "2900000000018", "2910000000055", "12345", "50997504422270",
        "00000000000000", " 5099750442227", "5099750442227 ", "5099 7504 42227", "5099750442227\u{1B}[2J", "abc",
        "978030640615X", "0306406152", "99123456789", "9912345678906",
    ]

    static let daemon = #"""
        import json, os, socket, sys
        path, data = sys.argv[1], json.loads(sys.argv[2])
        s = socket.socket(socket.AF_UNIX)
        s.bind(path + '.new')
        os.chmod(path + '.new', 0o600)
        s.listen(1)
        os.rename(path + '.new', path)
        s.settimeout(300)
        c, _ = s.accept()
        for d in data:
            c.sendall((json.dumps({"symbology": "EAN-13", "data": d, "at": "2026-11-22T10:00:00Z"}) + "\n").encode())
        c.close()
        os.unlink(path)
        """#

    @Test("each scan's verdict: 'adds barcode' exactly when crates add adds it; 'refused: R' when add refuses it for R; 'asks first' when add needs --force")
    func verdictsMatchAdd() async throws {
        let sandbox = try CommandSandbox()
        let socket = sandbox.directory.appendingPathComponent("fake.sock").path
        let data = String(decoding: try JSONSerialization.data(withJSONObject: Self.scanned), as: UTF8.self)
        let server = try ChildProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", Self.daemon, socket, data], deadline: .seconds(300))
        try await waitUntil("the fake daemon's socket", lastSeen: { server.stderrSoFar }) {
            FileManager.default.fileExists(atPath: socket)
        }
        let scan = try await sandbox.crates(["scan", "--socket", socket], deadline: .seconds(120))
        #expect(await server.result().succeeded)
        #expect(scan.status == 1, "the daemon went away: \(scan)")
        let verdicts = scan.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).last.map(String.init) ?? "" }
        #expect(verdicts.count == Self.scanned.count, "\(scan)")

        var added = 0
        for (index, (datum, verdict)) in zip(Self.scanned, verdicts).enumerated() {
            let database = sandbox.directory.appendingPathComponent("scan-\(index).sqlite").path
            let add = try await sandbox.crates(["add", "--db", database, "--", datum])
            let shown = "\(datum.debugDescription) → \(verdict); crates add: \(add)"
            if verdict == "adds barcode" {
                #expect(add.status == 0, "\(shown)")
                added += 1
            } else if verdict.hasPrefix("refused: ") {
                #expect(add.status == 1, "\(shown)")
                #expect(add.stderr.contains(String(verdict.dropFirst("refused: ".count))), "the same reason: \(shown)")
            } else if verdict.hasPrefix("asks first: ") {
                #expect(add.status == 1 && add.stderr.contains("--force"), "\(shown)")
                let forced = try await sandbox.crates(["add", "--force", "--db", database, "--", datum])
                #expect(forced.status == 0, "with --force: \(shown); \(forced)")
            } else {
                // A crates label sets the place or selects a copy in the collection UI; it is
                // never a record.
                #expect(verdict.hasPrefix("sets the current place") || verdict.hasPrefix("selects the copy"), "\(shown)")
                #expect(add.status == 1, "\(shown)")
            }
        }
        #expect(added >= 4, "the valid record barcodes among them: \(verdicts)")
    }
}
