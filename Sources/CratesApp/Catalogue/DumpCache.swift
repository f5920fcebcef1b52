import CratesCore
import Foundation

/// A dump's verified SHA-256, kept beside it (`<file>.sha256`) so that a second `fetch` of a
/// file already checked does not read its 10 GB again. Trusted only while the file has the
/// size and modification time it had when checked: a file changed since is checked again.
enum VerifiedDigest {
    static func sidecar(for path: String) -> String { path + ".sha256" }

    /// The digest recorded for `path`; nil when there is none, or the file changed since.
    static func read(for path: String) -> String? {
        guard let text = try? String(contentsOfFile: sidecar(for: path), encoding: .utf8),
              let stamp = FileStamp(path: path) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, fields[0].count == 64, fields[1] == String(stamp.size), fields[2] == stamp.modified else { return nil }
        return String(fields[0])
    }

    /// Records `digest` for `path` as it is now, atomically (a temporary file renamed): a
    /// run stopped meanwhile leaves no half-written record. Quietly nothing when it cannot
    /// be written (the next run checks the file again).
    static func write(_ digest: String, for path: String) {
        guard let stamp = FileStamp(path: path) else { return }
        try? "\(digest) \(stamp.size) \(stamp.modified)\n".write(toFile: sidecar(for: path), atomically: true, encoding: .utf8)
    }

    static func remove(for path: String) {
        unlink(sidecar(for: path))
    }

    /// A file's size and modification time (to the nanosecond).
    private struct FileStamp {
        var size: Int64
        var modified: String

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            size = Int64(info.st_size)
            modified = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
    }
}

/// The releases dumps `crates catalogue fetch` keeps in its cache directory.
public enum DumpCache {
    /// Removes the releases dumps older than `date` from `directory`, with their partial
    /// downloads and recorded digests: once a newer dump is built, an older one (10 GB) is
    /// of no use. Only crates' own files (`discogs_YYYYMMDD_releases.xml.gz` and what goes
    /// with it) are touched. Returns the names of the dumps removed and their bytes.
    @discardableResult
    public static func removeOlder(than date: DiscogsDumpDate, in directory: String) -> [(name: String, bytes: Int64)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [(name: String, bytes: Int64)] = []
        for name in names.sorted() {
            guard let (dumpDate, suffix) = dumpFile(name), dumpDate < date else { continue }
            let path = directory + "/" + name
            var info = stat()
            // Regular files only: a directory or a link of that name is not crates' own.
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, unlink(path) == 0 else { continue }
            if suffix.isEmpty || suffix == ".part" { removed.append((name, Int64(info.st_size))) }
        }
        return removed
    }

    /// The date of a releases dump's file (`discogs_20260601_releases.xml.gz`, with `.part`
    /// or `.sha256` after it) and that suffix; nil for any other name.
    static func dumpFile(_ name: String) -> (DiscogsDumpDate, String)? {
        guard name.hasPrefix("discogs_"), name.utf8.count >= 8 + 8 else { return nil }
        let digits = String(name.dropFirst(8).prefix(8))
        guard let date = DiscogsDumpDate(digits: digits) else { return nil }
        let rest = name.dropFirst(16)
        let base = "_releases.xml.gz"
        guard rest.hasPrefix(base) else { return nil }
        let suffix = String(rest.dropFirst(base.count))
        guard ["", ".part", ".sha256"].contains(suffix) else { return nil }
        return (date, suffix)
    }
}
