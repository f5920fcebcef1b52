import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a whole file or nothing: the bytes go to a new temporary file beside the target
/// (same directory, so the same file system), which is synced and then renamed over it;
/// rename(2) replaces atomically, so a reader sees the old file or the new one, never half.
/// On any failure the temporary file is removed and the target left as it was.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(LabelError) {
        guard !path.isEmpty else { throw .cannotWrite(path: path, reason: "the file name is empty") }
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .cannotWrite(path: path, reason: "it is a directory")
        }
        let directory = url.deletingLastPathComponent().path
        var descriptor: Int32 = -1
        var temporary = ""
        // A fresh name, created exclusively (never following a planted link); mode 0666 less
        // the umask, as a shell redirection would create it.
        for _ in 0..<100 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            temporary = "\(directory)/.\(url.lastPathComponent).partial-\(suffix)"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: lastError()) }

        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == nil {
                let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno != EINTR { failure = lastError() }
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = lastError() }
        if close(descriptor) != 0, failure == nil { failure = lastError() }
        if failure == nil, rename(temporary, url.path) != 0 { failure = lastError() }
        if let failure {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: failure)
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
