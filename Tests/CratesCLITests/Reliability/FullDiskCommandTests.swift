import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12, item 9: a disk that fills during an import. The collection lives on a small
/// tmpfs (mounted by the test, which runs as root; skipped, saying why, where mounting is
/// not allowed), so the disk really fills part-way through the batches.
///
/// Before issue 12 an import that had committed 10,003 of 50,000 lines said "nothing could
/// be imported" (exit 1). Now it says how many records were added and kept, and that running
/// the same import again (once there is room) adds the rest; and running it again does.
@Suite("a full disk during crates import and crates export (process)", .serialized, .processTimeLimit)
struct FullDiskCommandTests {
    static let lines = 50_000

    @Test(
        "the disk fills mid-import: how many were added and kept, exit 1; re-run with room: the rest added, each barcode once",
        .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"), .offThePool)
    func aFullDiskMidImport() async throws {
        let sandbox = try CommandSandbox()
        let disk = try SmallDisk(in: sandbox, kilobytes: 3 << 10)
        defer { disk.unmount() }
        var text = ""
        text.reserveCapacity(Self.lines * 14)
        for n in 0..<Self.lines { text += Fixtures.gtin(n).canonical + "\n" }
        let list = try Reliability.write(text, "shelf.txt", in: sandbox)
        var environment = sandbox.environment
        environment["CRATES_DB"] = disk.path("crates.sqlite")

        let full = try await ProcessRunner.crates(["import", "--no-lookup", list], environment: environment, deadline: .seconds(300))
        #expect(full.status == 1 && !full.signalled, "\(full)")
        let kept = try Self.keptCount(full.stderr)
        #expect(kept > 0 && kept < Self.lines, "\(full)")
        #expect(full.stderr.contains("the disk is full after \(kept) of \(Self.lines) lines: \(kept) records were added and kept; "
            + "free some space, then run the same import again to add the rest"), "\(full)")
        #expect(!full.stderr.contains("nothing"), "\(full)")
        Reliability.expectPlainText(full)
        // What it says is what the collection holds.
        let store = try CollectionStore(path: disk.path("crates.sqlite"))
        #expect(try await store.outline().rowCount == kept)
        #expect(try await store.integrityProblems().isEmpty)

        // Room again: the same import adds the rest, and nothing twice.
        try disk.resize(kilobytes: 64 << 10)
        let again = try await ProcessRunner.crates(["import", "--no-lookup", list], environment: environment, deadline: .seconds(300))
        #expect(again.status == 0, "\(again)")
        #expect(again.stdoutLines.first == "\(list): \(Self.lines - kept) added, \(kept) already in the collection.", "\(again)")
        #expect(try await store.outline().rowCount == Self.lines)
        #expect(try await store.copies(of: Fixtures.gtin(0)) == 1)
        #expect(try await store.copies(of: Fixtures.gtin(Self.lines - 1)) == 1)
    }

    @Test(
        "export onto a full disk: the reason in plain words, exit 1, the file it would replace left whole",
        .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"))
    func anExportOntoAFullDisk() async throws {
        let sandbox = try CommandSandbox()
        let list = try Reliability.write((0..<5_000).map { Fixtures.gtin($0).canonical + "\n" }.joined(), "list.txt", in: sandbox)
        let seeded = try await sandbox.crates(["import", "--no-lookup", list], deadline: .seconds(120))
        #expect(seeded.status == 0, "\(seeded)")
        // 5,000 records: about 250 KB of CSV, 2.5 MB of JSON.
        let disk = try SmallDisk(in: sandbox, kilobytes: 128)
        defer { disk.unmount() }
        let target = disk.path("collection.json")
        #expect(FileManager.default.createFile(atPath: target, contents: Data("[]\n".utf8)))
        for format in ["--json", "--csv"] {
            let result = try await sandbox.crates(["export", format, target])
            #expect(result.status == 1, "\(format): \(result)")
            #expect(result.stderr.contains("cannot write \(target): No space left on device (nothing was changed at \(target))"), "\(result)")
            Reliability.expectPlainText(result)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "[]\n", "the old file is whole")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.mountPoint) == ["collection.json"], "no partial file left")
        }
    }

    /// N of "the disk is full after N of …".
    static func keptCount(_ stderr: String) throws -> Int {
        let after = try #require(stderr.range(of: "the disk is full after "))
        return try #require(Int(stderr[after.upperBound...].prefix { $0.isNumber }))
    }
}

/// A tmpfs of a few megabytes mounted in a sandbox: a disk that fills when the test wants.
struct SmallDisk {
    let mountPoint: String

    /// Whether this process may mount a file system (root, as the tests run here).
    static let canMount: Bool = {
        guard geteuid() == 0, let probe = try? TemporaryDirectory(prefix: "crates-mount-probe") else { return false }
        guard mount("tmpfs", probe.path, "tmpfs", 0, "size=64k") == 0 else { return false }
        return umount2(probe.path, 0) == 0
    }()

    init(in sandbox: CommandSandbox, kilobytes: Int) throws {
        mountPoint = sandbox.directory.appendingPathComponent("small-disk").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=\(kilobytes)k,mode=0755") == 0 else {
            throw Failure("mount tmpfs at \(mountPoint): \(String(cString: strerror(errno)))")
        }
    }

    func path(_ name: String) -> String { mountPoint + "/" + name }

    /// Grows (or shrinks) the disk, keeping its files.
    func resize(kilobytes: Int) throws {
        guard mount("tmpfs", mountPoint, "tmpfs", UInt(MS_REMOUNT), "size=\(kilobytes)k") == 0 else {
            throw Failure("remount \(mountPoint): \(String(cString: strerror(errno)))")
        }
    }

    /// Unmounts it (lazily, should a process still hold a file there).
    func unmount() {
        _ = umount2(mountPoint, Int32(MNT_DETACH))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
