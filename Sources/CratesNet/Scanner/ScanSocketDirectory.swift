#if canImport(Glibc)
    import Glibc
#endif

/// Makes sure the socket's directory is one only this user can enter (mode 0700, owned by
/// them), since the socket's own mode is not enough on every system: a directory others can
/// enter would let them connect where the socket mode is not honoured, or swap the socket
/// for their own.
enum ScanSocketDirectory {
    /// Creates the directory (and missing parents) with mode 0700, or checks the existing one.
    /// A wrong mode is repaired when `repair` is true (a directory crates chose and named for
    /// itself) and refused otherwise (a directory the user named, perhaps their home).
    /// Returns a note for the log when something was created or repaired.
    static func prepare(_ directory: String, repair: Bool, uid: UInt32 = UInt32(getuid())) throws(ScannerError) -> String? {
        var info = stat()
        if lstat(directory, &info) != 0 {
            guard errno == ENOENT else { throw .system(call: "stat", path: directory, errno: errno) }
            try makeDirectories(directory)
            return "created \(directory) (mode 700)"
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: directory) }
        guard info.st_uid == uid else { throw .directoryNotOwned(path: directory, owner: info.st_uid) }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 != 0 else { return nil }
        guard repair else { throw .directoryNotPrivate(path: directory, mode: mode) }
        guard chmod(directory, 0o700) == 0 else { throw .system(call: "chmod", path: directory, errno: errno) }
        return "made \(directory) private (mode \(String(mode, radix: 8)) → 700)"
    }

    /// mkdir -p with mode 0700 for each directory it creates; chmod after mkdir, since the
    /// umask may have taken bits the owner needs.
    private static func makeDirectories(_ directory: String) throws(ScannerError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + component
            if mkdir(path, 0o700) == 0 {
                guard chmod(path, 0o700) == 0 else { throw .system(call: "chmod", path: path, errno: errno) }
            } else if errno != EEXIST {
                throw .system(call: "mkdir", path: path, errno: errno)
            }
        }
    }
}
