import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private tmux server running one program in a fixed-size pane, for end-to-end tests of
/// the real `crates` binary: keys go in with send-keys, the screen comes out with capture-pane.
///
/// The server is started with its standard streams on /dev/null, so it never holds a test's
/// pipes open (Foundation's `Process` would otherwise wait for the daemon). Every wait polls
/// the pane against a deadline instead of sleeping.
final class TmuxSession: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is a constant.
    let socket: String
    let directory: URL
    /// Written by the pane's shell when the program exits: "EXIT <status>".
    static let exitMarker = "__CRATES_EXIT"

    /// Starts `command` (a shell command line) in a `width`×`height` pane. After it exits, the
    /// pane shows the exit marker and the terminal's modes (`stty -a`), and stays open.
    init(command: String, environment: [String: String], width: Int = 80, height: Int = 24) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("crates-tmux-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("tmux.sock").path
        var env = environment
        env["LANG"] = env["LANG"] ?? "C.UTF-8"
        env["TERM"] = "tmux-256color"
        let exports = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let script = "env \(exports) \(command); echo \(Self.exitMarker) $?; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 600"
        let start = "exec tmux -S \(Self.quote(socket)) -f /dev/null new-session -d -x \(width) -y \(height) \(Self.quote(script)) </dev/null >/dev/null 2>&1"
        // posix_spawn + waitpid, not Foundation's Process: the daemonised server would inherit
        // the descriptor Process watches for the child's exit, and Process would wait forever.
        let status = try await Self.spawnAndWait(["/bin/bash", "-c", Self.closeInherited + start], deadline: .seconds(30))
        guard status == 0 else { throw TmuxError.failed("new-session", "exit status \(status)") }
        _ = try await tmux(["set-option", "-g", "status", "off"])
    }

    deinit {
        let socket = self.socket
        let directory = self.directory
        // Best effort, synchronous: the server must not outlive the test.
        var pid: pid_t = 0
        let argv = ["/bin/sh", "-c", "tmux -S '\(socket)' kill-server </dev/null >/dev/null 2>&1"]
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        if posix_spawn(&pid, argv[0], nil, nil, &cArgs, environ) == 0 {
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        for arg in cArgs { free(arg) }
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    func tmux(_ arguments: [String]) async throws -> ProcessResult {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["tmux", "-S", socket] + arguments, deadline: .seconds(10))
        guard result.status == 0 else { throw TmuxError.failed(arguments.joined(separator: " "), result.description) }
        return result
    }

    /// Types `text` literally, all at once (faster than any wedge scanner).
    func type(_ text: String) async throws {
        try await tmux(["send-keys", "-l", text])
    }

    /// Sends named keys: "Enter", "Escape", "Down", "C-c"…
    func press(_ keys: String...) async throws {
        try await tmux(["send-keys"] + keys)
    }

    /// The screen as lines.
    func screen() async throws -> [String] {
        try await tmux(["capture-pane", "-p"]).stdoutLines
    }

    /// Polls the screen until `condition` holds; fails with the last screen at the deadline.
    @discardableResult
    func waitFor(
        _ what: String, deadline: Duration = .seconds(15), _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var last: [String] = []
        var lastLook = false
        // At least one look after the deadline (see `spawnAndWait`).
        while clock.now < end || !lastLook {
            lastLook = clock.now >= end
            last = try await screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxError.timedOut(what, last.joined(separator: "\n"))
    }

    /// Waits until some line contains `text`.
    @discardableResult
    func waitFor(text: String, deadline: Duration = .seconds(15)) async throws -> [String] {
        try await waitFor("“\(text)” on screen", deadline: deadline) { lines in lines.contains { $0.contains(text) } }
    }

    func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pid of the program in the pane (the child of the pane's shell).
    func programPID() async throws -> Int32? {
        let shell = try await tmux(["display-message", "-p", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["pgrep", "-P", shell], deadline: .seconds(5))
        return children.stdoutLines.compactMap { Int32($0) }.first
    }

    /// After the program exited: its status and whether the terminal is back in cooked mode
    /// with echo on.
    func exitReport(deadline: Duration = .seconds(10)) async throws -> (status: Int, saneTerminal: Bool) {
        let lines = try await waitFor("the program to exit", deadline: deadline) { lines in
            lines.contains { $0.hasPrefix(Self.exitMarker) }
        }
        guard let index = lines.firstIndex(where: { $0.hasPrefix(Self.exitMarker) }),
              let status = Int(lines[index].dropFirst(Self.exitMarker.count + 1)) else {
            throw TmuxError.failed("exit report", lines.joined(separator: "\n"))
        }
        let modes = try await waitFor("stty report", deadline: .seconds(5)) { lines in
            lines.dropFirst(index + 1).contains { $0.contains("icanon") }
        }.dropFirst(index + 1).joined(separator: " ").split(separator: " ").map(String.init)
        let sane = modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon") && !modes.contains("-echo")
        return (status, sane)
    }

    /// Runs argv[0] with posix_spawn and polls waitpid until it exits or the deadline passes.
    static func spawnAndWait(_ argv: [String], deadline: Duration) async throws -> Int32 {
        var pid: pid_t = 0
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for arg in cArgs { free(arg) } }
        // Close every descriptor above stderr in the child: otherwise the tmux daemon keeps
        // whatever pipes other tests' processes had open at that moment, including the one
        // Foundation's Process watches for a child's exit, and that test then never sees
        // its child exit.
        // (glibc's posix_spawn_file_actions_addclosefrom_np does not import, so the shell
        // that starts tmux closes them: see `closeInherited`.)
        // An empty signal mask and default dispositions: the test runner's threads block
        // SIGTERM, and a mask is inherited across exec, so tmux (and crates under it) would
        // otherwise ignore `kill`.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, argv[0], nil, &attributes, &cArgs, environ)
        guard spawned == 0 else { throw TmuxError.failed("spawn", String(cString: strerror(spawned))) }
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var status: Int32 = 0
        // Checked once more after the deadline: when the test process's threads are all busy
        // (other suites run alongside), this task may first run after the deadline has passed.
        var lastLook = false
        while clock.now < end || !lastLook {
            lastLook = clock.now >= end
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid {
                return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
            }
            // Foundation's Process reaps children it does not own when another test's
            // process exits at the same moment: the child has exited, its status is lost.
            // The caller's next tmux command tells whether the server came up.
            if waited == -1, errno == ECHILD { return 0 }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw TmuxError.timedOut("spawn of \(argv.joined(separator: " "))", "")
    }

    /// Bash that closes every inherited descriptor above stderr before what follows.
    static let closeInherited = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null; done; "#

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

enum TmuxError: Error, CustomStringConvertible {
    case failed(String, String)
    case timedOut(String, String)

    var description: String {
        switch self {
        case let .failed(what, output): "tmux \(what) failed: \(output)"
        case let .timedOut(what, screen): "timed out waiting for \(what); the screen was:\n\(screen)"
        }
    }
}
