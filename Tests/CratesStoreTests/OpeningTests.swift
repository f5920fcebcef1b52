import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@Suite struct OpeningTests {
    private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func createsTheFileAndAPrivateDirectoryThenReopensIt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data/crates/crates.sqlite")
        let id: Int64
        do {
            let store = try CollectionStore(path: path)
            id = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed)).id
        }
        let mode = try FileManager.default.attributesOfItem(atPath: directory.file("data/crates"))[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let reopened = try CollectionStore(path: path)
        #expect(try await reopened.record(id)?.gtin == Fixtures.gtin(1))
        #expect(try await reopened.integrityProblems().isEmpty)
        // WAL mode, so that readers and another process's writer get along.
        let journal = try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
    }

    @Test func anEmptyFileIsInitialised() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try CollectionStore(path: path)
        #expect(try await store.outline().rowCount == 0)
    }

    @Test(arguments: [
        Data("GTIN\n5099750442227\n".utf8),
        Data(repeating: 0, count: 4096),
        Data("SQLite format 3".utf8),  // a header cut short
        Data("SQLite format 3\0".utf8) + Data(repeating: 0xFF, count: 4080),  // a damaged database
    ])
    func aFileThatIsNotSQLiteIsRefusedAndUntouched(bytes: Data) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try CollectionStore(path: path) }
        guard case let .notACratesDatabase(errorPath, _) = error else {
            Issue.record("expected notACratesDatabase, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(error?.description.contains("\(path) is not a crates database") == true)
        #expect(try contents(path) == bytes)
        #expect(!exists(path + "-wal") && !exists(path + "-shm") && !exists(path + "-journal"))
    }

    @Test(arguments: ["delete", "wal"])
    func anotherApplicationsDatabaseIsRefusedAndUntouched(journalMode: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = \(journalMode)")
                try db.execute(sql: "CREATE TABLE invoice (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoice VALUES (1, 9.5)")
            }
        }
        #expect(!exists(path + "-wal"))
        let before = try contents(path)
        let error = #expect(throws: StoreError.self) { try CollectionStore(path: path) }
        #expect(error.map { "\($0)" }?.contains("\(path) is not a crates database") == true)
        #expect(try contents(path) == before)
        #expect(!exists(path + "-wal") && !exists(path + "-shm"))
    }

    @Test func aDatabaseFromANewerCratesIsRefusedAndUntouched() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        do {
            let store = try CollectionStore(path: path)
            _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        }
        // A newer crates applied a migration this build does not know.
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v2')")
                try db.execute(sql: "ALTER TABLE record ADD COLUMN condition TEXT")
            }
        }
        #expect(!exists(path + "-wal"))
        let before = try contents(path)
        let error = #expect(throws: StoreError.self) { try CollectionStore(path: path) }
        #expect(error == .newerVersion(path: path, unknownMigrations: ["v2"]))
        #expect(error.map { "\($0)" }?.contains("newer version of crates") == true)
        #expect(try contents(path) == before)
        #expect(!exists(path + "-wal") && !exists(path + "-shm"))
    }

    @Test func aDirectoryIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: StoreError.cannotOpen(path: directory.path, reason: "it is a directory")) {
            try CollectionStore(path: directory.path)
        }
    }

    @Test func errorsReadAsSentences() {
        let errors: [StoreError] = [
            .notACratesDatabase(path: "/x/c.sqlite", reason: "the file is not an SQLite database"),
            .newerVersion(path: "/x/c.sqlite", unknownMigrations: ["v2"]),
            .cannotOpen(path: "/x/c.sqlite", reason: "permission denied"),
            .recordNotFound(3),
            .unreadableValue(recordID: 3, column: "gtin", value: "12"),
            .database("disk I/O error"),
        ]
        for error in errors {
            #expect(error.errorDescription == error.description)
            #expect(!error.description.isEmpty)
        }
        #expect(errors[0].description.hasPrefix("/x/c.sqlite is not a crates database"))
    }
}
