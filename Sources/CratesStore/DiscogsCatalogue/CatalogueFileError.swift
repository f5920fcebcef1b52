import CratesCore
import GRDBSQLite

/// Why a catalogue could not be built, opened or removed, in words a person can act on.
public enum CatalogueFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No catalogue at `path`.
    case none(path: String)
    /// The file is there but is no catalogue crates can read.
    case unreadable(path: String, reason: String)
    /// The build cannot write where the catalogue goes.
    case cannotWrite(path: String, reason: String)
    /// Not enough free space for the build.
    case noSpace(directory: String, needed: Int64, available: Int64)
    /// Another build of the same catalogue is under way.
    case buildUnderWay(path: String)
    /// The path is one of the collection's files: building or removing there would destroy it.
    case isCollection(path: String, file: StoreLocation.DatabaseFile)
    /// Something that is no catalogue is there, and a build would replace it (`verb`
    /// "replace"), or `remove` remove it ("remove"), or the name is unusable ("use").
    case notACatalogue(path: String, what: String, verb: String)
    /// A catalogue another user could have written: not trusted with matching scans.
    case untrusted(path: String, reason: String, advice: String)
    /// The build kept no release, or far fewer than the catalogue it would replace: not
    /// swapped in without `--force` (a dump of drafts, or the wrong file).
    case keptTooFew(path: String, releases: Int, replacing: Int?)
    /// The building file is a symbolic link, another user's, or not a plain file: crates
    /// neither writes through it nor removes it.
    case unsafeBuildingFile(path: String, reason: String)

    public var description: String {
        switch self {
        case let .none(path):
            "There is no Discogs catalogue at \(path); build one with `crates catalogue build FILE`."
        case let .unreadable(path, reason):
            "The Discogs catalogue \(path) cannot be read: \(reason)."
        case let .cannotWrite(path, reason):
            "Cannot build the Discogs catalogue \(path): \(reason)."
        case let .noSpace(directory, needed, available):
            "Not enough free space in \(directory) to build the catalogue: it needs about "
                + "\(ByteCount.text(needed)), and \(ByteCount.text(available)) are free."
        case let .buildUnderWay(path):
            "Another build of the Discogs catalogue \(path) is under way; wait for it to end."
        case let .isCollection(path, file):
            "\(path) is \(file), not a Discogs catalogue: crates leaves it alone. "
                + "Name the catalogue with --catalogue PATH or CRATES_CATALOGUE (the collection is --db or CRATES_DB)."
        case let .notACatalogue(path, what, verb):
            "Cannot \(verb) \(path): \(what). crates replaces or removes only a catalogue it built; "
                + "name another file with --catalogue PATH or CRATES_CATALOGUE."
        case let .untrusted(path, reason, advice):
            "The Discogs catalogue \(path) is not used: \(reason). Either \(advice)."
        case let .keptTooFew(path, releases, replacing):
            if let replacing {
                "The dump gave \(releases) release\(releases == 1 ? "" : "s"), against the \(replacing) of the catalogue \(path): "
                    + "the catalogue was not replaced (the wrong file, or a dump cut short?). --force replaces it all the same."
            } else {
                "The dump gave no release to keep: nothing was built at \(path) (the wrong file, or a dump of drafts?). "
                    + "--force builds it all the same."
            }
        case let .unsafeBuildingFile(path, reason):
            "Cannot build the Discogs catalogue: \(path) \(reason), and crates neither writes through it nor removes it. "
                + "Remove it if you did not make it, or name another catalogue with --catalogue."
        }
    }
}

extension CatalogueFileError {
    /// What SQLite's result `code` (primary or extended) says of a catalogue being read, in
    /// crates' words: messages never quote SQLite's own text ("file is not a database", "no
    /// such table: meta").
    public static func readingWords(sqliteCode code: Int32) -> String {
        switch code & 0xFF {
        case SQLITE_NOTADB: "it is not a catalogue crates built (not a database at all)"
        case SQLITE_ERROR: "it is not a catalogue crates built"
        case SQLITE_CORRUPT: "it is damaged; build it again"
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: "it cannot be opened"
        case SQLITE_BUSY, SQLITE_LOCKED: "another program holds it locked"
        case SQLITE_IOERR: "the disk could not read it"
        case SQLITE_NOMEM: "there is not enough memory to read it"
        default: "it cannot be read (SQLite's code \(code))"
        }
    }

    /// What SQLite's result `code` says of a catalogue being built, in crates' words.
    public static func writingWords(sqliteCode code: Int32) -> String {
        switch code & 0xFF {
        case SQLITE_FULL: "the disk is full"
        case SQLITE_IOERR: "the disk refused a write"
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH, SQLITE_READONLY: "the file cannot be written there"
        case SQLITE_NOMEM: "there is not enough memory"
        case SQLITE_CORRUPT, SQLITE_NOTADB: "the file being built was changed by another program"
        default: "SQLite refused it (code \(code))"
        }
    }
}

/// Sizes as people read them: "1.4 GB", "312 MB", "12 kB", "812 bytes".
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String { ProgressText.bytes(bytes, ones: "bytes") }
}
