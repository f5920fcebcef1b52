#if canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// Keeps descriptors 0, 1 and 2 open: a process started with one of them closed
/// (`crates scand 2>&-`) would otherwise hand that number to the next file it opens, and
/// whatever is written to "standard error" would land in that file (the daemon's
/// log in its lock file).
public enum StandardDescriptors {
    /// Opens /dev/null on each of descriptors 0–2 that is closed, lowest first (open(2) returns
    /// the lowest free number, so each lands where it is missing). Call it first thing in
    /// `main`, before anything opens a file or a socket. Returns the descriptors it filled.
    @discardableResult
    public static func occupy() -> [Int32] {
        let filled = fill()
        filledAtStart.withLock { $0.formUnion(filled) }
        return filled
    }

    /// Whether descriptor `fd` (0–2) was closed when the process started, and filled by
    /// `occupy`: what is written there is lost, so writing it is an error to report.
    public static func wasClosedAtStart(_ fd: Int32) -> Bool {
        filledAtStart.withLock { $0.contains(fd) }
    }

    private static let filledAtStart = Mutex<Set<Int32>>([])

    private static func fill() -> [Int32] {
        var filled: [Int32] = []
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened < 0 { continue }
            if opened != fd {
                // A lower one was filled meanwhile by another thread: put this one in place.
                _ = dup2(opened, fd)
                close(opened)
            }
            filled.append(fd)
        }
        return filled
    }
}
