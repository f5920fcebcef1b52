import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the collection's database file lives.
///
/// Precedence (the XDG Base Directory Specification for the default):
/// `--db PATH` > `CRATES_DB` > `$XDG_DATA_HOME/crates/crates.sqlite` >
/// `$HOME/.local/share/crates/crates.sqlite`.
public enum StoreLocation {
    /// The environment variable that names the database file.
    public static let environmentVariable = "CRATES_DB"
    public static let fileName = "crates.sqlite"

    /// The database path for a `--db` flag value (nil when absent) and an environment.
    ///
    /// Empty values count as absent, and a relative `XDG_DATA_HOME` is ignored, as the XDG
    /// specification requires. Relative `--db`/`CRATES_DB` paths are kept relative (to the
    /// working directory). Does not touch the file system.
    public static func resolve(flag: String?, environment: [String: String]) throws(StoreError) -> String {
        guard let path = dataFile(flag: flag, variable: environmentVariable, fileName: fileName, environment: environment) else {
            throw .cannotOpen(
                path: "~/.local/share/crates/\(fileName)",
                reason: "HOME is not set; pass --db PATH or set CRATES_DB")
        }
        return path
    }

    /// A file of crates' data by the same precedence: `flag` > `$variable` >
    /// `$XDG_DATA_HOME/crates/fileName` > `$HOME/.local/share/crates/fileName`; nil when
    /// neither is given and HOME is not set.
    public static func dataFile(flag: String?, variable: String, fileName: String, environment: [String: String]) -> String? {
        if let flag, !flag.isEmpty { return expandTilde(flag, environment: environment) }
        if let path = environment[variable], !path.isEmpty {
            return expandTilde(path, environment: environment)
        }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return join(dataHome, "crates", fileName)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return join(home, ".local/share/crates", fileName)
    }

    /// `resolve(flag:environment:)` with this process's environment.
    public static func resolve(flag: String?) throws(StoreError) -> String {
        try resolve(flag: flag, environment: ProcessInfo.processInfo.environment)
    }

    /// Creates the directory that will hold `path` (and its parents) with mode 0700: the
    /// collection is private. An existing directory is left as it is.
    public static func prepareDirectory(for path: String) throws(StoreError) {
        let directory = directoryPart(of: path)
        guard !directory.isEmpty else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .cannotOpen(path: path, reason: "\(directory) is not a directory")
            }
            return
        }
        if let problem = makeDirectories(directory, mode: 0o700) {
            throw .cannotOpen(path: path, reason: "cannot create \(directory): \(problem)")
        }
    }

    /// `mkdir -p` with mkdir(2): each missing directory of `path` made with `mode`. Nil when
    /// they all exist now, else the C library's reason ("Not a directory"), never Foundation's
    /// "NSCocoaErrorDomain error 512" (`HOME=/etc/passwd`).
    static func makeDirectories(_ path: String, mode: mode_t) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? nil : String(cString: strerror(ENOTDIR))
        }
        let parent = directoryPart(of: path)
        if !parent.isEmpty, parent != path, let problem = makeDirectories(parent, mode: mode) { return problem }
        if mkdir(path, mode) != 0, errno != EEXIST { return String(cString: strerror(errno)) }
        return nil
    }

    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it: ""
    /// for a bare name, "/" for a name at the root, trailing slashes ignored. Written out, since
    /// swift-corelibs-foundation's traps on a one-character name ("z", "z/"): `crates add
    /// --db z` crashed.
    static func directoryPart(of path: String) -> String {
        split(path).directory
    }

    /// The last component of `path`, as `NSString.lastPathComponent` gives it ("/" for "/").
    static func namePart(of path: String) -> String {
        split(path).name
    }

    private static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "/" { return ("/", "/") }
        guard let slash = trimmed.lastIndex(of: "/") else { return ("", String(trimmed)) }
        var directory = trimmed[..<slash]
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
    }

    static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    static func join(_ parts: String...) -> String {
        var result = parts[0]
        for part in parts.dropFirst() {
            if !result.hasSuffix("/") { result += "/" }
            result += part
        }
        return result
    }
}
