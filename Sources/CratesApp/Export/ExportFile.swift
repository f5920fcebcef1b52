import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

import Glibc

/// Where an export goes: standard output (`-`), a device or pipe written directly, or a file
/// written atomically. The file's
/// content goes to a temporary file beside it (`.NAME.partial-XXXXXX`, same directory, so
/// same file system), which is synced and renamed over NAME only when complete (rename(2)
/// replaces atomically): a killed or failed export leaves NAME as it was, never half written.
public final class ExportFile: Sendable {
    /// What is open, under the mutex (pages are written from the store's reader thread, the
    /// rest from the command).
    private struct State {
        var descriptor: Int32
        var temporaryPath: String?
        var finished = false
        /// Written to a terminal (`-` at one, `/dev/tty`): what goes there is made printable
        /// first (`ControlCharacters.printable`), as every text the commands print. A file or
        /// a pipe gets the bytes as they are (an export must restore exactly).
        var terminal = false
    }

    /// The path as given, or "-".
    public let path: String
    private let finalPath: String?
    /// The permissions of the file `path` names now, which the new file keeps (an
    /// export replacing a 0600 file must not leave it 0644); nil for a new file.
    private let replacedMode: mode_t?
    private let state: Mutex<State>

    /// Opens standard output for "-", otherwise a new temporary file beside `path`. With
    /// `database`, a path that is one of that collection's files (the database, its -wal,
    /// -shm or -journal, or a link to one) is refused first (`StoreLocation.checkOutput`):
    /// writing there would destroy the collection.
    public init(path: String, sparing database: String? = nil) throws(ExportError) {
        self.path = path
        guard path != "-" else {
            if StandardDescriptors.wasClosedAtStart(STDOUT_FILENO) {
                throw .cannotWrite(path: path, reason: "it was closed when crates started")
            }
            finalPath = nil
            replacedMode = nil
            state = Mutex(State(descriptor: STDOUT_FILENO, temporaryPath: nil, terminal: isatty(STDOUT_FILENO) == 1))
            return
        }
        guard !path.isEmpty else { throw .cannotWrite(path: path, reason: "the file name is empty") }
        if let database {
            do {
                try StoreLocation.checkOutput(path, database: database)
            } catch {
                throw .refused(error)
            }
        }
        var existing = stat()
        if stat(path, &existing) == 0 {
            switch existing.st_mode & S_IFMT {
            case S_IFDIR:
                throw .cannotWrite(path: path, reason: "it is a directory")
            case S_IFREG:
                break
            default:
                // A device, a pipe, a socket (/dev/stdout, a FIFO): written to as a shell's
                // redirection would, never replaced by a file of that name.
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: Self.lastError()) }
                finalPath = nil
                replacedMode = nil
                state = Mutex(State(descriptor: descriptor, temporaryPath: nil, terminal: isatty(descriptor) == 1))
                return
            }
        }
        // A symbolic link: the file it names is replaced (the link stays), as a shell's
        // redirection writes through it; the new file keeps that file's permissions.
        let target = StoreLocation.finalTarget(of: path)
        replacedMode = stat(target, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG ? existing.st_mode & 0o7777 : nil
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(url.lastPathComponent).partial-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: Self.lastError()) }
        let temporary = template.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        finalPath = url.path
        state = Mutex(State(descriptor: descriptor, temporaryPath: temporary))
        ExportFile.cleanUpOnSignal(temporary)
    }

    /// The temporary file that `commit` renames over `path`, for a writer that opens the file
    /// by its name (SQLite's `VACUUM INTO`); nil for standard output, a device or a pipe, which
    /// are written to directly.
    public var temporaryPath: String? {
        state.withLock { $0.finished ? nil : $0.temporaryPath }
    }

    /// Appends `text`.
    public func write(_ text: String) throws(ExportError) {
        try write(bytes: Array(text.utf8))
    }

    /// Appends `bytes` (a PDF, say).
    public func write(bytes: [UInt8]) throws(ExportError) {
        let result: ExportError? = state.withLock { state in
            var bytes = state.terminal ? Array(ControlCharacters.printable(String(decoding: bytes, as: UTF8.self)).utf8) : bytes
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { buffer in
                    systemWrite(state.descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return .cannotWrite(path: path, reason: Self.lastError())
                }
                offset += written
            }
            bytes.removeAll()
            return nil
        }
        if let result { throw result }
    }

    /// Makes the file whole: synced to disk, given the permissions of the file it replaces
    /// (else the usual ones: 0666 less the umask, as a shell redirection would), then renamed
    /// over `path`.
    public func commit() throws(ExportError) {
        let result: ExportError? = state.withLock { state in
            guard let temporary = state.temporaryPath, let finalPath, !state.finished else {
                // Standard output stays open; a device or pipe written directly is closed.
                if !state.finished, state.descriptor != STDOUT_FILENO { close(state.descriptor) }
                state.finished = true
                return nil
            }
            state.finished = true
            defer { ExportFile.cleanUpOnSignal(nil) }
            let mask = umask(0)
            umask(mask)
            if fchmod(state.descriptor, replacedMode ?? (0o666 & ~mask)) != 0 || fsync(state.descriptor) != 0 {
                let reason = Self.lastError()
                close(state.descriptor)
                unlink(temporary)
                return .cannotWrite(path: path, reason: reason)
            }
            close(state.descriptor)
            if rename(temporary, finalPath) != 0 {
                let reason = Self.lastError()
                unlink(temporary)
                return .cannotWrite(path: path, reason: reason)
            }
            return nil
        }
        if let result { throw result }
    }

    /// Writes `bytes` to `path` whole (atomically, as any export), or leaves it as it was.
    public static func write(bytes: [UInt8], to path: String, sparing database: String? = nil) throws(ExportError) {
        let file = try ExportFile(path: path, sparing: database)
        do throws(ExportError) {
            try file.write(bytes: bytes)
            try file.commit()
        } catch {
            file.abandon()
            throw error
        }
    }

    /// Gives up: the temporary file is removed and `path` left as it was.
    public func abandon() {
        state.withLock { state in
            guard let temporary = state.temporaryPath, !state.finished else {
                if !state.finished, state.descriptor != STDOUT_FILENO { close(state.descriptor) }
                state.finished = true
                return
            }
            state.finished = true
            close(state.descriptor)
            unlink(temporary)
            ExportFile.cleanUpOnSignal(nil)
        }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }

    // MARK: Ctrl-C and SIGTERM

    /// The temporary file to remove if the export is interrupted, as a C string the signal
    /// handler can pass to unlink(2) (async-signal-safe) without touching Swift's runtime.
    private static let pendingPath = Mutex<UnsafeMutablePointer<CChar>?>(nil)

    /// Sets (or clears, with nil) the temporary file the handlers remove.
    private static func cleanUpOnSignal(_ temporary: String?) {
        pendingPath.withLock { current in
            let old = current
            current = temporary.map { strdup($0) } ?? nil
            interruptedPath.store(current.map { Int(bitPattern: $0) } ?? 0, ordering: .sequentiallyConsistent)
            free(old)
        }
        if temporary != nil { installHandlers() }
    }

    private static let handlersInstalled = Atomic<Bool>(false)

    private static func installHandlers() {
        guard !handlersInstalled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // A process started by Foundation's `Process` inherits its spawning thread's mask,
        // which may block these: unblock them here, or the handlers never run.
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            _ = signal(signalNumber) { received in
                let address = interruptedPath.load(ordering: .sequentiallyConsistent)
                if let path = UnsafeMutablePointer<CChar>(bitPattern: address) { unlink(path) }
                // As the shell reports a process stopped by a signal.
                _exit(128 + received)
            }
        }
    }
}

/// The address of the C string `ExportFile.pendingPath` holds (0: none), read by the signal
/// handler: an atomic load is async-signal-safe where a lock is not.
private let interruptedPath = Atomic<Int>(0)

/// write(2), by a name the methods called `write` do not hide.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// Why an export could not be written.
public enum ExportError: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    /// Refused before anything was written: the collection's own file, a directory…
    case refused(StoreLocation.OutputError)

    public var description: String {
        switch self {
        case let .cannotWrite(path, reason) where path == "-":
            "cannot write to standard output: \(reason)"
        case let .cannotWrite(path, reason):
            "cannot write \(path): \(reason) (nothing was changed at \(path))"
        case let .refused(problem):
            problem.description
        }
    }
}
