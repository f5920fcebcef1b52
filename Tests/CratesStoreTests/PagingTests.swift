import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import CratesStore

/// `list` and `export` read the collection a page at a time by key (issue 12, item 8): the
/// work per page must not grow with how deep the page is. Measured in SQLite's virtual
/// machine steps (a progress handler called on every instruction), which do not depend on
/// the machine's speed: four times the records must cost about four times the steps, where
/// paging by OFFSET, or by a row value SQLite uses only in part, costs sixteen times.
@Suite struct PagingTests {
    /// Steps to walk a collection of `records` unmatched records (all with the one sort key
    /// an unmatched record has, the case that was quadratic) and `matched` matched ones.
    private func steps(records: Int, filter: ExportFilter) async throws -> Int {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        do {
            let store = try CollectionStore(path: path)
            var batch = (0..<records).map { NewRecord(gtin: Fixtures.gtin($0), addMethod: .import) }
            for index in stride(from: 0, to: batch.count, by: 10) { batch[index].release = release(1 + index % 7) }
            _ = try await store.addAll(batch)
        }
        let queue = try DatabaseQueue(path: path)
        return try await queue.read { db in
            var steps = 0
            var seen = 0
            try withUnsafeMutablePointer(to: &steps) { counter in
                sqlite3_progress_handler(db.sqliteConnection, 1, { context in
                    context?.assumingMemoryBound(to: Int.self).pointee += 1
                    return 0
                }, counter)
                defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
                try CollectionStore.walk(db, filter: filter, detail: .listing, pageSize: 100) { seen += $0.count }
            }
            #expect(seen == (filter.states.isEmpty ? records : records - records / 10))
            return steps
        }
    }

    @Test("steps grow linearly", arguments: [ExportFilter(), ExportFilter(states: [.pending])])
    func stepsGrowLinearly(_ filter: ExportFilter) async throws {
        let small = try await steps(records: 2_000, filter: filter)
        let large = try await steps(records: 8_000, filter: filter)
        let growth = Double(large) / Double(small)
        #expect(growth < 6, "8,000 records took \(large) steps, 2,000 took \(small): \(growth)× for 4× the records")
    }
}
