import CratesCore
import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
import Glibc
#endif

/// Opening a file safely: what is not a crates database this build can open is refused
/// before anything is written.
extension CollectionStore {
    /// The 16 bytes every SQLite 3 database file starts with (SQLite file format §1.3).
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Checks, without writing anything, that the file at `path` (if any) is a crates
    /// database this build can open, or an empty one it may initialise.
    ///
    /// The header is read first, so that a file that is not SQLite never reaches SQLite;
    /// then the database is opened read-only: a read-only connection does not switch the
    /// file to WAL, create tables or record migrations, which opening the pool would.
    static func inspect(path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue { throw .cannotOpen(path: path, reason: "it is a directory") }
        // read(2), not FileHandle: an I/O error is said as the C library says it, never as
        // Foundation's "NSCocoaErrorDomain error 256".
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw .cannotOpen(
                path: path, reason: code == EACCES ? "the file cannot be read (permission denied)" : String(cString: strerror(code)))
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if read < 0, errno == EINTR { continue }
            if read < 0 { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
            if read == 0 { break }
            count += read
        }
        let head = Data(bytes.prefix(count))
        // An empty file is an empty database to SQLite: safe to initialise.
        if head.isEmpty { return }
        guard head.count == 100, Array(head.prefix(16)) == sqliteHeader else {
            throw .notACratesDatabase(path: path, reason: "the file is not an SQLite database")
        }
        var info = stat()
        if fstat(fd, &info) == 0, let missing = missingBytes(header: head, fileSize: Int64(info.st_size), path: path) {
            throw .damaged(
                path: path,
                reason: "it is \(missing.size) bytes long where its header says \(missing.expected): cut short, "
                    + "or copied while it was being written")
        }

        let walMode = head[18] == 2 && head[19] == 2
        let verdict: Verdict
        do {
            verdict = try readVerdict(path: path, walMode: walMode)
        } catch let error as DatabaseError
            where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode)
        {
            throw .notACratesDatabase(path: path, reason: "the database is damaged: \(error.message ?? "\(error)")")
        } catch {
            throw StoreError.opening(path: path, error)
        }
        switch verdict {
        case .ok:
            return
        case .empty:
            // Switched to WAL (which writes the first page) but without a table: what is left of
            // a collection whose -wal file held everything else, and was not copied with it.
            // A collection being created has its -wal file beside it.
            if walMode, !FileManager.default.fileExists(atPath: path + "-wal") { throw .incomplete(path: path) }
            return
        case .foreign:
            throw .notACratesDatabase(path: path, reason: "it holds another application's tables")
        case let .newer(unknown):
            throw .newerVersion(path: path, unknownMigrations: unknown)
        }
    }

    /// Reads the verdict through a read-only connection.
    ///
    /// A read-only connection to a WAL-mode file (header bytes 18 and 19 are 2, SQLite file
    /// format §1.3.6) creates the `-wal` and `-shm` files beside it, and may leave them: not
    /// welcome next to another application's file, nor next to a newer crates' file that we
    /// refuse. When no `-wal` exists, no connection has the file open, so it is read as an
    /// immutable file instead (SQLite URI `immutable=1`: no locks, no side files).
    private static func readVerdict(path: String, walMode: Bool) throws -> Verdict {
        let inspection = configuration(label: "crates.store.inspect", readonly: true)
        if walMode, !FileManager.default.fileExists(atPath: path + "-wal"), urisEnabled,
           let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
        {
            // Should another process open the file meanwhile, an immutable read may fail:
            // then read it the ordinary way.
            if let verdict = try? DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: inspection)
                .read({ db in try Self.verdict(db) })
            {
                return verdict
            }
        }
        let queue = try DatabaseQueue(path: path, configuration: inspection)
        defer { try? queue.close() }
        return try queue.read { db in try Self.verdict(db) }
    }

    /// The file's size and the size its header gives, when the file is shorter: it was cut
    /// short, or copied while a checkpoint was writing it. Nil when it is whole, or when its
    /// header's size cannot be trusted.
    ///
    /// The header's page count (offset 28) is valid only when its "version-valid-for" number
    /// (offset 92) equals the change counter (offset 24), SQLite file format §1.3.7; the page
    /// size is at offset 16 (1 meaning 65536). A file that a process has open (its `-wal` or
    /// `-journal` beside it) may be between the writes of a checkpoint: not judged.
    static func missingBytes(header: Data, fileSize: Int64, path: String) -> (size: Int64, expected: Int64)? {
        let bytes = Array(header)
        guard bytes.count >= 100 else { return nil }
        func number(at offset: Int) -> Int64 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int64($1) }
        }
        let pageSize: Int64 = bytes[16] == 0 && bytes[17] == 1 ? 65_536 : Int64(bytes[16]) << 8 | Int64(bytes[17])
        let pages = number(at: 28)
        // Not a power of two from 512 to 65536: not a header SQLite wrote, said by SQLite itself.
        guard (512...65_536).contains(pageSize), pageSize & (pageSize - 1) == 0, pages > 0, number(at: 92) == number(at: 24)
        else { return nil }
        let expected = pageSize * pages
        guard fileSize < expected else { return nil }
        for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) { return nil }
        return (fileSize, expected)
    }

    /// Whether this SQLite reads `file:` URIs as filenames (compile option SQLITE_USE_URI;
    /// GRDB does not pass SQLITE_OPEN_URI). Asked of the library itself, not through a
    /// connection: opening one costs a few milliseconds of every short command (`crates
    /// check`).
    static let urisEnabled: Bool = sqlite3_compileoption_used("USE_URI") == 1

    enum Verdict: Equatable, Sendable {
        /// A crates database this build can open.
        case ok
        /// An SQLite database with nothing in it: crates may initialise it.
        case empty
        case foreign
        case newer([String])
    }

    static func verdict(_ db: Database) throws -> Verdict {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID != Schema.applicationID {
            let objects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
            return objects == 0 ? .empty : .foreign
        }
        let applied = try Schema.migrator.appliedIdentifiers(db)
        let unknown = applied.subtracting(Schema.knownMigrations).sorted()
        return unknown.isEmpty ? .ok : .newer(unknown)
    }

    /// The fewest records whose upgrade `init(path:busyTimeout:upgrading:)` announces: below
    /// that, it takes a few seconds at most.
    public static let upgradeNoticeRecords = 20_000

    /// Applies the migrations this build knows. Processes opening the file take turns
    /// (`OpeningLock`); should one that does not take the lock (an older crates) race a
    /// migration, the loser's fails ("table already exists"), which does no harm once the
    /// winner has migrated the database fully.
    static func migrate(
        _ writer: any DatabaseWriter, path: String, upgrading: ((_ records: Int) -> Void)? = nil
    ) throws(StoreError) {
        let migrator = Schema.migrator
        if let upgrading, let records = try? writer.read({ db -> Int? in
            guard try !migrator.hasCompletedMigrations(db), try db.tableExists("record") else { return nil }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record")
        }), records >= upgradeNoticeRecords {
            upgrading(records)
        }
        do {
            try migrator.migrate(writer)
        } catch {
            let completed = (try? writer.read { db in try migrator.hasCompletedMigrations(db) }) ?? false
            if !completed { throw StoreError.opening(path: path, error) }
        }
    }
}
