/// What a finished (or stopped) child process left behind.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when `signalled` (-1 when the status was lost:
    /// the process was reaped by someone else, or could not be waited for).
    public let status: Int32
    /// Whether the process died of a signal (including the one sent at the deadline).
    public let signalled: Bool
    /// Whether the deadline passed and the process was stopped.
    public let timedOut: Bool
    public let stdout: String
    public let stderr: String

    public init(status: Int32, signalled: Bool, timedOut: Bool, stdout: String, stderr: String) {
        self.status = status
        self.signalled = signalled
        self.timedOut = timedOut
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output split into lines, without the final empty one.
    public var stdoutLines: [String] { Self.lines(stdout) }
    /// Standard error split into lines, without the final empty one.
    public var stderrLines: [String] { Self.lines(stderr) }

    /// Whether it exited by itself with status 0.
    public var succeeded: Bool { status == 0 && !signalled && !timedOut }

    public var description: String {
        "status \(status)\(signalled ? " (signal)" : "")\(timedOut ? " TIMED OUT" : "")\n"
            + "stdout:\n\(stdout)stderr:\n\(stderr)"
    }

    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Why a process could not be run at all.
public enum ProcessRunnerError: Error, CustomStringConvertible {
    case binaryNotFound(name: String, searched: [String])
    case spawnFailed(executable: String, reason: String)

    public var description: String {
        switch self {
        case let .binaryNotFound(name, searched):
            "no built `\(name)` found (build it first, or set CRATES_BINARY); looked in: "
                + searched.joined(separator: ", ")
        case let .spawnFailed(executable, reason):
            "could not start \(executable): \(reason)"
        }
    }
}
