import CratesCore

/// The JSON arrays a release row keeps (`genresJSON`, `stylesJSON`, `formatsJSON`: strings;
/// `labelsJSON`: `{"catno": …, "name": …}` objects), read straight from their UTF-8 bytes.
///
/// `crates list` reads four of them for every matched record: through Foundation's
/// JSONDecoder they were a quarter of its time at a million records (15% in the decoder
/// alone). This reads exactly what JSONDecoder reads for these shapes (RFC 8259: any
/// whitespace between tokens, every string escape, surrogate pairs), and gives up (nil) on
/// anything else: a member it does not know, a member twice, a number, a lone surrogate,
/// text after the array. The caller then asks JSONDecoder, which takes or refuses it as
/// before, so a value it refuses still says which column of which release.
enum StoredJSONList {
    /// The strings of a JSON array of strings; nil when `text` is not one.
    static func strings(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return reader.array { reader in reader.string() }
        }
    }

    /// The label credits of a JSON array of `{"name": …, "catno": …}` objects (catno null or
    /// absent when there is none); nil when `text` is not one.
    static func labels(_ text: String) -> [Release.LabelCredit]? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return reader.array { reader in reader.label() }
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The whole text as one array of `element`s, whitespace around it allowed.
        mutating func array<Element>(_ element: (inout Reader) -> Element?) -> [Element]? {
            skipWhitespace()
            guard take(UInt8(ascii: "[")) else { return nil }
            var elements: [Element] = []
            skipWhitespace()
            if !take(UInt8(ascii: "]")) {
                while true {
                    skipWhitespace()
                    guard let value = element(&self) else { return nil }
                    elements.append(value)
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "]")) else { return nil }
                    break
                }
            }
            skipWhitespace()
            return index == bytes.count ? elements : nil
        }

        /// `{"catno": "…" or null, "name": "…"}`, members in any order, catno optional.
        mutating func label() -> Release.LabelCredit? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var name: String?
            var catno: String??
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipWhitespace()
                    guard let key = string() else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    switch key {
                    case "name":
                        guard name == nil, let value = string() else { return nil }
                        name = value
                    case "catno":
                        guard catno == nil else { return nil }
                        if takeNull() {
                            catno = .some(nil)
                        } else {
                            guard let value = string() else { return nil }
                            catno = .some(value)
                        }
                    default:
                        return nil
                    }
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            guard let name else { return nil }
            return Release.LabelCredit(name: name, catno: catno ?? nil)
        }

        /// A JSON string literal (RFC 8259 §7); nil for a control character inside it, a bad
        /// escape or a lone surrogate.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            // The common case: no escape, the bytes as they are (valid UTF-8: they come from a
            // Swift string).
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        out.append(contentsOf: String(Character(scalar)).utf8)
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    out.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `\uXXXX` (the `\u` read already), a surrogate pair's second half
        /// included.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let unit = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(unit)
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        private mutating func takeNull() -> Bool {
            guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
                  bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
            else { return false }
            index += 4
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
