import Foundation

/// Signs requests with OAuth 1.0 HMAC-SHA1 (RFC 5849 sections 3.1 to 3.5.1).
///
/// Pure: the HMAC itself, the clock and the nonce are given to it, so that CratesCore stays
/// free of C and the published test vectors can be reproduced exactly.
public struct OAuthSigner: Sendable {
    /// HMAC-SHA1 of `message` under `key` (RFC 2104); 20 bytes.
    public typealias HMACSHA1 = @Sendable (_ key: [UInt8], _ message: [UInt8]) -> [UInt8]

    public var consumerKey: String
    public var consumerSecret: String
    /// The temporary or token credentials, when the request carries some.
    public var token: String?
    public var tokenSecret: String
    private let hmac: HMACSHA1

    public init(consumerKey: String, consumerSecret: String, token: String? = nil, tokenSecret: String = "", hmac: @escaping HMACSHA1) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
        self.hmac = hmac
    }

    /// The `oauth_*` protocol parameters of one request, before signing (RFC 5849 section 3.1).
    /// `extra` carries `oauth_callback` or `oauth_verifier` where a step needs them.
    public func protocolParameters(
        timestamp: Int, nonce: String, extra: [(name: String, value: String)] = [], includeVersion: Bool = true
    ) -> [(name: String, value: String)] {
        var p: [(name: String, value: String)] = [
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp)),
        ]
        if let token { p.append(("oauth_token", token)) }
        if includeVersion { p.append(("oauth_version", "1.0")) }
        return p + extra
    }

    /// The HMAC-SHA1 signature, base64 (RFC 5849 section 3.4.2): the key is the encoded
    /// consumer secret and the encoded token secret joined by "&" (the "&" stays when there
    /// is no token secret). Nil when `url` is not an absolute http(s) URL.
    public func signature(
        method: String, url: String, formBody: [(name: String, value: String)] = [],
        protocolParameters: [(name: String, value: String)]
    ) -> String? {
        guard let base = OAuthSignatureBase.string(method: method, url: url, formBody: formBody, protocolParameters: protocolParameters)
        else { return nil }
        let key = OAuthPercentEncoding.encode(consumerSecret) + "&" + OAuthPercentEncoding.encode(tokenSecret)
        return Data(hmac(Array(key.utf8), Array(base.utf8))).base64EncodedString()
    }

    /// The value of the `Authorization` header for one request (RFC 5849 section 3.5.1):
    /// `OAuth ` then each protocol parameter, the signature included, as `name="value"` with
    /// both encoded, separated by ", ". Nil when `url` is not an absolute http(s) URL.
    public func authorizationHeader(
        method: String, url: String, formBody: [(name: String, value: String)] = [],
        timestamp: Int, nonce: String, extra: [(name: String, value: String)] = [], includeVersion: Bool = true
    ) -> String? {
        let params = protocolParameters(timestamp: timestamp, nonce: nonce, extra: extra, includeVersion: includeVersion)
        guard let sig = signature(method: method, url: url, formBody: formBody, protocolParameters: params) else { return nil }
        let fields = (params + [("oauth_signature", sig)]).map {
            OAuthPercentEncoding.encode($0.name) + "=\"" + OAuthPercentEncoding.encode($0.value) + "\""
        }
        return "OAuth " + fields.joined(separator: ", ")
    }
}
