/// Values for tab-separated output (`crates list`, `crates lookup`): one record per line,
/// whatever the values hold.
public enum TabSeparatedText {
    /// `text` made safe for a column (`ControlCharacters.cleaned`): tabs and line breaks
    /// become spaces, so a value can neither split a field nor a line, and no other control
    /// character reaches a terminal.
    public static func field(_ text: String) -> String { ControlCharacters.cleaned(text) }

    /// The fields, each made safe, joined by tabs (no line break).
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: "\t")
    }

    /// Appends `field(text)` to `bytes` as UTF-8, cleaned byte by byte as `cleaned` cleans
    /// scalar by scalar: tab, line feed and carriage return become a space; the other C0
    /// controls and DEL (one byte each) and the C1 controls (0xC2 0x80–0x9F) are dropped.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            var plainStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= 0x20, byte != 0x7F, byte != 0xC2 {
                    index += 1
                    continue
                }
                if byte == 0xC2 {
                    // A lead byte: U+0080–U+00BF; only U+0080–U+009F are controls.
                    guard index + 1 < utf8.count, utf8[index + 1] <= 0x9F else {
                        index += 2
                        continue
                    }
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
                if byte == 0x09 || byte == 0x0A || byte == 0x0D { bytes.append(UInt8(ascii: " ")) }
                index += byte == 0xC2 ? 2 : 1
                plainStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<min(index, utf8.count)]))
        }
    }
}
