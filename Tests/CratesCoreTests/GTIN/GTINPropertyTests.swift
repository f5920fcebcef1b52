import CratesCore
import CratesTestSupport
import Testing

/// Properties over random digit strings from a seeded generator (the same strings every run).
@Suite("GTIN properties", .offThePool)
struct GTINPropertyTests {
    static let lengths = [8, 12, 13, 14]

    @Test("every body with its computed check digit validates and parses", arguments: lengths)
    func computedCheckDigitValidates(length: Int) throws {
        var random = SeededGenerator(seed: UInt64(length) &* 0x1000_0001)
        for _ in 0..<2_000 {
            let code = withCheckDigit(random.digits(length - 1))
            #expect(CheckDigit.isValid(code))
            let gtin = try GTIN(parsing: code)
            // The canonical form is the same number: it pads back to the same GTIN-14.
            let padded = String(repeating: "0", count: 14 - length) + code
            #expect(gtin.gtin14 == padded)
            #expect(GTIN(canonical: gtin.canonical) == gtin)
        }
    }

    @Test("every single-digit change is caught", arguments: lengths)
    func singleDigitChangeCaught(length: Int) {
        var random = SeededGenerator(seed: UInt64(length) &* 0x2000_0003)
        for _ in 0..<200 {
            let code = Array(withCheckDigit(random.digits(length - 1)))
            for position in code.indices {
                for digit in "0123456789" where digit != code[position] {
                    var changed = code
                    changed[position] = digit
                    let text = String(changed)
                    #expect(!CheckDigit.isValid(text), "\(String(code)) → \(text)")
                    if length != 8 {
                        // 8 digits may still be a valid UPC-E: that is the other reading.
                        #expect(parseError(text) != nil, "\(text) parsed")
                    }
                }
            }
        }
    }

    @Test("an adjacent transposition is caught unless the two digits differ by 5 (a known GS1 mod-10 blind spot)")
    func adjacentTransposition() {
        var random = SeededGenerator(seed: 0xB7E1_5162)
        for _ in 0..<2_000 {
            let code = Array(withCheckDigit(random.digits(12)))
            let position = Int.random(in: 0..<(code.count - 1), using: &random)
            guard code[position] != code[position + 1] else { continue }
            var swapped = code
            swapped.swapAt(position, position + 1)
            let difference = abs((code[position].wholeNumberValue ?? 0) - (code[position + 1].wholeNumberValue ?? 0))
            #expect(CheckDigit.isValid(String(swapped)) == (difference == 5))
        }
    }

    @Test("UPC-E expansion and compression round-trip")
    func upcERoundTrip() throws {
        var random = SeededGenerator(seed: 0x243F_6A88)
        for _ in 0..<5_000 {
            let data = random.digits(6)
            let head = String(Int.random(in: 0...1, using: &random)) + data
            // A UPC-E's check digit is its UPC-A's: expand with a dummy one, then compute it.
            let draft = try #require(UPCE.expand(head + "0"))
            let upcA = withCheckDigit(String(draft.dropLast()))
            let upcE = head + String(upcA.suffix(1))
            #expect(UPCE.isValid(upcE))
            #expect(UPCE.expand(upcE) == upcA)
            // Compression gives the canonical UPC-E, whose expansion is the same UPC-A …
            let compressed = try #require(UPCE.compress(upcA))
            #expect(UPCE.expand(compressed) == upcA)
            // … and which is the UPC-E itself whenever that one is canonical.
            if Self.isCanonical(data) {
                #expect(compressed == upcE)
            }
            // The parser agrees, unless the 8 digits are also a valid EAN-8 (which wins).
            if !CheckDigit.isValid(upcE) {
                let parsed = try GTIN.parse(upcE)
                #expect(parsed.kind == .upcE)
                #expect(parsed.upcE == upcE)
                #expect(parsed.gtin.canonical == "0" + upcA || parsed.gtin.kind == .ean8)
            }
        }
    }

    @Test("a compressible UPC-A expands back from its UPC-E")
    func upcACompressionRoundTrip() {
        var random = SeededGenerator(seed: 0x1319_8A2E)
        var compressible = 0
        for _ in 0..<20_000 {
            // Zeros where UPC-E suppresses them, so that many candidates compress.
            var body = Array(random.digits(11))
            body[0] = Bool.random(using: &random) ? "0" : "1"
            for position in 3...9 where Int.random(in: 0...2, using: &random) > 0 { body[position] = "0" }
            let upcA = withCheckDigit(String(body))
            if let upcE = UPCE.compress(upcA) {
                compressible += 1
                #expect(upcE.count == 8)
                #expect(UPCE.expand(upcE) == upcA)
                #expect(UPCE.isValid(upcE))
            }
        }
        #expect(compressible > 1_000)
    }

    @Test("UPC-A that UPC-E cannot suppress does not compress")
    func incompressible() {
        #expect(UPCE.compress("888462040747") == nil)  // number system 8
        #expect(UPCE.compress("012345678905") == nil)  // no zeros to suppress
        #expect(UPCE.compress("04210000526") == nil)   // 11 digits
        #expect(UPCE.expand("24252614") == nil)        // number system 2
        #expect(UPCE.expand("0425261") == nil)         // 7 digits
    }

    /// GS1 zero suppression prints a UPC-E only where it is the shortest form: with d6 = 3
    /// the third digit is 3-9, with 4 the fourth is not 0, with 5-9 the fifth is not 0.
    static func isCanonical(_ data: String) -> Bool {
        let d = data.compactMap(\.wholeNumberValue)
        switch d[5] {
        case 3: return d[2] >= 3
        case 4: return d[3] != 0
        case 5...9: return d[4] != 0
        default: return true
        }
    }
}
