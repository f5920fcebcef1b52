import CratesCore
import CratesDumpGenerator
import CratesTestSupport
import Foundation
import GRDBSQLite
import Testing

@testable import CratesStore

/// The build's keys, sorted in runs while the dump is read and merged at the end, come out
/// in the order SQLite gives the same rows (`ORDER BY key, release`), however many runs they
/// were cut into; and a build whose keys went through many runs writes the same key tables
/// as one whose keys stayed in one.
@Suite(.offThePool) struct CatalogueKeyRunsTests {
    /// Text keys that try the order's every branch: short and long keys, keys sharing their
    /// first 8 bytes or more, keys that begin others, accented and other non-ASCII ones, a
    /// NUL (the key ends there, as SQLite binds a C string), one key under many releases.
    static func textKeys(_ count: Int, seed: UInt64) -> [(key: String, release: Int)] {
        var random = SeededGenerator(seed: seed)
        let stems = ["a", "ab", "abc", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefgz", "cat", "cat001", "catalogue12345678",
                     "catalogue12345679", "é", "éa", "zzz", "日本", "日本語", "z\u{0}hidden", "\u{0}", "9", "90", "099"]
        var keys: [(String, Int)] = []
        for _ in 0..<count {
            var key = stems[Int(random.next() % UInt64(stems.count))]
            if random.next() % 2 == 0 { key += String(random.next() % 1_000) }
            keys.append((key, Int(random.next() % 500) + 1))
        }
        return keys
    }

    /// The rows (key, release) in the order SQLite's `ORDER BY key, release` gives them, the
    /// keys as the bytes SQLite keeps.
    static func sqliteOrder(_ keys: [(key: String, release: Int)]) throws -> [([UInt8], Int64)] {
        var db: OpaquePointer?
        guard sqlite3_open(":memory:", &db) == SQLITE_OK, let db else { throw CannotOpen(path: ":memory:") }
        defer { sqlite3_close(db) }
        #expect(sqlite3_exec(db, "CREATE TABLE k(key TEXT NOT NULL, release INTEGER NOT NULL)", nil, nil, nil) == SQLITE_OK)
        var insert: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "INSERT INTO k VALUES (?,?)", -1, &insert, nil) == SQLITE_OK)
        for (key, release) in keys {
            _ = key.withCString { sqlite3_bind_text(insert, 1, $0, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
            sqlite3_bind_int64(insert, 2, Int64(release))
            #expect(sqlite3_step(insert) == SQLITE_DONE)
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        var select: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT key, release FROM k ORDER BY key, release", -1, &select, nil) == SQLITE_OK)
        defer { sqlite3_finalize(select) }
        var rows: [([UInt8], Int64)] = []
        while sqlite3_step(select) == SQLITE_ROW {
            let count = Int(sqlite3_column_bytes(select, 0))
            let bytes = sqlite3_column_blob(select, 0).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            rows.append((bytes, sqlite3_column_int64(select, 1)))
        }
        return rows
    }

    static func merged(_ runs: CatalogueKeyRuns) throws -> [([UInt8], UInt64, Int64)] {
        var rows: [([UInt8], UInt64, Int64)] = []
        try runs.merge { bytes, key, release in rows.append((Array(bytes), key, release)) }
        return rows
    }

    @Test("text keys merged from runs of 1, 7, 64 keys and from one run in hand: SQLite's order", arguments: [1, 7, 64, 100_000])
    func textOrder(runLength: Int) throws {
        let directory = try TemporaryDirectory()
        let keys = Self.textKeys(3_000, seed: 5)
        let runs = CatalogueKeyRuns(.text, beside: directory.file("catalogue.sqlite"))
        runs.runLength = runLength
        for (key, release) in keys { try runs.add(key, release: release) }
        let rows = try Self.merged(runs)
        let expected = try Self.sqliteOrder(keys)
        #expect(rows.count == expected.count)
        #expect(rows.map(\.0) == expected.map(\.0))
        #expect(rows.map(\.2) == expected.map(\.1))
        // The scratch file was removed from the directory as soon as it was made.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("integer keys merged from runs: by key, then release", arguments: [1, 10, 100_000])
    func integerOrder(runLength: Int) throws {
        let directory = try TemporaryDirectory()
        var random = SeededGenerator(seed: 9)
        var keys: [(UInt64, Int)] = []
        for _ in 0..<2_000 { keys.append((random.next() % 300 + 99_999_999_999_000, Int(random.next() % 1_000) + 1)) }
        let runs = CatalogueKeyRuns(.integer, beside: directory.file("catalogue.sqlite"))
        runs.runLength = runLength
        for (key, release) in keys { try runs.add(key, release: release) }
        let rows = try Self.merged(runs)
        let expected = keys.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        #expect(rows.map(\.1) == expected.map(\.0))
        #expect(rows.map(\.2) == expected.map { Int64($0.1) })
        #expect(rows.allSatisfy { $0.0.isEmpty })
    }

    /// Every row of `table`, in key order, as text.
    static func rows(of table: String, in path: String) throws -> [String] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else { throw CannotOpen(path: path) }
        defer { sqlite3_close(db) }
        var select: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT * FROM \(table)", -1, &select, nil) == SQLITE_OK)
        defer { sqlite3_finalize(select) }
        var rows: [String] = []
        while sqlite3_step(select) == SQLITE_ROW {
            rows.append("\(String(cString: sqlite3_column_text(select, 0))) \(sqlite3_column_int64(select, 1))")
        }
        return rows
    }

    @Test("a build whose keys went through runs of 50 writes the same key tables as one run")
    func buildAcrossRuns() throws {
        let directory = try TemporaryDirectory()
        var generator = DumpGenerator(count: 3_000, seed: 11, faults: true)
        var releases: [DumpRelease] = []
        while let release = generator.next() { if let release = release.expected { releases.append(release) } }
        var tables: [[String]] = []
        for runLength in [50, CatalogueKeyRuns.runLength] {
            let path = directory.file("catalogue-\(runLength).sqlite")
            let builder = try DiscogsCatalogueBuilder(path: path, edition: CatalogueEdition(dumpDate: "20250601"), neededBytes: 0)
            builder.keyRunLength = runLength
            for start in stride(from: 0, to: releases.count, by: 250) {
                try builder.add(Array(releases[start..<min(start + 250, releases.count)]))
            }
            _ = try builder.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
            tables.append(try Self.rows(of: "barcode", in: path) + Self.rows(of: "catno", in: path))
        }
        #expect(tables[0].count > 3_000)
        #expect(tables[0] == tables[1])
    }
}

struct CannotOpen: Error {
    var path: String
}
