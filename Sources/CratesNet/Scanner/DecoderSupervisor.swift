import CratesCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the decoder running: starts it, hands each line of its standard output to `onLine`,
/// relays its standard error to the log, explains why it stopped, and starts it again after a
/// backoff (`RestartBackoff`) on its clock. Runs on a thread of its own, which blocks in
/// poll(2) on the decoder's pipes and a wake pipe: `stop()` and the end of a backoff, told by
/// a task sleeping on the clock, write to the wake pipe.
public final class DecoderSupervisor: Sendable {
    /// What the supervisor reports, for the daemon's log and for tests.
    public enum Report: Hashable, Sendable {
        /// A decoder run started.
        case started(pid: Int32)
        /// A line on the decoder's standard error (D-Bus noise from zbar left out).
        case stderr(String)
        /// The run ended: how, what it means, and when the next one starts (nil when stopping).
        case stopped(DecoderExit, explanation: String, restartIn: Duration?)
    }

    public let command: DecoderCommand
    /// Where the running decoder's pid is noted (see `DecoderRecord`), if anywhere.
    private let record: DecoderRecord?
    private let onLine: @Sendable (String) -> Void
    private let onReport: @Sendable (Report) -> Void
    private let state: Mutex<State>
    private let wake: (read: Int32, write: Int32)
    /// How long a run lasted, and the waits between runs.
    private let timeline: Timeline

    private struct State {
        var backoff: RestartBackoff
        var stopping = false
        /// The wake pipe is closed.
        var finished = false
        var runs = 0
        /// The backoff under way is over (its byte is in the wake pipe).
        var restartDue = false
    }

    /// The longest stdout line kept (a QR code holds at most about 7,000 characters); longer
    /// ones are skipped with a note. Lines are also bounded by the protocol when sent.
    static let maximumLine = 16 * 1024

    /// `recordPath`: a file where the running decoder's pid and start time are noted, so that
    /// a later daemon can end a decoder this one leaves behind if it is killed (the daemon
    /// passes its socket's path + ".decoder"); nil: none. `clock`: the system's, or a test's.
    public init(
        command: DecoderCommand, backoff: RestartBackoff = RestartBackoff(), recordPath: String? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        onLine: @escaping @Sendable (String) -> Void, onReport: @escaping @Sendable (Report) -> Void
    ) throws(ScannerError) {
        timeline = Timeline(clock)
        self.command = command
        self.record = recordPath.map(DecoderRecord.init(path:))
        self.onLine = onLine
        self.onReport = onReport
        state = Mutex(State(backoff: backoff))
        wake = try UnixSocket.wakePipe()
    }

    /// Starts supervising on a new thread.
    public func start() {
        Thread.detachNewThread { [self] in run() }
    }

    /// Stops the decoder (SIGTERM to its process group, SIGKILL 2 s later) and the
    /// supervisor. Returns at once; see `waitUntilStopped`.
    public func stop() {
        state.withLock { state in
            guard !state.stopping else { return }
            state.stopping = true
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
    }

    /// How many runs have started.
    public var runs: Int { state.withLock { $0.runs } }

    /// Waits (blocking this thread) until the decoder is stopped and reaped; false at the
    /// timeout.
    public func waitUntilStopped(timeout: Duration = .seconds(5)) -> Bool {
        StopWait.blocking(timeout: timeout) { state.withLock { $0.finished } }
    }

    /// Waits without blocking a thread until the decoder is stopped and reaped.
    public func waitUntilStopped(timeout: Duration = .seconds(5)) async -> Bool {
        await StopWait.suspending(timeout: timeout) { state.withLock { $0.finished } }
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        while !stopping {
            let started = timeline.now
            state.withLock { $0.runs += 1 }
            let (exit, lastErrors) = runOnce()
            let stoppingNow = stopping
            let delay: Duration? = stoppingNow ? nil : state.withLock { $0.backoff.delay(after: timeline.now - started) }
            onReport(.stopped(exit, explanation: exit.explanation(command: command, stderr: lastErrors), restartIn: delay))
            guard let delay else { break }
            if sleep(delay) { break }
        }
        state.withLock { state in
            close(wake.read)
            close(wake.write)
            state.finished = true
        }
    }

    /// Waits `delay` on the clock, or until `stop()`; true when stopping. A task sleeps on the
    /// clock and, once the delay is over, writes to the wake pipe (only while it is open) and
    /// then says so: the byte is read here before the next run, whose poll would otherwise
    /// wake at once on it.
    private func sleep(_ delay: Duration) -> Bool {
        let end = timeline.now + delay
        state.withLock { $0.restartDue = false }
        let timer = Task { [self] in
            guard (try? await timeline.sleep(until: end)) != nil else { return }
            state.withLock { state in
                guard !state.finished else { return }
                var byte: UInt8 = 1
                _ = write(wake.write, &byte, 1)
                state.restartDue = true
            }
        }
        defer { timer.cancel() }
        while true {
            let (stopping, due) = state.withLock { ($0.stopping, $0.restartDue) }
            if stopping { return true }
            if due {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(wake.read, &bytes, bytes.count) > 0 {}
                return false
            }
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, 1000)
        }
    }

    /// One run: spawn, read until the child exits, reap. Returns how it ended and the last
    /// lines of its standard error.
    private func runOnce() -> (DecoderExit, [String]) {
        let process: DecoderProcess
        switch DecoderProcess.spawn(command) {
        case .failure(let error): return (.couldNotStart(errno: error.code), [])
        case .success(let p): process = p
        }
        record?.write(pid: process.pid)
        defer { record?.clear() }
        onReport(.started(pid: process.pid))
        var out = ScanLineBuffer(maximumLength: Self.maximumLine)
        var err = ScanLineBuffer(maximumLength: 4096)
        var lastErrors: [String] = []
        var open = (stdout: true, stderr: true)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var exit: DecoderExit?
        var termSent: ContinuousClock.Instant?
        let clock = ContinuousClock()

        func handle(_ items: [ScanLineBuffer.Item], isError: Bool) {
            for item in items {
                switch item {
                case .line(let bytes):
                    let text = String(decoding: bytes, as: UTF8.self)
                    if isError {
                        guard !Self.isNoise(text) else { continue }
                        lastErrors.append(text)
                        if lastErrors.count > 8 { lastErrors.removeFirst() }
                        onReport(.stderr(GTIN.displayForm(of: text, limit: 200)))
                    } else {
                        onLine(text)
                    }
                case .tooLong(let count):
                    if !isError { onReport(.stderr("(crates: skipped a decoder line of more than \(count) bytes)")) }
                }
            }
        }

        /// Reads what is there now from one pipe; false at end of file.
        func drain(_ fd: Int32, isError: Bool) -> Bool {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if isError { handle(err.append(buffer.prefix(count)), isError: true) } else { handle(out.append(buffer.prefix(count)), isError: false) }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return true }
                return false
            }
        }

        var exitedAt: ContinuousClock.Instant?
        while true {
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            if open.stdout { fds.append(pollfd(fd: process.stdout, events: Int16(POLLIN), revents: 0)) }
            if open.stderr { fds.append(pollfd(fd: process.stderr, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), exit == nil ? 200 : 50)
            if open.stdout { open.stdout = drain(process.stdout, isError: false) }
            if open.stderr { open.stderr = drain(process.stderr, isError: true) }
            if exit == nil, let ended = process.reap() {
                exit = ended
                exitedAt = clock.now
            }
            if let exitedAt {
                if !open.stdout && !open.stderr { break }
                // The child is gone but something it started (a shell's background job)
                // still holds the pipes: after a moment, end the group and stop reading.
                if clock.now - exitedAt > .milliseconds(300) {
                    process.signal(SIGKILL)
                    if open.stdout { _ = drain(process.stdout, isError: false) }
                    if open.stderr { _ = drain(process.stderr, isError: true) }
                    break
                }
            }
            if stopping, exit == nil {
                if let sent = termSent {
                    if clock.now - sent > .seconds(2) { process.signal(SIGKILL) }
                } else {
                    process.signal(SIGTERM)
                    termSent = clock.now
                }
                var bytes = [UInt8](repeating: 0, count: 64)
                _ = read(wake.read, &bytes, bytes.count)
            }
        }
        handle(out.finish(), isError: false)
        handle(err.finish(), isError: true)
        close(process.stdout)
        close(process.stderr)
        // Whatever the shell left behind goes with it.
        process.signal(SIGKILL)
        return (exit ?? .unknown, lastErrors)
    }

    /// zbar's complaints about D-Bus, printed on every start on a machine without a system
    /// bus: noise, not a problem.
    static func isNoise(_ line: String) -> Bool {
        line.hasPrefix("Connection Error (Failed to connect to socket") || line == "Connection Null"
            || line.hasPrefix("scanned ") && line.contains(" barcode symbols from ")
    }
}
