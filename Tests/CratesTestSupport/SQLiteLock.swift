import Foundation
import Synchronization

/// `sqlite3 PATH` holding `BEGIN EXCLUSIVE` until released: another program keeping a
/// collection locked (a lookup's result must wait for it, not be lost).
public final class SQLiteLock: Sendable {
    /// The sqlite3 shell, when installed (scripts/install-deps.sh installs it).
    public static let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    public let path: String
    private let child = Mutex<ChildProcess?>(nil)

    public init(path: String) {
        self.path = path
    }

    /// Starts `sqlite3`, has it take the lock, and returns once it says it holds it. Only
    /// the first call does anything. It gives the lock up by itself after `deadline`.
    ///
    /// sqlite3's own busy timeout is 0: a `BEGIN EXCLUSIVE` that meets a crates write in
    /// progress (a claim, a lease renewed) would fail at once, and the `SELECT` after it
    /// would still say "locked" with no lock held. So it waits for the lock (`.timeout`),
    /// and stops at an error (`.bail`), which the wait then shows instead of passing.
    public func acquire(deadline: Duration = .seconds(300)) async throws {
        guard let shell = Self.shell else { throw ProcessRunnerError.binaryNotFound(name: "sqlite3", searched: []) }
        let started: ChildProcess? = try child.withLock { child in
            guard child == nil else { return nil }
            let process = try ChildProcess.start(
                URL(fileURLWithPath: shell), arguments: [path], stdin: Data(".timeout 60000\n.bail on\nBEGIN EXCLUSIVE;\nSELECT 'locked';\n".utf8),
                keepStdinOpen: true, deadline: deadline)
            child = process
            return process
        }
        guard let started else { return }
        try await waitUntil("sqlite3 to take the lock of \(path)", lastSeen: { started.stdoutSoFar + started.stderrSoFar }) {
            started.stdoutSoFar.contains("locked")
        }
    }

    /// Ends the transaction and `sqlite3`, and returns how it ended (nil: it never started).
    @discardableResult
    public func release() async -> ProcessResult? {
        guard let process = child.withLock({ $0 }) else { return nil }
        process.write(Data("COMMIT;\n.quit\n".utf8))
        process.closeStdin()
        return await process.result()
    }
}
