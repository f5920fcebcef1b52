import CCrypto

/// HMAC-SHA1 (RFC 2104) from OpenSSL's libcrypto, for OAuth 1.0a signatures (RFC 5849
/// section 3.4.2). Never a hand-rolled hash.
public enum HMACSHA1 {
    /// The 20-byte digest of `message` under `key`. Empty only if libcrypto fails, which a
    /// server then rejects as a bad signature rather than crashing here.
    @Sendable public static func digest(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        let length = key.withUnsafeBytes { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    crates_hmac_sha1(k.baseAddress, Int32(k.count), m.baseAddress, m.count, o.baseAddress)
                }
            }
        }
        return Array(out.prefix(Int(length)))
    }

    /// A random nonce for `oauth_nonce` (RFC 5849 section 3.3): 16 bytes from libcrypto's
    /// RAND, as 32 hex digits (unreserved characters only).
    public static func nonce() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) } == 1
        if !ok { for i in bytes.indices { bytes[i] = UInt8.random(in: .min ... .max) } }
        return bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
