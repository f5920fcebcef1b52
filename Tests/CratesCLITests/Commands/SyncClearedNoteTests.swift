import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// A note cleared in crates and pushed: Discogs refuses an empty value ("Missing value."), as
/// the loopback server does now; what crates sends instead clears it there, and the next sync
/// sees nothing to change.
@Suite("crates sync: a cleared note (process)", .serialized, .processTimeLimit)
struct SyncClearedNoteTests {
    @Test("a note cleared in crates: pushed as Discogs takes it, the Discogs note blank; no notice; the next sync changes nothing")
    func clearedNote() async throws {
        let (sandbox, server) = try await SyncCommandTests.signedIn()
        let ids = try await SyncCommandTests.seedCopies(sandbox)
        #expect(try await sandbox.crates(["edit", String(ids[1]), "--note", "signed"]).status == 0)
        let first = try await sandbox.crates(["sync"])
        #expect(first.status == 0, "\(first)")
        #expect(try await server.collection.dump().instances.first { $0.release_id == 5_134_861 }?.note(3) == "signed")

        #expect(try await sandbox.crates(["edit", String(ids[1]), "--clear", "note"]).status == 0)
        let cleared = try await sandbox.crates(["sync"])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(!cleared.stdout.contains("not written") && !cleared.stdout.contains("Missing value"), "\(cleared)")
        #expect(cleared.stdoutLines.first?.contains("1 pushed") == true || cleared.stdoutLines.first?.contains("1 updated") == true, "\(cleared)")
        let note = try await server.collection.dump().instances.first { $0.release_id == 5_134_861 }?.note(3)
        #expect(note.map { $0.allSatisfy(\.isWhitespace) } ?? true, "the note is gone on Discogs: \(String(describing: note))")

        let again = try await sandbox.crates(["sync"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdoutLines.first?.contains("0 pushed, 0 linked, 0 updated, 0 conflicts") == true, "\(again)")
        let record = try await sandbox.openStore().record(ids[1])
        #expect(record?.note == nil, "still no note in crates")
    }
}
