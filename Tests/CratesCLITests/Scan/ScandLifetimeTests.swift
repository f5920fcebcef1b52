import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What `crates scand` leaves when it is killed, and what it starts with (issue 12, item 11),
/// as real processes: its decoder dies with it (PR_SET_PDEATHSIG), a new daemon ends a decoder
/// a dead one left, and a daemon started without standard error keeps descriptors 0–2
/// occupied, so its log does not land in its lock file.
@Suite("crates scand: killed, restarted, started without standard error (process)", .processTimeLimit)
struct ScandLifetimeTests {
    /// The pid in the daemon's log line "decoder started (pid N)".
    private func decoderPID(_ daemon: ScanSandbox.Daemon) async throws -> pid_t {
        try await waitFor("the decoder's pid in the daemon's log", lastSeen: { daemon.stderr }) {
            daemon.stderr.components(separatedBy: "decoder started (pid ").dropFirst().first
                .flatMap { pid_t($0.prefix { $0.isNumber }) }
        }
    }

    /// Whether process `pid` is gone: no such process, or a zombie nobody reaped yet.
    private func isGone(_ pid: pid_t) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")")
        else { return true }
        let state = text[text.index(after: close)...].split(separator: " ").first
        return state == "Z" || state == "X"
    }

    @Test(
        "kill -9 of crates scand: its decoder dies with it",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func theDecoderDiesWithItsDaemon() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let daemon = try await sandbox.startDaemon(["--decoder", "exec sleep 1000"])
        let decoder = try await decoderPID(daemon)
        #expect(!isGone(decoder))
        let killed = await daemon.stop(SIGKILL)
        #expect(killed.signalled && killed.status == SIGKILL, "\(killed)")
        try await waitUntil("the decoder \(decoder) to end with its daemon") { isGone(decoder) }
        ScanSandbox.killDecoders(loggedIn: killed.stderr)
    }

    /// A shell decoder's own child is not its death signal's: the next daemon ends it, by the
    /// process group noted beside the lock file.
    @Test("a new crates scand ends the decoder a daemon killed -9 left running")
    func aNewDaemonEndsTheDecoderADeadOneLeft() async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let childFile = sandbox.path("child")
        let dead = try await sandbox.startDaemon([
            "--decoder", "sleep 1000 & echo $! > \(ScanSandbox.quote(childFile)); wait",
        ])
        _ = try await decoderPID(dead)
        let child = try await waitFor("the decoder's child's pid") {
            (try? String(contentsOfFile: childFile, encoding: .utf8)).flatMap { text in
                text.hasSuffix("\n") ? pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            }
        }
        let killed = await dead.stop(SIGKILL)
        #expect(killed.signalled, "\(killed)")
        #expect(!isGone(child), "the leftover must still run for this test to mean anything")

        let next = try await sandbox.startDaemon(["--decoder", "exec sleep 1000"])
        try await waitUntil("the leftover decoder \(child) to be ended", lastSeen: { next.stderr }) { isGone(child) }
        try await next.waitForLog("left running by a daemon that did not shut down")
        let stopped = await next.stop()
        #expect(stopped.status == 0 && !stopped.signalled, "\(stopped)")
        if !isGone(child) { kill(child, SIGKILL) }
    }

    @Test("crates scand started without standard error (2>&-, and <&- too) keeps 0–2 occupied",
          arguments: ["2>&-", "<&- 2>&-"])
    func closedStandardDescriptors(_ redirections: String) async throws {
        let sandbox = try ScanSandbox()
        defer { sandbox.remove() }
        let crates = try ProcessRunner.cratesBinary().path
        let child = try ChildProcess.start(
            URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "exec \"$0\" \"$@\" \(redirections)", crates, "scand", "--decoder", "exec sleep 1000"],
            environment: sandbox.environment, deadline: .seconds(120))
        let daemon = ScanSandbox.Daemon(socket: sandbox.socket, child: child)
        try await daemon.waitUntilListening()
        let standardError = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/fd/2")
        #expect(standardError == "/dev/null")
        // The log ("listening on …") went to /dev/null, not into the lock file.
        let lock = try String(contentsOfFile: sandbox.socket + ".lock", encoding: .utf8)
        #expect(lock.trimmingCharacters(in: .whitespacesAndNewlines) == String(child.pid), "lock file: \(lock)")
        let stopped = await daemon.stop()
        #expect(stopped.status == 0 && !stopped.signalled, "\(stopped)")
        #expect(stopped.stderr.isEmpty)
    }
}
