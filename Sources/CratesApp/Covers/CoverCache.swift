import Foundation
import Glibc

/// Covers on disk, under `$XDG_CACHE_HOME/crates/covers/` (default `~/.cache/crates/covers/`):
/// one file per release, `RELEASE.image` (the bytes as Discogs sent them) or `RELEASE.none`
/// (Discogs has no cover for it, or its image is gone: remembered, so that it is not asked
/// again every time). Each file is written whole or not at all (`ExportFile`: a temporary file
/// renamed over it). The whole is bounded: past `limitBytes`, the least recently used files
/// go first. A file's modification time is its last use, set to the nanosecond (the kernel's
/// own stamps are a few milliseconds coarse, too coarse to order uses made one after another).
public struct CoverCache: Sendable {
    /// What the cache holds for a release.
    public enum Entry: Equatable, Sendable {
        case image([UInt8])
        /// Discogs has no cover for it (none listed, or its image answered 404).
        case noCover
    }

    public let directory: String
    public let limitBytes: Int

    public init(directory: String, limitBytes: Int) {
        self.directory = directory
        self.limitBytes = max(0, limitBytes)
    }

    /// `$XDG_CACHE_HOME/crates/covers`, else `~/.cache/crates/covers`; nil when neither can be
    /// told (no HOME).
    public static func configured(
        limitBytes: Int, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> CoverCache? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return CoverCache(directory: cache + "/crates/covers", limitBytes: limitBytes)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return CoverCache(directory: home + "/.cache/crates/covers", limitBytes: limitBytes)
        }
        return nil
    }

    func path(_ release: Int, _ kind: String) -> String { "\(directory)/\(release).\(kind)" }

    /// What is kept for `release`, marked as used now; nil when nothing is.
    public func entry(_ release: Int) -> Entry? {
        let image = path(release, "image")
        if let data = FileManager.default.contents(atPath: image) {
            Self.touch(image)
            return .image([UInt8](data))
        }
        let none = path(release, "none")
        if access(none, F_OK) == 0 {
            Self.touch(none)
            return .noCover
        }
        return nil
    }

    /// Keeps `bytes` as `release`'s cover, then trims the cache to its bound.
    public func store(_ bytes: [UInt8], release: Int) throws(CoverError) {
        try write(bytes, to: path(release, "image"))
        unlink(path(release, "none"))
        trim(keeping: path(release, "image"))
    }

    /// Remembers that Discogs has no cover for `release`.
    public func rememberNoCover(_ release: Int) throws(CoverError) {
        try write([], to: path(release, "none"))
    }

    private func write(_ bytes: [UInt8], to file: String) throws(CoverError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cache("cannot make \(directory): \(SystemError.describe(error))")
        }
        do {
            try ExportFile.write(bytes: bytes, to: file)
        } catch {
            throw .cache(error.description)
        }
        Self.touch(file)
    }

    /// The cache's files (covers and remembered absences) with their sizes and last use.
    func files() -> [(path: String, bytes: Int, used: timespec)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var out: [(path: String, bytes: Int, used: timespec)] = []
        for name in names where name.hasSuffix(".image") || name.hasSuffix(".none") {
            let file = directory + "/" + name
            var info = stat()
            guard stat(file, &info) == 0 else { continue }
            out.append((file, Int(info.st_size), info.st_mtim))
        }
        return out
    }

    /// The bytes the cache's files hold.
    public var totalBytes: Int { files().reduce(0) { $0 + $1.bytes } }

    /// Removes the least recently used files until the whole fits `limitBytes`; `keeping`
    /// (the cover just stored) stays even when it alone is larger.
    func trim(keeping: String) {
        var files = files()
        var total = files.reduce(0) { $0 + $1.bytes }
        guard total > limitBytes else { return }
        files.sort { a, b in
            (a.used.tv_sec, a.used.tv_nsec, a.path) < (b.used.tv_sec, b.used.tv_nsec, b.path)
        }
        for file in files where total > limitBytes && file.path != keeping {
            if unlink(file.path) == 0 { total -= file.bytes }
        }
    }

    /// Marks `file` used now, to the nanosecond.
    static func touch(_ file: String) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [now, now]
        _ = utimensat(AT_FDCWD, file, &times, 0)
    }
}
