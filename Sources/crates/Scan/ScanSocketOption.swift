import ArgumentParser

/// The camera daemon's socket as given on the command line (`--socket`, `--scanner`).
enum ScanSocketOption {
    /// Refuses an empty path (`--socket ''`, a variable that was not set): it names no
    /// socket, and taking the default instead would serve or read another one than meant.
    static func check(_ path: String?, flag: String) throws {
        guard let path, path.isEmpty else { return }
        throw ValidationError("\(flag) needs the socket's path: an empty one names no socket (leave \(flag) out for the default)")
    }
}
