import CratesApp
import CratesStore
import Foundation
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed) for a command that must stop
/// cleanly: the first cancels the command's root task (`run`), which is the one way work in
/// CratesApp hears a stop (the batch in hand is finished, the lookup in hand goes back to
/// the queue, what was done is reported: ARCHITECTURE.md, Concurrency); a second Ctrl-C
/// ends the process at once, which SQLite's journal makes as safe as a kill -9 (and the
/// collection file is left complete first: `quitNow`).
///
/// The signal handler only writes the signal's number to a pipe (async-signal-safe); a
/// thread reads it and does the rest.
final class StopRequest: Sendable {
    private struct State {
        var signal: Int32?
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// Said on standard error at the first signal (nil: nothing).
    private let announcement: String?

    // Written once in `install` before the handlers are installed; the handlers only read.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    private init(announcement: String?) {
        self.announcement = announcement
    }

    /// Installs the handlers for this process (once per process).
    static func install(announcement: String?) -> StopRequest {
        installed.store(true, ordering: .sequentiallyConsistent)
        let request = StopRequest(announcement: announcement)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return request }
        writeEnd = fds[1]
        let readEnd = fds[0]
        // A parent may have started us with these blocked (the mask survives exec): unblock
        // them, or Ctrl-C would never arrive.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in signals {
            signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(StopRequest.writeEnd, &byte, 1)
            }
        }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    request.received(Int32(byte))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        thread.name = "crates.stop-signals"
        thread.start()
        return request
    }

    /// SIGHUP is a stop like SIGTERM: the terminal went away, the work must not be lost.
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Whether a request was installed in this process.
    private static let installed = Atomic<Bool>(false)

    /// For a command that writes the collection and has no work to stop cleanly (`edit`,
    /// `move`, `refresh`, `sync`…): SIGINT, SIGTERM and SIGHUP end the process at once, as
    /// they would by default, but leave the collection file complete first (`quitNow`).
    /// Does nothing when a request is installed already (`import`, `add --wait`), whose first
    /// signal stops the work and whose process then exits the ordinary way.
    static func quitOnSignals() {
        guard !installed.load(ordering: .sequentiallyConsistent) else { return }
        let request = install(announcement: nil)
        request.onRequest { quitNow(request.exitStatus) }
    }

    /// Ends the process with `status` at once, after copying what this process wrote into
    /// the collection file (`CollectionStore.checkpointWrittenCollections`), waiting at most
    /// two seconds for a write under way: the transaction it cuts short is rolled back by
    /// SQLite, as after a kill -9, and everything committed is in the file alone.
    static func quitNow(_ status: Int32) -> Never {
        CollectionStore.checkpointWrittenCollections(timeout: 2)
        _exit(status)
    }

    /// The signal that asked the work to stop, if one did.
    var stopSignal: Int32? { state.withLock { $0.signal } }

    var isRequested: Bool { stopSignal != nil }

    /// The exit status a shell reports for a process stopped by the signal (130 for Ctrl-C).
    var exitStatus: Int32 { 128 + (stopSignal ?? SIGINT) }

    /// Runs `body` as the command's root task, waiting for it on this thread (as
    /// `blocking`): the first signal cancels the task, which its work hears through task
    /// cancellation alone, and which then returns what it did.
    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try blocking {
            let root = Task { try await body() }
            self.onRequest { root.cancel() }
            return try await root.value
        }
    }

    /// `body` as `stop`'s root task, or, without one, as `blocking` runs it.
    static func run<T: Sendable>(_ stop: StopRequest?, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        if let stop { return try stop.run(body) }
        return try blocking(body)
    }

    /// Runs `body` when a stop is asked for (at once if it already was).
    func onRequest(_ body: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            if state.signal == nil { state.handlers.append(body) }
            return state.signal != nil
        }
        if already { body() }
    }

    private func received(_ number: Int32) {
        let (first, handlers) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            guard state.signal == nil else { return (false, []) }
            state.signal = number
            defer { state.handlers = [] }
            return (true, state.handlers)
        }
        if first {
            if let announcement { StandardStreams.errLine("\n" + announcement) }
            for handler in handlers { handler() }
        } else if number == SIGINT {
            StandardStreams.errLine("\nQuit.")
            Self.quitNow(128 + SIGINT)
        }
    }
}
