/// How long a write waits for another process's write lock, in busy timeouts, and whom it
/// tells (once) that it waits.
///
/// The collection UI keeps one timeout: it must answer its keys. A command waits several: a
/// `crates add` run while a `crates import` writes a batch of thousands (seconds on a busy
/// machine, and three imports in a row longer) should be added once they are done, not
/// told to try again.
public struct LockPatience: Sendable {
    /// Busy timeouts to wait, at least one.
    public let attempts: Int
    /// Told when the first timeout passes and the write waits on.
    public let waiting: (@Sendable () -> Void)?

    public init(attempts: Int, waiting: (@Sendable () -> Void)? = nil) {
        self.attempts = max(1, attempts)
        self.waiting = waiting
    }

    /// One busy timeout, then the write fails with `StoreError.locked`.
    public static let oneTimeout = LockPatience(attempts: 1)

    /// A command's (an import's batches too): a minute with the default 10 s timeout.
    public static func command(waiting: (@Sendable () -> Void)?) -> LockPatience {
        LockPatience(attempts: commandAttempts, waiting: waiting)
    }

    public static let commandAttempts = 6
}
