import CratesCore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch directory for the camera daemon's process tests: XDG_RUNTIME_DIR points into it,
/// so the default socket is `<dir>/run/crates/scan.sock`. Barcode images are drawn with zint;
/// `crates scand` and `crates scan` run as real processes through `ProcessRunner`.
struct ScanSandbox {
    let directory: String

    init() throws {
        var template = Array("/tmp/crates-scand-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ScanTestError.setup("mkdtemp failed") }
        directory = String(cString: made)
    }

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
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Draws a barcode with zint (`symbology` is zint's -b name: EANX, UPCA, QRCODE…).
    func image(_ symbology: String, _ data: String, name: String) async throws -> String {
        let output = path(name + ".png")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["zint", "-b", symbology, "-d", data, "-o", output],
            deadline: .seconds(20))
        guard result.status == 0 else { throw ScanTestError.setup("zint (Debian package zint, see scripts/install-deps.sh): \(result)") }
        return output
    }

    /// zbarimg's line for an image, decoded now: the decoders below replay it with their own
    /// timing, so that hold-time tests do not depend on how long zbarimg takes on a busy machine.
    func decode(_ image: String) async throws -> String {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["zbarimg", "-q", image], deadline: .seconds(20))
        guard result.status == 0, let line = result.stdoutLines.first else { throw ScanTestError.setup("zbarimg: \(result)") }
        return line
    }

    /// Starts `crates scand` with `arguments`; see `Daemon`.
    func startDaemon(_ arguments: [String], socket: String? = nil, deadline: Duration = .seconds(60)) async throws -> Daemon {
        let environment = environment
        let task = Task {
            try await ProcessRunner.crates(["scand"] + arguments, environment: environment, deadline: deadline)
        }
        let daemon = Daemon(socket: socket ?? self.socket, task: task)
        try await daemon.waitUntilListening()
        return daemon
    }

    /// Starts `crates scan` with `arguments`, its standard output and error going to files,
    /// so the test can see it connect (before the decoder is let go) and watch scans arrive.
    func startClient(_ arguments: [String], name: String = "client", deadline: Duration = .seconds(30)) throws -> Client {
        let log = path(name + ".err")
        let out = path(name + ".out")
        let binary = try ProcessRunner.cratesBinary().path
        let environment = environment
        let task = Task {
            try await ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", #"exec "$0" scan "$@" 2> "$LOG" > "$OUT""#, binary] + arguments,
                environment: environment.merging(["LOG": log, "OUT": out]) { $1 }, deadline: deadline)
        }
        return Client(log: log, out: out, task: task)
    }

    /// A running `crates scand`.
    struct Daemon {
        let socket: String
        let task: Task<ProcessResult, any Error>

        /// The daemon's pid, from the lock file beside the socket.
        var pid: pid_t? {
            guard let text = try? String(contentsOfFile: socket + ".lock", encoding: .utf8) else { return nil }
            return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        /// Until a connection succeeds (a stale socket file from an earlier daemon does not
        /// count) and the lock file names a pid.
        func waitUntilListening() async throws {
            let ready = await ScanSandbox.eventually(.seconds(20)) { pid != nil && ScanSandbox.accepts(socket) }
            guard ready else {
                task.cancel()
                throw ScanTestError.setup("crates scand did not listen on \(socket): \(try await task.value)")
            }
        }

        /// Sends `signal` and waits for the daemon to exit.
        func stop(_ signal: Int32 = SIGTERM) async throws -> ProcessResult {
            if let pid { kill(pid, signal) }
            return try await task.value
        }
    }

    /// A running `crates scan`.
    struct Client {
        let log: String
        let out: String
        let task: Task<ProcessResult, any Error>

        var stderr: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        /// The complete lines printed so far.
        var lines: [String] {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// Waits until at least `count` lines are printed; the lines then.
        func waitForLines(_ count: Int, deadline: Duration = .seconds(20)) async -> [String] {
            _ = await ScanSandbox.eventually(deadline) { lines.count >= count }
            return lines
        }

        func waitUntilConnected() async throws {
            guard await ScanSandbox.eventually(.seconds(20), { stderr.contains("connected to") }) else {
                task.cancel()
                throw ScanTestError.setup("crates scan did not connect: \(stderr) \(try await task.value)")
            }
        }
    }

    /// Polls `condition` until it holds or the deadline passes (one more look after it).
    static func eventually(_ deadline: Duration, _ condition: () -> Bool) async -> Bool {
        let end = ContinuousClock.now.advanced(by: deadline)
        while ContinuousClock.now < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
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

    /// The permission bits of a file, or nil when it is not there.
    static func mode(_ path: String) -> UInt32? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o7777
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

enum ScanTestError: Error, CustomStringConvertible {
    case setup(String)
    var description: String {
        switch self { case .setup(let what): what }
    }
}
