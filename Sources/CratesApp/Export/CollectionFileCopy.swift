import CratesStore
import Foundation

/// `crates backup FILE`: a copy of the collection that is whole on its own, taken while the
/// collection may be in use (the UI open, an import running), written atomically.
public enum CollectionFileCopy {
    /// Writes a copy of the collection at `database` to `path`.
    ///
    /// `path` is refused before anything is read when it is one of the collection's own
    /// files (the database, its -wal, -shm or -journal, or a link to one: by device and inode,
    /// as an export's), a directory, or not writable, and when it is standard output, a device
    /// or a pipe (the copy is an SQLite file, written by name). The copy goes to a temporary
    /// file beside `path` (`ExportFile`), synced and renamed over `path` only when complete: a
    /// backup that fails or is stopped leaves `path` as it was. It keeps the permissions of the
    /// file it replaces.
    public static func write(collection database: String, to path: String) throws(BackupError) {
        let file: ExportFile
        do {
            file = try ExportFile(path: path, sparing: database)
        } catch {
            throw .output(error)
        }
        guard let temporary = file.temporaryPath else {
            file.abandon()
            throw .output(.cannotWrite(path: path, reason: "a backup is an SQLite file: name a file, not a device or pipe"))
        }
        do {
            try CollectionStore.writeCopy(ofCollectionAt: database, to: temporary)
        } catch {
            file.abandon()
            throw .collection(error, path: path)
        }
        do {
            try file.commit()
        } catch {
            throw .output(error)
        }
    }
}

/// Why a backup was not written; `path` was left as it was.
public enum BackupError: Error, CustomStringConvertible {
    /// The output file cannot be written, or is refused.
    case output(ExportError)
    /// The collection could not be read (or the copy not written: a full disk).
    case collection(StoreError, path: String)

    public var description: String {
        switch self {
        case let .output(error):
            error.description
        case let .collection(.diskFull, path):
            "cannot write \(path): the disk is full (nothing was changed at \(path))"
        case let .collection(error, _):
            error.description
        }
    }
}
