import CratesCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The running decoder's process group, written beside the daemon's lock file
/// (`scan.sock.decoder`: "PID START", the group leader's pid and start time), so that a
/// daemon started after one that was killed -9 can end the decoder it left. The
/// start time makes sure that a pid reused since by another program is never signalled.
struct DecoderRecord {
    let path: String

    /// Notes that the decoder `pid` (its own process group) runs now.
    func write(pid: pid_t) {
        guard let start = Self.stat(of: pid)?.startTime else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let text = Array("\(pid) \(start)\n".utf8)
        _ = text.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The decoder has been reaped: nothing to end.
    func clear() {
        unlink(path)
    }

    /// Ends the decoder a dead daemon left (its whole process group), if the record names
    /// one that may still run. Call it with the daemon's lock held (no live daemon owns that
    /// decoder). Returns a note for the log when it ended one.
    ///
    /// The group is ours when its leader still runs with the recorded start time, or when the
    /// leader is gone (killed by its death signal) but the group lives on, in the decoder's
    /// children: Linux does not give a pid to a new process while it still names a process
    /// group. A leader with another start time is another program under a reused pid (so our
    /// group emptied long ago): left alone.
    func endLeftover() -> String? {
        defer { clear() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 1, let start = UInt64(parts[1]) else { return nil }
        if let leader = Self.stat(of: pid), !leader.isGone, leader.startTime != start { return nil }
        // Nothing left of the group: nothing to say.
        guard kill(-pid, 0) == 0 || errno == EPERM else { return nil }
        _ = kill(-pid, SIGKILL)
        return "ended the decoder (process group \(pid)) left running by a daemon that did not shut down"
    }

    static func stat(of pid: pid_t) -> ProcessStat? {
        (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap(ProcessStat.init)
    }
}
