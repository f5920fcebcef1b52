/// The percent-encoding and form-decoding rules of OAuth 1.0 (RFC 5849).
public enum OAuthPercentEncoding {
    /// Encodes `text` as RFC 5849 section 3.6 requires: the UTF-8 octets of every character
    /// outside the unreserved set (ALPHA, DIGIT, "-", ".", "_", "~") become "%XX" with
    /// uppercase hex digits. Unlike URL or form encoding, a space is "%20", never "+", and
    /// "*" is encoded.
    public static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%"
                out.unicodeScalars.append(hexDigit(byte >> 4))
                out.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return out
    }

    /// Decodes percent-escapes; with `plusIsSpace`, "+" is a space first, as in
    /// `application/x-www-form-urlencoded` (W3C HTML 4.01 section 17.13.4), which RFC 5849
    /// section 3.4.1.3.1 names for query and body parameters. Nil when an escape is malformed
    /// or the octets are not UTF-8.
    public static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Splits an `application/x-www-form-urlencoded` string (a URL query or a form body) into
    /// decoded name/value pairs, in order. A pair without "=" has an empty value (RFC 5849
    /// section 3.4.1.3.1: "c2" becomes ("c2", "")). Nil when an escape is malformed.
    public static func formPairs(_ text: Substring) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let eq = part.firstIndex(of: "=") {
                name = part[..<eq]
                value = part[part.index(after: eq)...]
            } else {
                name = part
                value = ""
            }
            guard let n = decode(name, plusIsSpace: true), let v = decode(value, plusIsSpace: true) else { return nil }
            pairs.append((n, v))
        }
        return pairs
    }

    /// Encodes pairs as a form body / query string, each name and value RFC 5849 encoded
    /// (a subset of what form encoding allows, so any form decoder reads it back).
    public static func formString(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    private static func isUnreserved(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ v: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "A") + v - 10)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
