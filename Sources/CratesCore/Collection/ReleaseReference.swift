/// A Discogs release named by the user instead of a barcode: `r249504`, `[r249504]` (Discogs'
/// own notation), or a release page URL such as https://www.discogs.com/release/249504-Artist-Title
/// (also with a language prefix, /sell/release/, or without the scheme).
///
/// A bare number is not taken as a release id: digits are a barcode.
public enum ReleaseReference {
    /// `webBases`: other web addresses of Discogs (`CRATES_DISCOGS_WEB`, a test server's),
    /// whose release pages count as discogs.com's.
    public static func parse(_ input: String, webBases: [String] = []) -> Int? {
        var text = Substring(input.trimmingCharacters(in: " \t\r\n"))
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let first = text.first, first == "r" || first == "R" {
            let digits = text.dropFirst()
            return number(digits)
        }
        let lowered = text.lowercased()
        let hosts = ["discogs.com/"] + webBases.map(Self.host)
        guard hosts.contains(where: { !$0.isEmpty && lowered.contains($0) }) else { return nil }
        guard let range = lowered.range(of: "/release/") else { return nil }
        let after = text[text.index(text.startIndex, offsetBy: lowered.distance(from: lowered.startIndex, to: range.upperBound))...]
        let digits = after.prefix(while: { $0.isASCII && $0.isNumber })
        return number(digits)
    }

    /// "http://127.0.0.1:8080/" → "127.0.0.1:8080/": the part a page's address holds.
    private static func host(_ base: String) -> String {
        var text = Substring(base.lowercased())
        if let scheme = text.range(of: "://") { text = text[scheme.upperBound...] }
        while text.hasSuffix("/") { text = text.dropLast() }
        return text.isEmpty ? "" : text + "/"
    }

    private static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits).flatMap { $0 > 0 ? $0 : nil }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return s
    }
}
