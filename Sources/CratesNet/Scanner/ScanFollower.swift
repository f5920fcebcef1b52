import CratesCore
import Foundation
import Synchronization

/// Stays connected to the camera daemon: connects when there is one, reconnects after the
/// daemon restarts, and reports each change of state once, so a status line can say
/// "camera: connected" or "camera: no daemon" without flicker.
///
///     let follower = ScanFollower(path: socket.path) { message in inbox.post(.scanner(message)) }
///     follower.start()
///     …
///     follower.stop()
///
/// Everything runs on one thread of its own; `handler` is called there, in order.
public final class ScanFollower: Sendable {
    public let path: String
    /// How long to wait between attempts while there is no daemon.
    public let retryInterval: Duration
    private let handler: @Sendable (ScanMessage) -> Void
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    private struct State {
        var stopping = false
        var finished = false
        var connection: ScanConnection?
        var attempts = 0
    }

    public init(path: String, retryInterval: Duration = .seconds(1), handler: @escaping @Sendable (ScanMessage) -> Void) {
        self.path = path
        self.retryInterval = retryInterval
        self.handler = handler
    }

    /// Starts following on a new thread.
    public func start() {
        Thread.detachNewThread { [self] in run() }
    }

    /// Stops following: closes the connection, and no more messages come after the
    /// `.disconnected` that closing reports (if connected). Returns at once.
    public func stop() {
        let connection = state.withLock { state in
            state.stopping = true
            return state.connection
        }
        connection?.close()
        wake.signal()
    }

    /// How many times it has tried to connect so far (what a test waits on, rather than on
    /// the retry interval's time).
    public var attempts: Int { state.withLock { $0.attempts } }

    /// True once the thread has ended after `stop()`.
    public var isFinished: Bool { state.withLock { $0.finished } }

    private func run() {
        // The last state reported; nil before the first, so the first is always reported.
        var last: ScanMessage?
        while !state.withLock({ $0.stopping }) {
            do {
                state.withLock { $0.attempts += 1 }
                let connection = try ScanConnection(path: path)
                let stopping = state.withLock { state in
                    state.connection = connection
                    return state.stopping
                }
                if stopping { connection.close() }
                handler(.connected(path: path))
                connection.run(handler)  // ends with .disconnected(…)
                state.withLock { $0.connection = nil }
                last = .disconnected(.connectionClosed(path: path))
            } catch {
                // Each state once: "no daemon" is not repeated at every attempt.
                if last != .disconnected(error) {
                    handler(.disconnected(error))
                    last = .disconnected(error)
                }
            }
            if state.withLock({ $0.stopping }) { break }
            // Waits the interval, or less when `stop()` signals.
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(retryInterval / .nanoseconds(1))))
        }
        state.withLock { $0.finished = true }
    }
}
