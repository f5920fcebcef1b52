import CratesTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private tmux server running one program in a fixed-size pane, for end-to-end tests of
/// the real `crates` binary: keys go in with send-keys, the screen comes out with capture-pane.
///
/// The server is started with its standard streams on /dev/null and no other descriptor of
/// the test process (see `ChildProcess`), so it never holds a test's pipes open. Every wait
/// looks at the pane until a condition holds, with a deadline (`waitFor`), never a sleep.
final class TmuxSession: Sendable {
    let socket: String
    let directory: URL
    /// Written by the pane's shell when the program exits: "EXIT <status>".
    static let exitMarker = "__CRATES_EXIT"

    /// Starts `command` (a shell command line) in a `width`×`height` pane. After it exits, the
    /// pane shows the exit marker and the terminal's modes (`stty -a`), and stays open.
    init(command: String, environment: [String: String], width: Int = 80, height: Int = 24) async throws {
        var template = Array("/tmp/crates-tmux-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TmuxError.failed("mkdtemp", String(cString: strerror(errno))) }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        socket = directory.appendingPathComponent("tmux.sock").path
        var env = environment
        env["LANG"] = env["LANG"] ?? "C.UTF-8"
        env["TERM"] = "tmux-256color"
        let exports = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let script = "env \(exports) \(command); echo \(Self.exitMarker) $?; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 600"
        let start = "exec tmux -S \(Self.quote(socket)) -f /dev/null new-session -d -x \(width) -y \(height) \(Self.quote(script)) </dev/null >/dev/null 2>&1"
        let started = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", start], deadline: .seconds(120))
        guard started.succeeded else { throw TmuxError.failed("new-session", "\(started)") }
        try await tmux(["set-option", "-g", "status", "off"])
    }

    deinit {
        // The server must not outlive the test: kill-server, then the directory with its
        // socket, in the background (the pump thread reaps the shell).
        _ = try? ChildProcess.start(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", #"tmux -S "$0" kill-server; rm -rf "$1""#, socket, directory.path],
            deadline: .seconds(120))
    }

    @discardableResult
    func tmux(_ arguments: [String]) async throws -> ProcessResult {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["tmux", "-S", socket] + arguments, deadline: .seconds(120))
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

    /// Looks at the screen until `condition` holds; the screen then. At the deadline it
    /// throws `WaitTimeout` with the screen as it was.
    @discardableResult
    func waitFor(
        _ what: String, deadline: Duration = defaultWaitDeadline, _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        try await CratesTestSupport.waitFor(
            what, within: deadline, every: .milliseconds(50),
            lastSeen: { (try? await self.screen().joined(separator: "\n")) ?? "(no screen)" }
        ) { () async throws -> [String]? in
            let screen = try await screen()
            return condition(screen) ? screen : nil
        }
    }

    /// Waits until some line contains `text`.
    @discardableResult
    func waitFor(text: String, deadline: Duration = defaultWaitDeadline) async throws -> [String] {
        try await waitFor("“\(text)” on screen", deadline: deadline) { lines in lines.contains { $0.contains(text) } }
    }

    func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pid of the program in the pane (the child of the pane's shell).
    func programPID() async throws -> Int32? {
        let shell = try await tmux(["display-message", "-p", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["pgrep", "-P", shell], deadline: .seconds(120))
        // pgrep: 0 found, 1 none; anything else is an error.
        guard children.status == 0 || children.status == 1, !children.signalled else { throw TmuxError.failed("pgrep", "\(children)") }
        return children.stdoutLines.compactMap { Int32($0) }.first
    }

    /// After the program exited: its status and whether the terminal is back in cooked mode
    /// with echo on.
    func exitReport(deadline: Duration = defaultWaitDeadline) async throws -> (status: Int, saneTerminal: Bool) {
        let lines = try await waitFor("the program to exit", deadline: deadline) { lines in
            lines.contains { $0.hasPrefix(Self.exitMarker) }
        }
        guard let index = lines.firstIndex(where: { $0.hasPrefix(Self.exitMarker) }),
              let status = Int(lines[index].dropFirst(Self.exitMarker.count + 1)) else {
            throw TmuxError.failed("exit report", lines.joined(separator: "\n"))
        }
        let modes = try await waitFor("stty report") { lines in
            lines.dropFirst(index + 1).contains { $0.contains("icanon") }
        }.dropFirst(index + 1).joined(separator: " ").split(separator: " ").map(String.init)
        let sane = modes.contains("icanon") && modes.contains("echo") && !modes.contains("-icanon") && !modes.contains("-echo")
        return (status, sane)
    }

    static func quote(_ text: String) -> String { ProcessRunner.quote(text) }
}

enum TmuxError: Error, CustomStringConvertible {
    case failed(String, String)

    var description: String {
        switch self {
        case let .failed(what, output): "tmux \(what) failed: \(output)"
        }
    }
}
