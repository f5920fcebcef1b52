#if canImport(Glibc)
    import Glibc
#endif

/// Where the camera daemon's socket is, for `crates scand`, `crates scan` and the TUI alike:
/// `--socket PATH` when given, else `$XDG_RUNTIME_DIR/crates/scan.sock` (the XDG Base
/// Directory Specification's place for sockets: private to the user, removed at logout),
/// else `/tmp/crates-UID/scan.sock`, a directory crates creates with mode 0700.
public struct ScanSocketPath: Hashable, Sendable, CustomStringConvertible {
    /// The socket file.
    public let path: String
    /// True when crates chose the place (not the user): its directory belongs to crates, so a
    /// wrong mode on it is repaired instead of refused.
    public let isDefault: Bool

    public var description: String { path }

    /// The directory holding the socket.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public init(path: String, isDefault: Bool) {
        self.path = path
        self.isDefault = isDefault
    }

    /// Resolves the socket path: `option` (a `--socket` value) first, then the environment.
    /// A relative `XDG_RUNTIME_DIR` is ignored, as the XDG specification says.
    public static func resolve(option: String?, environment: [String: String], uid: UInt32 = UInt32(getuid())) -> ScanSocketPath {
        if let option, !option.isEmpty { return ScanSocketPath(path: option, isDefault: false) }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let base = runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
            return ScanSocketPath(path: base + "/crates/scan.sock", isDefault: true)
        }
        return ScanSocketPath(path: "/tmp/crates-\(uid)/scan.sock", isDefault: true)
    }
}
