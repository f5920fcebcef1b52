import CratesCore
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// The process that holds a lookup claim, written into the claim so that another process can
/// tell whether the claimer still runs: `BOOT/PIDNS/PID/START`, where BOOT is the kernel's
/// boot id (`/proc/sys/kernel/random/boot_id`), PIDNS the PID namespace
/// (`/proc/self/ns/pid`), PID the process id and START the process's start time in clock
/// ticks since boot (field 22 of `/proc/PID/stat`, proc(5)).
///
/// A claim is dead when, on the same boot and in the same PID namespace, no process has its
/// pid, or the process that has it is a zombie, or started at another time (the pid was
/// reused). Anything this process cannot judge (another machine sharing the file, another
/// namespace, a claim made before migration v4) is alive: its lease decides, as before.
enum ClaimOwner {
    /// This process, as a claim names it (nil where /proc cannot say: no owner is written, and
    /// the lease alone decides).
    static let current: String? = {
        guard let boot = bootID, let namespace = pidNamespace, let start = startTime(of: getpid()) else { return nil }
        return "\(boot)/\(namespace)/\(getpid())/\(start)"
    }()

    private static let bootID: String? = {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    private static let pidNamespace: String? = {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid")
    }()

    /// Whether the claimer named `owner` is known to be gone.
    static func isDead(_ owner: String) -> Bool {
        guard let parts = parts(of: owner), let pid = Int32(parts[2]), let start = UInt64(parts[3]), pid > 0,
              let boot = bootID, let namespace = pidNamespace,
              parts[0] == boot, parts[1] == namespace
        else { return false }
        guard let stat = processStat(pid) else { return true }
        return stat.isGone || stat.startTime != start
    }

    /// The process id an owner names, for messages ("another sync, pid 1234").
    static func pid(_ owner: String) -> Int32? {
        parts(of: owner).flatMap { Int32($0[2]) }
    }

    /// BOOT, PIDNS, PID and START; nil when `owner` is not of that form.
    private static func parts(of owner: String) -> [Substring]? {
        let parts = owner.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 4 ? parts : nil
    }

    /// The start time of process `pid`, nil when there is no such process.
    static func startTime(of pid: pid_t) -> UInt64? {
        processStat(pid)?.startTime
    }

    private static func processStat(_ pid: pid_t) -> ProcessStat? {
        (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap(ProcessStat.init)
    }

    /// `crates_claim_dead(claimOwner)`: 1 when the claim's process is known to be gone, for
    /// the queue's SQL. Not deterministic (processes come and go), so SQLite never caches it.
    static let sqlFunction = DatabaseFunction("crates_claim_dead", argumentCount: 1, pure: false) { values in
        guard let owner = String.fromDatabaseValue(values[0]) else { return false }
        return isDead(owner)
    }
}
