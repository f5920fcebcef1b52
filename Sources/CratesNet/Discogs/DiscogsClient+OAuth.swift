import CratesCore
import Foundation

/// A token and its secret, as an OAuth token endpoint returns them.
public struct OAuthTokenPair: Sendable, Hashable {
    public var token: String
    public var secret: String
}

extension DiscogsClient {
    /// Step 1 of the three legs (RFC 5849 section 2.1): temporary credentials for an
    /// out-of-band verifier (`oauth_callback=oob`), signed with the consumer secret only.
    public func requestToken(consumerKey: String, consumerSecret: String) async throws(DiscogsError) -> OAuthTokenPair {
        let signer = OAuthSigner(consumerKey: consumerKey, consumerSecret: consumerSecret, hmac: HMACSHA1.digest)
        let timestamp = self.timestamp
        let nonce = self.nonce
        let response = try await send(method: "GET", path: "/oauth/request_token", accept: .form) { method, url, body in
            signer.authorizationHeader(method: method, url: url, formBody: body, timestamp: timestamp(), nonce: nonce(), extra: [("oauth_callback", "oob")])
        }
        return try Self.tokenPair(in: response.body)
    }

    /// Step 2: the page where the user signs in to Discogs and is shown the verifier.
    public func authorizeURL(requestToken: OAuthTokenPair) -> String {
        endpoints.web + "/oauth/authorize?oauth_token=" + OAuthPercentEncoding.encode(requestToken.token)
    }

    /// Step 3 (RFC 5849 section 2.3): trades the temporary credentials and the verifier the
    /// user pasted for token credentials.
    public func accessToken(
        consumerKey: String, consumerSecret: String, requestToken: OAuthTokenPair, verifier: String
    ) async throws(DiscogsError) -> OAuthTokenPair {
        let signer = OAuthSigner(
            consumerKey: consumerKey, consumerSecret: consumerSecret, token: requestToken.token, tokenSecret: requestToken.secret,
            hmac: HMACSHA1.digest)
        let timestamp = self.timestamp
        let nonce = self.nonce
        let response = try await send(method: "POST", path: "/oauth/access_token", accept: .form) { method, url, body in
            signer.authorizationHeader(method: method, url: url, formBody: body, timestamp: timestamp(), nonce: nonce(), extra: [("oauth_verifier", verifier)])
        }
        return try Self.tokenPair(in: response.body)
    }

    /// `oauth_token=…&oauth_token_secret=…[&oauth_callback_confirmed=true]`.
    static func tokenPair(in body: Data) throws(DiscogsError) -> OAuthTokenPair {
        guard let text = String(data: body, encoding: .utf8),
            let pairs = OAuthPercentEncoding.formPairs(Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))),
            let token = pairs.first(where: { $0.name == "oauth_token" })?.value, !token.isEmpty,
            let secret = pairs.first(where: { $0.name == "oauth_token_secret" })?.value, !secret.isEmpty
        else { throw .malformedBody(preview: "an OAuth token answer without oauth_token and oauth_token_secret") }
        return OAuthTokenPair(token: token, secret: secret)
    }
}
