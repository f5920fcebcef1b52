/// One line of a decoder's standard output, read as zbar prints it without `--raw`:
/// `TYPE:DATA`, e.g. `EAN-13:5099750442227` or `QR-Code:https://www.discogs.com/release/249504`.
/// zbarcam and zbarimg print the same format; any `--decoder` command must too.
public enum DecoderLine: Hashable, Sendable {
    /// A code: its symbology and its data (the text after the first colon, verbatim).
    case code(ScanSymbology, String)
    /// Not a reading; the reason says why, for the daemon's log.
    case ignored(reason: String)

    /// Reads a line (without its newline; a trailing CR is dropped).
    public init(parsing input: String) {
        var line = Substring(input)
        if line.last == "\r" { line = line.dropLast() }
        guard !line.allSatisfy({ $0 == " " || $0 == "\t" }) else {
            self = .ignored(reason: "an empty line")
            return
        }
        let shown = GTIN.displayForm(of: String(line), limit: 48)
        guard let colon = line.firstIndex(of: ":") else {
            self = .ignored(reason: "“\(shown)” has no TYPE: prefix such as EAN-13: (is the decoder run with --raw? crates reads zbar's TYPE:DATA lines)")
            return
        }
        let name = String(line[..<colon])
        let data = String(line[line.index(after: colon)...])
        guard ScanSymbology.zbarNames.contains(name) else {
            self = .ignored(reason: "“\(shown)” does not start with a symbology zbar names (EAN-13:, UPC-A:, QR-Code:…); is the decoder run with --raw?")
            return
        }
        guard !data.isEmpty else {
            self = .ignored(reason: "“\(shown)” has no data after the symbology")
            return
        }
        self = .code(ScanSymbology(rawValue: name), data)
    }
}
