import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import CratesStore

/// The list's filter reads only the records its index finds, for a word of 3 characters or
/// more that few records hold.
@Suite struct FilterSpeedTests {
    /// Without machine speed: SQLite's virtual machine steps for a filter that a handful of
    /// records match, at 2,000 and at 8,000 records. A scan costs four times as much at
    /// four times the records; the index, about the same.
    @Test("a word few records hold costs the same steps whatever the collection's size")
    func indexedWordDoesNotReadTheCollection() async throws {
        func steps(records: Int) async throws -> Int {
            let directory = try TemporaryDirectory()
            let store = try CollectionStore(path: directory.file("crates.sqlite"))
            var batch = (0..<records).map { n in
                NewRecord(gtin: Fixtures.gtin(n), addMethod: .import, release: release(1 + n % 50, artist: "Artist \(n % 50)"))
            }
            for n in 0..<5 { batch[n * 97].release = release(1_000 + n, artist: "Sigur Rós", title: "Ágætis byrjun") }
            _ = try await store.addAll(batch)
            return try await store.read { db in
                var steps = 0
                let window = try withUnsafeMutablePointer(to: &steps) { counter in
                    sqlite3_progress_handler(db.sqliteConnection, 1, { context in
                        context?.assumingMemoryBound(to: Int.self).pointee += 1
                        return 0
                    }, counter)
                    defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
                    return try CollectionStore.fetchWindow(db, CollectionQuery(filter: "BYRJUN", window: RowWindow(offset: 0, limit: 60)))
                }
                #expect(window.rows.count == 5)
                return steps
            }
        }
        let small = try await steps(records: 2_000)
        let large = try await steps(records: 8_000)
        #expect(Double(large) < Double(small) * 1.5, "8,000 records took \(large) steps, 2,000 took \(small)")
    }
}
