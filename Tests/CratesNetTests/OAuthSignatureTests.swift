import CratesCore
import Testing

@testable import CratesNet

/// Published OAuth 1.0 vectors, reproduced with an injected timestamp and nonce.
@Suite struct OAuthSignatureTests {
    /// RFC 5849 section 3.6 and the examples of Twitter's "Percent encoding parameters".
    @Test(arguments: [
        ("Ladies + Gentlemen", "Ladies%20%2B%20Gentlemen"),
        ("An encoded string!", "An%20encoded%20string%21"),
        ("Dogs, Cats & Mice", "Dogs%2C%20Cats%20%26%20Mice"),
        ("☃", "%E2%98%83"),
        ("-._~azAZ09", "-._~azAZ09"),
        ("*'()", "%2A%27%28%29"),
        ("a b+c", "a%20b%2Bc"),
    ])
    func percentEncoding(input: String, expected: String) {
        #expect(OAuthPercentEncoding.encode(input) == expected)
    }

    /// RFC 5849 section 3.4.1.2: scheme and host lowercase, default port dropped, query gone.
    @Test(arguments: [
        ("http://EXAMPLE.COM:80/r%20v/X?id=123", "http://example.com/r%20v/X"),
        ("https://www.example.net:8080/?q=1", "https://www.example.net:8080/"),
        ("https://api.discogs.com:443/oauth/identity", "https://api.discogs.com/oauth/identity"),
        ("http://127.0.0.1:5000", "http://127.0.0.1:5000/"),
    ])
    func baseStringURI(url: String, expected: String) {
        #expect(OAuthSignatureBase.baseURI(url) == expected)
    }

    @Test func baseStringURIRefusesOtherSchemes() {
        #expect(OAuthSignatureBase.baseURI("ftp://example.com/x") == nil)
        #expect(OAuthSignatureBase.baseURI("not a url") == nil)
    }

    /// RFC 5849 section 3.4.1.1: the published signature base string, query and body
    /// parameters included, "+" in the body read as a space, "c2" with an empty value.
    @Test func rfc5849BaseStringExample() throws {
        let protocolParameters: [(name: String, value: String)] = [
            ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
            ("oauth_signature", "ignored"), ("realm", "Example"),
        ]
        let body = try #require(OAuthPercentEncoding.formPairs("c2&a3=2+q"))
        let base = OAuthSignatureBase.string(
            method: "post", url: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", formBody: body,
            protocolParameters: protocolParameters)
        #expect(
            base
                == "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7"
        )
    }

    /// RFC 5849 section 1.2, the "photos" example: its three signed requests.
    @Test func rfc5849PhotosExample() {
        let initiate = OAuthSigner(consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", hmac: HMACSHA1.digest)
        let p1 = initiate.protocolParameters(
            timestamp: 137_131_200, nonce: "wIjqoS", extra: [("oauth_callback", "http://printer.example.com/ready")], includeVersion: false)
        #expect(initiate.signature(method: "POST", url: "https://photos.example.net/initiate", protocolParameters: p1) == "74KNZJeDHnMBp0EMJ9ZHt/XKycU=")

        let token = OAuthSigner(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "hh5s93j4hdidpola", tokenSecret: "hdhd0244k9j7ao03",
            hmac: HMACSHA1.digest)
        let p2 = token.protocolParameters(timestamp: 137_131_201, nonce: "walatlh", extra: [("oauth_verifier", "hfdp7dh39dks9884")], includeVersion: false)
        #expect(token.signature(method: "POST", url: "https://photos.example.net/token", protocolParameters: p2) == "gKgrFCywp7rO0OXSjdot/IHF7IU=")

        let resource = OAuthSigner(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "nnch734d00sl2jdk", tokenSecret: "pfkkdhi9sl3r4s00",
            hmac: HMACSHA1.digest)
        let header = resource.authorizationHeader(
            method: "GET", url: "http://photos.example.net/photos?file=vacation.jpg&size=original", timestamp: 137_131_202, nonce: "chapoH",
            includeVersion: false)
        #expect(header?.hasPrefix("OAuth oauth_consumer_key=\"dpf43f3p2l4k3l03\", ") == true)
        #expect(header?.contains("oauth_signature=\"MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D\"") == true)
    }

    /// OAuth Core 1.0 appendix A.5: the same photos request with oauth_version.
    @Test func oauthCoreAppendixA5() {
        let signer = OAuthSigner(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "nnch734d00sl2jdk", tokenSecret: "pfkkdhi9sl3r4s00",
            hmac: HMACSHA1.digest)
        let p = signer.protocolParameters(timestamp: 1_191_242_096, nonce: "kllo9940pd9333jh")
        let url = "http://photos.example.net/photos?file=vacation.jpg&size=original"
        #expect(
            OAuthSignatureBase.string(method: "GET", url: url, formBody: [], protocolParameters: p)
                == "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal"
        )
        #expect(signer.signature(method: "GET", url: url, protocolParameters: p) == "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
    }

    /// Twitter's "Creating a signature" worked example: a query parameter and a form body
    /// with "+", "," and "!".
    @Test func twitterCreatingASignature() {
        let signer = OAuthSigner(
            consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
            token: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
            hmac: HMACSHA1.digest)
        let p = signer.protocolParameters(timestamp: 1_318_622_958, nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")
        let url = "https://api.twitter.com/1.1/statuses/update.json?include_entities=true"
        let body: [(name: String, value: String)] = [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")]
        #expect(
            OAuthSignatureBase.string(method: "POST", url: url, formBody: body, protocolParameters: p)
                == "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521"
        )
        #expect(signer.signature(method: "POST", url: url, formBody: body, protocolParameters: p) == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
    }

    /// RFC 2202 test case 2 for HMAC-SHA1, checking the libcrypto shim itself.
    @Test func hmacSHA1RFC2202() {
        let digest = HMACSHA1.digest(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    @Test func noncesAreUnreservedAndFresh() {
        let a = HMACSHA1.nonce()
        let b = HMACSHA1.nonce()
        #expect(a.count == 32 && a != b)
        #expect(OAuthPercentEncoding.encode(a) == a)
    }

    /// Parameters sort by encoded name, then encoded value, in byte order (section
    /// 3.4.1.3.2): "a3=2 q" before "a3=a", "c%40" before "c2".
    @Test func normalisationSortsByteWise() {
        let s = OAuthSignatureBase.normalizedParameters([("c2", ""), ("c@", ""), ("a3", "a"), ("a3", "2 q"), ("Z", "1")])
        #expect(s == "Z=1&a3=2%20q&a3=a&c%40=&c2=")
    }

    @Test func formDecodingRejectsBrokenEscapes() {
        #expect(OAuthPercentEncoding.formPairs("a=%zz") == nil)
        #expect(OAuthPercentEncoding.formPairs("a=%4") == nil)
        #expect(OAuthPercentEncoding.formPairs("a=b%20c+d")?.first?.value == "b c d")
    }
}
