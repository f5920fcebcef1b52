import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// What `crates cover` writes, and what it says when it cannot: only a JPEG or a PNG is a
/// cover; an answer too large, a cache that cannot be written and an empty file name each say
/// what they are, with the exit status the README gives them.
@Suite("crates cover: what it writes, and its refusals (process)", .serialized, .processTimeLimit)
struct CoverOutputTests {
    private func signedIn(_ server: DiscogsTestServer) async throws -> CommandSandbox {
        var sandbox = try CommandSandbox()
        sandbox.api = server.base
        try await sandbox.signIn(token: DiscogsTestServer.token)
        return sandbox
    }

    @Test("a GIF, a WebP, an SVG or an HTML page at the image's address: no cover written, with -o or to a pipe; exit 2", arguments: ["gif", "webp", "svg", "html"])
    func onlyJPEGOrPNG(kind: String) async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, kind)
        let sandbox = try await signedIn(server)
        let file = sandbox.directory.appendingPathComponent("cover.jpg").path
        let written = try await sandbox.crates(["cover", "r5134861", "-o", file])
        #expect(written.status == 2, "\(written)")
        #expect(written.stderr.contains("not a JPEG or PNG image"), "\(written)")
        #expect(!FileManager.default.fileExists(atPath: file), "nothing written")
        let piped = try await sandbox.crates(["cover", "r5134861"])
        #expect(piped.status == 2 && piped.stdout.isEmpty, "\(piped)")
    }

    @Test("an image over 16 MB: said as too large, not as Discogs unreachable; exit 2")
    func tooLarge() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "huge")
        let sandbox = try await signedIn(server)
        let file = sandbox.directory.appendingPathComponent("cover.jpg").path
        let result = try await sandbox.crates(["cover", "r5134861", "-o", file])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("larger than"), "\(result)")
        #expect(!result.stderr.contains("unreachable"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("a cover cache that cannot be made (a file where its directory goes): the cache said, exit 73, not 1 (no such record)")
    func unwritableCache() async throws {
        let server = try await DiscogsTestServer.start()
        let sandbox = try await signedIn(server)
        let crates = sandbox.directory.appendingPathComponent("cache/crates")
        try FileManager.default.createDirectory(at: crates, withIntermediateDirectories: true)
        try Data("not a directory".utf8).write(to: crates.appendingPathComponent("covers"))
        let file = sandbox.directory.appendingPathComponent("cover.jpg").path
        let result = try await sandbox.crates(["cover", "r5134861", "-o", file])
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("the cover cache"), "\(result)")
    }

    @Test("a full disk under the cover cache: the cache said, exit 73", .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"))
    func fullCache() async throws {
        let server = try await DiscogsTestServer.start()
        let sandbox = try await signedIn(server)
        let disk = try SmallDisk(in: sandbox, kilobytes: 4)
        defer { disk.unmount() }
        // The one page the disk has, taken.
        _ = FileManager.default.createFile(atPath: disk.path("filler"), contents: Data(count: 4096))
        var environment = sandbox.environment
        environment["XDG_CACHE_HOME"] = disk.mountPoint
        let file = sandbox.directory.appendingPathComponent("cover.jpg").path
        let result = try await ProcessRunner.crates(["cover", "r5134861", "-o", file], environment: environment)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("the cover cache") && result.stderr.contains("No space left on device"), "\(result)")
    }

    @Test("-o '' is a usage error (64), as every empty path is")
    func emptyOutput() async throws {
        let result = try await CommandSandbox().crates(["cover", "r5134861", "-o", ""])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("crates cover: "), "\(result)")
    }
}
