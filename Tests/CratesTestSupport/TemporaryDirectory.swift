import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private directory of its own under /tmp, removed when the last reference goes (or at
/// `remove()`). The path is short on purpose: a Unix socket's path holds at most 107 bytes.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// Creates `/tmp/PREFIX-XXXXXX` (mode 0700, by mkdtemp).
    public init(prefix: String = "crates-test") throws {
        PoolWaitProbe.start()
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw TemporaryDirectoryError(reason: String(cString: strerror(errno)))
        }
        path = String(cString: made)
    }

    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and everything in it now.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { remove() }
}

public struct TemporaryDirectoryError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "could not create a temporary directory under /tmp: \(reason)" }
}

/// The permission bits of a file, or nil when it is not there (lstat: a link is not followed).
public func fileMode(_ path: String) -> UInt32? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode) & 0o7777
}
