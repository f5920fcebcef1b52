import CratesCore
import Foundation
import GRDB

/// What can go wrong with the catalogue store, each with a message a user can act on.
public enum StoreError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The file at the path is not SQLite, is damaged, or is someone else's SQLite database.
    /// It was left untouched.
    case notACratesDatabase(path: String, reason: String)
    /// The database was migrated by a newer crates: opening it could damage it, so it is
    /// refused and left untouched.
    case newerVersion(path: String, unknownMigrations: [String])
    /// The file or its directory could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// No record has this id (deleted meanwhile?).
    case recordNotFound(Int64)
    /// A stored value this build cannot read (a GTIN, a state, JSON): the row was written by
    /// something else than crates, or the file is damaged.
    case unreadableValue(recordID: Int64?, column: String, value: String)
    /// Another process held the database's write lock for longer than the busy timeout.
    /// Nothing was written by the operation; it can be tried again.
    case locked(seconds: Double)
    /// The disk (or the user's quota) is full: the operation was rolled back.
    case diskFull
    /// There is no database at the path, and the operation does not create one (a
    /// read-only open: `crates list` never creates the collection).
    case noDatabase(path: String)
    /// The database was written by an older crates and must be migrated before this build
    /// can read it, which a read-only open does not do.
    case needsMigration(path: String, pendingMigrations: [String])
    /// The file is an SQLite database in WAL mode with nothing in it, and no `-wal` file
    /// beside it: the collection was in the `-wal` file, which was not copied with it (or was
    /// lost). Left untouched: initialising it would hide that.
    case incomplete(path: String)
    /// The file is an SQLite database, but damaged (shorter than its header says). Left
    /// untouched.
    case damaged(path: String, reason: String)
    /// The collection file, or one of the files SQLite keeps beside it, is one this user
    /// should not trust with the collection (another user's, writable by every user, a
    /// symbolic link where SQLite would write): refused before anything was created or written.
    case unsafeFile(path: String, reason: String, advice: String)
    /// A place that cannot be named, made, changed or removed so (see `LocationError`).
    case location(LocationError)
    /// A query term the collection cannot answer (see `RecordQueryError`).
    case query(RecordQueryError)
    /// Any other SQLite failure.
    case database(String)

    public var description: String {
        switch self {
        case let .notACratesDatabase(path, reason):
            return "\(path) is not a crates database (\(reason)); it was left untouched. "
                + "Choose another file with --db or CRATES_DB."
        case let .newerVersion(path, unknown):
            return "\(path) was written by a newer version of crates (schema \(unknown.joined(separator: ", "))); "
                + "it was left untouched. Upgrade crates to open it."
        case let .cannotOpen(path, reason):
            return "cannot open \(path): \(reason)"
        case let .recordNotFound(id):
            return "record \(id) is not in the collection (deleted meanwhile?)"
        case let .unreadableValue(recordID, column, value):
            let row = recordID.map { "record \($0)" } ?? "a row"
            return "\(row) has an unreadable \(column) \(String(reflecting: value)): "
                + "the database was changed outside crates, or is damaged"
        case let .locked(seconds):
            // "Up to": SQLite can also answer busy at once (a lock it knows will not go).
            return "another program holds the collection locked (crates waited up to "
                + "\(seconds < 1 ? String(seconds) : String(Int(seconds))) s); try again"
        case .diskFull:
            return "the disk is full"
        case let .noDatabase(path):
            return "there is no collection at \(path) yet (crates add or crates import creates it); "
                + "or name the database with --db or CRATES_DB"
        case let .needsMigration(path, pending):
            return "\(path) was written by an older version of crates and must be upgraded (schema "
                + "\(pending.joined(separator: ", "))) before it can be read: open it once with write access "
                + "(crates, crates add or crates import)"
        case let .incomplete(path):
            return "\(path) looks incomplete: it holds no collection, and the -wal file that would hold it is not "
                + "beside it (was it copied without its -wal file? `crates backup FILE` copies a collection whole, "
                + "even one in use); it was left untouched"
        case let .damaged(path, reason):
            return "\(path) is damaged (\(reason)); it was left untouched"
        case let .unsafeFile(path, reason, advice):
            return "\(path) \(reason): crates refused it, and created or changed nothing. \(advice)"
        case let .location(error):
            return error.description
        case let .query(error):
            return error.description
        case let .database(message):
            return "database error: \(message)"
        }
    }

    public var errorDescription: String? { description }
}

extension StoreError {
    /// Any error from below as a store error; `busyTimeout` is the connection's, for the
    /// message of a lock held too long.
    static func wrap(_ error: any Error, busyTimeout: TimeInterval = CollectionStore.defaultBusyTimeout) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as RecordQueryError:
            return .query(error)
        case is CancellationError:
            return .database("the operation was cancelled")
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .locked(seconds: busyTimeout)
            case .SQLITE_FULL:
                return .diskFull
            case .SQLITE_READONLY:
                return .database("the database file is read-only")
            default:
                return .database(error.message ?? "\(error)")
            }
        default:
            return .database("\(error)")
        }
    }

    /// An error met while opening `path`.
    static func opening(path: String, _ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .notACratesDatabase(path: path, reason: "the database is damaged: \(error.message ?? "\(error)")")
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
                return .cannotOpen(path: path, reason: error.message ?? "\(error)")
            default:
                break
            }
        }
        return .cannotOpen(path: path, reason: wrap(error).description)
    }
}
