import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One run of the decoder: a child process in a process group of its own, its standard
/// output and standard error on pipes, standard input on /dev/null.
struct DecoderProcess {
    let pid: pid_t
    let stdout: Int32
    let stderr: Int32

    /// `setpriv` (util-linux), which sets PR_SET_PDEATHSIG and then runs the decoder: the
    /// decoder gets SIGKILL when the thread that started it dies, so a daemon killed -9 does
    /// not leave it holding the camera. posix_spawn cannot run prctl(2) in the
    /// child; this exec wrapper does it without a C shim. Nil where it is missing: then only
    /// `DecoderRecord` ends a decoder left behind, when the next daemon starts.
    static let deathSignalWrapper: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first { access($0, X_OK) == 0 }

    /// The argument vector that runs `program` with `arguments` (argv[0] first), through the
    /// death-signal wrapper when there is one.
    static func argv(program: String, arguments: [String]) -> (path: String, argv: [String]) {
        guard let wrapper = deathSignalWrapper else { return (program, arguments) }
        return (wrapper, [wrapper, "--pdeathsig", "KILL", "--", program] + arguments.dropFirst())
    }

    /// Starts `command`. The child gets an empty signal mask and default dispositions for
    /// the signals a parent may block or ignore (the mask and ignored signals survive exec),
    /// so SIGTERM stops it and SIGPIPE ends it like any shell command. It dies with the thread
    /// that starts it (see `deathSignalWrapper`): call this from the supervising thread.
    static func spawn(_ command: DecoderCommand) -> Result<DecoderProcess, SystemCallError> {
        let out: (read: Int32, write: Int32)
        let err: (read: Int32, write: Int32)
        do {
            out = try UnixSocket.closeOnExecPipe()
            err = try UnixSocket.closeOnExecPipe()
        } catch {
            if case .system(_, _, let code) = error { return .failure(SystemCallError(code)) }
            return .failure(SystemCallError(EMFILE))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        // Nothing else crosses over: whatever this process inherited without close-on-exec
        // (a parent's pipe, the descriptor Foundation's Process watches for our exit) would
        // otherwise stay open in the decoder, which outlives us if we are killed, and keep
        // the parent waiting for an exit it never sees. (addclosefrom_np does not import; a
        // descriptor closed before the spawn is no error for glibc's close action.)
        for fd in Self.openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so that stopping it also stops what a shell command started
        // (a `while` loop running zbarimg).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let status: Int32 = UnixSocket.descriptorLock.withLock { _ in
            guard let program = command.program else { return ENOENT }
            let run = Self.argv(program: program, arguments: command.arguments)
            var argv: [UnsafeMutablePointer<CChar>?] = run.argv.map { strdup($0) } + [nil]
            defer { for arg in argv { free(arg) } }
            return posix_spawn(&pid, run.path, &actions, &attributes, &argv, environ)
        }
        close(out.write)
        close(err.write)
        guard status == 0 else {
            close(out.read)
            close(err.read)
            return .failure(SystemCallError(status))
        }
        UnixSocket.setNonBlocking(out.read)
        UnixSocket.setNonBlocking(err.read)
        return .success(DecoderProcess(pid: pid, stdout: out.read, stderr: err.read))
    }

    /// The descriptors open in this process, from /proc/self/fd.
    static func openDescriptors() -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        return names.compactMap { Int32($0) }
    }

    /// Signals the whole process group.
    func signal(_ number: Int32) {
        _ = kill(-pid, number)
    }

    /// The exit, if the child has exited (reaping it); nil while it runs.
    func reap() -> DecoderExit? {
        var status: Int32 = 0
        let waited = waitpid(pid, &status, WNOHANG)
        if waited == 0 { return nil }
        if waited < 0 { return errno == EINTR ? nil : .unknown }  // ECHILD: reaped elsewhere
        if status & 0x7F == 0 { return .exited(status: (status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }
}
