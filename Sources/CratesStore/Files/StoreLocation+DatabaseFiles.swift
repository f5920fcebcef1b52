import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Telling whether an output path is the collection itself, so that `crates export --csv
/// "$CRATES_DB"` or `--report "$CRATES_DB-wal"` is refused before it writes a byte, instead
/// of replacing the collection with CSV text or leaving it malformed.
extension StoreLocation {
    /// The files SQLite keeps for one database.
    public enum DatabaseFile: String, Hashable, Sendable, CustomStringConvertible {
        case database
        /// The write-ahead log (`-wal`), the WAL index (`-shm`) and the rollback journal
        /// (`-journal`): writing over any of them damages the database as surely.
        case wal, shm, journal

        /// The suffix SQLite appends to the database's name.
        public var suffix: String {
            switch self {
            case .database: ""
            case .wal: "-wal"
            case .shm: "-shm"
            case .journal: "-journal"
            }
        }

        /// "the collection's database", "the collection's -wal file".
        public var description: String {
            self == .database ? "the collection's database" : "the collection's \(suffix) file"
        }
    }

    /// Which of the files of the database at `database` writing to `path` would write, or
    /// nil when none.
    ///
    /// Decided by identity, not by spelling: a path that exists is compared by device and
    /// inode (so a hard link, a symbolic link, `/dev/stdout` redirected to the file, or
    /// `./x/../crates.sqlite` are all caught); a path that does not exist yet (or a dangling
    /// link) by where it would be created, its directory's device and inode and its name,
    /// after following links. The database's side files are looked for both beside the path
    /// as given and beside the file a link points to, since SQLite names them after the
    /// resolved file.
    public static func databaseFile(at path: String, database: String) -> DatabaseFile? {
        let candidate = Place(path)
        for file in [DatabaseFile.database, .wal, .shm, .journal] {
            var targets = [Place(database + file.suffix)]
            if let resolved = Place.resolvingLinks(database), resolved != database {
                targets.append(Place(resolved + file.suffix))
            }
            if targets.contains(where: { candidate.isSame(as: $0) }) { return file }
        }
        return nil
    }

    /// Why an output path (`export` to a file, `import --report`) cannot be written, found
    /// before anything is written or added (`--report /nonexistent/r.tsv` added the
    /// records, then failed).
    public enum OutputError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Writing there would destroy the collection.
        case isTheDatabase(path: String, DatabaseFile)
        /// Writing there would destroy the Discogs catalogue (or the build of one).
        case isTheCatalogue(path: String)
        /// The path is a directory.
        case isADirectory(path: String)
        /// The directory that would hold it does not exist (or is not a directory).
        case noDirectory(path: String, directory: String)
        /// The file, or its directory (for a new file), may not be written by this user.
        case notWritable(path: String)
        /// An empty path (`-o ""`, a variable that was not set) names no file.
        case emptyPath

        public var description: String {
            switch self {
            case let .isTheDatabase(path, file):
                "\(path) is \(file): writing there would destroy the collection; choose another file"
            case let .isTheCatalogue(path):
                "\(path) is the Discogs catalogue (or one of its files): writing there would destroy it; choose another file"
            case let .isADirectory(path):
                "cannot write \(path): it is a directory; name a file"
            case let .noDirectory(path, directory):
                "cannot write \(path): there is no directory \(directory)"
            case let .notWritable(path):
                "cannot write \(path): permission denied"
            case .emptyPath:
                "an output path is needed: the one given is empty; name a file, or - for standard output"
            }
        }
    }

    /// `path` with every symbolic link of its last component followed (the file a write
    /// through it would reach), whether or not that file exists; `path` itself on a loop.
    public static func finalTarget(of path: String) -> String {
        Place.resolvingLinks(path) ?? path
    }

    /// Checks, without writing anything, that `path` can be written as an output file and is
    /// none of the files of the database at `database`, nor of the Discogs catalogue at
    /// `catalogue` (with its building file). Call it for every output path before the command
    /// does any work.
    public static func checkOutput(_ path: String, database: String, catalogue: String? = nil) throws(OutputError) {
        if path.isEmpty { throw .emptyPath }
        if let file = databaseFile(at: path, database: database) { throw .isTheDatabase(path: path, file) }
        if let catalogue,
           [catalogue, CatalogueLocation.buildingPath(for: catalogue)].contains(where: { databaseFile(at: path, database: $0) != nil }) {
            throw .isTheCatalogue(path: path)
        }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .isADirectory(path: path) }
            // A file that exists (or /dev/stdout, a pipe): it must be writable itself.
            if access(path, W_OK) != 0 { throw .notWritable(path: path) }
            return
        }
        let parent = directoryPart(of: Place.resolvingLinks(path) ?? path)
        let directory = parent.isEmpty ? "." : parent
        var directoryInfo = stat()
        guard stat(directory, &directoryInfo) == 0, directoryInfo.st_mode & S_IFMT == S_IFDIR else {
            throw .noDirectory(path: path, directory: directory)
        }
        if access(directory, W_OK | X_OK) != 0 { throw .notWritable(path: path) }
    }

    /// A file by identity: its inode when it exists, and where it is (or would be created).
    struct Place {
        /// Device and inode of the file, when it exists (links followed).
        var node: (device: UInt64, inode: UInt64)?
        /// Device and inode of the directory the final link target is (or would be) in,
        /// and its name there.
        var directory: (device: UInt64, inode: UInt64)?
        var name: String

        init(_ path: String) {
            node = Self.identity(path)
            let final = Self.resolvingLinks(path) ?? path
            name = StoreLocation.namePart(of: final)
            let parent = StoreLocation.directoryPart(of: final)
            directory = Self.identity(parent.isEmpty ? "." : parent)
        }

        func isSame(as other: Place) -> Bool {
            if let a = node, let b = other.node { return a == b }
            guard let a = directory, let b = other.directory else { return false }
            return a == b && name == other.name
        }

        static func identity(_ path: String) -> (device: UInt64, inode: UInt64)? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino))
        }

        /// `path` with every symbolic link of its last component followed (at most 40, as
        /// the kernel allows), whether or not the final target exists; nil on a loop.
        static func resolvingLinks(_ path: String) -> String? {
            var current = path
            for _ in 0..<40 {
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let count = readlink(current, &buffer, buffer.count - 1)
                guard count >= 0 else { return current }  // not a link (or gone): this is where it ends
                let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let directory = StoreLocation.directoryPart(of: current)
                current = target.hasPrefix("/") || directory.isEmpty
                    ? target : (directory.hasSuffix("/") ? directory : directory + "/") + target
            }
            return nil
        }
    }
}
