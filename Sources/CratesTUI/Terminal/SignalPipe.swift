import Glibc

/// SIGTERM, SIGHUP and SIGINT become a byte on a pipe that the UI loop checks, so the loop
/// (not a signal handler) restores the terminal and shuts down in order.
enum SignalPipe {
    // Written once in `install()` before the handlers are installed; the handlers only read.
    nonisolated(unsafe) private static var fds: [Int32] = [-1, -1]
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    static func install() {
        var pair: [Int32] = [-1, -1]
        guard pipe(&pair) == 0 else { return }
        for fd in pair { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        fds = pair
        writeEnd = pair[1]
        // A parent may have started us with these blocked (the mask is inherited across exec):
        // unblock them on this thread, or SIGTERM would never arrive.
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT, SIGWINCH] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for sig in [SIGTERM, SIGHUP, SIGINT] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = Glibc.write(SignalPipe.writeEnd, &byte, 1)
            }
        }
    }

    /// The signal received since the last call, if any.
    static func take() -> Int32? {
        guard fds[0] >= 0 else { return nil }
        var byte: UInt8 = 0
        return Glibc.read(fds[0], &byte, 1) == 1 ? Int32(byte) : nil
    }
}
