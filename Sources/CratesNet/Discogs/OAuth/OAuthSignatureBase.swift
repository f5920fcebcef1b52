import Foundation

/// The signature base string of OAuth 1.0 (RFC 5849 section 3.4.1): what HMAC-SHA1 signs.
public enum OAuthSignatureBase {
    /// The base string URI (RFC 5849 section 3.4.1.2): scheme and host in lowercase, the port
    /// only when it is not the scheme's default (80 for http, 443 for https), the path as sent
    /// ("/" when empty), and no query or fragment. Nil when `url` is not an absolute http(s)
    /// URL.
    public static func baseURI(_ url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parts.percentEncodedHost?.lowercased(), !host.isEmpty
        else { return nil }
        var out = scheme + "://" + host
        if let port = parts.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            out += ":\(port)"
        }
        let path = parts.percentEncodedPath
        out += path.isEmpty ? "/" : path
        return out
    }

    /// The decoded query parameters of `url` (RFC 5849 section 3.4.1.3.1: the query is read
    /// as `application/x-www-form-urlencoded`). Nil when the URL or an escape is malformed.
    public static func queryParameters(_ url: String) -> [(name: String, value: String)]? {
        guard let parts = URLComponents(string: url) else { return nil }
        guard let query = parts.percentEncodedQuery else { return [] }
        return OAuthPercentEncoding.formPairs(Substring(query))
    }

    /// The normalised parameter string (RFC 5849 section 3.4.1.3.2): every name and value
    /// encoded (section 3.6), sorted by encoded name then encoded value in byte order, each
    /// pair joined by "=", the pairs by "&". `oauth_signature` must not be among them.
    public static func normalizedParameters(_ parameters: [(name: String, value: String)]) -> String {
        parameters
            .map { (OAuthPercentEncoding.encode($0.name), OAuthPercentEncoding.encode($0.value)) }
            .sorted { a, b in
                // Byte order on the encoded text, as the RFC asks (Swift's String `<` compares
                // by Unicode scalars; the encoded text is ASCII, so this is byte order).
                a.0 == b.0 ? Array(a.1.utf8).lexicographicallyPrecedes(b.1.utf8) : Array(a.0.utf8).lexicographicallyPrecedes(b.0.utf8)
            }
            .map { $0.0 + "=" + $0.1 }
            .joined(separator: "&")
    }

    /// The signature base string (RFC 5849 section 3.4.1.1): the uppercase method, the base
    /// string URI, and the normalised parameters (the URL's query parameters, the form body
    /// parameters, and the `oauth_*` protocol parameters other than the signature), each
    /// encoded and joined by "&". Nil when `url` is not an absolute http(s) URL.
    public static func string(
        method: String, url: String, formBody: [(name: String, value: String)],
        protocolParameters: [(name: String, value: String)]
    ) -> String? {
        guard let uri = baseURI(url), let query = queryParameters(url) else { return nil }
        let all = query + formBody + protocolParameters.filter { $0.name != "oauth_signature" && $0.name != "realm" }
        return [method.uppercased(), uri, normalizedParameters(all)].map(OAuthPercentEncoding.encode).joined(separator: "&")
    }
}
