import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program started for a test, running in the background: its pid to signal, its output so
/// far to wait on, and its result once it has ended. `ProcessRunner.run` is this plus
/// `result()`.
///
/// How it is started, and why:
/// - posix_spawn, not Foundation's `Process`: `Process` hangs when a daemon it started keeps
///   the descriptor it watches for the exit (tmux), and on Linux it may reap children it does
///   not own, so another test loses its child's status.
/// - An empty signal mask and default dispositions: the test runner's threads block SIGTERM
///   (libdispatch), and a mask is inherited across exec, so a child would ignore `kill`.
/// - No descriptor above 2 crosses over: whatever the test process has open at that moment
///   (another test's pipes, the loopback server's stdin) would otherwise stay open in the
///   child, and in a daemon it leaves behind, and keep another test waiting for an EOF.
///
/// How its output is read, and why: one thread of its own per child polls both pipes and
/// reads until end of file, so a loaded test process still gets every byte. (The runner
/// before this one stopped collecting two seconds after the child exited, whatever was still
/// in the pipes: on a busy machine the dispatch source behind `readabilityHandler` had not
/// run by then, and the last pipe-buffer's worth of a long output, up to 64 KB of ~100 KB,
/// was lost.) After the child has exited, reading goes on while data comes; only pipes that
/// stay silent for `drainIdle` are given up, which is what a grandchild that inherited them
/// (a backgrounded `sleep`) looks like.
public final class ChildProcess: Sendable {
    /// The child's process id (signal it with `signal(_:)`, which never hits a reused pid).
    public let pid: pid_t
    /// What was started, for messages.
    public let executable: String
    private let state: Mutex<State>

    /// After the child has exited, how long its pipes may stay silent before they are taken
    /// to be held open by a grandchild and given up.
    public static let drainIdle: Duration = .seconds(2)
    /// After SIGTERM at the deadline, how long before SIGKILL.
    public static let killGrace: Duration = .seconds(1)

    private struct State {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var input: [UInt8] = []
        var closeInputWhenWritten = true
        /// The exit status and whether it was a signal; status -1 when it was lost.
        var exit: (status: Int32, signalled: Bool)?
        var timedOut = false
        /// Set by `terminate()` or cancellation: stop it now, as at the deadline.
        var stopRequested = false
        var finished: ProcessResult?
        var waiters: [CheckedContinuation<ProcessResult, Never>] = []
    }

    private init(pid: pid_t, executable: String, input: [UInt8], keepInputOpen: Bool) {
        self.pid = pid
        self.executable = executable
        var initial = State()
        initial.input = input
        initial.closeInputWhenWritten = !keepInputOpen
        state = Mutex(initial)
    }

    /// Starts `executable` (an absolute path: use /usr/bin/env to search PATH) with
    /// `arguments`, in an environment of this process's overlaid with `environment` (or
    /// `environment` alone when `inheritEnvironment` is false), `stdin` on its standard input
    /// (closed after it unless `keepStdinOpen`, for `write(_:)`), in `directory` (this
    /// process's when nil). At `deadline` (none when
    /// nil) it is sent SIGTERM, then SIGKILL `killGrace` later.
    public static func start(
        _ executable: URL, arguments: [String], environment: [String: String] = [:],
        inheritEnvironment: Bool = true, stdin: Data? = nil, keepStdinOpen: Bool = false,
        directory: URL? = nil, deadline: Duration? = .seconds(120)
    ) throws -> ChildProcess {
        let path = executable.path
        var fullEnvironment = inheritEnvironment ? ProcessInfo.processInfo.environment : [:]
        fullEnvironment.merge(environment) { $1 }

        let input = try Pipes.make()
        let output = try Pipes.make()
        let errors = try Pipes.make()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        Pipes.closeEverythingAbove2(&actions)
        if let directory {
            guard let changeDirectory = Pipes.changeDirectory, changeDirectory(&actions, directory.path) == 0 else {
                for fd in [input.read, input.write, output.read, output.write, errors.read, errors.write] { close(fd) }
                throw ProcessRunnerError.spawnFailed(executable: path, reason: "cannot run it in \(directory.path)")
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        // Every classic signal back to its default (ignored ones survive exec too), except the
        // two that cannot be changed.
        for number in 1..<32 where number != SIGKILL && number != SIGSTOP { sigaddset(&defaults, Int32(number)) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = [path] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnvironment: [UnsafeMutablePointer<CChar>?] =
            fullEnvironment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, &cArguments, &cEnvironment)
        // The child has its own copies now: the parent keeps only its ends.
        close(input.read)
        close(output.write)
        close(errors.write)
        guard spawned == 0 else {
            for fd in [input.write, output.read, errors.read] { close(fd) }
            throw ProcessRunnerError.spawnFailed(executable: path, reason: String(cString: strerror(spawned)))
        }
        for fd in [input.write, output.read, errors.read] { Pipes.setNonBlocking(fd) }

        let child = ChildProcess(pid: pid, executable: path, input: Array(stdin ?? Data()), keepInputOpen: keepStdinOpen)
        let end = deadline.map { ContinuousClock.now.advanced(by: $0) }
        let descriptors = (input: input.write, output: output.read, errors: errors.read)
        Thread.detachNewThread {
            child.pump(input: descriptors.input, output: descriptors.output, errors: descriptors.errors, deadline: end)
        }
        return child
    }

    // MARK: While it runs

    /// Standard output so far.
    public var stdoutSoFar: String { state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// Standard error so far.
    public var stderrSoFar: String { state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    /// Whether it has exited (its output may still be being read).
    public var hasExited: Bool { state.withLock { $0.exit != nil } }

    /// Sends `number` to the child, unless it has already been reaped (so a pid reused since
    /// is never hit). Returns whether the signal was sent.
    @discardableResult
    public func signal(_ number: Int32) -> Bool {
        // Under the lock: the pump reaps under it too, so the pid is ours while we send.
        state.withLock { state in state.exit == nil && kill(pid, number) == 0 }
    }

    /// Stops it as at the deadline: SIGTERM, then SIGKILL `killGrace` later.
    public func terminate() {
        state.withLock { $0.stopRequested = true }
    }

    /// Writes `data` to its standard input (kept open with `keepStdinOpen`).
    public func write(_ data: Data) {
        state.withLock { $0.input += Array(data) }
    }

    /// Closes its standard input once everything written so far has gone.
    public func closeStdin() {
        state.withLock { $0.closeInputWhenWritten = true }
    }

    /// Waits until it has ended and its output is read. Cancelling the waiting task stops the
    /// process (SIGTERM, then SIGKILL).
    public func result() async -> ProcessResult {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let done: ProcessResult? = state.withLock { state in
                    if let finished = state.finished { return finished }
                    state.waiters.append(continuation)
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
        } onCancel: {
            terminate()
        }
    }

    // MARK: The pump (its own thread)

    /// Moves bytes between the pipes and the state, reaps the child, enforces the deadline,
    /// and finishes when the child has exited and its pipes are closed (or silent).
    private func pump(input: Int32, output: Int32, errors: Int32, deadline: ContinuousClock.Instant?) {
        // A write to a stdin the child has closed must be an EPIPE here, not a SIGPIPE that
        // ends the test process: a write's SIGPIPE goes to the writing thread.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)

        let clock = ContinuousClock()
        var inputFD = input
        var outputFD = output
        var errorsFD = errors
        var termSentAt: ContinuousClock.Instant?
        var lastData = clock.now
        var buffer = [UInt8](repeating: 0, count: 65_536)

        func drain(_ fd: inout Int32, into keyPath: WritableKeyPath<State, [UInt8]>) {
            while fd >= 0 {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let chunk = Array(buffer[0..<count])
                    state.withLock { $0[keyPath: keyPath] += chunk }
                    lastData = clock.now
                } else if count == 0 {
                    close(fd)
                    fd = -1
                } else if errno == EINTR {
                    continue
                } else {
                    if errno != EAGAIN && errno != EWOULDBLOCK {
                        close(fd)
                        fd = -1
                    }
                    return
                }
            }
        }

        while true {
            // Standard input: what is pending goes out as the child takes it.
            var wantsToWrite = false
            if inputFD >= 0 {
                let (pending, closeWhenDone, exited) = state.withLock { ($0.input.count, $0.closeInputWhenWritten, $0.exit != nil) }
                if exited || (pending == 0 && closeWhenDone) {
                    close(inputFD)
                    inputFD = -1
                } else {
                    wantsToWrite = pending > 0
                }
            }
            var fds: [pollfd] = []
            if outputFD >= 0 { fds.append(pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)) }
            if errorsFD >= 0 { fds.append(pollfd(fd: errorsFD, events: Int16(POLLIN), revents: 0)) }
            if wantsToWrite { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 10) }

            drain(&outputFD, into: \.stdout)
            drain(&errorsFD, into: \.stderr)
            if wantsToWrite, inputFD >= 0 {
                let failed: Bool = state.withLock { state in
                    let written = state.input.withUnsafeBytes { Glibc.write(inputFD, $0.baseAddress, $0.count) }
                    if written > 0 {
                        state.input.removeFirst(written)
                        return false
                    }
                    return written < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
                }
                if failed {  // EPIPE: the child closed its standard input; the rest is dropped
                    state.withLock { $0.input.removeAll() }
                    close(inputFD)
                    inputFD = -1
                }
            }

            // The exit, reaped under the lock (see `signal(_:)`).
            let now = clock.now
            let exited: Bool = state.withLock { state in
                if state.exit == nil {
                    var status: Int32 = 0
                    let waited = waitpid(pid, &status, WNOHANG)
                    if waited == pid {
                        let signal = status & 0x7F
                        state.exit = signal == 0 ? ((status >> 8) & 0xFF, false) : (signal, true)
                    } else if waited == -1, errno == ECHILD {
                        state.exit = (-1, false)  // reaped elsewhere: the status is lost
                    }
                }
                guard state.exit == nil else { return true }
                let due = state.stopRequested || deadline.map { now >= $0 } ?? false
                if due {
                    if let sent = termSentAt {
                        if now - sent >= Self.killGrace { kill(pid, SIGKILL) }
                    } else {
                        if !state.stopRequested { state.timedOut = true }
                        kill(pid, SIGTERM)
                        termSentAt = now
                    }
                }
                return false
            }
            guard exited else { continue }
            if outputFD < 0 && errorsFD < 0 { break }
            if now - lastData >= Self.drainIdle { break }
        }
        for fd in [inputFD, outputFD, errorsFD] where fd >= 0 { close(fd) }

        let (result, waiters) = state.withLock { state -> (ProcessResult, [CheckedContinuation<ProcessResult, Never>]) in
            let exit = state.exit ?? (-1, false)
            let result = ProcessResult(
                status: exit.status, signalled: exit.signalled, timedOut: state.timedOut,
                stdout: String(decoding: state.stdout, as: UTF8.self), stderr: String(decoding: state.stderr, as: UTF8.self))
            state.finished = result
            defer { state.waiters = [] }
            return (result, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }
}

/// Pipes for a child, and the descriptor hygiene around them.
enum Pipes {
    /// A pipe whose both ends are close-on-exec, so that no other child spawned meanwhile
    /// inherits them (the child gets its end through dup2, which clears the flag).
    static func make() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let made = fds.withUnsafeMutableBufferPointer { buffer in
            if let pipe2 { return pipe2(buffer.baseAddress, O_CLOEXEC) }
            // Without pipe2 a spawn in between could inherit them; ours close everything
            // above 2 anyway.
            guard pipe(buffer.baseAddress) == 0 else { return Int32(-1) }
            for fd in buffer { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return 0
        }
        guard made == 0 else {
            throw ProcessRunnerError.spawnFailed(executable: "pipe", reason: String(cString: strerror(errno)))
        }
        // Never 0, 1 or 2 (free when the test process runs without standard input): the
        // child's dup2 onto them would then be a no-op that keeps close-on-exec.
        return (lifted(fds[0]), lifted(fds[1]))
    }

    private static func lifted(_ fd: Int32) -> Int32 {
        guard fd < 3 else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard moved >= 0 else { return fd }
        close(fd)
        return moved
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// pipe2(2) (GNU: Swift does not import it), found at run time.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2").map {
        unsafeBitCast($0, to: Pipe2.self)
    }

    /// glibc's posix_spawn_file_actions_addchdir_np (2.29), found at run time.
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    static let changeDirectory: ChangeDirectory? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np"
    ).map { unsafeBitCast($0, to: ChangeDirectory.self) }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34), which Swift does not import
    /// (it is declared for _GNU_SOURCE only): found at run time.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let closeFrom: CloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// Adds to `actions` the closing of every descriptor above 2 in the child: with
    /// addclosefrom_np (atomic: it also covers a descriptor another thread opens meanwhile),
    /// else each descriptor open now.
    static func closeEverythingAbove2(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom, closeFrom(&actions, 3) == 0 { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in names.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}
