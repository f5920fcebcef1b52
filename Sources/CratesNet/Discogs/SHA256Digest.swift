import CCrypto
import Foundation

/// SHA-256 (FIPS 180-4) from OpenSSL's libcrypto (EVP), fed in pieces: a file of gigabytes
/// is hashed as it is read, never held. Never a hand-rolled hash.
public final class SHA256Digest {
    private let context: OpaquePointer?

    public init() {
        let context = EVP_MD_CTX_new()
        if let context, EVP_DigestInit_ex(context, EVP_sha256(), nil) != 1 {
            EVP_MD_CTX_free(context)
            self.context = nil
        } else {
            self.context = context
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as 64 lowercase hex digits; nil if libcrypto failed (a file that then
    /// matches no checksum, rather than a crash).
    public func finish() -> String? {
        guard let context else { return nil }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1, length == 32 else { return nil }
        return out.prefix(Int(length)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The digest of the file at `path`, read a megabyte at a time. Nil when the file cannot
    /// be read (`errno` says why), or when `stop` says so between two reads.
    public static func file(atPath path: String, stop: () -> Bool = { false }) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let digest = SHA256Digest()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if stop() { return nil }
        }
        return digest.finish()
    }
}
