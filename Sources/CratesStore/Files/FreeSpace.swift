import Foundation

/// Free space on the file system holding a path, as an unprivileged writer may use it
/// (`f_bavail`: the blocks kept for root are not counted): the one probe behind the
/// catalogue build's check before it starts and the download's before and while it writes.
public enum FreeSpace {
    /// Bytes an unprivileged writer may still use at `path` (a file or a directory); nil
    /// when it cannot be told.
    public static func bytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
