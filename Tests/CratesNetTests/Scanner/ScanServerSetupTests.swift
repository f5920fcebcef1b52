import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

#if canImport(Glibc)
    import Glibc
#endif

/// Where the socket goes and who may reach it: modes, ownership, stale sockets, a second
/// daemon.
@Suite("Scanner: socket set-up")
struct ScanServerSetupTests {
    @Test("a new default directory is 0700 and the socket 0600; stop removes the socket")
    func createsPrivately() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let socket = ScanSocketPath(path: scratch.path + "/run/crates/scan.sock", isDefault: true)
        let server = try ScanServer(socket: socket)
        #expect(fileMode(scratch.path + "/run/crates") == 0o700)
        #expect(fileMode(scratch.path + "/run") == 0o700)
        #expect(fileMode(socket.path) == 0o600)
        #expect(server.setupNotes.contains { $0.contains("created") })
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
        #expect(fileMode(socket.path) == nil, "socket removed")
    }

    @Test("a default directory others can enter is made private; a named one is refused")
    func looseDirectory() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let directory = scratch.path + "/d"
        #expect(mkdir(directory, 0o755) == 0)
        #expect(chmod(directory, 0o755) == 0)

        let named = ScanSocketPath(path: directory + "/scan.sock", isDefault: false)
        #expect(throws: ScannerError.directoryNotPrivate(path: directory, mode: 0o755)) { try ScanServer(socket: named) }
        #expect(fileMode(directory) == 0o755, "a directory the user named is left alone")
        #expect(ScannerError.directoryNotPrivate(path: directory, mode: 0o755).description.contains("chmod 700"))

        let server = try ScanServer(socket: ScanSocketPath(path: directory + "/scan.sock", isDefault: true))
        #expect(fileMode(directory) == 0o700)
        #expect(server.setupNotes.contains { $0.contains("755 → 700") }, "\(server.setupNotes)")
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("a directory owned by another user is refused")
    func foreignDirectory() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let directory = scratch.path + "/d"
        #expect(mkdir(directory, 0o700) == 0)
        let socket = ScanSocketPath(path: directory + "/scan.sock", isDefault: true)
        let otherUID = getuid() == 0 ? 4321 : getuid()
        // As root, give the directory away; otherwise check it under a uid that is not ours.
        if getuid() == 0 {
            #expect(chown(directory, 4321, 4321) == 0)
            #expect(throws: ScannerError.directoryNotOwned(path: directory, owner: 4321)) { try ScanServer(socket: socket) }
        } else {
            #expect(throws: ScannerError.directoryNotOwned(path: directory, owner: otherUID)) {
                try ScanSocketDirectory.prepare(directory, repair: true, uid: otherUID &+ 1)
            }
        }
        #expect(ScannerError.directoryNotOwned(path: directory, owner: 4321).description.contains("not to you"))
    }

    @Test("a symbolic link or a file in the directory's place is refused")
    func notADirectory() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        #expect(symlink(scratch.path, scratch.path + "/link") == 0)
        #expect(throws: ScannerError.notADirectory(path: scratch.path + "/link")) {
            try ScanServer(socket: ScanSocketPath(path: scratch.path + "/link/scan.sock", isDefault: true))
        }
        #expect(FileManager.default.createFile(atPath: scratch.path + "/file", contents: Data()))
        #expect(throws: ScannerError.notADirectory(path: scratch.path + "/file")) {
            try ScanServer(socket: ScanSocketPath(path: scratch.path + "/file/scan.sock", isDefault: true))
        }
    }

    @Test("a socket left by a crashed daemon is replaced")
    func staleSocket() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/scan.sock"
        // What a daemon killed with SIGKILL leaves: a bound socket file nobody accepts on.
        let fd = try UnixSocket.make(path: path)
        #expect(try UnixSocket.withAddress(path) { bind(fd, $0, $1) } == 0)
        close(fd)
        #expect(fileMode(path) != nil)
        #expect(throws: ScannerError.noDaemon(path: path)) { try ScanConnection(path: path) }

        let server = try ScanServer(socket: ScanSocketPath(path: path, isDefault: false))
        #expect(server.setupNotes.contains { $0.contains("stale socket") }, "\(server.setupNotes)")
        let log = MessageLog()
        let client = try ScanConnection(path: path)
        client.start { log.append($0) }
        try await waitUntil("one client accepted") { server.clientCount == 1 }
        try server.broadcast(.test("5099750442227"))
        try await log.wait("the event") { _ in log.events.count == 1 }
        server.stop()
        #expect(await server.waitUntilStopped(timeout: .seconds(30)))
        try await log.wait("the disconnect") { $0.last == .disconnected(.connectionClosed(path: path)) }
    }

    @Test("a second daemon on a live socket refuses, naming the first's pid; after stop it may start")
    func secondDaemon() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let socket = ScanSocketPath(path: scratch.path + "/scan.sock", isDefault: false)
        let first = try ScanServer(socket: socket)
        #expect(throws: ScannerError.daemonRunning(path: socket.path, pid: getpid())) { try ScanServer(socket: socket) }
        #expect(fileMode(socket.path) == 0o600, "the first daemon's socket is untouched")
        first.stop()
        #expect(await first.waitUntilStopped(timeout: .seconds(30)))
        // The lock goes with the first's descriptor, but a process another test is starting
        // holds a copy of every descriptor from its fork to its exec (O_CLOEXEC closes it only
        // then): the lock can outlive the close by a moment on a loaded machine. Wait for it;
        // any refusal but "running" still fails.
        let second = try await waitFor("a second daemon to start once the first has stopped") { () throws -> ScanServer? in
            do {
                return try ScanServer(socket: socket)
            } catch {
                if case .daemonRunning? = error as? ScannerError { return nil }
                throw error
            }
        }
        second.stop()
        #expect(await second.waitUntilStopped(timeout: .seconds(30)))
    }

    @Test("a socket served by another program (no lock taken) is refused, not stolen")
    func foreignListener() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/scan.sock"
        let fd = try UnixSocket.make(path: path)
        defer { close(fd) }
        #expect(try UnixSocket.withAddress(path) { bind(fd, $0, $1) } == 0)
        #expect(listen(fd, 4) == 0)
        #expect(throws: ScannerError.daemonRunning(path: path, pid: nil)) {
            try ScanServer(socket: ScanSocketPath(path: path, isDefault: false))
        }
        #expect(fileMode(path) != nil, "still there")
    }

    @Test("a regular file in the socket's place, and an overlong path, are refused")
    func badPaths() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/scan.sock"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8)))
        #expect(throws: ScannerError.notASocket(path: path)) { try ScanServer(socket: ScanSocketPath(path: path, isDefault: false)) }
        #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
        let long = scratch.path + "/" + String(repeating: "x", count: 120)
        #expect(throws: ScannerError.socketPathTooLong(path: long, limit: 107)) {
            try ScanServer(socket: ScanSocketPath(path: long, isDefault: false))
        }
        #expect(throws: ScannerError.socketPathTooLong(path: long, limit: 107)) { try ScanConnection(path: long) }
    }

    @Test("no daemon: the client's error says how to start one")
    func noDaemon() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/scan.sock"
        #expect(throws: ScannerError.noDaemon(path: path)) { try ScanConnection(path: path) }
        #expect(ScannerError.noDaemon(path: path).description.contains("crates scand"))
    }
}
