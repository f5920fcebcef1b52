import Foundation
import GRDBSQLite

#if canImport(Glibc)
import Glibc
#endif

/// Which files the catalogue commands may replace, remove or trust.
///
/// A catalogue path is a setting (`--catalogue`, `$CRATES_CATALOGUE`) that a shell profile
/// can get wrong: one stale variable, or two swapped, points it at the collection or at any
/// file of the user's. A build replaces what is there with one rename, and `remove` unlinks
/// it, so both first make sure that what is there is a catalogue crates built, or nothing.
/// And what a catalogue says decides which release each scan is matched to (and so what a
/// sync pushes to Discogs): a file that another user could have written is not trusted, as
/// the collection's own rule has it (`CollectionStore.checkFiles`).
public enum CatalogueFileSafety {
    /// The names SQLite gives its side files: a catalogue built under such a name would be
    /// taken by SQLite for the journal of the database beside it.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// What a build may replace at `path`: nothing, an empty file, or a catalogue of any
    /// format crates wrote. Returns the releases of the catalogue there (nil when there is
    /// none), so that a build that keeps far fewer can be stopped before it swaps in.
    /// `collection` is the collection's database, refused by identity with its side files.
    public static func checkReplaceable(_ path: String, sparing collection: String?) throws(CatalogueFileError) -> Int? {
        try checkNotCollection(path, sparing: collection)
        try checkNotCollection(CatalogueLocation.buildingPath(for: path), sparing: collection)
        switch try occupant(of: path) {
        case .nothing: return nil
        case .catalogue(let releases): return releases
        case .other(let what): throw .notACatalogue(path: path, what: what, verb: "replace")
        }
    }

    /// What `crates catalogue remove` may remove: a catalogue, and nothing else.
    public static func checkRemovable(_ path: String, sparing collection: String?) throws(CatalogueFileError) {
        try checkNotCollection(path, sparing: collection)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { throw .none(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        switch try occupant(of: path) {
        case .catalogue: return
        case .nothing:
            // A dangling link or an empty file: nothing a build wrote.
            throw .notACatalogue(path: path, what: info.st_size == 0 ? "it is an empty file" : "it is a link to nothing", verb: "remove")
        case .other(let what): throw .notACatalogue(path: path, what: what, verb: "remove")
        }
    }

    /// Refuses, before it is opened, a catalogue that is not a regular file (opening a FIFO
    /// waits for a writer for ever) or that this user should not trust: one every user may
    /// write, or another user's in a directory every user may write (anyone could have put
    /// it there). Root's files are trusted, as the system's are.
    public static func checkTrusted(_ path: String, user: uid_t = geteuid()) throws(CatalogueFileError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { throw .none(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .unreadable(path: path, reason: "it is a directory")
        default: throw .unreadable(path: path, reason: "it is not a regular file (a FIFO, a device or a socket)")
        }
        let mode = String(info.st_mode & 0o777, radix: 8)
        if info.st_mode & S_IWOTH != 0 {
            throw .untrusted(
                path: path, reason: "every user may write it (mode \(mode)), and whoever does decides which release each scan is matched to",
                advice: "make it yours alone (chmod o-w \(path)), or build your own with `crates catalogue build`")
        }
        if info.st_uid != user, info.st_uid != 0 {
            let directory = StoreLocation.directoryPart(of: StoreLocation.finalTarget(of: path))
            var directoryInfo = stat()
            if stat(directory.isEmpty ? "." : directory, &directoryInfo) == 0, directoryInfo.st_mode & S_IWOTH != 0 {
                throw .untrusted(
                    path: path,
                    reason: "it belongs to another user (uid \(info.st_uid)) in a directory every user may write: anyone could have put it there",
                    advice: "build your own with `crates catalogue build`, or keep the catalogue in a directory of your own")
            }
        }
    }

    /// Refuses `path` when it is one of the collection's files, or is named as SQLite names
    /// a database's side files.
    static func checkNotCollection(_ path: String, sparing collection: String?) throws(CatalogueFileError) {
        if let collection, let file = StoreLocation.databaseFile(at: path, database: collection) {
            throw .isCollection(path: path, file: file)
        }
        let name = StoreLocation.namePart(of: path)
        if let suffix = sideFileSuffixes.first(where: { name.hasSuffix($0) }) {
            throw .notACatalogue(
                path: path, what: "SQLite takes a file whose name ends in \(suffix) for the journal of the database beside it",
                verb: "use")
        }
    }

    /// What is at a catalogue's path.
    enum Occupant: Equatable {
        case nothing
        /// A catalogue crates built, of this format or an older one; its releases.
        case catalogue(releases: Int)
        /// Anything else, said as "it is …".
        case other(String)
    }

    /// Looks at what `path` holds, links followed, without opening anything that could block
    /// (a FIFO) or writing anything.
    static func occupant(of path: String) throws(CatalogueFileError) -> Occupant {
        var info = stat()
        guard stat(path, &info) == 0 else {
            // Nothing, or a link to nothing (a rename replaces the link, not what it names).
            if errno == ENOENT { return .nothing }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .other("it is a directory")
        default: return .other("it is not a regular file (a FIFO, a device or a socket)")
        }
        if info.st_size == 0 { return .nothing }
        let header = Self.header(of: path)
        guard header.starts(with: Array("SQLite format 3\u{0}".utf8)) else { return .other("it is not a Discogs catalogue (not even a SQLite file)") }
        return Self.catalogueReleases(path).map { .catalogue(releases: $0) }
            ?? .other(Self.isCollection(path) ? "it is a crates collection, not a Discogs catalogue" : "it is a SQLite database, but not a Discogs catalogue")
    }

    /// The first 16 bytes of the file at `path` (fewer when it is shorter or unreadable).
    private static func header(of path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
        return count > 0 ? Array(bytes.prefix(count)) : []
    }

    /// The releases the catalogue at `path` holds, by its `meta` table; nil when it is no
    /// catalogue (no `meta` with a format and a date).
    private static func catalogueReleases(_ path: String) -> Int? {
        let values = query(path, "SELECT key, value FROM meta WHERE key IN ('format', 'date', 'releases')")
        let meta = Dictionary(values.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        guard meta["format"] != nil, meta["date"] != nil else { return nil }
        return Int(meta["releases"] ?? "") ?? 0
    }

    /// Whether the SQLite file at `path` is a crates collection (it has a `record` table).
    private static func isCollection(_ path: String) -> Bool {
        !query(path, "SELECT name, type FROM sqlite_master WHERE name = 'record' AND type = 'table'").isEmpty
    }

    /// The rows of a query of two text columns, read-only; none when the file cannot be read.
    private static func query(_ path: String, _ sql: String) -> [[String]] {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<2).map { column in
                sqlite3_column_text(statement, Int32(column)).map { String(cString: $0) } ?? ""
            })
        }
        return rows
    }
}
