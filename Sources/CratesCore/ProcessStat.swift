/// What crates reads of a process's `/proc/PID/stat` line (proc(5)): its state and when it
/// started. Pure: the reading of the file is the caller's (CratesStore, CratesNet).
///
/// Together, a pid and its start time name one process for the life of the system (pids are
/// reused, start times of one pid are not), which is how a lookup claim and a decoder left by
/// a dead daemon are told apart from whatever runs under that pid now.
public struct ProcessStat: Hashable, Sendable {
    /// Field 3: R, S, D, Z (zombie), T, t, X (dead)…
    public var state: Character
    /// Field 22: the time the process started after boot, in clock ticks.
    public var startTime: UInt64

    public init(state: Character, startTime: UInt64) {
        self.state = state
        self.startTime = startTime
    }

    /// Reads a `/proc/PID/stat` line. The command name (field 2) is in parentheses and may
    /// itself hold spaces and parentheses, so the fields are counted from the last ")".
    public init?(_ line: String) {
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); field 22 is fields[19].
        guard fields.count > 19, let state = fields[0].first, let start = UInt64(fields[19]) else { return nil }
        self.init(state: state, startTime: start)
    }

    /// A zombie or a dead process: gone, though its pid is not free yet.
    public var isGone: Bool { state == "Z" || state == "X" }
}
