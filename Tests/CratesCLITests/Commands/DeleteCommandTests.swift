import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates delete` as a process: asks first, takes ids and copy labels, and leaves the
/// deletion recorded for the sync, which removes the copy from Discogs when asked.
@Suite("crates delete (process)", .processTimeLimit)
struct DeleteCommandTests {
    @Test("asks first: no (or no answer) keeps the copy; yes and --yes delete it; a copy label names it too")
    func asks() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await SyncCommandTests.seedCopies(sandbox)
        let no = try await sandbox.crates(["delete", String(ids[0])], stdin: Data("n\n".utf8))
        #expect(no.status == 1, "\(no)")
        #expect(no.stderr.contains("Delete this copy from the collection?") && no.stderr.contains("\(ids[0]) Artist — Stockholm"), "\(no)")
        let silent = try await sandbox.crates(["delete", String(ids[0])], stdin: Data())
        #expect(silent.status == 1, "\(silent)")
        #expect(try await sandbox.openStore().record(ids[0]) != nil, "kept")

        let yes = try await sandbox.crates(["delete", String(ids[0])], stdin: Data("y\n".utf8))
        #expect(yes.status == 0 && yes.stdoutLines == ["deleted \(ids[0])"], "\(yes)")
        let label = try #require(LabelCode(kind: .copy, id: Int(ids[1]))).gtin.canonical
        let scripted = try await sandbox.crates(["delete", "--yes", label, "999"])
        #expect(scripted.status == 1, "\(scripted)")
        #expect(scripted.stdoutLines == ["deleted \(ids[1])"] && scripted.stderr.contains("record 999 is not in the collection"), "\(scripted)")
        let left = try sandbox.openStore()
        let (first, second, third) = (try await left.record(ids[0]), try await left.record(ids[1]), try await left.record(ids[2]))
        #expect(first == nil && second == nil && third != nil)
    }

    @Test("a copy synced with Discogs: said to be still there; `sync --delete` removes it there, once")
    func syncedCopy() async throws {
        let (sandbox, server) = try await SyncCommandTests.signedIn()
        let ids = try await SyncCommandTests.seedCopies(sandbox)
        let sync = try await sandbox.crates(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(try await server.collection.dump().instances.count == 3)

        let deleted = try await sandbox.crates(["delete", "--yes", String(ids[2])])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.stderr.contains("1 copy deleted here is still in your Discogs collection: `crates sync --delete` removes it there"), "\(deleted)")
        let removal = try await sandbox.crates(["sync", "--delete"])
        #expect(removal.status == 0, "\(removal)")
        #expect(try await server.collection.dump().instances.map(\.release_id).sorted() == [1, 5_134_861])
    }
}
