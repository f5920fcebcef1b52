import CratesCore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch directory for the camera daemon's process tests: XDG_RUNTIME_DIR points into it,
/// so the default socket is `<dir>/run/crates/scan.sock`. Barcode images are drawn with zint;
/// `crates scand` and `crates scan` run as real processes through `ProcessRunner`.
struct ScanSandbox {
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory(prefix: "crates-scand")
    }

    var directory: String { scratch.path }
    var runtime: String { directory + "/run" }
    /// The default socket under this sandbox's XDG_RUNTIME_DIR.
    var socket: String { runtime + "/crates/scan.sock" }
    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime] }

    func path(_ name: String) -> String { directory + "/" + name }

    /// Removes the directory, first stopping (SIGTERM) any daemon still serving a socket in
    /// it: a test that failed half-way must not leave a daemon and its decoder running after
    /// the test process exits. Only a process whose environment names this sandbox is
    /// signalled, so a pid reused since is never hit.
    func remove() {
        let lockFiles = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".lock") } ?? []
        for lock in lockFiles {
            guard let text = try? String(contentsOfFile: path(lock), encoding: .utf8),
                  let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1,
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  String(decoding: environment, as: UTF8.self).contains(directory)
            else { continue }
            kill(pid, SIGTERM)
        }
        scratch.remove()
    }

    /// Draws a barcode with zint (`symbology` is zint's -b name: EANX, UPCA, QRCODE…).
    func image(_ symbology: String, _ data: String, name: String) async throws -> String {
        let output = path(name + ".png")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["zint", "-b", symbology, "-d", data, "-o", output],
            deadline: .seconds(120))
        guard result.succeeded else { throw ScanTestError.setup("zint (Debian package zint, see scripts/install-deps.sh): \(result)") }
        return output
    }

    /// zbarimg's line for an image, decoded now: the decoders below replay it with their own
    /// timing, so that hold-time tests do not depend on how long zbarimg takes on a busy machine.
    func decode(_ image: String) async throws -> String {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["zbarimg", "-q", image], deadline: .seconds(120))
        guard result.succeeded, let line = result.stdoutLines.first else { throw ScanTestError.setup("zbarimg: \(result)") }
        return line
    }

    /// Starts `crates scand` with `arguments`; see `Daemon`.
    func startDaemon(_ arguments: [String], socket: String? = nil, deadline: Duration = .seconds(300)) async throws -> Daemon {
        let child = try ProcessRunner.startCrates(["scand"] + arguments, environment: environment, deadline: deadline)
        let daemon = Daemon(socket: socket ?? self.socket, child: child)
        try await daemon.waitUntilListening()
        return daemon
    }

    /// Starts `crates scan` with `arguments`, so the test can see it connect (before the
    /// decoder is let go) and watch scans arrive.
    func startClient(_ arguments: [String], deadline: Duration = .seconds(300)) throws -> Client {
        Client(child: try ProcessRunner.startCrates(["scan"] + arguments, environment: environment, deadline: deadline))
    }

    /// A running `crates scand`.
    struct Daemon {
        let socket: String
        let child: ChildProcess

        var pid: pid_t { child.pid }
        /// Its log so far.
        var stderr: String { child.stderrSoFar }

        /// Until a connection succeeds (a stale socket file from an earlier daemon does not
        /// count) and the lock file names its pid.
        func waitUntilListening() async throws {
            do {
                try await waitUntil("crates scand listening on \(socket)", lastSeen: { child.stderrSoFar }) {
                    let locked = (try? String(contentsOfFile: socket + ".lock", encoding: .utf8))?
                        .trimmingCharacters(in: .whitespacesAndNewlines) == String(child.pid)
                    return locked && ScanSandbox.accepts(socket)
                }
            } catch {
                child.terminate()
                throw ScanTestError.setup("\(error)\n\(await child.result())")
            }
        }

        /// Waits until its log contains `text`.
        func waitForLog(_ text: String) async throws {
            try await waitUntil("“\(text)” in the daemon's log", lastSeen: { child.stderrSoFar }) { child.stderrSoFar.contains(text) }
        }

        /// Sends `signal` and waits for the daemon to exit.
        func stop(_ signal: Int32 = SIGTERM) async -> ProcessResult {
            child.signal(signal)
            return await child.result()
        }
    }

    /// A running `crates scan`.
    struct Client {
        let child: ChildProcess

        var stderr: String { child.stderrSoFar }

        /// The complete lines printed so far.
        var lines: [String] {
            child.stdoutSoFar.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// Waits until a line contains `text`; the lines then.
        @discardableResult
        func waitForLine(containing text: String) async throws -> [String] {
            try await waitFor("a line with “\(text)” from crates scan", lastSeen: { child.stdoutSoFar + child.stderrSoFar }) {
                let lines = self.lines
                return lines.contains { $0.contains(text) } ? lines : nil
            }
        }

        func waitUntilConnected() async throws {
            try await waitUntil("crates scan connected", lastSeen: { child.stderrSoFar }) { child.stderrSoFar.contains("connected to") }
        }

        /// Waits for it to end.
        func result() async -> ProcessResult { await child.result() }
    }

    /// Kills the process groups of the decoders a daemon's log names ("decoder started (pid
    /// N)"): what a daemon killed with SIGKILL leaves running.
    static func killDecoders(loggedIn log: String) {
        for part in log.components(separatedBy: "decoder started (pid ").dropFirst() {
            if let pid = pid_t(part.prefix { $0.isNumber }), pid > 1 { kill(-pid, SIGKILL) }
        }
    }

    /// Whether something accepts connections on the Unix socket at `path` (connects, closes).
    static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    static func mode(_ path: String) -> UInt32? { fileMode(path) }

    static func quote(_ text: String) -> String { ProcessRunner.quote(text) }
}

enum ScanTestError: Error, CustomStringConvertible {
    case setup(String)
    var description: String {
        switch self { case .setup(let what): what }
    }
}
