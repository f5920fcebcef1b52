import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12, items 5, 6 and 11: what `crates import` makes of hostile or unusual input. A CSV
/// quote left open is warned about with its lines (refused with --strict); semicolons and
/// tabs separate fields as commas do; a key column named twice is refused; binary input is
/// refused at once; endless input stops at the first SIGINT, SIGTERM or SIGHUP.
@Suite("crates import: CSV safety, binary and endless input (process)", .processTimeLimit)
struct ImportInputCommandTests {
    /// The file: the quote opened on line 2 swallows lines 3 to 5.
    static let unclosed = "barcode,note\n5099750442227,\"12 inch\n0077774620024,ok\n4004064480149,ok\n5036086370084,\"7 inch\"\n"

    @Test("an unclosed quote that swallows rows: a warning naming the lines; --strict refuses it and imports nothing; --dry-run warns too")
    func unclosedQuote() async throws {
        let sandbox = try CommandSandbox()
        let path = try Reliability.write(Self.unclosed, "quoted.csv", in: sandbox)
        let warning = "\(path):2: warning: a quoted field opened on this line runs over lines 3, 4 and 5, which read as rows of their own"
        let dryRun = try await sandbox.crates(["import", "--dry-run", path])
        #expect(dryRun.status == 0 && dryRun.stderr.contains(warning), "\(dryRun)")
        let strict = try await sandbox.crates(["import", "--strict", "--no-lookup", path])
        #expect(strict.status == 2, "\(strict)")
        #expect(strict.stderr.contains("\(path):2: a quoted field opened here runs over lines 3, 4 and 5"), "\(strict)")
        #expect(strict.stderr.contains("nothing imported (--strict)"), "\(strict)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        let plain = try await sandbox.crates(["import", "--no-lookup", path])
        #expect(plain.status == 0 && plain.stderr.contains(warning), "\(plain)")
    }

    @Test("semicolon- and tab-separated files are read as CSV", arguments: [";", "\t"])
    func otherDelimiters(_ delimiter: String) async throws {
        let sandbox = try CommandSandbox()
        let rows = [["barcode", "note"], ["5099750442227", "first; or\ttabbed"], ["0077774620024", "second"]]
        let text = rows.map { row in
            row.map { $0.contains(delimiter) ? "\"\($0)\"" : $0 }.joined(separator: delimiter)
        }.joined(separator: "\n") + "\n"
        let path = try Reliability.write(text, "list.csv", in: sandbox)
        let result = try await sandbox.crates(["import", "--no-lookup", path])
        #expect(result.status == 0 && result.stdoutLines.first == "\(path): 2 added, 0 already in the collection.", "\(result)")
        let store = try sandbox.openStore()
        #expect(try await store.details(1)?.record.note == "first; or\ttabbed")
        #expect(try await store.details(2)?.record.gtin?.canonical == "0077774620024")
    }

    @Test("a header naming the barcode column twice is refused, nothing imported")
    func repeatedKeyColumn() async throws {
        let sandbox = try CommandSandbox()
        let path = try Reliability.write("barcode,barcode\n5099750442227,0077774620024\n", "twice.csv", in: sandbox)
        let result = try await sandbox.crates(["import", "--no-lookup", path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("line 1 names the barcode column 2 times"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("binary input is refused at its first bytes", arguments: ["/dev/zero", "/dev/urandom"])
    func binaryInput(_ device: String) async throws {
        let sandbox = try CommandSandbox()
        let result = try await sandbox.crates(["import", "--no-lookup", device], deadline: .seconds(120))
        #expect(result.status == 1 && !result.timedOut, "\(result)")
        // Random bytes start like a gzip file once in 65,536 runs: then it is named as one.
        #expect(result.stderr.contains("\(device): this is not a text file")
            || (device == "/dev/urandom" && result.stderr.contains("\(device): this is a")), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    /// A list through a pipe (`crates import <(grep … list)`, `/dev/stdin`, `-`): read once,
    /// whole. The input's start, read to tell crates' JSON export from a list, used to be read
    /// by an open of its own: from a pipe that took the first 256 bytes, the first 18
    /// barcodes of this list and a piece of the 19th.
    @Test("a list through a pipe is read whole, its first lines too: /dev/stdin, a FIFO, -")
    func aPipeIsReadWhole() async throws {
        let codes = (0..<40).map { Fixtures.gtin($0).canonical }
        let list = Data((codes.joined(separator: "\n") + "\n").utf8)
        for path in ["/dev/stdin", "-"] {
            let sandbox = try CommandSandbox()
            let result = try await sandbox.crates(["import", "--no-lookup", path], stdin: list)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(path): \(result)")
            let listed = try await sandbox.crates(["list"])
            #expect(Set(listed.stdoutLines.compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }) == Set(codes), "\(path)")
        }
        // A FIFO whose writer writes the list and closes.
        let sandbox = try CommandSandbox()
        let fifo = sandbox.directory.appendingPathComponent("list").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let file = try Reliability.write(codes.joined(separator: "\n") + "\n", "codes.txt", in: sandbox)
        let feeder = try ChildProcess.start(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec cat \"$1\" > \"$0\"", fifo, file], deadline: .seconds(120))
        defer { feeder.terminate() }
        let result = try await sandbox.crates(["import", "--no-lookup", fifo])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(try await sandbox.crates(["list"]).stdoutLines.count == codes.count)
    }

    /// Valid lines without end (`yes` into a FIFO): the reading stops at the signal, at once,
    /// with the shell's status for it; nothing is added.
    @Test("endless valid input stops at the first SIGINT, SIGTERM or SIGHUP", arguments: [SIGINT, SIGTERM, SIGHUP])
    func endlessInputStopsAtTheFirstSignal(_ signal: Int32) async throws {
        let sandbox = try CommandSandbox()
        let fifo = sandbox.directory.appendingPathComponent("endless").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let feeder = try ChildProcess.start(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec yes 5099750442227 > \"$0\"", fifo], deadline: .seconds(120))
        defer { feeder.terminate() }
        let importer = try ProcessRunner.startCrates(
            ["import", "--no-lookup", fifo], environment: sandbox.environment, deadline: .seconds(120))
        // Reading: the FIFO open, and more than a megabyte taken from it.
        try await waitUntil("crates import reading the endless input", lastSeen: { importer.stderrSoFar }) {
            Reliability.hasOpen(importer.pid, fifo) && Self.bytesRead(importer.pid) > 1 << 20
        }
        importer.signal(signal)
        let result = await importer.result()
        #expect(result.status == 128 + signal && !result.signalled && !result.timedOut, "\(result)")
        #expect(result.stderr.contains("Stopping"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "nothing added")
    }

    /// Bytes the process has read so far (`rchar` of /proc/PID/io).
    static func bytesRead(_ pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") })
        else { return 0 }
        return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
}
