import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The camera daemon's socket as named on the command line, and what a failure to reach it
/// says: crates' words, the system call and errno only with `--verbose`.
@Suite("crates scan, scand and the UI: the socket named, and the words of a failure (process)", .processTimeLimit)
struct ScanSocketMessageTests {
    @Test("an empty --socket or --scanner is refused as a usage error (exit 64), never taken for the default socket")
    func emptySocketPath() async throws {
        let sandbox = try CommandSandbox()
        let runs: [(arguments: [String], flag: String)] = [
            (["scan", "--socket", ""], "--socket"),
            (["scan", "--follow", "--socket", ""], "--socket"),
            (["scand", "--socket", "", "--decoder", "exec sleep 1000"], "--socket"),
            (["--scanner", "", "--no-lookup"], "--scanner"),
        ]
        for (arguments, flag) in runs {
            // Before, scand served the default socket until killed: a deadline, not a hang.
            let result = try await sandbox.crates(arguments, deadline: .seconds(30))
            #expect(result.status == 64 && !result.signalled, "\(arguments): \(result)")
            #expect(result.stderr.contains("\(flag) needs the socket's path: an empty one names no socket"), "\(arguments): \(result)")
        }
    }

    /// As nobody, a socket in a directory only root may enter: connect(2) says EACCES.
    @Test("a socket the user may not reach: crates' words; connect(…) and errno only with --verbose",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func permissionDenied() async throws {
        let sandbox = try CommandSandbox()
        #expect(chmod(sandbox.directory.path, 0o755) == 0)
        let closed = sandbox.directory.appendingPathComponent("closed")
        try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: false)
        #expect(chmod(closed.path, 0o700) == 0)
        let socket = closed.appendingPathComponent("scan.sock").path
        for verbose in [false, true] {
            let result = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", try ProcessRunner.cratesBinary().path, "scan"]
                    + (verbose ? ["--verbose"] : []) + ["--socket", socket],
                environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"], deadline: .seconds(60))
            #expect(result.status == 1 && !result.signalled, "\(result)")
            #expect(result.stderr.contains(
                "crates scan: cannot connect to the camera daemon at \(socket): permission denied: the socket or a directory on its path is not open to you"),
                "\(result)")
            let raw = "crates scan: detail: connect(\(socket)) failed: Permission denied (errno 13)"
            #expect(result.stderr.contains(raw) == verbose, "verbose \(verbose): \(result)")
            #expect(!result.stderr.contains("connect(") || verbose, "\(result)")
        }
    }
}
