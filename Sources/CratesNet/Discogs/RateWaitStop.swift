import CratesCore
import Synchronization

/// Ends a task's waits for its turn at the rate limit, and nothing else: a request still
/// waiting for room in the window (or out a 429's pause) is given up, as a cancelled wait
/// is, while a request already sent runs to its answer. A refresh stopped by Ctrl-C then
/// ends at once instead of after up to a minute's wait, and still keeps the answer that
/// was on its way. A task-local value, as `RequestPriority` is, so that the code between a
/// use case and `RateLimiter` needs no parameter for it.
public final class RateWaitStop: Sendable {
    @TaskLocal public static var current: RateWaitStop?

    private struct State {
        var stopped = false
        var next = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Ends every wait under way, and every wait from now on.
    public func stop() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.stopped else { return [] }
            state.stopped = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Runs `handler` at the stop. Nil, and `handler` not run, when stopped already: the
    /// wait must not begin.
    func onStop(_ handler: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            state.next += 1
            state.handlers[state.next] = handler
            return state.next
        }
    }

    /// Forgets the handler `id` (its wait is over).
    func remove(_ id: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
}

extension RateWaitStop {
    /// Runs `body` in a task the caller's cancellation does not reach (`uncancelled`),
    /// handing it a stop that the cancellation sets: for work that a stop ends between its
    /// requests, whose request in hand runs to its answer and is stored (a refresh of
    /// figures), where a cancelled request would throw its answer away.
    public static func finishing<T: Sendable>(_ body: @escaping @Sendable (RateWaitStop) async -> T) async -> T {
        let stop = RateWaitStop()
        return await withTaskCancellationHandler {
            await uncancelled { () async -> T in await body(stop) }
        } onCancel: {
            stop.stop()
        }
    }
}
