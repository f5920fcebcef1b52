import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM during `crates import`: the first asks the import to stop
/// cleanly (after the batch in hand, or the lookup in hand, whose record goes back to the
/// queue); a second Ctrl-C ends the process at once, which SQLite's journal makes as safe as
/// a kill -9.
///
/// The signal handler only writes the signal's number to a pipe (async-signal-safe); a
/// thread reads it and does the rest.
final class ImportInterrupt: Sendable {
    private struct State {
        var signal: Int32?
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    // Written once in `install()` before the handlers are installed; the handler only reads.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers for this process (once).
    static func install() -> ImportInterrupt {
        let interrupt = ImportInterrupt()
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return interrupt }
        writeEnd = fds[1]
        let readEnd = fds[0]
        // A parent may have started us with these blocked (the mask survives exec): unblock
        // them, or Ctrl-C would never arrive.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in [SIGINT, SIGTERM] {
            signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(ImportInterrupt.writeEnd, &byte, 1)
            }
        }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    interrupt.received(Int32(byte))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        thread.name = "crates.import.signals"
        thread.start()
        return interrupt
    }

    /// The signal that asked the import to stop, if one did.
    var stopSignal: Int32? { state.withLock { $0.signal } }

    var isRequested: Bool { stopSignal != nil }

    /// The exit status a shell reports for a process stopped by `signal` (130 for Ctrl-C).
    var exitStatus: Int32 { 128 + (stopSignal ?? SIGINT) }

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
            ImportOutput.error("\nStopping: the records added so far are kept (Ctrl-C again to quit at once)")
            for handler in handlers { handler() }
        } else if number == SIGINT {
            ImportOutput.error("\nQuit.")
            _exit(128 + SIGINT)
        }
    }
}
