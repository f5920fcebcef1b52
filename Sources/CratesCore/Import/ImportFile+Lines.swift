/// The one-barcode-per-line format.
enum LineFormat {
    /// The line without its `#` comment (from a `#` at the start or after a space) and
    /// without surrounding whitespace. No barcode form contains a `#`, so nothing is lost.
    static func stripComment(_ text: String) -> Substring {
        var end = text.endIndex
        var previousIsSpace = true
        for index in text.indices {
            let character = text[index]
            if character == "#", previousIsSpace {
                end = index
                break
            }
            previousIsSpace = character.isWhitespace
        }
        return text[..<end].trimmingWhitespace()
    }

    /// A line as bytes: a plain 12 to 14-digit barcode (most lines of a scanned file) is
    /// read at once; anything else as text.
    static func read(line: Int, bytes: ArraySlice<UInt8>, force: Bool, into collector: inout ImportCollector) {
        var trimmed = bytes
        while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
        if let gtin = ImportValidation.plainGTIN(trimmed) {
            switch ImportValidation.record(gtin, force: force) {
            case .success(let gtin):
                if let entry = ImportEntry(line: line, gtin: gtin) { collector.add(entry) }
            case .failure(let reason):
                collector.refuse(ImportRefusal(line: line, input: String(decoding: trimmed, as: UTF8.self), reason: reason))
            }
            return
        }
        read(line: line, text: String(decoding: bytes, as: UTF8.self), force: force, into: &collector)
    }

    static func read(line: Int, text: String, force: Bool, into collector: inout ImportCollector) {
        let content = Self.stripComment(text)
        guard !content.isEmpty else { return }
        if let releaseID = Self.releaseReference(content) {
            if let entry = ImportEntry(line: line, gtin: nil, releaseID: releaseID) { collector.add(entry) }
            return
        }
        switch ImportValidation.barcode(String(content), force: force) {
        case .success(let gtin):
            if let entry = ImportEntry(line: line, gtin: gtin) { collector.add(entry) }
        case .failure(let reason):
            collector.refuse(ImportRefusal(line: line, input: String(content), reason: reason))
        }
    }

    /// A Discogs release written as `r249504`, `[r249504]` or a release URL (what the TUI's
    /// add prompt takes), never a bare number (digits are a barcode).
    static func releaseReference(_ text: Substring) -> Int? {
        guard let first = text.first, first == "r" || first == "R" || first == "[" || text.contains("discogs.com/") else {
            return nil
        }
        return ReleaseReference.parse(String(text))
    }
}

/// Checks shared by both formats.
enum ImportValidation {
    /// The GTIN of a barcode text, or why it cannot be imported: unreadable, or not a record.
    static func barcode(_ text: String, force: Bool) -> Result<GTIN, ImportRefusal.LineError> {
        if let gtin = plainGTIN(text.utf8) { return record(gtin, force: force) }
        do {
            return record(try GTIN.parse(text).gtin, force: force)
        } catch {
            // A crates label with a wrong check digit: say which label was meant.
            if case .checkDigit = error, case .failure(let labelError) = Result(catching: { () throws(LabelCodeError) in
                try LabelCode.parse(text)
            }) {
                return .failure(.label(labelError))
            }
            return .failure(.barcode(error))
        }
    }

    /// The GTIN of 12, 13 or 14 ASCII digits with a valid check digit, already canonical
    /// (a UPC-A with its leading 0): what nearly every line of a scanned file is, read without
    /// the full parser. Anything else is nil and goes through `GTIN.parse`, which reads it the
    /// same way when it is valid and says why when it is not.
    static func plainGTIN(_ bytes: some Collection<UInt8>) -> GTIN? {
        let count = bytes.count
        guard count == 12 || count == 13 || count == 14, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let digits = String(decoding: bytes, as: UTF8.self)
        return GTIN(canonical: count == 12 ? "0" + digits : digits)
    }

    /// The GTIN, unless it is not a record's barcode (`BarcodeAdmission`; `force` takes what
    /// a person may confirm, never a shop's price label).
    static func record(_ gtin: GTIN, force: Bool) -> Result<GTIN, ImportRefusal.LineError> {
        if let reason = gtin.admission.refusal(force: force) { return .failure(.notARecord(gtin, reason: reason)) }
        return .success(gtin)
    }

    /// The grading columns of a row: Discogs' grade texts (or their short forms: "VG+",
    /// "NM"), and a rating from 0 to 5; an empty field is no value. Read as `crates edit`
    /// reads its flags (`CopyGradingChange.checked`), made on a copy graded with nothing.
    static func grading(media: String?, sleeve: String?, rating: String?) throws(ImportRefusal.LineError) -> CopyGrading {
        do {
            return try CopyGradingChange.checked(media: media, sleeve: sleeve, rating: rating).applied(to: .none)
        } catch .condition(let error) {
            throw .condition(error)
        } catch .rating(let error) {
            throw .rating(error)
        } catch {
            throw .description(error.description)
        }
    }

    /// A Discogs release number: 1 to 12 ASCII digits, not zero.
    static func releaseID(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let id = Int(text), id > 0
        else { return nil }
        return id
    }

    /// A note as kept: line breaks as LF (a CRLF or a lone CR from a spreadsheet becomes
    /// one), other control characters but tabs removed (a file is untrusted text that may
    /// reach a terminal), surrounding whitespace trimmed; nil when empty.
    static func note(_ text: String) -> String? {
        var kept = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            defer { previousCR = v == 0x0D }
            if v == 0x0D { kept.append("\n"); continue }
            if v == 0x0A { if !previousCR { kept.append(scalar) }; continue }
            if v == 0x09 { kept.append(scalar); continue }
            if ControlCharacters.isControl(scalar) { continue }
            kept.append(scalar)
        }
        let trimmed = String(kept).trimmingWhitespace()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace (Unicode's, which includes the no-break space).
    func trimmingWhitespace() -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start].isWhitespace { start = index(after: start) }
        while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[start..<end]
    }
}
