extension GTIN {
    /// Reads anything a person or a scanner produces as a barcode, or says precisely why not.
    ///
    /// Accepted, after trimming surrounding whitespace (a wedge scanner's Enter, a file's line
    /// end):
    /// - EAN-13, UPC-A (12 digits), EAN-8 and GTIN-14/ITF-14 (an indicator 0 reduces to the
    ///   GTIN-13), with spaces or dashes between digit groups ("5 099750 442227",
    ///   "0-77774-62002-4");
    /// - UPC-E: 8 digits, or the short forms wedge scanners send: 7 digits (without the
    ///   number system, 0 assumed, check digit last; or else number system 0 first and no
    ///   check digit) and 6 digits (neither: 0 assumed, check digit computed);
    /// - 8 digits are an EAN-8 when its check digit holds, else a UPC-E when the check digit
    ///   of its UPC-A expansion holds, else an error that names both;
    /// - an EAN-2 or EAN-5 add-on: appended (15 or 18 digits after an EAN-13, 17 after a
    ///   UPC-A) or separated by a space or dash (after an EAN-13, UPC-A, EAN-8 or UPC-E);
    /// - GS1 element strings: "(01)05099750442227", where other application identifiers such
    ///   as (17) or (10) may follow and are ignored (noted), and "0105099750442227" (exactly
    ///   16 digits starting 01, or any GS1 data after a ]C1, ]e0, ]d2, ]Q3 or ]J1 symbology
    ///   identifier, where what follows the 14 digits is ignored);
    /// - a leading symbology identifier (ISO/IEC 15424) such as "]E0" or "]E3"; "]E4" (EAN-8)
    ///   reads 8 digits as an EAN-8 only.
    ///
    /// Normalised: decimal digits of any script (Arabic-Indic "٥", Eastern Arabic "۵",
    /// fullwidth "５"…) read as ASCII digits; any Unicode space or dash separates groups.
    /// Refused: control and invisible formatting characters anywhere inside (NUL, ESC, tab,
    /// zero-width space…), named as escapes so the message is safe on a terminal; letters and
    /// other symbols, named with their position; lengths no barcode has.
    public static func parse(_ input: String) throws(GTINError) -> ParsedBarcode {
        var parser = GTINParser(input)
        return try parser.parse()
    }

    /// The GTIN of `input`, read as `parse(_:)` reads it.
    public init(parsing input: String) throws(GTINError) {
        self = try Self.parse(input).gtin
    }
}

/// One parse: the input as characters with their 1-based positions, consumed front to back.
struct GTINParser {
    struct Item {
        let character: Character
        let position: Int
    }

    /// What the digits turned out to be, before it becomes a `ParsedBarcode`.
    struct Reading {
        var digits: [UInt8]
        var upcE: [UInt8]? = nil
        var addOn: [UInt8]? = nil
        var notes: [ParseNote] = []
    }

    /// Identifiers whose data is a GS1 element string without parentheses (ISO/IEC 15424
    /// modifiers that mean "GS1 data": GS1-128, GS1 DataBar, GS1 DataMatrix, GS1 QR, DotCode).
    static let gs1SymbologyIdentifiers: Set<String> = ["]C1", "]e0", "]d2", "]Q3", "]J1"]

    /// ASCII group separator: the FNC1 that ends a variable-length GS1 field, tolerated in the
    /// GS1 data after (01) (which is ignored) and refused anywhere else.
    static let groupSeparator: UInt32 = 0x1D

    let input: String
    /// What is left to read. A slice, so that dropping from the front is O(1): a megabyte of
    /// leading spaces must not take quadratic time.
    var items: ArraySlice<Item>
    var notes: [ParseNote] = []

    init(_ input: String) {
        self.input = input
        items = ArraySlice(input.enumerated().map { Item(character: $0.element, position: $0.offset + 1) })
    }

    mutating func parse() throws(GTINError) -> ParsedBarcode {
        trimWhitespace()
        guard !items.isEmpty else { throw .empty }
        try refuseControlCharacters()

        var symbology: String?
        if items.first?.character == "]" {
            let identifier = try symbologyIdentifier()
            symbology = identifier
            notes.append(.symbologyIdentifier(identifier))
            items.removeFirst(3)
            trimWhitespace()
            guard !items.isEmpty else { throw .empty }
        }

        let reading: Reading
        if items.first?.character == "(" {
            reading = try parenthesisedElementString()
        } else if let symbology, Self.gs1SymbologyIdentifiers.contains(symbology) {
            reading = try rawElementString()
        } else {
            let groups = try digitGroups(items)
            let digits = groups.flatMap { $0 }
            if digits.count == 16, digits.starts(with: [0, 1]) {
                // GS1 AI (01) without parentheses: 01 and the 14 digits of the GTIN.
                notes.append(.elementString)
                reading = try Self.whole(Array(digits.dropFirst(2)), symbology: symbology)
            } else {
                reading = try Self.interpret(groups, symbology: symbology)
            }
        }
        return try barcode(from: reading)
    }

    // MARK: - Characters

    mutating func trimWhitespace() {
        while let first = items.first, first.character.isWhitespace { items.removeFirst() }
        while let last = items.last, last.character.isWhitespace { items.removeLast() }
    }

    func refuseControlCharacters() throws(GTINError) {
        for item in items {
            for scalar in item.character.unicodeScalars
            where ControlCharacters.isInvisible(scalar) && scalar.value != Self.groupSeparator {
                throw .controlCharacter(scalar: scalar.value, position: item.position)
            }
        }
    }

    /// The error for a character that does not belong where it is.
    static func refusal(_ item: Item) -> GTINError {
        if let scalar = item.character.unicodeScalars.first(where: ControlCharacters.isInvisible) {
            return .controlCharacter(scalar: scalar.value, position: item.position)
        }
        return .invalidCharacter(String(item.character), position: item.position)
    }

    /// The value of a decimal digit of any script (Unicode general category Nd), or nil.
    static func digitValue(_ character: Character) -> UInt8? {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first,
              scalar.properties.numericType == .decimal,
              let value = scalar.properties.numericValue, value >= 0, value <= 9
        else { return nil }
        return UInt8(value)
    }

    /// Spaces of any kind and dashes of any kind (Unicode Pd) separate digit groups.
    static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace
            || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .dashPunctuation }
    }

    /// The digit groups of `items`, split at separators; anything else is refused.
    mutating func digitGroups(_ items: ArraySlice<Item>) throws(GTINError) -> [[UInt8]] {
        var groups: [[UInt8]] = []
        var current: [UInt8] = []
        for item in items {
            if let value = Self.digitValue(item.character) {
                if !item.character.isASCII, !notes.contains(.unicodeDigits) { notes.append(.unicodeDigits) }
                current.append(value)
            } else if Self.isSeparator(item.character) {
                if !current.isEmpty { groups.append(current) }
                current = []
            } else {
                throw Self.refusal(item)
            }
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    // MARK: - Symbology identifiers and GS1 element strings

    /// "]" then a code letter and a modifier character (ISO/IEC 15424).
    func symbologyIdentifier() throws(GTINError) -> String {
        let head = items.prefix(3)
        let shape = head.count == 3
            && head.dropFirst().first.map { $0.character.isASCII && $0.character.isLetter } == true
            && head.last.map { $0.character.isASCII && ($0.character.isLetter || $0.character.isNumber) } == true
        guard shape else {
            // Show only the well-formed start, never a character that could be a control.
            let shown = "]" + String(head.dropFirst().prefix { $0.character.isASCII && !$0.character.isWhitespace
                && $0.character.unicodeScalars.allSatisfy { !ControlCharacters.isInvisible($0) } }.map(\.character))
            throw .symbologyIdentifier(shown, position: items.first?.position ?? 1)
        }
        return String(head.map(\.character))
    }

    /// "(01)05099750442227(17)250101(10)ABC": the GTIN of (01); other AIs are ignored.
    mutating func parenthesisedElementString() throws(GTINError) -> Reading {
        var gtinValue: ArraySlice<Item>?
        var ignored: [String] = []
        var index = items.startIndex
        while index < items.endIndex {
            let open = items[index]
            guard open.character == "(" else {
                throw .elementString("expected \"(\" at position \(open.position) to start an application identifier")
            }
            guard let close = items[index...].firstIndex(where: { $0.character == ")" }) else {
                throw .elementString("the \"(\" at position \(open.position) is not closed")
            }
            let ai = items[(index + 1)..<close].compactMap { Self.digitValue($0.character) }
            guard (2...4).contains(ai.count), ai.count == close - index - 1 else {
                throw .elementString("at position \(open.position), an application identifier should be "
                    + "2 to 4 digits in parentheses, like (01)")
            }
            let valueEnd = items[(close + 1)...].firstIndex(where: { $0.character == "(" }) ?? items.endIndex
            let name = "(" + DigitString.text(of: ai) + ")"
            if ai == [0, 1] {
                guard gtinValue == nil else { throw .elementString("(01) appears twice") }
                gtinValue = items[(close + 1)..<valueEnd]
            } else {
                ignored.append(name)
            }
            index = valueEnd
        }
        guard let gtinValue else {
            throw .elementString("no (01) GTIN among \(ignored.joined(separator: " "))")
        }
        let digits = try digitGroups(gtinValue).flatMap { $0 }
        guard digits.count == 14 else {
            throw .elementString("(01) holds 14 digits, this one has \(digits.count)")
        }
        notes.append(.elementString)
        if !ignored.isEmpty { notes.append(.ignoredApplicationIdentifiers(ignored)) }
        return try Self.whole(digits, symbology: nil)
    }

    /// GS1 data after a GS1 symbology identifier: "01" and 14 digits first, the rest ignored.
    mutating func rawElementString() throws(GTINError) -> Reading {
        let head = items.prefix(16)
        var digits: [UInt8] = []
        for item in head {
            guard let value = Self.digitValue(item.character) else { throw Self.refusal(item) }
            if !item.character.isASCII, !notes.contains(.unicodeDigits) { notes.append(.unicodeDigits) }
            digits.append(value)
        }
        guard digits.count == 16, digits.starts(with: [0, 1]) else {
            throw .elementString("GS1 data should start with 01 and the 14 digits of the GTIN")
        }
        notes.append(.elementString)
        if items.count > 16 { notes.append(.ignoredTrailingData) }
        return try Self.whole(Array(digits.dropFirst(2)), symbology: nil)
    }

    // MARK: - Digits

    /// Reads digit groups: the whole run of digits first; failing that, a last group of 2 or
    /// 5 digits set apart ("04252614 12") as an add-on after the groups before it.
    static func interpret(_ groups: [[UInt8]], symbology: String?) throws(GTINError) -> Reading {
        let digits = groups.flatMap { $0 }
        do throws(GTINError) {
            return try whole(digits, symbology: symbology)
        } catch {
            if groups.count >= 2, let last = groups.last, [2, 5].contains(last.count) {
                let main = Array(digits.dropLast(last.count))
                if [8, 12, 13].contains(main.count) {
                    do throws(GTINError) {
                        var reading = try whole(main, symbology: symbology)
                        reading.addOn = last
                        return reading
                    } catch let mainError {
                        // "04252615 12": the 8 digits are the problem, not the length of 10.
                        if case .wrongLength = error { throw mainError }
                    }
                }
            }
            throw error
        }
    }

    /// Reads one run of digits by its length.
    static func whole(_ d: [UInt8], symbology: String?) throws(GTINError) -> Reading {
        switch d.count {
        case 6:
            let check = CheckDigit.compute(body: UPCE.expandBody(numberSystem: 0, data: d))
            return Reading(digits: [], upcE: [0] + d + [check],
                           notes: [.numberSystemAssumed, .checkDigitComputed(Int(check))])
        case 7:
            let withoutNumberSystem = CheckDigit.compute(body: UPCE.expandBody(numberSystem: 0, data: Array(d.prefix(6))))
            if withoutNumberSystem == d[6] {
                return Reading(digits: [], upcE: [0] + d, notes: [.numberSystemAssumed])
            }
            if d[0] == 0 {
                let check = CheckDigit.compute(body: UPCE.expandBody(numberSystem: 0, data: Array(d.dropFirst())))
                return Reading(digits: [], upcE: d + [check], notes: [.checkDigitComputed(Int(check))])
            }
            throw .notShortUPCE(expected: Int(withoutNumberSystem), found: Int(d[6]), firstDigit: Int(d[0]))
        case 8:
            let ean8Check = CheckDigit.compute(body: d.prefix(7))
            if ean8Check == d[7] { return Reading(digits: d) }
            if symbology == "]E4" {
                throw .checkDigit(kind: .ean8, expected: Int(ean8Check), found: Int(d[7]))
            }
            guard d[0] <= 1 else {
                throw .notEAN8NorUPCE(ean8Expected: Int(ean8Check), upcEExpected: nil, found: Int(d[7]))
            }
            let upcECheck = CheckDigit.compute(body: UPCE.expandBody(numberSystem: d[0], data: Array(d[1...6])))
            guard upcECheck == d[7] else {
                throw .notEAN8NorUPCE(ean8Expected: Int(ean8Check), upcEExpected: Int(upcECheck), found: Int(d[7]))
            }
            return Reading(digits: [], upcE: d)
        case 12, 13:
            try verify(d)
            return Reading(digits: d)
        case 14:
            if symbology == "]E3", let reading = try? whole(Array(d.prefix(12)), symbology: nil) {
                // ]E3 announces an add-on: a UPC-A and an EAN-2.
                return Reading(digits: reading.digits, addOn: Array(d.suffix(2)))
            }
            try verify(d)
            return Reading(digits: d)
        case 15, 17, 18:
            // 15 = EAN-13 + EAN-2, 17 = UPC-A + EAN-5, 18 = EAN-13 + EAN-5.
            let addOnLength = d.count == 15 ? 2 : 5
            var reading = try whole(Array(d.dropLast(addOnLength)), symbology: symbology)
            reading.addOn = Array(d.suffix(addOnLength))
            return reading
        default:
            throw .wrongLength(digits: d.count)
        }
    }

    /// Throws the check digit error for a 12, 13 or 14-digit GTIN, naming its kind.
    static func verify(_ d: [UInt8]) throws(GTINError) {
        guard let found = d.last else { throw .wrongLength(digits: 0) }
        let expected = CheckDigit.compute(body: d.dropLast())
        guard expected != found else { return }
        let kind: GTINKind = switch d.count {
        case 12: .upcA
        case 14: .gtin14
        default: d.first == 0 ? .upcA : .ean13
        }
        throw .checkDigit(kind: kind, expected: Int(expected), found: Int(found))
    }

    // MARK: - Result

    func barcode(from reading: Reading) throws(GTINError) -> ParsedBarcode {
        var gtinDigits = reading.digits
        if let upcE = reading.upcE {
            gtinDigits = UPCE.expandBody(numberSystem: upcE[0], data: Array(upcE[1...6])) + [upcE[7]]
        }
        guard let gtin = GTIN(digits: gtinDigits) else {
            // Unreachable: every reading above has a verified check digit. Still, never trap.
            throw .wrongLength(digits: gtinDigits.count)
        }
        return ParsedBarcode(
            input: input,
            gtin: gtin,
            kind: reading.upcE == nil ? gtin.kind : .upcE,
            addOn: reading.addOn.flatMap { GTINAddOn(DigitString.text(of: $0)) },
            upcE: reading.upcE.map { DigitString.text(of: $0) },
            notes: notes + reading.notes)
    }
}
