import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finding and running other programs.
enum ExecutablePath {
    /// The full path of `name` on $PATH, if it is there and executable.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

enum ChildProcess {
    /// Runs a program on this terminal (inherited stdin, stdout, stderr) and waits for it.
    /// Returns its exit status, or -1 when it could not start.
    static func runInteractive(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
