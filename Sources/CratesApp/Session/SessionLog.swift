import Foundation

/// Warnings the UI cannot print while curses owns the terminal (a malformed line from the
/// camera daemon, say): appended to `$XDG_STATE_HOME/crates/crates.log` (default
/// `~/.local/state/crates/crates.log`, the XDG Base Directory Specification's place for
/// logs), one timestamped line each. Logging never fails the caller: a log that cannot be
/// written is skipped, since the status line shows the same warning.
public enum SessionLog {
    public static func warning(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = path(environment: environment) else { return }
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stamp = Date().ISO8601Format()
        // One line per warning, whatever the text holds.
        let line = "\(stamp) warning: \(text.replacingOccurrences(of: "\n", with: "\\n"))\n"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // O_APPEND: lines of two crates processes interleave whole, never overwrite.
        _ = Array(line.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    public static func path(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/crates/crates.log" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/crates/crates.log"
    }
}
