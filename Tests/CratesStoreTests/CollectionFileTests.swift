import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The collection file on its own (a copy of it, a file cut short), the checkpoint that makes
/// it complete, the copy `crates backup` writes, and the files crates refuses to trust with
/// the collection.
@Suite struct CollectionFileTests {
    private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// A collection of `count` records, its store kept open: everything since its creation is
    /// in the -wal file, none of it in the collection file yet.
    private func openCollection(in directory: TemporaryDirectory, count: Int = 3) async throws -> (CollectionStore, String) {
        let path = directory.file("crates.sqlite")
        let store = try CollectionStore(path: path)
        for n in 1...count { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(n), addMethod: .typed)) }
        return (store, path)
    }

    @Test func aCopyMadeWithoutItsWalFileIsIncompleteNotAnOlderVersion() async throws {
        let directory = try TemporaryDirectory()
        let (store, path) = try await openCollection(in: directory)
        let copy = directory.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let before = try contents(copy)
        #expect(throws: StoreError.incomplete(path: copy)) { try CollectionStore(readingAt: copy) }
        #expect(throws: StoreError.incomplete(path: copy)) { try CollectionStore(path: copy) }
        #expect(try contents(copy) == before, "left untouched: not made an empty collection")
        #expect(StoreError.incomplete(path: copy).description.contains("copied without its -wal file"))
        _ = store
    }

    @Test func aFileShorterThanItsHeaderSaysIsDamaged() async throws {
        let directory = try TemporaryDirectory()
        let (_, path) = try await openCollection(in: directory, count: 400)
        let whole = directory.file("whole.sqlite")
        try CollectionStore.writeCopy(ofCollectionAt: path, to: whole)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: whole)[.size] as? Int)
        #expect(truncate(whole, off_t(size / 2 / 4096 * 4096)) == 0)
        for open in [{ _ = try CollectionStore(readingAt: whole) }, { _ = try CollectionStore(path: whole) }] {
            let error = #expect(throws: StoreError.self) { try open() }
            guard case let .damaged(errorPath, reason) = error else {
                Issue.record("expected damaged, got \(String(describing: error))")
                continue
            }
            #expect(errorPath == whole && reason.contains("where its header says \(size)"), "\(reason)")
        }
    }

    @Test func aCheckpointPutsEverythingInTheFileWhileAnotherConnectionIsOpen() async throws {
        let directory = try TemporaryDirectory()
        let (store, path) = try await openCollection(in: directory, count: 5)
        // Another connection, as the collection UI's: no close is the last one.
        let other = try CollectionStore(path: path)
        #expect(try await other.outline().rowCount == 5)
        #expect(CollectionStore.checkpoint(path: path, timeout: 5))
        #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int == 0)
        let elsewhere = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: path, toPath: elsewhere.file("copy.sqlite"))
        #expect(try await CollectionStore(readingAt: elsewhere.file("copy.sqlite")).outline().rowCount == 5)
        // Both connections go on working.
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(6), addMethod: .typed))
        #expect(try await other.outline().rowCount == 6)
        // A file that is not there is not created.
        #expect(!CollectionStore.checkpoint(path: directory.file("gone.sqlite"), timeout: 1))
        #expect(!FileManager.default.fileExists(atPath: directory.file("gone.sqlite")))
    }

    @Test func aBackupIsOneFileThatNeedsNoWal() async throws {
        let directory = try TemporaryDirectory()
        let (store, path) = try await openCollection(in: directory, count: 7)
        let elsewhere = try TemporaryDirectory()
        let copy = elsewhere.file("copy.sqlite")
        try CollectionStore.writeCopy(ofCollectionAt: path, to: copy)
        // Rollback-journal mode (header bytes 18 and 19 are 1): read without -wal or -shm.
        let header = try contents(copy).prefix(20)
        #expect(header[18] == 1 && header[19] == 1)
        #expect(chmod(copy, 0o444) == 0)
        #expect(try await CollectionStore(readingAt: copy).outline().rowCount == 7)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["copy.sqlite"])
        #expect(throws: StoreError.noDatabase(path: directory.file("none.sqlite"))) {
            try CollectionStore.writeCopy(ofCollectionAt: directory.file("none.sqlite"), to: elsewhere.file("x.sqlite"))
        }
        _ = store
    }

    // MARK: Files crates does not trust with the collection

    @Test func anotherUsersFileIsRefusedForWritingAndReadable() async throws {
        guard getuid() == 0 else { return }  // chown needs root
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        do { _ = try await openCollection(in: directory) }
        #expect(chown(path, 65534, 65534) == 0)
        let before = try contents(path)
        let error = #expect(throws: StoreError.self) { try CollectionStore(path: path) }
        #expect(error?.description.contains("belongs to another user (uid 65534)") == true, "\(String(describing: error))")
        #expect(try contents(path) == before)
        #expect(try await CollectionStore(readingAt: path).outline().rowCount == 3, "another user's collection can be read")
    }

    @Test func aFileEveryUserMayWriteIsRefusedForWritingAndReading() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        do { _ = try await openCollection(in: directory) }
        #expect(chmod(path, 0o666) == 0)
        let before = try contents(path)
        for open in [{ _ = try CollectionStore(readingAt: path) }, { _ = try CollectionStore(path: path) }] {
            let error = #expect(throws: StoreError.self) { try open() }
            #expect(error?.description.contains("may be written by every user (mode 666)") == true, "\(String(describing: error))")
        }
        #expect(try contents(path) == before)
    }

    @Test(arguments: ["-wal", "-shm", "-journal"])
    func aSideFileThatIsALinkIsRefusedBeforeAnythingIsCreated(suffix: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        #expect(symlink(directory.file("elsewhere"), path + suffix) == 0)
        let error = #expect(throws: StoreError.self) { try CollectionStore(path: path) }
        #expect(error?.description.contains("crates.sqlite\(suffix) is a symbolic link") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["crates.sqlite\(suffix)"])
    }

    @Test func anotherUsersSideFileOrDanglingLinkIsRefused() throws {
        guard getuid() == 0 else { return }  // chown needs root
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: nil))
        #expect(chown(path + "-wal", 4321, 4321) == 0)
        let wal = #expect(throws: StoreError.self) { try CollectionStore(path: path) }
        #expect(wal?.description.contains("crates.sqlite-wal belongs to another user (uid 4321)") == true, "\(String(describing: wal))")
        #expect(unlink(path + "-wal") == 0)

        #expect(symlink(directory.file("nowhere.sqlite"), path) == 0)
        #expect(lchown(path, 4321, 4321) == 0)
        let link = #expect(throws: StoreError.self) { try CollectionStore(path: path) }
        #expect(link?.description.contains("is another user's symbolic link (uid 4321)") == true, "\(String(describing: link))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["crates.sqlite"])
    }
}
