import Foundation

/// Other programs crates starts: a browser for a Discogs page, `crates auth` on the plain
/// terminal from the TUI.
public enum ExternalPrograms {
    /// The full path of `name` on $PATH, if it is there and executable.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Whether a graphical session is there to open a browser in.
    public static func hasDisplay(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// Opens `url` with xdg-open, detached and silent. False when there is no display or no
    /// xdg-open (the caller then shows the URL).
    @discardableResult
    public static func openInBrowser(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard hasDisplay(environment), let xdgOpen = find("xdg-open", environment: environment) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xdgOpen)
        process.arguments = [url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            return true
        } catch {
            return false
        }
    }
}
