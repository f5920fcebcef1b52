/// Why a dump could not be read to its end. The build stops and the catalogue already in
/// place stays as it was.
public enum DumpError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file cannot be opened.
    case unreadable(path: String, reason: String)
    /// zlib refused the data: a truncated or damaged gzip file.
    case damaged(path: String, reason: String, offset: Int64)
    /// The file ends inside a release (an uncompressed dump cut short).
    case truncated(path: String, offset: Int64)
    /// Not one release could be read from the start of the file: not a releases dump.
    case notADump(path: String)
    /// A releases dump with not one release in it (`<releases></releases>`).
    case noRelease(path: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "Cannot read the dump \(path): \(reason)."
        case let .damaged(path, reason, offset):
            "The dump \(path) is damaged or cut short near byte \(offset) (zlib: \(reason)); download it again."
        case let .truncated(path, offset):
            "The dump \(path) ends inside a release at byte \(offset): it is cut short; download it again."
        case let .notADump(path):
            "\(path) is not a Discogs releases dump (it does not begin with <releases>)."
        case let .noRelease(path):
            "The dump \(path) holds no release: its <releases> element is empty."
        }
    }
}

/// A release the build could not read, named by its id when its start tag was read, else by
/// where it begins in the uncompressed dump.
public struct DumpSkip: Hashable, Sendable, CustomStringConvertible {
    public var releaseID: Int?
    /// The byte of the uncompressed dump where the error was found.
    public var offset: Int64
    /// The parser's words ("not well-formed (invalid token)").
    public var reason: String

    public init(releaseID: Int?, offset: Int64, reason: String) {
        self.releaseID = releaseID
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        let name = releaseID.map { "release \($0)" } ?? "the release at byte \(offset)"
        return "\(name): \(reason)"
    }
}
